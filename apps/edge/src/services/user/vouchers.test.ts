import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { firstRow } from "../../lib/rows.ts";
import { expectRefusal, ok, openTestApp } from "../../testing.ts";

const t = openTestApp();

const P = "/api/user-service";

describe("vouchers", () => {
  it("admins create vouchers; staff list them by status; others are refused", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const user = await t.createUser();
    const created = await t.api(admin.token).user.POST("/vouchers", { body: { count: 3, note: "launch" } });
    expect(created.response.status).toBe(201);
    expect(created.data).toHaveLength(3);
    expect(created.data?.[0]?.code).toMatch(/^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/);
    expect(new Set(created.data?.map((v) => v.code)).size).toBe(3);
    const list = await t.api(staff.token).user.GET("/vouchers", { params: { query: { status: "PENDING" } } });
    expect(list.data?.total).toBeGreaterThanOrEqual(3);
    expect((await t.api(staff.token).user.POST("/vouchers", { body: { count: 1 } })).response.status).toBe(403);
    expect((await t.api(user.token).user.GET("/vouchers")).response.status).toBe(403);
    expect((await t.api().user.GET("/vouchers")).response.status).toBe(401);
    expect((await t.api(admin.token).user.POST("/vouchers", { body: { count: 501 } })).response.status).toBe(400);
    // Raw: input the typed client cannot send (it is wrong on purpose).
    expect(
      (await t.request("GET", "/api/user-service/vouchers", { token: staff.token, query: { status: "LOST" } })).status,
    ).toBe(400);
  });

  it("redeems once: of two concurrent redeems exactly one wins", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const [voucher] = ok(await t.api(admin.token).user.POST("/vouchers", { body: {} }));
    const a = await t.createUser();
    const b = await t.createUser();
    const results = await Promise.all(
      [a, b].map((u) =>
        t.request("PATCH", `${P}/vouchers/redeem`, { token: u.token, body: { code: voucher!.code.toLowerCase() } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 403]);
    const loser = results.find((r) => r.status === 403);
    expect(loser?.body.message).toBe("This voucher code is not valid.");
    const row = await firstRow(t.db, schema.vouchers, eq(schema.vouchers.id, voucher!.id));
    expect(row?.status).toBe("REDEEMED");
    expect([a.user.uuid, b.user.uuid]).toContain(row?.redeemedBy);
    expect((await t.api().user.PATCH("/vouchers/redeem", { body: { code: voucher!.code } })).response.status).toBe(401);
  });

  it("a redeem racing a revoke: exactly one of them happens", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const [voucher] = ok(await t.api(admin.token).user.POST("/vouchers", { body: {} }));
    const user = await t.createUser();
    const [redeem, revoke] = await Promise.all([
      t.request("PATCH", `${P}/vouchers/redeem`, { token: user.token, body: { code: voucher!.code } }),
      t.request("DELETE", `${P}/vouchers/${voucher!.id}`, { token: admin.token }),
    ]);
    expect([redeem.status, revoke.status].filter((s) => s === 200)).toHaveLength(1);
    const row = await firstRow(t.db, schema.vouchers, eq(schema.vouchers.id, voucher!.id));
    expect(row?.status).toBe(redeem.status === 200 ? "REDEEMED" : "REVOKED");
  });

  it("revokes pending vouchers only, admins only", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const [voucher] = ok(await t.api(admin.token).user.POST("/vouchers", { body: {} }));
    expect(
      (await t.api(staff.token).user.DELETE("/vouchers/{id}", { params: { path: { id: voucher!.id } } })).response
        .status,
    ).toBe(403);
    const revoked = await t.api(admin.token).user.DELETE("/vouchers/{id}", { params: { path: { id: voucher!.id } } });
    expect(revoked.data?.status).toBe("REVOKED");
    expect(
      (await t.api(admin.token).user.DELETE("/vouchers/{id}", { params: { path: { id: voucher!.id } } })).response
        .status,
    ).toBe(409);
    expect(
      (await t.api(admin.token).user.DELETE("/vouchers/{id}", { params: { path: { id: crypto.randomUUID() } } }))
        .response.status,
    ).toBe(404);
    const user = await t.createUser();
    expect(
      (await t.api(user.token).user.PATCH("/vouchers/redeem", { body: { code: voucher!.code } })).response.status,
    ).toBe(403);
  });

  it("a voucher sign-up consumes the voucher, once", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const [voucher] = ok(await t.api(admin.token).user.POST("/vouchers", { body: {} }));
    const first = await t.api().user.POST("/users/voucher-sign-up", {
      body: { email: "invited@example.com", password: "password123", voucherCode: voucher!.code },
    });
    expect(first.response.status).toBe(201);
    const second = await t.api().user.POST("/users/voucher-sign-up", {
      body: { email: "invited2@example.com", password: "password123", voucherCode: voucher!.code },
    });
    expectRefusal(second, 403, "This voucher code is not valid.");
    expect(await t.userByEmail("invited2@example.com")).toBeUndefined();
    const missing = await t
      .api()
      .user.POST("/users/voucher-sign-up", { body: { email: "x@example.com", password: "password123" } });
    expect(missing.error?.message).toBe("Email, password, or voucher code is missing in request.");
    const taken = await t.api().user.POST("/users/voucher-sign-up", {
      body: { email: "invited@example.com", password: "password123", voucherCode: "ANY" },
    });
    expectRefusal(taken, 403, "This email is already registered.");
  });
});
