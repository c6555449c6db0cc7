import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const P = "/api/user-service";

describe("vouchers", () => {
  it("admins create vouchers; staff list them by status; others are refused", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const user = await t.createUser();
    const created = await t.request("POST", `${P}/vouchers`, {
      token: admin.token,
      body: { count: 3, note: "launch" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toHaveLength(3);
    expect(created.body[0].code).toMatch(/^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/);
    expect(new Set(created.body.map((v: { code: string }) => v.code)).size).toBe(3);
    const list = await t.request("GET", `${P}/vouchers`, { token: staff.token, query: { status: "PENDING" } });
    expect(list.body.total).toBeGreaterThanOrEqual(3);
    expect((await t.request("POST", `${P}/vouchers`, { token: staff.token, body: { count: 1 } })).status).toBe(403);
    expect((await t.request("GET", `${P}/vouchers`, { token: user.token })).status).toBe(403);
    expect((await t.request("GET", `${P}/vouchers`)).status).toBe(401);
    expect((await t.request("POST", `${P}/vouchers`, { token: admin.token, body: { count: 501 } })).status).toBe(400);
    expect((await t.request("GET", `${P}/vouchers`, { token: staff.token, query: { status: "LOST" } })).status).toBe(
      400,
    );
  });

  it("redeems once: of two concurrent redeems exactly one wins", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const [voucher] = (await t.request("POST", `${P}/vouchers`, { token: admin.token, body: {} })).body;
    const a = await t.createUser();
    const b = await t.createUser();
    const results = await Promise.all(
      [a, b].map((u) =>
        t.request("PATCH", `${P}/vouchers/redeem`, { token: u.token, body: { code: voucher.code.toLowerCase() } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 403]);
    const loser = results.find((r) => r.status === 403);
    expect(loser?.body.message).toBe("This voucher code is not valid.");
    const [row] = await t.db.select().from(schema.vouchers).where(eq(schema.vouchers.id, voucher.id));
    expect(row?.status).toBe("REDEEMED");
    expect([a.user.uuid, b.user.uuid]).toContain(row?.redeemedBy);
    expect((await t.request("PATCH", `${P}/vouchers/redeem`, { body: { code: voucher.code } })).status).toBe(401);
  });

  it("a redeem racing a revoke: exactly one of them happens", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const [voucher] = (await t.request("POST", `${P}/vouchers`, { token: admin.token, body: {} })).body;
    const user = await t.createUser();
    const [redeem, revoke] = await Promise.all([
      t.request("PATCH", `${P}/vouchers/redeem`, { token: user.token, body: { code: voucher.code } }),
      t.request("DELETE", `${P}/vouchers/${voucher.id}`, { token: admin.token }),
    ]);
    expect([redeem.status, revoke.status].filter((s) => s === 200)).toHaveLength(1);
    const [row] = await t.db.select().from(schema.vouchers).where(eq(schema.vouchers.id, voucher.id));
    expect(row?.status).toBe(redeem.status === 200 ? "REDEEMED" : "REVOKED");
  });

  it("revokes pending vouchers only, admins only", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const [voucher] = (await t.request("POST", `${P}/vouchers`, { token: admin.token, body: {} })).body;
    expect((await t.request("DELETE", `${P}/vouchers/${voucher.id}`, { token: staff.token })).status).toBe(403);
    const revoked = await t.request("DELETE", `${P}/vouchers/${voucher.id}`, { token: admin.token });
    expect(revoked.body.status).toBe("REVOKED");
    expect((await t.request("DELETE", `${P}/vouchers/${voucher.id}`, { token: admin.token })).status).toBe(409);
    expect((await t.request("DELETE", `${P}/vouchers/${crypto.randomUUID()}`, { token: admin.token })).status).toBe(
      404,
    );
    const user = await t.createUser();
    expect(
      (await t.request("PATCH", `${P}/vouchers/redeem`, { token: user.token, body: { code: voucher.code } })).status,
    ).toBe(403);
  });

  it("a voucher sign-up consumes the voucher, once", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const [voucher] = (await t.request("POST", `${P}/vouchers`, { token: admin.token, body: {} })).body;
    const first = await t.request("POST", `${P}/users/voucher-sign-up`, {
      body: { email: "invited@example.com", password: "password123", voucherCode: voucher.code },
    });
    expect(first.status).toBe(201);
    const second = await t.request("POST", `${P}/users/voucher-sign-up`, {
      body: { email: "invited2@example.com", password: "password123", voucherCode: voucher.code },
    });
    expect(second.status).toBe(403);
    expect(second.body.message).toBe("This voucher code is not valid.");
    const [account] = await t.db.select().from(schema.users).where(eq(schema.users.email, "invited2@example.com"));
    expect(account).toBeUndefined();
    const missing = await t.request("POST", `${P}/users/voucher-sign-up`, {
      body: { email: "x@example.com", password: "password123" },
    });
    expect(missing.body.message).toBe("Email, password, or voucher code is missing in request.");
    const taken = await t.request("POST", `${P}/users/voucher-sign-up`, {
      body: { email: "invited@example.com", password: "password123", voucherCode: "ANY" },
    });
    expect(taken.status).toBe(403);
    expect(taken.body.message).toBe("This email is already registered.");
  });
});
