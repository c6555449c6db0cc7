// Password routes (served by password.routes.ts): the cases email-password.routes.test.ts leaves out, with
// database read-backs after every refusal.
import { schema } from "@booth/db";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { verifyPassword } from "../../lib/password.ts";
import { firstRow } from "../../lib/rows.ts";
import { expectRefusal, ok, openTestApp, statusOf } from "../../testing.ts";

const t = openTestApp();

const P = "/api/user-service";
const resetTokenIn = async (to: string) => (await t.lastMessage(to))?.body.match(/token=([\w-]+)/)?.[1] ?? "";
/** Each call its own client address, so the per-address limits of one test do not spill into the next. */
let ip = 0;
const from = () => ({ "x-forwarded-for": `10.0.${Math.floor(++ip / 250)}.${ip % 250}` });
const forgot = (email: string, headers = from()) =>
  t.request("POST", `${P}/users/forgot-password`, { body: { email }, headers });
const login = (email: string, password: string) =>
  t.request("POST", `${P}/auth/login`, { body: { email, password }, headers: from() });

describe("POST /users/forgot-password", () => {
  it("answers the same for a registered and an unknown address, and mails a one-hour link only to the account", async () => {
    const me = await t.createUser();
    const known = await forgot(me.email.toUpperCase());
    const unknown = await forgot(`ghost-${crypto.randomUUID().slice(0, 6)}@example.com`);
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);

    const mail = await t.lastMessage(me.email);
    expect(mail?.subject).toBe("Reset your Booth password");
    expect(mail?.body).toContain(`${t.deps.config.webUrl}/reset-password?token=`);
    const code = await firstRow(
      t.db,
      schema.codes,
      and(eq(schema.codes.purpose, "passwordReset"), eq(schema.codes.target, me.user.uuid)),
    );
    expect(code?.userUuid).toBe(me.user.uuid);
    expect(code?.expiresAt.getTime()).toBe(t.clock.now().getTime() + 3600 * 1000);
    // The token itself is never stored, only its hash.
    expect(code?.codeHash).not.toBe(await resetTokenIn(me.email));
  });

  it("sends nothing to a deactivated account, with the same answer", async () => {
    const me = await t.createUser();
    await t.changeUser(me.user.uuid, { deactivatedAt: t.clock.now() });
    const res = await forgot(me.email);
    expect(res.status).toBe(200);
    expect(await t.lastMessage(me.email)).toBeNull();
  });

  it("limits requests per email address, whether or not it is registered: 5 from one address, 20 from all", async () => {
    const me = await t.createUser();
    const ghost = `limit-${crypto.randomUUID().slice(0, 6)}@example.com`;
    for (const email of [me.email, ghost]) {
      const stranger = from();
      for (let i = 0; i < 5; i++) expect((await forgot(email, stranger)).status).toBe(200);
      const limited = await forgot(email, stranger);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      // The stranger has not used up the owner's allowance: other addresses still ask, up to the email's own limit.
      for (let i = 0; i < 15; i++) expect((await forgot(email)).status).toBe(200);
      expect((await forgot(email)).status).toBe(429);
    }
    const before = await t.db.select().from(schema.codes).where(eq(schema.codes.target, me.user.uuid));
    expect(before).toHaveLength(20);
  });

  it("limits requests per client address", async () => {
    const headers = { "x-forwarded-for": "203.0.113.9" };
    for (let i = 0; i < 20; i++)
      expect((await forgot(`many-${i}-${crypto.randomUUID().slice(0, 4)}@example.com`, headers)).status).toBe(200);
    expect((await forgot("one-more@example.com", headers)).status).toBe(429);
    expect((await forgot("one-more@example.com")).status).toBe(200);
  });

  it("refuses bad input", async () => {
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [{}, { email: "nope" }, { email: ["a@b.co"] }]) {
      const res = await t.request("POST", `${P}/users/forgot-password`, { body, headers: from() });
      expect(res.status).toBe(400);
    }
  });
});

