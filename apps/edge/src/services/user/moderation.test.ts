import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { firstRow } from "../../lib/rows.ts";
import { expectRefusal, expectStatuses, login, openTestApp, session, statusOf } from "../../testing.ts";

const t = openTestApp();

const P = "/api/user-service";
/** The moderation actions recorded against the user. */
const actionsOn = (uuid: string) =>
  t.db.select().from(schema.moderationActions).where(eq(schema.moderationActions.targetUuid, uuid));

describe("sanctions", () => {
  it("a kick ends every session but the user may log in again", async () => {
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser();
    const res = await t
      .api(mod.token)
      .user.POST("/users/kick", { body: { userUuid: target.user.uuid, reason: "spam" } });
    expect(res.response.status).toBe(201);
    expect(res.data).toMatchObject({ type: "kick", reason: "spam", createdBy: mod.user.uuid });
    expect((await session(t, target.token)).response.status).toBe(401);
    expect((await login(t, target.email)).response.status).toBe(200);
  });

  it("a ban keeps the user out until unbanned", async () => {
    const mod = await t.createUser({ roles: ["user", "globalModerator"] });
    const target = await t.createUser();
    expect(
      (await t.api(mod.token).user.POST("/users/ban", { body: { userUuid: target.user.uuid } })).response.status,
    ).toBe(201);
    const refused = await login(t, target.email);
    expectRefusal(refused, 403, "This account is banned.");
    const unban = await t.api(mod.token).user.POST("/users/unban", { body: { userUuid: target.user.uuid } });
    expect(unban.data).toEqual({ lifted: 1 });
    expect((await login(t, target.email)).response.status).toBe(200);
    const again = await t.api(mod.token).user.POST("/users/unban", { body: { userUuid: target.user.uuid } });
    expect(again.response.status).toBe(409);
  });

  it("every sanction, unban and role grant leaves a moderation action behind", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const target = await t.createUser();
    const body = { userUuid: target.user.uuid, reason: "flooding" };
    await t.api(admin.token).user.POST("/users/kick", { body });
    await t.api(admin.token).user.POST("/users/temporary-ban", { body: { ...body, durationMinutes: 5 } });
    await t.api(admin.token).user.POST("/users/ban", { body });
    await t.api(admin.token).user.POST("/users/unban", { body: { userUuid: target.user.uuid } });
    await t.api(admin.token).user.POST("/users/add-role", { body: { userUuid: target.user.uuid, role: "promoter" } });
    const log = await actionsOn(target.user.uuid);
    expect(log.map((a) => a.actionType).sort()).toEqual([
      "globalBan",
      "globalKick",
      "globalUnBan",
      "grantRole",
      "temporaryBan",
    ]);
    expect(log.every((a) => a.moderatorUuid === admin.user.uuid)).toBe(true);
    expect(log.find((a) => a.actionType === "globalKick")?.reason).toBe("flooding");
    expect(log.find((a) => a.actionType === "grantRole")?.role).toBe("promoter");
  });

  it("a refused sanction leaves nothing behind", async () => {
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const admin = await t.createUser({ roles: ["user", "admin"] });
    await t.api(mod.token).user.POST("/users/ban", { body: { userUuid: admin.user.uuid } });
    const log = await actionsOn(admin.user.uuid);
    expect(log).toHaveLength(0);
  });

  it("a temporary ban ends by itself", async () => {
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser();
    const res = await t
      .api(mod.token)
      .user.POST("/users/temporary-ban", { body: { userUuid: target.user.uuid, durationMinutes: 60 } });
    expect(res.response.status).toBe(201);
    expect((await login(t, target.email)).response.status).toBe(403);
    t.clock.advance(61 * 60);
    expect((await login(t, target.email)).response.status).toBe(200);
  });

  it("refuses bad temporary bans and changes nothing", async () => {
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser();
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [
      { userUuid: target.user.uuid },
      { userUuid: target.user.uuid, durationMinutes: 0 },
      { userUuid: target.user.uuid, expiresAt: "2000-01-01T00:00:00Z" },
      { userUuid: target.user.uuid, expiresAt: "tomorrow" },
    ])
      expect((await t.request("POST", `${P}/users/temporary-ban`, { token: mod.token, body })).status).toBe(400);
    expect(
      await t.db.select().from(schema.sanctions).where(eq(schema.sanctions.userUuid, target.user.uuid)),
    ).toHaveLength(0);
    expect((await session(t, target.token)).response.status).toBe(200);
  });

  it("only moderators sanction, and never someone of equal or higher rank", async () => {
    const user = await t.createUser();
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const otherMod = await t.createUser({ roles: ["user", "moderator"] });
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const ban = (token: string | undefined, userUuid: string) =>
      statusOf(t.api(token).user.POST("/users/ban", { body: { userUuid } }));
    expect(await ban(undefined, mod.user.uuid)).toBe(401);
    expect(await ban(user.token, mod.user.uuid)).toBe(403);
    expect(await statusOf(t.api(mod.token).user.POST("/users/kick", { body: { userUuid: otherMod.user.uuid } }))).toBe(
      403,
    );
    expect(await ban(mod.token, admin.user.uuid)).toBe(403);
    expect(await ban(mod.token, mod.user.uuid)).toBe(403);
    expect(await ban(mod.token, crypto.randomUUID())).toBe(404);
    expect((await session(t, admin.token)).response.status).toBe(200);
  });
});

