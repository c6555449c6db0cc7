import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { firstRow } from "../../lib/rows.ts";
import { expectRefusal, ok, openTestApp, statusOf } from "../../testing.ts";

const t = openTestApp();

const codeIn = async (to: string) => (await t.lastMessage(to))?.body.match(/code is (\d{6})/)?.[1] ?? "";

describe("email addresses", () => {
  it("adds an address, sends a code, verifies it with the code", async () => {
    const { token } = await t.createUser();
    const added = await t.api(token).user.POST("/users/emails", { body: { email: "Work@Example.com", type: "work" } });
    expect(added.response.status).toBe(201);
    expect(added.data).toMatchObject({ email: "work@example.com", type: "work", status: "PENDING_VERIFICATION" });
    const list = await t.api(token).user.GET("/users/emails");
    expect(list.data?.map((e) => e.email)).toContain("work@example.com");

    const wrong = await t.api(token).user.POST("/users/emails/verify", {
      body: {
        email: "work@example.com",
        code: "000000" === (await codeIn("work@example.com")) ? "111111" : "000000",
      },
    });
    expectRefusal(wrong, 403, "Email verification failed, incorrect code.");

    const accepted = await t.api(token).user.POST("/users/emails/verify", {
      body: { email: "work@example.com", code: await codeIn("work@example.com") },
    });
    expect(accepted.response.status).toBe(200);
    expect(accepted.data?.status).toBe("VERIFIED");
  });

  it("verifies the sign-in email through the deprecated confirm route, which marks the account verified", async () => {
    const { token, email, user } = await t.createUser({ verified: false });
    const resend = await t.api(token).user.POST("/users/emails/verification-email", { body: { email } });
    expect(resend.response.status).toBe(204);
    const res = await t.api(token).user.POST("/users/confirm-email", { body: { email, code: await codeIn(email) } });
    expect(res.response.status).toBe(200);
    const row = await firstRow(t.db, schema.users, eq(schema.users.uuid, user.uuid));
    expect(row?.verifiedAt).not.toBeNull();
  });

  it("verifies by the email row's id too", async () => {
    const { token } = await t.createUser();
    const added = await t.api(token).user.POST("/users/emails", { body: { email: "byid@example.com" } });
    const res = await t
      .api(token)
      .user.POST("/users/emails/verify", { body: { emailId: ok(added).id, code: await codeIn("byid@example.com") } });
    expect(res.response.status).toBe(200);
    expect(res.data?.status).toBe("VERIFIED");
    expect((await t.api(token).user.POST("/users/emails/verify", { body: { code: "123456" } })).response.status).toBe(
      400,
    );
  });

  it("refuses an address another account has", async () => {
    const other = await t.createUser();
    const { token } = await t.createUser();
    const res = await t.api(token).user.POST("/users/emails", { body: { email: other.email } });
    expectRefusal(res, 403, "This email is already registered.");
  });

  it("re-sends only after the minimum interval, never to a verified address, and 404s unknown ones", async () => {
    const { token } = await t.createUser();
    await t.api(token).user.POST("/users/emails", { body: { email: "resend@example.com" } });
    const soon = await t
      .api(token)
      .user.POST("/users/emails/verification-email", { body: { email: "resend@example.com" } });
    expectRefusal(soon, 403, "The minimum time has not yet elapsed since the last e-mail was sent.");
    t.clock.advance(61);
    const later = await t
      .api(token)
      .user.POST("/users/emails/verification-email", { body: { email: "resend@example.com" } });
    expect(later.response.status).toBe(204);
    await t.api(token).user.POST("/users/emails/verify", {
      body: { email: "resend@example.com", code: await codeIn("resend@example.com") },
    });
    t.clock.advance(61);
    const verified = await t
      .api(token)
      .user.POST("/users/emails/verification-email", { body: { email: "resend@example.com" } });
    expectRefusal(verified, 403, "This email is verified.");
    const unknown = await t
      .api(token)
      .user.POST("/users/emails/verification-email", { body: { email: "never-added@example.com" } });
    expectRefusal(unknown, 404, "Email not found.");
  });

  it("deletes an added address but not the sign-in one, and not someone else's", async () => {
    const { token, email } = await t.createUser();
    const other = await t.createUser();
    const added = await t.api(token).user.POST("/users/emails", { body: { email: "spare@example.com" } });
    expect(
      (await t.api(other.token).user.DELETE("/users/emails/{id}", { params: { path: { id: ok(added).id } } })).response
        .status,
    ).toBe(404);
    expect(
      (await t.api(token).user.DELETE("/users/emails/{id}", { params: { path: { id: ok(added).id } } })).response
        .status,
    ).toBe(204);
    const list = await t.api(token).user.GET("/users/emails");
    expect(list.data?.map((e) => e.email)).toEqual([email]);
    const login = ok(list)[0]!.id;
    const refused = await t.api(token).user.DELETE("/users/emails/{id}", { params: { path: { id: login } } });
    expect(refused.response.status).toBe(400);
  });

  it("refuses callers without a token and bad input", async () => {
    expect((await t.api().user.GET("/users/emails")).response.status).toBe(401);
    expect((await t.api().user.POST("/users/emails", { body: { email: "a@b.co" } })).response.status).toBe(401);
    const { token } = await t.createUser();
    // Raw: input the typed client cannot send (it is wrong on purpose).
    const bad = await t.request("POST", "/api/user-service/users/emails", {
      token,
      body: { email: "nope", type: "galaxy" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toHaveLength(2);
    const shortCode = { body: { email: "a@b.co", code: "12" } };
    expect(await statusOf(t.api(token).user.POST("/users/emails/verify", shortCode))).toBe(400);
    const notAUuid = { params: { path: { id: "not-a-uuid" } } };
    expect(await statusOf(t.api(token).user.DELETE("/users/emails/{id}", notAUuid))).toBe(400);
  });
});

describe("passwords", () => {
  it("resets a forgotten password once with the emailed link, ending old sessions", async () => {
    const { email, token } = await t.createUser();
    const sent = await t.api().user.POST("/users/forgot-password", { body: { email } });
    expect(sent.response.status).toBe(200);
    const resetToken = (await t.lastMessage(email))?.body.match(/token=([\w-]+)/)?.[1];
    const reset = await t
      .api()
      .user.POST("/users/reset-password", { body: { token: resetToken!, password: "brand new password" } });
    expect(reset.response.status).toBe(204);
    expect((await t.api(token).user.GET("/auth/session")).response.status).toBe(401);
    const login = await t.api().user.POST("/auth/login", { body: { email, password: "brand new password" } });
    expect(login.response.status).toBe(200);
    const again = await t
      .api()
      .user.POST("/users/reset-password", { body: { token: resetToken!, password: "another password" } });
    expectRefusal(again, 403, "Can not reset password.");
  });

  it("answers forgot-password the same for unknown emails and sends nothing", async () => {
    const res = await t.api().user.POST("/users/forgot-password", { body: { email: "ghost2@example.com" } });
    expect(res.response.status).toBe(200);
    expect(await t.lastMessage("ghost2@example.com")).toBeNull();
    expect((await t.api().user.POST("/users/forgot-password", { body: { email: "x" } })).response.status).toBe(400);
  });

  it("refuses an expired reset link", async () => {
    const { email } = await t.createUser();
    await t.api().user.POST("/users/forgot-password", { body: { email } });
    const resetToken = (await t.lastMessage(email))?.body.match(/token=([\w-]+)/)?.[1];
    t.clock.advance(3601);
    const res = await t
      .api()
      .user.POST("/users/reset-password", { body: { token: resetToken!, password: "brand new password" } });
    expectRefusal(res, 403, "Can not reset password.");
  });

  it("changes the own password only with the current one, and answers a working token", async () => {
    const { token, email, password } = await t.createUser();
    const wrong = await t
      .api(token)
      .user.POST("/users/set-password", { body: { password: "next password!", currentPassword: "not it" } });
    expect(wrong.response.status).toBe(403);
    expect((await t.api().user.POST("/auth/login", { body: { email, password } })).response.status).toBe(200);
    const accepted = await t
      .api(token)
      .user.POST("/users/set-password", { body: { password: "next password!", currentPassword: password } });
    expect(accepted.response.status).toBe(200);
    expect((await t.api(token).user.GET("/auth/session")).response.status).toBe(401);
    expect((await t.api(ok(accepted).accessToken).user.GET("/auth/session")).response.status).toBe(200);
    expect(
      (await t.api().user.POST("/users/set-password", { body: { password: "x".repeat(10) } })).response.status,
    ).toBe(401);
    expect(
      (await t.api(ok(accepted).accessToken).user.POST("/users/set-password", { body: { password: "short" } })).response
        .status,
    ).toBe(400);
  });

  it("lets admins set a user's password, and no one else", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const target = await t.createUser();
    const body = { userUuid: target.user.uuid, password: "admin chose this" };
    expect((await t.api().user.POST("/users/change-password-admin", { body })).response.status).toBe(401);
    expect((await t.api(target.token).user.POST("/users/change-password-admin", { body })).response.status).toBe(403);
    const other = await t.createUser({ roles: ["user", "admin"] });
    const peer = await t
      .api(admin.token)
      .user.POST("/users/change-password-admin", { body: { userUuid: other.user.uuid, password: "admin chose this" } });
    expect(peer.response.status).toBe(403);
    expect((await t.api(admin.token).user.POST("/users/change-password-admin", { body })).response.status).toBe(204);
    expect(
      (await t.api().user.POST("/auth/login", { body: { email: target.email, password: "admin chose this" } })).response
        .status,
    ).toBe(200);
    const missing = await t.api(admin.token).user.POST("/users/change-password-admin", {
      body: { userUuid: crypto.randomUUID(), password: "admin chose this" },
    });
    expect(missing.response.status).toBe(404);
  });
});