describe("POST /users/reset-password", () => {
  it("sets the new password and ends every session", async () => {
    const me = await t.createUser();
    const before = await t.userRow(me.user.uuid);
    await forgot(me.email);
    const res = await t.api().user.POST("/users/reset-password", {
      body: { token: await resetTokenIn(me.email), password: "a fresh passphrase" },
      headers: from(),
    });
    expect([200, 204]).toContain(res.response.status);
    const after = await t.userRow(me.user.uuid);
    expect(after?.tokenVersion).toBe((before?.tokenVersion ?? 0) + 1);
    expect(await verifyPassword("a fresh passphrase", after?.passwordHash)).toBe(true);
    expect((await login(me.email, me.password)).status).toBe(401);
    expect((await t.api(me.token).user.GET("/auth/session")).response.status).toBe(401);
  });

  it("refuses unknown tokens and tokens of another purpose", async () => {
    const me = await t.createUser();
    const before = await t.userRow(me.user.uuid);
    const magic = await t
      .api()
      .user.GET("/auth/magic-link", { params: { query: { email: me.email } }, headers: from() });
    expect(magic.response.status).toBe(200);
    const magicToken = (await t.lastMessage(me.email))?.body.match(/token=([\w-]+)/)?.[1];
    // Raw: malformed input, which the typed client cannot send.
    for (const token of ["made-up-token", magicToken]) {
      const res = await t.request("POST", `${P}/users/reset-password`, {
        body: { token, password: "sneaky password" },
        headers: from(),
      });
      expectRefusal(res, 403, "Can not reset password.");
    }
    const after = await t.userRow(me.user.uuid);
    expect(after?.passwordHash).toBe(before?.passwordHash);
    expect(after?.tokenVersion).toBe(before?.tokenVersion);
  });

  it("refuses bad input without using the token up", async () => {
    const me = await t.createUser();
    await forgot(me.email);
    const token = await resetTokenIn(me.email);
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [
      { token },
      { password: "long enough pass" },
      { token, password: "short" },
      { token: "", password: "long enough pass" },
    ]) {
      const res = await t.request("POST", `${P}/users/reset-password`, { body, headers: from() });
      expect(res.status).toBe(400);
    }
    expect((await login(me.email, me.password)).status).toBe(200);
    const accepted = await t
      .api()
      .user.POST("/users/reset-password", { body: { token, password: "long enough pass" }, headers: from() });
    expect([200, 204]).toContain(accepted.response.status);
  });

  it("only the newest link works", async () => {
    const me = await t.createUser();
    await forgot(me.email);
    const first = await resetTokenIn(me.email);
    t.clock.advance(1);
    await forgot(me.email);
    const second = await resetTokenIn(me.email);
    const old = await t
      .api()
      .user.POST("/users/reset-password", { body: { token: first, password: "from the old link" }, headers: from() });
    expect(old.response.status).toBe(403);
    const accepted = await t
      .api()
      .user.POST("/users/reset-password", { body: { token: second, password: "from the new link" }, headers: from() });
    expect([200, 204]).toContain(accepted.response.status);
  });
});

describe("POST /users/set-password", () => {
  it("lets an account without a password set one without a current password", async () => {
    const me = await t.createUser();
    await t.changeUser(me.user.uuid, { passwordHash: null });
    const res = await t.api(me.token).user.POST("/users/set-password", { body: { password: "first ever password" } });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ tokenType: "Bearer" });
    expect((await login(me.email, "first ever password")).status).toBe(200);
    expect((await t.api(ok(res).accessToken).user.GET("/auth/session")).response.status).toBe(200);
    expect((await t.api(me.token).user.GET("/auth/session")).response.status).toBe(401);
  });

  it("requires the current password when there is one, changing nothing without it", async () => {
    const me = await t.createUser();
    const before = await t.userRow(me.user.uuid);
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [
      { password: "hijacked password" },
      { password: "hijacked password", currentPassword: "guess" },
    ]) {
      const res = await t.request("POST", `${P}/users/set-password`, { token: me.token, body });
      expectRefusal(res, 403, "The current password is incorrect.");
    }
    const after = await t.userRow(me.user.uuid);
    expect(after?.passwordHash).toBe(before?.passwordHash);
    expect(after?.tokenVersion).toBe(before?.tokenVersion);
    expect((await t.api(me.token).user.GET("/auth/session")).response.status).toBe(200);
  });

  it("bumps the token version and answers a token carrying it", async () => {
    const me = await t.createUser();
    const res = await t
      .api(me.token)
      .user.POST("/users/set-password", { body: { password: "rotated password", currentPassword: me.password } });
    expect(res.response.status).toBe(200);
    const after = await t.userRow(me.user.uuid);
    expect(after?.tokenVersion).toBe(me.user.tokenVersion + 1);
    expect(await verifyPassword("rotated password", after?.passwordHash)).toBe(true);
    const session = await t.api(ok(res).accessToken).user.GET("/auth/session");
    expect(session.data?.user.uuid).toBe(me.user.uuid);
  });

  it("refuses callers without a user token and bad input", async () => {
    const me = await t.createUser();
    const body = { password: "whatever it is", currentPassword: me.password };
    expect((await t.api().user.POST("/users/set-password", { body })).response.status).toBe(401);
    expect((await t.api(await t.serviceToken()).user.POST("/users/set-password", { body })).response.status).toBe(401);
    const bot = await t
      .api(me.token)
      .user.POST("/users/sign-up-bot", { body: { nickname: `bot${crypto.randomUUID().slice(0, 6)}` } });
    expect(bot.response.status).toBe(201);
    expect((await t.api(ok(bot).accessToken).user.POST("/users/set-password", { body })).response.status).toBe(401);
    const before = await t.userRow(me.user.uuid);
    // Raw: malformed input, which the typed client cannot send.
    for (const bad of [
      {},
      { password: "short", currentPassword: me.password },
      { password: "x".repeat(129), currentPassword: me.password },
    ]) {
      expect((await t.request("POST", `${P}/users/set-password`, { token: me.token, body: bad })).status).toBe(400);
    }
    expect((await t.userRow(me.user.uuid))?.passwordHash).toBe(before?.passwordHash);
  });
});