describe("roles and capabilities", () => {
  it("admins grant roles once, with the catalogue message the second time", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const target = await t.createUser();
    const grant = (role: "promoter" | "bot") =>
      t.api(admin.token).user.POST("/users/add-role", { body: { userUuid: target.user.uuid, role } });
    const res = await grant("promoter");
    expect(res.response.status).toBe(200);
    expect(res.data?.roles).toEqual(["user", "promoter"]);
    const twice = await grant("promoter");
    expectRefusal(twice, 403, "This user has already this role.");
    const bot = await grant("bot");
    expect(bot.response.status).toBe(400);
    expect(bot.error?.message).toEqual([
      "role: the bot role belongs to bot accounts (bot sign-up) and cannot be granted",
    ]);
    const row = await firstRow(t.db, schema.users, eq(schema.users.uuid, target.user.uuid));
    expect(row?.roles).toEqual(["user", "promoter"]);
  });

  it("only a superUser grants admin; moderators grant nothing", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const su = await t.createUser({ roles: ["user", "superUser"] });
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser();
    const body = { userUuid: target.user.uuid, role: "admin" as const };
    const grant = (token: string, role: "admin" | "staff" = "admin") =>
      statusOf(t.api(token).user.POST("/users/add-role", { body: { ...body, role } }));
    expect(await grant(admin.token)).toBe(403);
    expect(await grant(mod.token, "staff")).toBe(403);
    expect(await grant(su.token)).toBe(200);
    // Raw: input the typed client cannot send (it is wrong on purpose).
    expect(
      (
        await t.request("POST", "/api/user-service/users/add-role", {
          token: su.token,
          body: { ...body, role: "emperor" },
        })
      ).status,
    ).toBe(400);
  });

  it("staff grant the global moderator role", async () => {
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser();
    const grant = (token: string) =>
      t.api(token).user.POST("/users/add-global-moderator-role", { body: { userUuid: target.user.uuid } });
    expect(await statusOf(grant(mod.token))).toBe(403);
    expect((await grant(staff.token)).data?.roles).toContain("globalModerator");
    const twice = await grant(staff.token);
    expect(twice.error?.message).toBe("This user has already this role.");
  });

  it("moderators give and take capabilities", async () => {
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser();
    const upload = { params: { path: { id: target.user.uuid, capability: "uploadMusic" as const } } };
    const give = (token: string) => t.api(token).user.PUT("/users/{id}/capabilities/{capability}", upload);
    const take = () => t.api(mod.token).user.DELETE("/users/{id}/capabilities/{capability}", upload);
    expect(await statusOf(give(target.token))).toBe(403);
    expect((await give(mod.token)).data?.capabilities).toEqual(["uploadMusic"]);
    const twice = await give(mod.token);
    expectRefusal(twice, 403, "This user has already this role.");
    expect((await t.api(target.token).user.GET("/users/capabilities")).data?.capabilities).toEqual(["uploadMusic"]);
    expect((await take()).data?.capabilities).toEqual([]);
    expect(await statusOf(take())).toBe(404);
    const log = await actionsOn(target.user.uuid);
    expect(log.map((a) => `${a.actionType} ${a.role}`).sort()).toEqual([
      "grantRole capability:uploadMusic",
      "removeRole capability:uploadMusic",
    ]);
    // Raw: input the typed client cannot send (it is wrong on purpose).
    expect(
      (
        await t.request("PUT", `/api/user-service/users/${target.user.uuid}/capabilities/${"fly"}`, {
          token: mod.token,
        })
      ).status,
    ).toBe(400);
  });
});

