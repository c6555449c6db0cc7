// Sanctions, roles, capabilities and moderation comments (routes in user-moderation.routes.ts): the wrong callers,
// bad input with nothing changed, rank rules and the database effects of each route. moderation.test.ts covers the
// main flows; this file covers what it leaves out.
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Role } from "../../lib/auth.ts";
import { expectLogsIn, expectRefusal, login, ok, openTestApp, session, statusOf } from "../../testing.ts";

const t = openTestApp();

const P = "/api/user-service";
const sanctionsOf = (uuid: string) => t.db.select().from(schema.sanctions).where(eq(schema.sanctions.userUuid, uuid));
const commentsOn = (uuid: string) =>
  t.db.select().from(schema.moderationComments).where(eq(schema.moderationComments.userUuid, uuid));
const withRole = (role: Role) => t.createUser({ roles: ["user", role] });
/** The caller `token` grants `role` to the user `userUuid`. */
const addRole = (token: string, userUuid: string, role: "staff" | "promoter" | "superUser") =>
  t.api(token).user.POST("/users/add-role", { body: { userUuid, role } });
/** The caller `token` makes the user `userUuid` a global moderator. */
const addGlobalModerator = (token: string, userUuid: string) =>
  t.api(token).user.POST("/users/add-global-moderator-role", { body: { userUuid } });
/** The caller `token` writes a moderation comment on the user `userUuid`. */
const writeComment = (token: string, userUuid: string, comment: string) =>
  t.api(token).user.POST("/moderation-comments", { body: { userUuid, comment } });
/** The caller `token` reads the moderation comments on the user `id`. */
const readComments = (token: string, id: string) =>
  t.api(token).user.GET("/moderation-comments/{id}", { params: { path: { id } } });

/** Every moderation route, called on `target`, with a valid body. */
const routes = (target: string): [string, string, unknown][] => [
  ["POST", "/users/kick", { userUuid: target }],
  ["POST", "/users/ban", { userUuid: target }],
  ["POST", "/users/temporary-ban", { userUuid: target, durationMinutes: 10 }],
  ["POST", "/users/unban", { userUuid: target }],
  ["POST", "/users/add-role", { userUuid: target, role: "promoter" }],
  ["POST", "/users/add-global-moderator-role", { userUuid: target }],
  ["PUT", `/users/${target}/capabilities/uploadMusic`, undefined],
  ["DELETE", `/users/${target}/capabilities/uploadMusic`, undefined],
  ["POST", "/moderation-comments", { userUuid: target, comment: "note" }],
  ["GET", `/moderation-comments/${target}`, undefined],
];

describe("who may call", () => {
  it("answers 401 without a token, with a guest token and with a revoked token, and changes nothing", async () => {
    const target = await t.createUser();
    const mod = await withRole("admin");
    const guest = ok(await t.api().user.GET("/auth/guest")).accessToken as string;
    // The admin's token is revoked by a bump of their token version.
    await t.changeUser(mod.user.uuid, { tokenVersion: 1 });
    for (const [method, path, body] of routes(target.user.uuid))
      for (const token of [undefined, guest, mod.token]) {
        const res = await t.request(method, `${P}${path}`, { token, body });
        expect(res.status, `${method} ${path}`).toBe(401);
        expectRefusal(res, 401, "Unauthorized", "UNAUTHORIZED");
      }
    expect(await sanctionsOf(target.user.uuid)).toHaveLength(0);
    expect(await commentsOn(target.user.uuid)).toHaveLength(0);
    const row = await t.userRow(target.user.uuid);
    expect(row.roles).toEqual(["user"]);
    expect(row.tokenVersion).toBe(0);
  });

  it("answers 403 to a plain user and a promoter, and changes nothing", async () => {
    const target = await t.createUser();
    await t.changeUser(target.user.uuid, { capabilities: ["uploadMusic"] });
    for (const caller of [await t.createUser(), await withRole("promoter")])
      for (const [method, path, body] of routes(target.user.uuid)) {
        const res = await t.request(method, `${P}${path}`, { token: caller.token, body });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.message).toBe("Forbidden");
      }
    expect(await sanctionsOf(target.user.uuid)).toHaveLength(0);
    expect(await commentsOn(target.user.uuid)).toHaveLength(0);
    const row = await t.userRow(target.user.uuid);
    expect(row).toMatchObject({ roles: ["user"], capabilities: ["uploadMusic"], tokenVersion: 0 });
    expect((await session(t, target.token)).response.status).toBe(200);
  });

  it("a banned moderator can do nothing", async () => {
    const admin = await withRole("admin");
    const mod = await withRole("moderator");
    const target = await t.createUser();
    expect(
      (await t.api(admin.token).user.POST("/users/ban", { body: { userUuid: mod.user.uuid } })).response.status,
    ).toBe(201);
    // Even with a token of the current version, the ban keeps them out.
    const fresh = await t.tokenFor(mod.user.uuid);
    const res = await t.api(fresh).user.POST("/users/kick", { body: { userUuid: target.user.uuid } });
    expectRefusal(res, 403, "This account is banned.");
    expect(await sanctionsOf(target.user.uuid)).toHaveLength(0);
  });
});

