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
const codeIn = async (to: string) => (await t.lastMessage(to))?.body.match(/code is (\d{6})/)?.[1] ?? "";

describe("email addresses", () => {
  it("adds an address, sends a code, verifies it with the code", async () => {
    const { token } = await t.createUser();
    const added = await t.request("POST", `${P}/users/emails`, {
      token,
      body: { email: "Work@Example.com", type: "work" },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ email: "work@example.com", type: "work", status: "PENDING_VERIFICATION" });
    const list = await t.request("GET", `${P}/users/emails`, { token });
    expect(list.body.map((e: { email: string }) => e.email)).toContain("work@example.com");

    const wrong = await t.request("POST", `${P}/users/emails/verify`, {
      token,
      body: { email: "work@example.com", code: "000000" === (await codeIn("work@example.com")) ? "111111" : "000000" },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.message).toBe("Email verification failed, incorrect code.");

    const ok = await t.request("POST", `${P}/users/emails/verify`, {
      token,
      body: { email: "work@example.com", code: await codeIn("work@example.com") },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe("VERIFIED");
  });

  it("verifies the sign-in email through the deprecated confirm route, which marks the account verified", async () => {
    const { token, email, user } = await t.createUser({ verified: false });
    const resend = await t.request("POST", `${P}/users/emails/verification-email`, { token, body: { email } });
    expect(resend.status).toBe(204);
    const res = await t.request("POST", `${P}/users/confirm-email`, {
      token,
      body: { email, code: await codeIn(email) },
    });
    expect(res.status).toBe(200);
    const [row] = await t.db.select().from(schema.users).where(eq(schema.users.uuid, user.uuid));
    expect(row?.verifiedAt).not.toBeNull();
  });

  it("verifies by the email row's id too", async () => {
    const { token } = await t.createUser();
    const added = await t.request("POST", `${P}/users/emails`, { token, body: { email: "byid@example.com" } });
    const res = await t.request("POST", `${P}/users/emails/verify`, {
      token,
      body: { emailId: added.body.id, code: await codeIn("byid@example.com") },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("VERIFIED");
    expect((await t.request("POST", `${P}/users/emails/verify`, { token, body: { code: "123456" } })).status).toBe(400);
  });

  it("refuses an address another account has", async () => {
    const other = await t.createUser();
    const { token } = await t.createUser();
    const res = await t.request("POST", `${P}/users/emails`, { token, body: { email: other.email } });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe("This email is already registered.");
  });

  it("re-sends only after the minimum interval, never to a verified address, and 404s unknown ones", async () => {
    const { token } = await t.createUser();
    await t.request("POST", `${P}/users/emails`, { token, body: { email: "resend@example.com" } });
    const soon = await t.request("POST", `${P}/users/emails/verification-email`, {
      token,
      body: { email: "resend@example.com" },
    });
    expect(soon.status).toBe(403);
    expect(soon.body.message).toBe("The minimum time has not yet elapsed since the last e-mail was sent.");
    t.clock.advance(61);
    const later = await t.request("POST", `${P}/users/emails/verification-email`, {
      token,
      body: { email: "resend@example.com" },
    });
    expect(later.status).toBe(204);
    await t.request("POST", `${P}/users/emails/verify`, {
      token,
      body: { email: "resend@example.com", code: await codeIn("resend@example.com") },
    });
    t.clock.advance(61);
    const verified = await t.request("POST", `${P}/users/emails/verification-email`, {
      token,
      body: { email: "resend@example.com" },
    });
    expect(verified.status).toBe(403);
    expect(verified.body.message).toBe("This email is verified.");
    const unknown = await t.request("POST", `${P}/users/emails/verification-email`, {
      token,
      body: { email: "never-added@example.com" },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("Email not found.");
  });

  it("deletes an added address but not the sign-in one, and not someone else's", async () => {
    const { token, email } = await t.createUser();
    const other = await t.createUser();
    const added = await t.request("POST", `${P}/users/emails`, { token, body: { email: "spare@example.com" } });
    expect((await t.request("DELETE", `${P}/users/emails/${added.body.id}`, { token: other.token })).status).toBe(404);
    expect((await t.request("DELETE", `${P}/users/emails/${added.body.id}`, { token })).status).toBe(204);
    const list = await t.request("GET", `${P}/users/emails`, { token });
    expect(list.body.map((e: { email: string }) => e.email)).toEqual([email]);
    const login = list.body[0].id;
    const refused = await t.request("DELETE", `${P}/users/emails/${login}`, { token });
    expect(refused.status).toBe(400);
  });

  it("refuses callers without a token and bad input", async () => {
    expect((await t.request("GET", `${P}/users/emails`)).status).toBe(401);
    expect((await t.request("POST", `${P}/users/emails`, { body: { email: "a@b.co" } })).status).toBe(401);
    const { token } = await t.createUser();
    const bad = await t.request("POST", `${P}/users/emails`, { token, body: { email: "nope", type: "galaxy" } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toHaveLength(2);
    expect(
      (await t.request("POST", `${P}/users/emails/verify`, { token, body: { email: "a@b.co", code: "12" } })).status,
    ).toBe(400);
    expect((await t.request("DELETE", `${P}/users/emails/not-a-uuid`, { token })).status).toBe(400);
  });
});

describe("passwords", () => {
  it("resets a forgotten password once with the emailed link, ending old sessions", async () => {
    const { email, token } = await t.createUser();
    const sent = await t.request("POST", `${P}/users/forgot-password`, { body: { email } });
    expect(sent.status).toBe(200);
    const resetToken = (await t.lastMessage(email))?.body.match(/token=([\w-]+)/)?.[1];
    const reset = await t.request("POST", `${P}/users/reset-password`, {
      body: { token: resetToken, password: "brand new password" },
    });
    expect(reset.status).toBe(204);
    expect((await t.request("GET", `${P}/auth/session`, { token })).status).toBe(401);
    const login = await t.request("POST", `${P}/auth/login`, { body: { email, password: "brand new password" } });
    expect(login.status).toBe(200);
    const again = await t.request("POST", `${P}/users/reset-password`, {
      body: { token: resetToken, password: "another password" },
    });
    expect(again.status).toBe(403);
    expect(again.body.message).toBe("Can not reset password.");
  });

  it("answers forgot-password the same for unknown emails and sends nothing", async () => {
    const res = await t.request("POST", `${P}/users/forgot-password`, { body: { email: "ghost2@example.com" } });
    expect(res.status).toBe(200);
    expect(await t.lastMessage("ghost2@example.com")).toBeNull();
    expect((await t.request("POST", `${P}/users/forgot-password`, { body: { email: "x" } })).status).toBe(400);
  });

  it("refuses an expired reset link", async () => {
    const { email } = await t.createUser();
    await t.request("POST", `${P}/users/forgot-password`, { body: { email } });
    const resetToken = (await t.lastMessage(email))?.body.match(/token=([\w-]+)/)?.[1];
    t.clock.advance(3601);
    const res = await t.request("POST", `${P}/users/reset-password`, {
      body: { token: resetToken, password: "brand new password" },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe("Can not reset password.");
  });

  it("changes the own password only with the current one, and answers a working token", async () => {
    const { token, email, password } = await t.createUser();
    const wrong = await t.request("POST", `${P}/users/set-password`, {
      token,
      body: { password: "next password!", currentPassword: "not it" },
    });
    expect(wrong.status).toBe(403);
    expect((await t.request("POST", `${P}/auth/login`, { body: { email, password } })).status).toBe(200);
    const ok = await t.request("POST", `${P}/users/set-password`, {
      token,
      body: { password: "next password!", currentPassword: password },
    });
    expect(ok.status).toBe(200);
    expect((await t.request("GET", `${P}/auth/session`, { token })).status).toBe(401);
    expect((await t.request("GET", `${P}/auth/session`, { token: ok.body.accessToken })).status).toBe(200);
    expect((await t.request("POST", `${P}/users/set-password`, { body: { password: "x".repeat(10) } })).status).toBe(
      401,
    );
    expect(
      (await t.request("POST", `${P}/users/set-password`, { token: ok.body.accessToken, body: { password: "short" } }))
        .status,
    ).toBe(400);
  });

  it("lets admins set a user's password, and no one else", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const target = await t.createUser();
    const body = { userUuid: target.user.uuid, password: "admin chose this" };
    expect((await t.request("POST", `${P}/users/change-password-admin`, { body })).status).toBe(401);
    expect((await t.request("POST", `${P}/users/change-password-admin`, { token: target.token, body })).status).toBe(
      403,
    );
    const other = await t.createUser({ roles: ["user", "admin"] });
    const peer = await t.request("POST", `${P}/users/change-password-admin`, {
      token: admin.token,
      body: { userUuid: other.user.uuid, password: "admin chose this" },
    });
    expect(peer.status).toBe(403);
    expect((await t.request("POST", `${P}/users/change-password-admin`, { token: admin.token, body })).status).toBe(
      204,
    );
    expect(
      (await t.request("POST", `${P}/auth/login`, { body: { email: target.email, password: "admin chose this" } }))
        .status,
    ).toBe(200);
    const missing = await t.request("POST", `${P}/users/change-password-admin`, {
      token: admin.token,
      body: { userUuid: crypto.randomUUID(), password: "admin chose this" },
    });
    expect(missing.status).toBe(404);
  });
});