describe("moderation comments", () => {
  it("moderators write and read notes about a user, newest first", async () => {
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser();
    const write = (token: string, comment: string) =>
      t.api(token).user.POST("/moderation-comments", { body: { userUuid: target.user.uuid, comment } });
    const read = (token: string) =>
      t.api(token).user.GET("/moderation-comments/{id}", { params: { path: { id: target.user.uuid } } });
    await write(mod.token, "first");
    t.clock.advance(1);
    await write(mod.token, "second");
    expect((await read(mod.token)).data?.map((c) => c.comment)).toEqual(["second", "first"]);
    expect(await statusOf(read(target.token))).toBe(403);
    expect(await statusOf(write(target.token, "x"))).toBe(403);
    expect(await statusOf(write(mod.token, ""))).toBe(400);
  });
});

describe("deactivation", () => {
  it("a user asks, a moderator sees it, an admin deactivates and later reactivates", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser({ nickname: "leaving" });
    expect(
      (await t.api(target.token).user.POST("/users/request-deactivate", { body: { reason: "bye" } })).response.status,
    ).toBe(201);
    expect((await t.api(target.token).user.POST("/users/request-deactivate", { body: {} })).response.status).toBe(409);
    const list = await t.api(mod.token).user.GET("/users/list-deactivate");
    expect(list.data?.find((r) => r.userUuid === target.user.uuid)).toMatchObject({
      nickname: "leaving",
      reason: "bye",
    });
    expect((await t.api(target.token).user.GET("/users/list-deactivate")).response.status).toBe(403);

    const theTarget = { params: { path: { id: target.user.uuid } } };
    const deactivate = (token: string) => t.api(token).user.DELETE("/users/deactivate/{id}", theTarget);
    const reactivate = (token: string) => t.api(token).user.POST("/users/reactivate/{id}", theTarget);
    await expectStatuses(deactivate, [
      [mod.token, 403],
      [admin.token, 204],
    ]);
    const refused = await login(t, target.email);
    expectRefusal(refused, 403, "This account is deactivated.");
    expect((await session(t, target.token)).response.status).toBe(401);
    expect(await statusOf(t.api().user.GET("/profile/{id}", theTarget))).toBe(404);
    const after = await t.api(mod.token).user.GET("/users/list-deactivate");
    expect(after.data?.some((r) => r.userUuid === target.user.uuid)).toBe(false);

    await expectStatuses(reactivate, [
      [mod.token, 403],
      [admin.token, 204],
    ]);
    expect((await login(t, target.email)).response.status).toBe(200);
    expect(await statusOf(reactivate(admin.token))).toBe(409);
  });

  it("a moderator cannot cancel the request of someone who outranks them", async () => {
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const admin = await t.createUser({ roles: ["user", "admin"], nickname: "leaving_admin" });
    const asked = await t.api(admin.token).user.POST("/users/request-deactivate", { body: {} });
    expect(asked.data?.nickname).toBe("leaving_admin");
    const res = await t
      .api(mod.token)
      .user.POST("/users/cancel-requested-deactivate", { body: { userUuid: admin.user.uuid } });
    expect(res.response.status).toBe(403);
    const list = await t.api(mod.token).user.GET("/users/list-deactivate");
    expect(list.data?.some((r) => r.userUuid === admin.user.uuid)).toBe(true);
  });

  it("a moderator cancels a pending request", async () => {
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser();
    await t.api(target.token).user.POST("/users/request-deactivate", { body: {} });
    const body = { userUuid: target.user.uuid };
    const cancel = (token?: string) => t.api(token).user.POST("/users/cancel-requested-deactivate", { body });
    await expectStatuses(cancel, [
      [target.token, 403],
      [mod.token, 204],
      [mod.token, 404],
      [undefined, 401],
    ]);
    expect((await t.api(target.token).user.POST("/users/request-deactivate", { body: {} })).response.status).toBe(201);
  });
});