describe("POST /users/change-password-admin", () => {
  /** The caller `token` sets the password of the user `userUuid`. */
  const setPassword = (token: string, userUuid: string, password: string) =>
    t.api(token).user.POST("/users/change-password-admin", { body: { userUuid, password } });

  it("an admin sets a user's password and ends that user's sessions", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const target = await t.createUser({ roles: ["user", "staff"] });
    expect([200, 204]).toContain(await statusOf(setPassword(admin.token, target.user.uuid, "chosen by admin")));
    const after = await t.userRow(target.user.uuid);
    expect(after?.tokenVersion).toBe(target.user.tokenVersion + 1);
    expect(await verifyPassword("chosen by admin", after?.passwordHash)).toBe(true);
    expect((await t.api(target.token).user.GET("/auth/session")).response.status).toBe(401);
    // The admin's own session is untouched.
    expect((await t.api(admin.token).user.GET("/auth/session")).response.status).toBe(200);
  });

  it("a superUser may change an admin's password, an admin may not change a superUser's", async () => {
    const superUser = await t.createUser({ roles: ["user", "superUser"] });
    const admin = await t.createUser({ roles: ["user", "admin"] });
    expect([200, 204]).toContain(await statusOf(setPassword(superUser.token, admin.user.uuid, "super set this")));
    const adminToken = await t.tokenFor(admin.user.uuid);
    const before = await t.userRow(superUser.user.uuid);
    expect(await statusOf(setPassword(adminToken, superUser.user.uuid, "admin tried this"))).toBe(403);
    const after = await t.userRow(superUser.user.uuid);
    expect(after?.passwordHash).toBe(before?.passwordHash);
    expect(after?.tokenVersion).toBe(before?.tokenVersion);
  });

  it("refuses everyone below admin", async () => {
    const target = await t.createUser();
    for (const roles of [["user"], ["user", "moderator"], ["user", "globalModerator"], ["user", "staff"]] as const) {
      const caller = await t.createUser({ roles: [...roles] });
      expect(await statusOf(setPassword(caller.token, target.user.uuid, "not allowed here"))).toBe(403);
    }
    expect(await statusOf(setPassword(await t.serviceToken(), target.user.uuid, "not allowed here"))).toBe(401);
    expect((await t.userRow(target.user.uuid))?.tokenVersion).toBe(target.user.tokenVersion);
  });

  it("refuses bad input", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const target = await t.createUser();
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [
      {},
      { userUuid: "not-a-uuid", password: "long enough pass" },
      { userUuid: target.user.uuid, password: "short" },
      { userUuid: target.user.uuid },
    ]) {
      const res = await t.request("POST", `${P}/users/change-password-admin`, { token: admin.token, body });
      expect(res.status).toBe(400);
    }
    expect((await t.userRow(target.user.uuid))?.tokenVersion).toBe(target.user.tokenVersion);
    expect((await login(target.email, target.password)).status).toBe(200);
  });
});
