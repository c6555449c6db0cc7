// What vouchers.test.ts does not cover: a voucher used by a sign-up is also refused to a redeem, the list's order
// and paging, and bad input leaving the vouchers untouched.
import { schema } from "@booth/db";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing.ts";

const P = "/api/user-service";

let t: TestApp;
let admin: Awaited<ReturnType<TestApp["createUser"]>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ roles: ["user", "admin"] });
});
afterAll(() => t.close());

const voucherRow = async (id: string) =>
  (await t.db.select().from(schema.vouchers).where(eq(schema.vouchers.id, id)))[0];
const voucherCount = async () => (await t.db.select({ n: count() }).from(schema.vouchers))[0]?.n ?? 0;

describe("vouchers and voucher sign-up", () => {
  it("a voucher made by POST /vouchers signs up once, then refuses a second sign-up and a redeem", async () => {
    const created = await t.request("POST", `${P}/vouchers`, { token: admin.token, body: { note: "one friend" } });
    expect(created.status).toBe(201);
    const [voucher] = created.body;
    expect(voucher).toMatchObject({ status: "PENDING", note: "one friend", createdBy: admin.user.uuid });

    const first = await t.request("POST", `${P}/users/voucher-sign-up`, {
      body: { email: "friend@voucher.test", password: "password123", voucherCode: voucher.code },
    });
    expect(first.status).toBe(201);
    const used = await voucherRow(voucher.id);
    expect(used).toMatchObject({ status: "REDEEMED", redeemedBy: first.body.user.uuid });
    expect(used?.redeemedAt?.toISOString()).toBe(t.clock.now().toISOString());

    const second = await t.request("POST", `${P}/users/voucher-sign-up`, {
      body: { email: "friend2@voucher.test", password: "password123", voucherCode: voucher.code },
    });
    expect(second.status).toBe(403);
    expect(second.body).toEqual({ statusCode: 403, message: "This voucher code is not valid.", error: "Forbidden" });

    const other = await t.createUser();
    const redeem = await t.request("PATCH", `${P}/vouchers/redeem`, {
      token: other.token,
      body: { code: voucher.code },
    });
    expect(redeem.status).toBe(403);
    expect(redeem.body.message).toBe("This voucher code is not valid.");
    expect(await voucherRow(voucher.id)).toEqual(used);

    const revoke = await t.request("DELETE", `${P}/vouchers/${voucher.id}`, { token: admin.token });
    expect(revoke.status).toBe(409);
    expect(await voucherRow(voucher.id)).toEqual(used);
  });

  it("a revoked voucher signs nobody up", async () => {
    const [voucher] = (await t.request("POST", `${P}/vouchers`, { token: admin.token, body: {} })).body;
    expect((await t.request("DELETE", `${P}/vouchers/${voucher.id}`, { token: admin.token })).status).toBe(200);
    const res = await t.request("POST", `${P}/users/voucher-sign-up`, {
      body: { email: "late@voucher.test", password: "password123", voucherCode: voucher.code },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe("This voucher code is not valid.");
    const [account] = await t.db.select().from(schema.users).where(eq(schema.users.email, "late@voucher.test"));
    expect(account).toBeUndefined();
    expect((await voucherRow(voucher.id))?.status).toBe("REVOKED");
  });
});

describe("GET /vouchers", () => {
  it("lists newest first, pages with limit and offset, and counts the total", async () => {
    t.clock.advance(60);
    const older = (await t.request("POST", `${P}/vouchers`, { token: admin.token, body: { note: "older" } })).body[0];
    t.clock.advance(60);
    const newer = (await t.request("POST", `${P}/vouchers`, { token: admin.token, body: { note: "newer" } })).body[0];
    const all = await t.request("GET", `${P}/vouchers`, { token: admin.token });
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(await voucherCount());
    expect(all.body.data.slice(0, 2).map((v: { id: string }) => v.id)).toEqual([newer.id, older.id]);
    const page = await t.request("GET", `${P}/vouchers`, { token: admin.token, query: { limit: 1, offset: 1 } });
    expect(page.body.data.map((v: { id: string }) => v.id)).toEqual([older.id]);
    expect(page.body.total).toBe(all.body.total);
    expect((await t.request("GET", `${P}/vouchers`, { token: admin.token, query: { limit: 0 } })).status).toBe(400);
  });
});

describe("bad input changes nothing", () => {
  it("refuses bad counts and notes without creating vouchers", async () => {
    const before = await voucherCount();
    for (const body of [{ count: 0 }, { count: 501 }, { count: 1.5 }, { count: "3" }, { note: "x".repeat(501) }]) {
      const res = await t.request("POST", `${P}/vouchers`, { token: admin.token, body });
      expect(res.status).toBe(400);
    }
    expect(await voucherCount()).toBe(before);
  });

  it("refuses a redeem with no or an unknown code, leaving pending vouchers pending", async () => {
    const [voucher] = (await t.request("POST", `${P}/vouchers`, { token: admin.token, body: {} })).body;
    const user = await t.createUser();
    expect((await t.request("PATCH", `${P}/vouchers/redeem`, { token: user.token, body: {} })).status).toBe(400);
    const unknown = await t.request("PATCH", `${P}/vouchers/redeem`, {
      token: user.token,
      body: { code: "ZZZZ-ZZZZ-ZZZZ" },
    });
    expect(unknown.status).toBe(403);
    expect(unknown.body.message).toBe("This voucher code is not valid.");
    expect((await voucherRow(voucher.id))?.status).toBe("PENDING");
    expect((await t.request("DELETE", `${P}/vouchers/not-a-uuid`, { token: admin.token })).status).toBe(400);
  });
});
