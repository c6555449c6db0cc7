// What vouchers.test.ts does not cover: a voucher used by a sign-up is also refused to a redeem, the list's order
// and paging, and bad input leaving the vouchers untouched.
import { schema } from "@booth/db";
import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, ok, openTestApp, type TestUser } from "../../testing.ts";

const P = "/api/user-service";

const t = openTestApp();
let admin: TestUser;
beforeAll(async () => (admin = await t.createUser({ roles: ["user", "admin"] })));

const voucherRow = async (id: string) =>
  (await t.db.select().from(schema.vouchers).where(eq(schema.vouchers.id, id)))[0];
const voucherCount = async () => (await t.db.select({ n: count() }).from(schema.vouchers))[0]?.n ?? 0;

describe("vouchers and voucher sign-up", () => {
  it("a voucher made by POST /vouchers signs up once, then refuses a second sign-up and a redeem", async () => {
    const created = await t.api(admin.token).user.POST("/vouchers", { body: { note: "one friend" } });
    expect(created.response.status).toBe(201);
    const [voucher] = ok(created);
    expect(voucher).toMatchObject({ status: "PENDING", note: "one friend", createdBy: admin.user.uuid });

    const first = await t.api().user.POST("/users/voucher-sign-up", {
      body: { email: "friend@voucher.test", password: "password123", voucherCode: voucher!.code },
    });
    expect(first.response.status).toBe(201);
    const used = await voucherRow(voucher!.id);
    expect(used).toMatchObject({ status: "REDEEMED", redeemedBy: ok(first).user.uuid });
    expect(used?.redeemedAt?.toISOString()).toBe(t.clock.now().toISOString());

    const second = await t.api().user.POST("/users/voucher-sign-up", {
      body: { email: "friend2@voucher.test", password: "password123", voucherCode: voucher!.code },
    });
    expectRefusal(second, 403, "This voucher code is not valid.", "INVALID_VOUCHER");

    const other = await t.createUser();
    const redeem = await t.api(other.token).user.PATCH("/vouchers/redeem", { body: { code: voucher!.code } });
    expectRefusal(redeem, 403, "This voucher code is not valid.");
    expect(await voucherRow(voucher!.id)).toEqual(used);

    const revoke = await t.api(admin.token).user.DELETE("/vouchers/{id}", { params: { path: { id: voucher!.id } } });
    expect(revoke.response.status).toBe(409);
    expect(await voucherRow(voucher!.id)).toEqual(used);
  });

  it("a revoked voucher signs nobody up", async () => {
    const [voucher] = ok(await t.api(admin.token).user.POST("/vouchers", { body: {} }));
    expect(
      (await t.api(admin.token).user.DELETE("/vouchers/{id}", { params: { path: { id: voucher!.id } } })).response
        .status,
    ).toBe(200);
    const res = await t.api().user.POST("/users/voucher-sign-up", {
      body: { email: "late@voucher.test", password: "password123", voucherCode: voucher!.code },
    });
    expectRefusal(res, 403, "This voucher code is not valid.");
    expect(await t.userByEmail("late@voucher.test")).toBeUndefined();
    expect((await voucherRow(voucher!.id))?.status).toBe("REVOKED");
  });
});

describe("GET /vouchers", () => {
  it("lists newest first, pages with limit and offset, and counts the total", async () => {
    t.clock.advance(60);
    const older = ok(await t.api(admin.token).user.POST("/vouchers", { body: { note: "older" } }))[0];
    t.clock.advance(60);
    const newer = ok(await t.api(admin.token).user.POST("/vouchers", { body: { note: "newer" } }))[0];
    const all = await t.api(admin.token).user.GET("/vouchers");
    expect(all.response.status).toBe(200);
    expect(all.data?.total).toBe(await voucherCount());
    expect(all.data?.data.slice(0, 2).map((v: { id: string }) => v.id)).toEqual([newer?.id, older?.id]);
    const page = await t.api(admin.token).user.GET("/vouchers", { params: { query: { limit: 1, offset: 1 } } });
    expect(page.data?.data.map((v) => v.id)).toEqual([older?.id]);
    expect(page.data?.total).toBe(ok(all).total);
    expect((await t.api(admin.token).user.GET("/vouchers", { params: { query: { limit: 0 } } })).response.status).toBe(
      400,
    );
  });
});

describe("bad input changes nothing", () => {
  it("refuses bad counts and notes without creating vouchers", async () => {
    const before = await voucherCount();
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [{ count: 0 }, { count: 501 }, { count: 1.5 }, { count: "3" }, { note: "x".repeat(501) }]) {
      const res = await t.request("POST", `${P}/vouchers`, { token: admin.token, body });
      expect(res.status).toBe(400);
    }
    expect(await voucherCount()).toBe(before);
  });

  it("refuses a redeem with no or an unknown code, leaving pending vouchers pending", async () => {
    const [voucher] = ok(await t.api(admin.token).user.POST("/vouchers", { body: {} }));
    const user = await t.createUser();
    // Raw: input the typed client cannot send (it is wrong on purpose).
    expect(
      (await t.request("PATCH", "/api/user-service/vouchers/redeem", { token: user.token, body: {} })).status,
    ).toBe(400);
    const unknown = await t.api(user.token).user.PATCH("/vouchers/redeem", { body: { code: "ZZZZ-ZZZZ-ZZZZ" } });
    expectRefusal(unknown, 403, "This voucher code is not valid.");
    expect((await voucherRow(voucher!.id))?.status).toBe("PENDING");
    expect(
      (await t.api(admin.token).user.DELETE("/vouchers/{id}", { params: { path: { id: "not-a-uuid" } } })).response
        .status,
    ).toBe(400);
  });
});
