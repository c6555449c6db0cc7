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
const login = (email: string, password = "password123") =>
  t.request("POST", `${P}/auth/login`, { body: { email, password } });
const session = (token: string) => t.request("GET", `${P}/auth/session`, { token });

describe("sanctions", () => {
  it("a kick ends every session but the user may log in again", async () => {
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser();
    const res = await t.request("POST", `${P}/users/kick`, {
      token: mod.token,
      body: { userUuid: target.user.uuid, reason: "spam" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "kick", reason: "spam", createdBy: mod.user.uuid });
    expect((await session(target.token)).status).toBe(401);
    expect((await login(target.email)).status).toBe(200);
  });

  it("a ban keeps the user out until unbanned", async () => {
    const mod = await t.createUser({ roles: ["user", "globalModerator"] });
    const target = await t.createUser();
    expect(
      (await t.request("POST", `${P}/users/ban`, { token: mod.token, body: { userUuid: target.user.uuid } })).status,
    ).toBe(201);
    const refused = await login(target.email);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("This account is banned.");
    const unban = await t.request("POST", `${P}/users/unban`, {
      token: mod.token,
      body: { userUuid: target.user.uuid },
    });
    expect(unban.body).toEqual({ lifted: 1 });
    expect((await login(target.email)).status).toBe(200);
    const again = await t.request("POST", `${P}/users/unban`, {
      token: mod.token,
      body: { userUuid: target.user.uuid },
    });
    expect(again.status).toBe(409);
  });

  it("every sanction, unban and role grant leaves a moderation action behind", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const target = await t.createUser();
    const body = { userUuid: target.user.uuid, reason: "flooding" };
    await t.request("POST", `${P}/users/kick`, { token: admin.token, body });
    await t.request("POST", `${P}/users/temporary-ban`, { token: admin.token, body: { ...body, durationMinutes: 5 } });
    await t.request("POST", `${P}/users/ban`, { token: admin.token, body });
    await t.request("POST", `${P}/users/unban`, { token: admin.token, body: { userUuid: target.user.uuid } });
    await t.request("POST", `${P}/users/add-role`, {
      token: admin.token,
      body: { userUuid: target.user.uuid, role: "promoter" },
    });
    const log = await t.db
      .select()
      .from(schema.moderationActions)
      .where(eq(schema.moderationActions.targetUuid, target.user.uuid));
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
    await t.request("POST", `${P}/users/ban`, { token: mod.token, body: { userUuid: admin.user.uuid } });
    const log = await t.db
      .select()
      .from(schema.moderationActions)
      .where(eq(schema.moderationActions.targetUuid, admin.user.uuid));
    expect(log).toHaveLength(0);
  });

  it("a temporary ban ends by itself", async () => {
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser();
    const res = await t.request("POST", `${P}/users/temporary-ban`, {
      token: mod.token,
      body: { userUuid: target.user.uuid, durationMinutes: 60 },
    });
    expect(res.status).toBe(201);
    expect((await login(target.email)).status).toBe(403);
    t.clock.advance(61 * 60);
    expect((await login(target.email)).status).toBe(200);
  });

  it("refuses bad temporary bans and changes nothing", async () => {
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser();
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
    expect((await session(target.token)).status).toBe(200);
  });

  it("only moderators sanction, and never someone of equal or higher rank", async () => {
    const user = await t.createUser();
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const otherMod = await t.createUser({ roles: ["user", "moderator"] });
    const admin = await t.createUser({ roles: ["user", "admin"] });
    expect((await t.request("POST", `${P}/users/ban`, { body: { userUuid: mod.user.uuid } })).status).toBe(401);
    expect(
      (await t.request("POST", `${P}/users/ban`, { token: user.token, body: { userUuid: mod.user.uuid } })).status,
    ).toBe(403);
    expect(
      (await t.request("POST", `${P}/users/kick`, { token: mod.token, body: { userUuid: otherMod.user.uuid } })).status,
    ).toBe(403);
    expect(
      (await t.request("POST", `${P}/users/ban`, { token: mod.token, body: { userUuid: admin.user.uuid } })).status,
    ).toBe(403);
    expect(
      (await t.request("POST", `${P}/users/ban`, { token: mod.token, body: { userUuid: mod.user.uuid } })).status,
    ).toBe(403);
    expect(
      (await t.request("POST", `${P}/users/ban`, { token: mod.token, body: { userUuid: crypto.randomUUID() } })).status,
    ).toBe(404);
    expect((await session(admin.token)).status).toBe(200);
  });
});