describe("rank", () => {
  it("each moderating role acts only on lower ranks", async () => {
    // [caller role, target role, allowed]
    const cases: [Role, Role, boolean][] = [
      ["moderator", "promoter", true],
      ["moderator", "moderator", false],
      ["moderator", "globalModerator", false],
      ["globalModerator", "moderator", true],
      ["globalModerator", "globalModerator", false],
      ["staff", "globalModerator", true],
      ["staff", "staff", false],
      ["staff", "admin", false],
      ["admin", "staff", true],
      ["admin", "admin", false],
      ["admin", "superUser", false],
    ];
    for (const [callerRole, targetRole, allowed] of cases) {
      const caller = await withRole(callerRole);
      const target = await withRole(targetRole);
      const res = await t.api(caller.token).user.POST("/users/kick", { body: { userUuid: target.user.uuid } });
      expect(res.response.status, `${callerRole} kicks ${targetRole}`).toBe(allowed ? 201 : 403);
      expect(await sanctionsOf(target.user.uuid)).toHaveLength(allowed ? 1 : 0);
      expect((await t.userRow(target.user.uuid)).tokenVersion).toBe(allowed ? 1 : 0);
    }
  });

  it("capabilities and unban follow the rank rule too", async () => {
    const mod = await withRole("moderator");
    const su = await withRole("superUser");
    const higher = await withRole("globalModerator");
    await t.api(su.token).user.POST("/users/ban", { body: { userUuid: higher.user.uuid } });
    const unban = await t.api(mod.token).user.POST("/users/unban", { body: { userUuid: higher.user.uuid } });
    expect(unban.response.status).toBe(403);
    expect((await login(t, higher.email)).error?.message).toBe("This account is banned.");
    const put = await t.api(mod.token).user.PUT("/users/{id}/capabilities/{capability}", {
      params: { path: { id: higher.user.uuid, capability: "promoteRoom" } },
    });
    expect(put.response.status).toBe(403);
    expect((await t.userRow(higher.user.uuid)).capabilities).toEqual([]);
  });
});

describe("kick", () => {
  it("records the sanction, ends every session at once, and a new login works", async () => {
    const mod = await withRole("moderator");
    const target = await t.createUser();
    const otherSession = ok(await login(t, target.email)).accessToken;
    const res = await t
      .api(mod.token)
      .user.POST("/users/kick", { body: { userUuid: target.user.uuid, reason: "  shouting  " } });
    expect(res.response.status).toBe(201);
    expect(res.data).toMatchObject({
      userUuid: target.user.uuid,
      type: "kick",
      reason: "shouting",
      expiresAt: null,
      createdBy: mod.user.uuid,
      createdAt: t.clock.now().toISOString(),
    });
    const [row] = await sanctionsOf(target.user.uuid);
    expect(row).toMatchObject({ id: ok(res).id, type: "kick", liftedAt: null });
    expect((await t.userRow(target.user.uuid)).tokenVersion).toBe(1);
    for (const token of [target.token, otherSession]) {
      const old = await session(t, token);
      expectRefusal(old, 401, "Unauthorized");
    }
    await expectLogsIn(t, target.email);
  });

  it("refuses bad input and changes nothing", async () => {
    const mod = await withRole("moderator");
    const target = await t.createUser();
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [
      {},
      { userUuid: "not-a-uuid" },
      { userUuid: target.user.uuid, reason: "x".repeat(1001) },
      { userUuid: target.user.uuid, reason: 42 },
    ]) {
      const res = await t.request("POST", `${P}/users/kick`, { token: mod.token, body });
      expect(res.status).toBe(400);
      expect(Array.isArray(res.body.message)).toBe(true);
    }
    const unknown = await t.api(mod.token).user.POST("/users/kick", { body: { userUuid: crypto.randomUUID() } });
    expectRefusal(unknown, 404, "User not found.");
    const self = await t.api(mod.token).user.POST("/users/kick", { body: { userUuid: mod.user.uuid } });
    expectRefusal(self, 403, "You cannot moderate your own account.");
    expect(await sanctionsOf(target.user.uuid)).toHaveLength(0);
    expect(await sanctionsOf(mod.user.uuid)).toHaveLength(0);
    expect((await session(t, target.token)).response.status).toBe(200);
    expect((await session(t, mod.token)).response.status).toBe(200);
  });
});

