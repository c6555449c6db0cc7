import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../app.ts";
import type { Cache } from "../../ports/cache.ts";
import { sharedCaches } from "../../testing/shared-caches.ts";
import { createTestApp, expectRefusal, type TestApp } from "../../testing.ts";
import { forgetAccount } from "./account-cache.ts";

/*
 * A signed-in request reads its account from the shared cache (lib/account-cache.ts). Two edges share it as production
 * instances do: what one changes, the other sees at the next request, with the memory cache (one process) and with a
 * Redis both reach over their own connections.
 */
const P = "/api/user-service";
describe.each(sharedCaches())("two edges sharing a %s", (_, makeCaches) => {
  let t: TestApp;
  let caches: [Cache, Cache];
  let one: ReturnType<typeof createApp>;
  let other: ReturnType<typeof createApp>;
  beforeAll(async () => {
    t = await createTestApp();
    caches = await makeCaches();
    one = createApp({ ...t.deps, cache: caches[0] });
    other = createApp({ ...t.deps, cache: caches[1] });
  });
  afterAll(async () => {
    await Promise.all([...new Set(caches ?? [])].map((cache) => cache.close()));
    await t?.close();
  });

  const call = async (edge: typeof one, method: string, path: string, token: string, body?: unknown) => {
    const res = await edge.request(`${P}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };

  it("a cached account sees a new role and a ban at once, made on the other edge", async () => {
    const user = await t.createUser();
    const admin = await t.createUser({ roles: ["user", "admin"] });
    expect((await call(one, "GET", "/auth/session", user.token)).body.user.roles).toEqual(["user"]);
    expect((await call(other, "GET", "/auth/session", user.token)).status).toBe(200);

    // The account is the cache's: a change made behind the edges' back (in the database) shows only once forgotten.
    await t.db
      .update(schema.users)
      .set({ badges: ["STAFF"] })
      .where(eq(schema.users.uuid, user.user.uuid));
    expect((await call(one, "GET", "/auth/session", user.token)).body.user.badges).toEqual([]);
    await forgetAccount(caches[0], user.user.uuid);
    expect((await call(other, "GET", "/auth/session", user.token)).body.user.badges).toEqual(["STAFF"]);

    // A role granted on one edge is on the other's very next answer.
    const granted = await call(other, "POST", "/users/add-role", admin.token, {
      userUuid: user.user.uuid,
      role: "moderator",
    });
    expect(granted.status).toBe(200);
    expect((await call(one, "GET", "/auth/session", user.token)).body.user.roles).toEqual(["user", "moderator"]);

    // A ban on one edge: the other refuses the banned account at once, its old token and a fresh one alike.
    const banned = await call(one, "POST", "/users/ban", admin.token, { userUuid: user.user.uuid });
    expect(banned.status).toBe(201);
    expect((await call(other, "GET", "/auth/session", user.token)).status).toBe(401);
    const fresh = await t.tokenFor(user.user.uuid);
    const refused = await call(other, "GET", "/auth/session", fresh);
    expectRefusal(refused, 403, "This account is banned.");

    // Lifted on the other edge, the first lets the account in again.
    expect((await call(other, "POST", "/users/unban", admin.token, { userUuid: user.user.uuid })).status).toBe(200);
    expect((await call(one, "GET", "/auth/session", fresh)).status).toBe(200);
  });

  it("a temporary ban ends when it expires, with the account still cached", async () => {
    const user = await t.createUser();
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const banned = await call(one, "POST", "/users/temporary-ban", admin.token, {
      userUuid: user.user.uuid,
      durationMinutes: 10,
    });
    expect(banned.status).toBe(201);
    const fresh = await t.tokenFor(user.user.uuid);
    expect((await call(other, "GET", "/auth/session", fresh)).status).toBe(403);
    t.clock.advance(11 * 60);
    const after = await t.tokenFor(user.user.uuid);
    expect((await call(other, "GET", "/auth/session", after)).status).toBe(200);
  });
});