describe("roles and capabilities", () => {
  it("admins grant roles once, with the catalogue message the second time", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const target = await t.createUser();
    const res = await t.request("POST", `${P}/users/add-role`, {
      token: admin.token,
      body: { userUuid: target.user.uuid, role: "promoter" },
    });
    expect(res.status).toBe(200);
    expect(res.body.roles).toEqual(["user", "promoter"]);
    const twice = await t.request("POST", `${P}/users/add-role`, {
      token: admin.token,
      body: { userUuid: target.user.uuid, role: "promoter" },
    });
    expect(twice.status).toBe(403);
    expect(twice.body.message).toBe("This user has already this role.");
    const bot = await t.request("POST", `${P}/users/add-role`, {
      token: admin.token,
      body: { userUuid: target.user.uuid, role: "bot" },
    });
    expect(bot.status).toBe(400);
    expect(bot.body.message).toEqual([
      "role: the bot role belongs to bot accounts (bot sign-up) and cannot be granted",
    ]);
    const [row] = await t.db.select().from(schema.users).where(eq(schema.users.uuid, target.user.uuid));
    expect(row?.roles).toEqual(["user", "promoter"]);
  });

  it("only a superUser grants admin; moderators grant nothing", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const su = await t.createUser({ roles: ["user", "superUser"] });
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser();
    const body = { userUuid: target.user.uuid, role: "admin" };
    expect((await t.request("POST", `${P}/users/add-role`, { token: admin.token, body })).status).toBe(403);
    expect(
      (await t.request("POST", `${P}/users/add-role`, { token: mod.token, body: { ...body, role: "staff" } })).status,
    ).toBe(403);
    expect((await t.request("POST", `${P}/users/add-role`, { token: su.token, body })).status).toBe(200);
    expect(
      (await t.request("POST", `${P}/users/add-role`, { token: su.token, body: { ...body, role: "emperor" } })).status,
    ).toBe(400);
  });

  it("staff grant the global moderator role", async () => {
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser();
    expect(
      (
        await t.request("POST", `${P}/users/add-global-moderator-role`, {
          token: mod.token,
          body: { userUuid: target.user.uuid },
        })
      ).status,
    ).toBe(403);
    const ok = await t.request("POST", `${P}/users/add-global-moderator-role`, {
      token: staff.token,
      body: { userUuid: target.user.uuid },
    });
    expect(ok.body.roles).toContain("globalModerator");
    const twice = await t.request("POST", `${P}/users/add-global-moderator-role`, {
      token: staff.token,
      body: { userUuid: target.user.uuid },
    });
    expect(twice.body.message).toBe("This user has already this role.");
  });

  it("moderators give and take capabilities", async () => {
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser();
    const url = `${P}/users/${target.user.uuid}/capabilities/uploadMusic`;
    expect((await t.request("PUT", url, { token: target.token })).status).toBe(403);
    expect((await t.request("PUT", url, { token: mod.token })).body.capabilities).toEqual(["uploadMusic"]);
    const twice = await t.request("PUT", url, { token: mod.token });
    expect(twice.status).toBe(403);
    expect(twice.body.message).toBe("This user has already this role.");
    expect((await t.request("GET", `${P}/users/capabilities`, { token: target.token })).body.capabilities).toEqual([
      "uploadMusic",
    ]);
    expect((await t.request("DELETE", url, { token: mod.token })).body.capabilities).toEqual([]);
    expect((await t.request("DELETE", url, { token: mod.token })).status).toBe(404);
    const log = await t.db
      .select()
      .from(schema.moderationActions)
      .where(eq(schema.moderationActions.targetUuid, target.user.uuid));
    expect(log.map((a) => `${a.actionType} ${a.role}`).sort()).toEqual([
      "grantRole capability:uploadMusic",
      "removeRole capability:uploadMusic",
    ]);
    expect(
      (await t.request("PUT", `${P}/users/${target.user.uuid}/capabilities/fly`, { token: mod.token })).status,
    ).toBe(400);
  });
});