describe("ban", () => {
  it("ends every session and keeps the user out, even with a fresh token", async () => {
    const mod = await withRole("moderator");
    const target = await t.createUser();
    const res = await t
      .api(mod.token)
      .user.POST("/users/ban", { body: { userUuid: target.user.uuid, reason: "spam" } });
    expect(res.response.status).toBe(201);
    expect(res.data).toMatchObject({ type: "ban", reason: "spam", expiresAt: null, createdBy: mod.user.uuid });
    expect((await session(t, target.token)).response.status).toBe(401);
    const refused = await login(t, target.email);
    expectRefusal(refused, 403, "This account is banned.", "ACCOUNT_BANNED");
    const fresh = await session(t, await t.tokenFor(target.user.uuid));
    expectRefusal(fresh, 403, "This account is banned.");
    // A permanent ban does not wear off.
    t.clock.advance(400 * 24 * 3600);
    expect((await login(t, target.email)).response.status).toBe(403);
  });

  it("refuses bad input and changes nothing", async () => {
    const mod = await withRole("moderator");
    const target = await t.createUser();
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [{ reason: "no user" }, { userUuid: "" }, { userUuid: target.user.uuid, reason: null }])
      expect((await t.request("POST", `${P}/users/ban`, { token: mod.token, body })).status).toBe(400);
    const notJson = await t.request("POST", `${P}/users/ban`, {
      token: mod.token,
      body: "{oops",
      headers: { "content-type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    expect(await sanctionsOf(target.user.uuid)).toHaveLength(0);
    expect((await login(t, target.email)).response.status).toBe(200);
  });
});

describe("temporary ban", () => {
  it("bans until the given time, then the user logs in again", async () => {
    const mod = await withRole("globalModerator");
    const target = await t.createUser();
    const until = new Date(t.clock.now().getTime() + 2 * 3600_000);
    const res = await t.api(mod.token).user.POST("/users/temporary-ban", {
      body: { userUuid: target.user.uuid, expiresAt: until.toISOString().replace("Z", "+00:00") },
    });
    expect(res.response.status).toBe(201);
    expect(res.data).toMatchObject({ type: "temporaryBan", expiresAt: until.toISOString() });
    const [row] = await sanctionsOf(target.user.uuid);
    expect(row?.expiresAt?.toISOString()).toBe(until.toISOString());
    expect((await session(t, target.token)).response.status).toBe(401);
    t.clock.advance(2 * 3600 - 60);
    const still = await login(t, target.email);
    expectRefusal(still, 403, "This account is banned.");
    t.clock.advance(61);
    await expectLogsIn(t, target.email);
  });

  it("computes the end from durationMinutes", async () => {
    const mod = await withRole("moderator");
    const target = await t.createUser();
    const res = await t
      .api(mod.token)
      .user.POST("/users/temporary-ban", { body: { userUuid: target.user.uuid, durationMinutes: 525_600 } });
    expect(res.response.status).toBe(201);
    expect(res.data?.expiresAt).toBe(new Date(t.clock.now().getTime() + 525_600 * 60_000).toISOString());
  });

  it("refuses bad input and changes nothing", async () => {
    const mod = await withRole("moderator");
    const target = await t.createUser();
    const future = new Date(t.clock.now().getTime() + 3600_000).toISOString();
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [
      { userUuid: target.user.uuid, expiresAt: future, durationMinutes: 10 },
      { userUuid: target.user.uuid, durationMinutes: 525_601 },
      { userUuid: target.user.uuid, durationMinutes: 1.5 },
      { userUuid: target.user.uuid, durationMinutes: "10" },
      { userUuid: target.user.uuid, expiresAt: t.clock.now().toISOString() },
      { userUuid: target.user.uuid, expiresAt: "2026-13-01T00:00:00Z" },
      { expiresAt: future },
    ]) {
      const res = await t.request("POST", `${P}/users/temporary-ban`, { token: mod.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const past = await t
      .api(mod.token)
      .user.POST("/users/temporary-ban", { body: { userUuid: target.user.uuid, expiresAt: "2020-01-01T00:00:00Z" } });
    expect(past.error?.message).toEqual(["expiresAt: must be in the future"]);
    expect(await sanctionsOf(target.user.uuid)).toHaveLength(0);
    expect((await t.userRow(target.user.uuid)).tokenVersion).toBe(0);
  });
});

describe("unban", () => {
  it("lifts every ban in force at once, recording who lifted them, and leaves kicks alone", async () => {
    const mod = await withRole("moderator");
    const other = await withRole("moderator");
    const target = await t.createUser();
    const body = { userUuid: target.user.uuid };
    await t.api(mod.token).user.POST("/users/kick", { body });
    await t.api(mod.token).user.POST("/users/ban", { body });
    await t.api(mod.token).user.POST("/users/temporary-ban", { body: { ...body, durationMinutes: 60 } });
    const res = await t.api(other.token).user.POST("/users/unban", { body });
    expect(res.response.status).toBe(200);
    expect(res.data).toEqual({ lifted: 2 });
    const rows = await sanctionsOf(target.user.uuid);
    for (const row of rows)
      if (row.type === "kick") expect(row.liftedAt).toBeNull();
      else expect(row).toMatchObject({ liftedAt: t.clock.now(), liftedBy: other.user.uuid });
    expect((await login(t, target.email)).response.status).toBe(200);
  });

  it("answers 409 when there is nothing to lift, an expired temporary ban included", async () => {
    const mod = await withRole("moderator");
    const target = await t.createUser();
    const body = { userUuid: target.user.uuid };
    const none = await t.api(mod.token).user.POST("/users/unban", { body });
    expectRefusal(none, 409, "This user has no ban in force.", "CONFLICT");
    await t.api(mod.token).user.POST("/users/temporary-ban", { body: { ...body, durationMinutes: 1 } });
    t.clock.advance(61);
    expect((await t.api(mod.token).user.POST("/users/unban", { body })).response.status).toBe(409);
    const [row] = await sanctionsOf(target.user.uuid);
    expect(row?.liftedAt).toBeNull();
  });

  it("refuses bad input and changes nothing", async () => {
    const mod = await withRole("moderator");
    const target = await t.createUser();
    await t.api(mod.token).user.POST("/users/ban", { body: { userUuid: target.user.uuid } });
    // Raw: input the typed client cannot send (it is wrong on purpose).
    expect((await t.request("POST", "/api/user-service/users/unban", { token: mod.token, body: {} })).status).toBe(400);
    expect((await t.api(mod.token).user.POST("/users/unban", { body: { userUuid: "nope" } })).response.status).toBe(
      400,
    );
    const unknown = await t.api(mod.token).user.POST("/users/unban", { body: { userUuid: crypto.randomUUID() } });
    expect(unknown.response.status).toBe(404);
    expect((await sanctionsOf(target.user.uuid)).every((s) => s.liftedAt === null)).toBe(true);
    expect((await login(t, target.email)).response.status).toBe(403);
  });
});

describe("add-role", () => {
  it("admins grant roles below their own; the role shows in the database and the next token", async () => {
    const admin = await withRole("admin");
    const target = await t.createUser();
    const res = await addRole(admin.token, target.user.uuid, "staff");
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ uuid: target.user.uuid, roles: ["user", "staff"] });
    expect((await t.userRow(target.user.uuid)).roles).toEqual(["user", "staff"]);
    // Granting a role does not end sessions; the refreshed session carries it.
    const s = await session(t, target.token);
    expect(s.response.status).toBe(200);
    expect(s.data?.user.roles).toEqual(["user", "staff"]);
  });

  it("only a superUser grants admin or superUser", async () => {
    const admin = await withRole("admin");
    const su = await withRole("superUser");
    const target = await t.createUser();
    // Raw: malformed input, which the typed client cannot send.
    for (const role of ["admin", "superUser"]) {
      const res = await t.request("POST", `${P}/users/add-role`, {
        token: admin.token,
        body: { userUuid: target.user.uuid, role },
      });
      expect(res.status).toBe(403);
    }
    expect((await t.userRow(target.user.uuid)).roles).toEqual(["user"]);
    const res = await addRole(su.token, target.user.uuid, "superUser");
    expect(res.response.status).toBe(200);
    expect((await t.userRow(target.user.uuid)).roles).toEqual(["user", "superUser"]);
  });

  it("staff and moderators may not grant roles; admins not to an equal rank", async () => {
    const admin = await withRole("admin");
    const otherAdmin = await withRole("admin");
    const target = await t.createUser();
    for (const role of ["staff", "globalModerator", "moderator"] as Role[]) {
      const caller = await withRole(role);
      expect(await statusOf(addRole(caller.token, target.user.uuid, "promoter"))).toBe(403);
    }
    const equal = await addRole(admin.token, otherAdmin.user.uuid, "promoter");
    expect(equal.response.status).toBe(403);
    expect((await t.userRow(target.user.uuid)).roles).toEqual(["user"]);
    expect((await t.userRow(otherAdmin.user.uuid)).roles).toEqual(["user", "admin"]);
  });

  it("answers the catalogue message for a role held already, and 400 for bad input", async () => {
    const admin = await withRole("admin");
    const target = await withRole("promoter");
    const twice = await addRole(admin.token, target.user.uuid, "promoter");
    expectRefusal(twice, 403, "This user has already this role.", "ALREADY_HAS_ROLE");
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [
      { userUuid: target.user.uuid },
      { userUuid: target.user.uuid, role: "Admin" },
      { role: "staff" },
      { userUuid: "x", role: "staff" },
    ])
      expect((await t.request("POST", `${P}/users/add-role`, { token: admin.token, body })).status).toBe(400);
    expect(await statusOf(addRole(admin.token, crypto.randomUUID(), "staff"))).toBe(404);
    expect((await t.userRow(target.user.uuid)).roles).toEqual(["user", "promoter"]);
  });
});

describe("add-global-moderator-role", () => {
  it("staff grant it, once; lower roles and equal ranks are refused", async () => {
    const staff = await withRole("staff");
    const otherStaff = await withRole("staff");
    const mod = await withRole("moderator");
    const gm = await withRole("globalModerator");
    const target = await t.createUser();
    for (const caller of [mod, gm])
      expect(await statusOf(addGlobalModerator(caller.token, target.user.uuid))).toBe(403);
    expect((await t.userRow(target.user.uuid)).roles).toEqual(["user"]);
    const accepted = await addGlobalModerator(staff.token, target.user.uuid);
    expect(accepted.response.status).toBe(200);
    expect((await t.userRow(target.user.uuid)).roles).toEqual(["user", "globalModerator"]);
    const twice = await addGlobalModerator(staff.token, target.user.uuid);
    expectRefusal(twice, 403, "This user has already this role.");
    const equal = await addGlobalModerator(staff.token, otherStaff.user.uuid);
    expect(equal.response.status).toBe(403);
    expect((await t.userRow(otherStaff.user.uuid)).roles).toEqual(["user", "staff"]);
  });

  it("refuses bad input", async () => {
    const staff = await withRole("staff");
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [{}, { userUuid: 1 }, { userUuid: "abc" }])
      expect(
        (await t.request("POST", `${P}/users/add-global-moderator-role`, { token: staff.token, body })).status,
      ).toBe(400);
    expect(await statusOf(addGlobalModerator(staff.token, crypto.randomUUID()))).toBe(404);
  });
});

