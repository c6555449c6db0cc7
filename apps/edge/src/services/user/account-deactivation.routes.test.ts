// Account deactivation (routes in account-deactivation.routes.ts): requests, the moderators' list, cancelling,
// deactivating and reactivating, with the wrong callers, bad input and the database effects of each route.
// moderation.test.ts covers the main flow; this file covers what it leaves out.
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Role } from "../../lib/auth.ts";
import { expectLogsIn, expectRefusal, login, ok, openTestApp, session } from "../../testing.ts";

const t = openTestApp();

const P = "/api/user-service";
const requestsOf = (uuid: string) =>
  t.db.select().from(schema.deactivationRequests).where(eq(schema.deactivationRequests.userUuid, uuid));
const withRole = (role: Role) => t.createUser({ roles: ["user", role] });
/** The caller `token` deactivates the account `id`. */
const deactivate = (token: string | undefined, id: string) =>
  t.api(token).user.DELETE("/users/deactivate/{id}", { params: { path: { id } } });
/** The caller `token` reactivates the account `id`. */
const reactivate = (token: string | undefined, id: string) =>
  t.api(token).user.POST("/users/reactivate/{id}", { params: { path: { id } } });
const requestDeactivation = (token: string, reason?: string) =>
  t.request("POST", `${P}/users/request-deactivate`, { token, body: reason === undefined ? {} : { reason } });

describe("request-deactivate", () => {
  it("records one pending request per user, with the reason", async () => {
    const user = await t.createUser();
    const res = await requestDeactivation(user.token, "  moving on  ");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userUuid: user.user.uuid,
      email: user.email,
      reason: "moving on",
      status: "PENDING",
      createdAt: t.clock.now().toISOString(),
    });
    const [row] = await requestsOf(user.user.uuid);
    expect(row).toMatchObject({ id: res.body.id, status: "PENDING", reason: "moving on", resolvedAt: null });
    const second = await requestDeactivation(user.token);
    expectRefusal(second, 409, "A deactivation request is already pending for this account.", "CONFLICT");
    expect(await requestsOf(user.user.uuid)).toHaveLength(1);
    // Asking does not deactivate anything yet.
    expect((await t.userRow(user.user.uuid)).deactivatedAt).toBeNull();
    expect((await session(t, user.token)).response.status).toBe(200);
  });

  it("keeps one pending request when two arrive at once", async () => {
    const user = await t.createUser();
    const statuses = (await Promise.all([requestDeactivation(user.token), requestDeactivation(user.token)]))
      .map((r) => r.status)
      .sort();
    expect(statuses).toEqual([201, 409]);
    expect(await requestsOf(user.user.uuid)).toHaveLength(1);
  });

  it("answers 401 without a signed-in user and 400 for bad input, storing nothing", async () => {
    const user = await t.createUser();
    const guest = ok(await t.api().user.GET("/auth/guest")).accessToken as string;
    for (const token of [undefined, guest, await t.serviceToken()])
      expect((await t.api(token).user.POST("/users/request-deactivate", { body: {} })).response.status).toBe(401);
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [{ reason: "x".repeat(1001) }, { reason: 12 }, []])
      expect((await t.request("POST", `${P}/users/request-deactivate`, { token: user.token, body })).status).toBe(400);
    expect(await requestsOf(user.user.uuid)).toHaveLength(0);
  });
});