describe("moderation comments", () => {
  it("moderators write and read notes about a user, newest first", async () => {
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser();
    await t.request("POST", `${P}/moderation-comments`, {
      token: mod.token,
      body: { userUuid: target.user.uuid, comment: "first" },
    });
    t.clock.advance(1);
    await t.request("POST", `${P}/moderation-comments`, {
      token: mod.token,
      body: { userUuid: target.user.uuid, comment: "second" },
    });
    const list = await t.request("GET", `${P}/moderation-comments/${target.user.uuid}`, { token: mod.token });
    expect(list.body.map((c: { comment: string }) => c.comment)).toEqual(["second", "first"]);
    expect(
      (await t.request("GET", `${P}/moderation-comments/${target.user.uuid}`, { token: target.token })).status,
    ).toBe(403);
    expect(
      (
        await t.request("POST", `${P}/moderation-comments`, {
          token: target.token,
          body: { userUuid: target.user.uuid, comment: "x" },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.request("POST", `${P}/moderation-comments`, {
          token: mod.token,
          body: { userUuid: target.user.uuid, comment: "" },
        })
      ).status,
    ).toBe(400);
  });
});

describe("deactivation", () => {
  it("a user asks, a moderator sees it, an admin deactivates and later reactivates", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser({ nickname: "leaving" });
    expect(
      (await t.request("POST", `${P}/users/request-deactivate`, { token: target.token, body: { reason: "bye" } }))
        .status,
    ).toBe(201);
    expect((await t.request("POST", `${P}/users/request-deactivate`, { token: target.token, body: {} })).status).toBe(
      409,
    );
    const list = await t.request("GET", `${P}/users/list-deactivate`, { token: mod.token });
    expect(list.body.find((r: { userUuid: string }) => r.userUuid === target.user.uuid)).toMatchObject({
      nickname: "leaving",
      reason: "bye",
    });
    expect((await t.request("GET", `${P}/users/list-deactivate`, { token: target.token })).status).toBe(403);

    expect((await t.request("DELETE", `${P}/users/deactivate/${target.user.uuid}`, { token: mod.token })).status).toBe(
      403,
    );
    expect(
      (await t.request("DELETE", `${P}/users/deactivate/${target.user.uuid}`, { token: admin.token })).status,
    ).toBe(204);
    const refused = await login(target.email);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("This account is deactivated.");
    expect((await session(target.token)).status).toBe(401);
    expect((await t.request("GET", `${P}/profile/${target.user.uuid}`)).status).toBe(404);
    const after = await t.request("GET", `${P}/users/list-deactivate`, { token: mod.token });
    expect(after.body.some((r: { userUuid: string }) => r.userUuid === target.user.uuid)).toBe(false);

    expect((await t.request("POST", `${P}/users/reactivate/${target.user.uuid}`, { token: mod.token })).status).toBe(
      403,
    );
    expect((await t.request("POST", `${P}/users/reactivate/${target.user.uuid}`, { token: admin.token })).status).toBe(
      204,
    );
    expect((await login(target.email)).status).toBe(200);
    expect((await t.request("POST", `${P}/users/reactivate/${target.user.uuid}`, { token: admin.token })).status).toBe(
      409,
    );
  });

  it("a moderator cannot cancel the request of someone who outranks them", async () => {
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const admin = await t.createUser({ roles: ["user", "admin"], nickname: "leaving_admin" });
    const asked = await t.request("POST", `${P}/users/request-deactivate`, { token: admin.token, body: {} });
    expect(asked.body.nickname).toBe("leaving_admin");
    const res = await t.request("POST", `${P}/users/cancel-requested-deactivate`, {
      token: mod.token,
      body: { userUuid: admin.user.uuid },
    });
    expect(res.status).toBe(403);
    const list = await t.request("GET", `${P}/users/list-deactivate`, { token: mod.token });
    expect(list.body.some((r: { userUuid: string }) => r.userUuid === admin.user.uuid)).toBe(true);
  });

  it("a moderator cancels a pending request", async () => {
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const target = await t.createUser();
    await t.request("POST", `${P}/users/request-deactivate`, { token: target.token, body: {} });
    const body = { userUuid: target.user.uuid };
    expect(
      (await t.request("POST", `${P}/users/cancel-requested-deactivate`, { token: target.token, body })).status,
    ).toBe(403);
    expect((await t.request("POST", `${P}/users/cancel-requested-deactivate`, { token: mod.token, body })).status).toBe(
      204,
    );
    expect((await t.request("POST", `${P}/users/cancel-requested-deactivate`, { token: mod.token, body })).status).toBe(
      404,
    );
    expect((await t.request("POST", `${P}/users/cancel-requested-deactivate`, { body })).status).toBe(401);
    expect((await t.request("POST", `${P}/users/request-deactivate`, { token: target.token, body: {} })).status).toBe(
      201,
    );
  });
});