describe("capabilities", () => {
  it("adds and removes each capability independently", async () => {
    const mod = await withRole("moderator");
    const target = await t.createUser();
    const url = (cap: string) => `${P}/users/${target.user.uuid}/capabilities/${cap}`;
    expect((await t.request("PUT", url("promoteRoom"), { token: mod.token })).status).toBe(200);
    const both = await t.request("PUT", url("uploadMusic"), { token: mod.token });
    expect(both.body.capabilities).toEqual(["promoteRoom", "uploadMusic"]);
    expect((await t.userRow(target.user.uuid)).capabilities).toEqual(["promoteRoom", "uploadMusic"]);
    const twice = await t.request("PUT", url("promoteRoom"), { token: mod.token });
    expectRefusal(twice, 403, "This user has already this role.", "ALREADY_HAS_ROLE");
    const removed = await t.request("DELETE", url("promoteRoom"), { token: mod.token });
    expect(removed.status).toBe(200);
    expect((await t.userRow(target.user.uuid)).capabilities).toEqual(["uploadMusic"]);
    const missing = await t.request("DELETE", url("promoteRoom"), { token: mod.token });
    expectRefusal(missing, 404, "This user does not have this capability.");
    expect((await t.userRow(target.user.uuid)).capabilities).toEqual(["uploadMusic"]);
  });

  it("refuses bad ids, unknown capabilities and unknown users", async () => {
    const mod = await withRole("moderator");
    const target = await t.createUser();
    for (const path of [
      `/users/not-a-uuid/capabilities/uploadMusic`,
      `/users/${target.user.uuid}/capabilities/UPLOADMUSIC`,
      `/users/${target.user.uuid}/capabilities/admin`,
    ])
      for (const method of ["PUT", "DELETE"])
        expect((await t.request(method, `${P}${path}`, { token: mod.token })).status).toBe(400);
    for (const method of ["PUT", "DELETE"]) {
      const res = await t.request(method, `${P}/users/${crypto.randomUUID()}/capabilities/uploadMusic`, {
        token: mod.token,
      });
      expectRefusal(res, 404, "User not found.");
    }
    expect((await t.userRow(target.user.uuid)).capabilities).toEqual([]);
  });
});

