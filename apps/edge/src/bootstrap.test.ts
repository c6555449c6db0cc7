import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureAdmin } from "./bootstrap.ts";
import { createTestApp, type TestApp } from "./testing.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const login = (email: string, password: string) =>
  t.request("POST", "/api/user-service/auth/login", { body: { email, password } });

describe("the first admin", () => {
  it("creates a random-password admin only while the instance has none", async () => {
    const first = await ensureAdmin(t.db, {}, t.clock.now());
    expect(first?.password).toBeTruthy();
    expect((await login(first!.email, first!.password!)).body.user.roles).toContain("admin");
    expect(await ensureAdmin(t.db, {}, t.clock.now())).toBeNull();
  });

  it("makes ADMIN_EMAIL an admin with ADMIN_PASSWORD, idempotently, promoting an existing account", async () => {
    const { user, email } = await t.createUser();
    const env = { ADMIN_EMAIL: email.toUpperCase(), ADMIN_PASSWORD: "the admin password" };
    await ensureAdmin(t.db, env, t.clock.now());
    await ensureAdmin(t.db, env, t.clock.now());
    const rows = await t.db.select().from(schema.users).where(eq(schema.users.email, email));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.uuid).toBe(user.uuid);
    expect(rows[0]?.roles.filter((r) => r === "admin")).toHaveLength(1);
    expect((await login(email, "the admin password")).status).toBe(200);
  });

  it("creates the ADMIN_EMAIL account when it does not exist", async () => {
    await ensureAdmin(t.db, { ADMIN_EMAIL: "boss@example.com", ADMIN_PASSWORD: "boss password" }, t.clock.now());
    const res = await login("boss@example.com", "boss password");
    expect(res.status).toBe(200);
    expect(res.body.user.roles).toEqual(["user", "admin"]);
  });
});