describe("list-deactivate", () => {
  it("lists pending requests oldest first with email and nickname, paged", async () => {
    const mod = await withRole("moderator");
    const before = ok(await t.api(mod.token).user.GET("/users/list-deactivate")).length as number;
    const a = await t.createUser({ nickname: "first-to-go" });
    const b = await t.createUser({ nickname: "second-to-go" });
    const c = await t.createUser({ nickname: "changed-mind" });
    // Later than every request made before, so the new ones sort after them whatever their ids.
    t.clock.advance(1);
    await requestDeactivation(a.token, "a");
    t.clock.advance(1);
    await requestDeactivation(b.token);
    t.clock.advance(1);
    await requestDeactivation(c.token);
    await t.api(mod.token).user.POST("/users/cancel-requested-deactivate", { body: { userUuid: c.user.uuid } });
    const all = await t.api(mod.token).user.GET("/users/list-deactivate");
    expect(all.response.status).toBe(200);
    expect(all.data?.slice(before)).toEqual([
      expect.objectContaining({ userUuid: a.user.uuid, email: a.email, nickname: "first-to-go", reason: "a" }),
      expect.objectContaining({ userUuid: b.user.uuid, email: b.email, nickname: "second-to-go", reason: null }),
    ]);
    const page = await t
      .api(mod.token)
      .user.GET("/users/list-deactivate", { params: { query: { limit: 1, offset: before + 1 } } });
    expect(page.data?.map((r) => r.userUuid)).toEqual([b.user.uuid]);
  });

  it("is for moderators only and refuses bad paging", async () => {
    const mod = await withRole("moderator");
    expect((await t.api().user.GET("/users/list-deactivate")).response.status).toBe(401);
    for (const role of ["user", "promoter"] as Role[]) {
      const caller = await t.createUser({ roles: [role] });
      expect((await t.api(caller.token).user.GET("/users/list-deactivate")).response.status).toBe(403);
    }
    // Raw: malformed input, which the typed client cannot send.
    for (const query of [{ limit: 0 }, { limit: 1001 }, { offset: -1 }, { limit: "many" }])
      expect((await t.request("GET", `${P}/users/list-deactivate`, { token: mod.token, query })).status).toBe(400);
  });
});

describe("cancel-requested-deactivate", () => {
  it("marks the pending request cancelled by the moderator; the user may ask again", async () => {
    const mod = await withRole("globalModerator");
    const user = await t.createUser();
    await requestDeactivation(user.token);
    const res = await t
      .api(mod.token)
      .user.POST("/users/cancel-requested-deactivate", { body: { userUuid: user.user.uuid } });
    expect(res.response.status).toBe(204);
    const [row] = await requestsOf(user.user.uuid);
    expect(row).toMatchObject({ status: "CANCELLED", resolvedBy: mod.user.uuid, resolvedAt: t.clock.now() });
    const none = await t
      .api(mod.token)
      .user.POST("/users/cancel-requested-deactivate", { body: { userUuid: user.user.uuid } });
    expectRefusal(none, 404, "This user has no pending deactivation request.");
    expect((await requestDeactivation(user.token)).status).toBe(201);
    expect((await requestsOf(user.user.uuid)).map((r) => r.status).sort()).toEqual(["CANCELLED", "PENDING"]);
  });

  it("refuses wrong callers and bad input, leaving the request pending", async () => {
    const mod = await withRole("moderator");
    const user = await t.createUser();
    await requestDeactivation(user.token);
    const body = { userUuid: user.user.uuid };
    expect((await t.api().user.POST("/users/cancel-requested-deactivate", { body })).response.status).toBe(401);
    const plain = await t.createUser();
    expect((await t.api(plain.token).user.POST("/users/cancel-requested-deactivate", { body })).response.status).toBe(
      403,
    );
    // Raw: malformed input, which the typed client cannot send.
    for (const bad of [{}, { userUuid: "123" }])
      expect(
        (await t.request("POST", `${P}/users/cancel-requested-deactivate`, { token: mod.token, body: bad })).status,
      ).toBe(400);
    const unknown = await t
      .api(mod.token)
      .user.POST("/users/cancel-requested-deactivate", { body: { userUuid: crypto.randomUUID() } });
    expect(unknown.response.status).toBe(404);
    const [row] = await requestsOf(user.user.uuid);
    expect(row).toMatchObject({ status: "PENDING", resolvedBy: null, resolvedAt: null });
  });
});