describe("moderation comments", () => {
  it("records the caller as author, trims the comment, and lists only the user's notes", async () => {
    const mod = await withRole("moderator");
    const other = await withRole("globalModerator");
    const target = await t.createUser();
    const bystander = await t.createUser();
    const res = await writeComment(mod.token, target.user.uuid, "  warned about spam  ");
    expect(res.response.status).toBe(201);
    expect(res.data).toMatchObject({
      userUuid: target.user.uuid,
      authorUuid: mod.user.uuid,
      comment: "warned about spam",
      createdAt: t.clock.now().toISOString(),
    });
    t.clock.advance(5);
    const long = "x".repeat(2000);
    expect(await statusOf(writeComment(other.token, target.user.uuid, long))).toBe(201);
    await writeComment(mod.token, bystander.user.uuid, "someone else");
    const list = await readComments(other.token, target.user.uuid);
    expect(list.response.status).toBe(200);
    expect(list.data?.map((c) => [c.authorUuid, c.comment])).toEqual([
      [other.user.uuid, long],
      [mod.user.uuid, "warned about spam"],
    ]);
    expect((await readComments(mod.token, crypto.randomUUID())).data).toEqual([]);
  });

  it("refuses bad input and stores nothing", async () => {
    const mod = await withRole("moderator");
    const target = await t.createUser();
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [
      { userUuid: target.user.uuid },
      { userUuid: target.user.uuid, comment: "   " },
      { userUuid: target.user.uuid, comment: "x".repeat(2001) },
      { userUuid: target.user.uuid, comment: 7 },
      { comment: "no user" },
    ])
      expect((await t.request("POST", `${P}/moderation-comments`, { token: mod.token, body })).status).toBe(400);
    const unknown = await writeComment(mod.token, crypto.randomUUID(), "ghost");
    expectRefusal(unknown, 404, "User not found.");
    expect(await statusOf(readComments(mod.token, "nope"))).toBe(400);
    expect(await commentsOn(target.user.uuid)).toHaveLength(0);
  });
});