describe("deactivate", () => {
  it("deactivates: sessions end, login and profile refused, the pending request resolved", async () => {
    const admin = await withRole("admin");
    const user = await t.createUser({ nickname: "soon-gone" });
    await requestDeactivation(user.token, "done here");
    const res = await deactivate(admin.token, user.user.uuid);
    expect(res.response.status).toBe(204);
    const row = await t.userRow(user.user.uuid);
    expect(row.deactivatedAt).toEqual(t.clock.now());
    expect(row.tokenVersion).toBe(1);
    const [request] = await requestsOf(user.user.uuid);
    expect(request).toMatchObject({ status: "DEACTIVATED", resolvedBy: admin.user.uuid, resolvedAt: t.clock.now() });
    expect((await session(t, user.token)).response.status).toBe(401);
    expect((await session(t, await t.tokenFor(user.user.uuid))).response.status).toBe(401);
    const refused = await login(t, user.email);
    expectRefusal(refused, 403, "This account is deactivated.", "ACCOUNT_DEACTIVATED");
    const profile = await t.api().user.GET("/profile/{id}", { params: { path: { id: user.user.uuid } } });
    expectRefusal(profile, 404, "User profile not found.");
    const twice = await deactivate(admin.token, user.user.uuid);
    expectRefusal(twice, 409, "This account is already deactivated.");
    expect((await t.userRow(user.user.uuid)).tokenVersion).toBe(1);
  });

  it("deactivates a user who never asked", async () => {
    const su = await withRole("superUser");
    const user = await t.createUser();
    expect((await deactivate(su.token, user.user.uuid)).response.status).toBe(204);
    expect(await requestsOf(user.user.uuid)).toHaveLength(0);
    expect((await login(t, user.email)).error?.message).toBe("This account is deactivated.");
  });

  it("refuses wrong callers, equal ranks, oneself and bad ids, changing nothing", async () => {
    const admin = await withRole("admin");
    const otherAdmin = await withRole("admin");
    const user = await t.createUser();
    await requestDeactivation(user.token);
    expect((await deactivate(undefined, user.user.uuid)).response.status).toBe(401);
    for (const role of ["user", "moderator", "globalModerator", "staff"] as Role[]) {
      const caller = await t.createUser({ roles: [role] });
      expect((await deactivate(caller.token, user.user.uuid)).response.status, role).toBe(403);
    }
    expect((await deactivate(admin.token, otherAdmin.user.uuid)).response.status).toBe(403);
    const self = await deactivate(admin.token, admin.user.uuid);
    expectRefusal(self, 403, "You cannot moderate your own account.");
    expect((await deactivate(admin.token, "not-a-uuid")).response.status).toBe(400);
    const unknown = await deactivate(admin.token, crypto.randomUUID());
    expectRefusal(unknown, 404, "User not found.");
    for (const who of [user, otherAdmin, admin]) {
      const row = await t.userRow(who.user.uuid);
      expect(row.deactivatedAt).toBeNull();
      expect(row.tokenVersion).toBe(0);
    }
    expect((await requestsOf(user.user.uuid))[0]?.status).toBe("PENDING");
    expect((await session(t, user.token)).response.status).toBe(200);
  });
});

describe("reactivate", () => {
  it("lets the user log in again and shows the profile again", async () => {
    const admin = await withRole("admin");
    const user = await t.createUser();
    await deactivate(admin.token, user.user.uuid);
    const res = await reactivate(admin.token, user.user.uuid);
    expect(res.response.status).toBe(204);
    expect((await t.userRow(user.user.uuid)).deactivatedAt).toBeNull();
    // Tokens from before the deactivation stay revoked; a new login works.
    expect((await session(t, user.token)).response.status).toBe(401);
    await expectLogsIn(t, user.email);
    expect(
      (await t.api().user.GET("/profile/{id}", { params: { path: { id: user.user.uuid } } })).response.status,
    ).toBe(200);
    const again = await reactivate(admin.token, user.user.uuid);
    expectRefusal(again, 409, "This account is not deactivated.", "CONFLICT");
  });

  it("refuses wrong callers and bad ids, leaving the account deactivated", async () => {
    const admin = await withRole("admin");
    const user = await t.createUser();
    await deactivate(admin.token, user.user.uuid);
    expect((await reactivate(undefined, user.user.uuid)).response.status).toBe(401);
    for (const role of ["user", "moderator", "staff"] as Role[]) {
      const caller = await t.createUser({ roles: [role] });
      expect((await reactivate(caller.token, user.user.uuid)).response.status, role).toBe(403);
    }
    expect((await reactivate(admin.token, "zzz")).response.status).toBe(400);
    expect((await reactivate(admin.token, crypto.randomUUID())).response.status).toBe(404);
    expect((await t.userRow(user.user.uuid)).deactivatedAt).not.toBeNull();
    expect((await login(t, user.email)).response.status).toBe(403);
  });
});
