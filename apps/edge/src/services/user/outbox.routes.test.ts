import { describe, expect, it } from "vitest";
import { mailerFrom, smsFrom } from "../../bootstrap.ts";
import { silentLogger } from "../../deps.ts";
import type { Mailer } from "../../ports/messaging.ts";
import { openTestApp } from "../../testing.ts";

const t = openTestApp();

const P = "/api/user-service";
const signUp = (email: string) =>
  t.request("POST", `${P}/users/sign-up`, { body: { email, password: "correct horse battery" } });

describe("GET /outbox", () => {
  it("is for admins only: 401 without a token, 403 for a plain user or staff", async () => {
    await signUp("secret-code@example.com");
    const nobody = await t.api().user.GET("/outbox");
    expect(nobody.response.status).toBe(401);
    for (const roles of [["user"], ["user", "staff"]] as const) {
      const someone = await t.createUser({ roles: [...roles] });
      const res = await t.api(someone.token).user.GET("/outbox");
      expect(res.response.status, roles.join()).toBe(403);
      expect(JSON.stringify(res.error)).not.toContain("secret-code@example.com");
    }
  });

  it("lists the latest emails and SMS newest first, for one address (as typed) or all", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    await signUp("newcomer@example.com");
    const phone = "+447400123456";
    expect(
      (await t.api().user.POST("/mobile-auth/send-code", { body: { phone, channel: "sms" } })).response.status,
    ).toBe(200);
    const latest = await t.api(admin.token).user.GET("/outbox", { params: { query: { limit: 2 } } });
    expect(latest.response.status).toBe(200);
    expect(latest.data?.data).toHaveLength(2);
    expect(latest.data?.total).toBeGreaterThanOrEqual(3);
    expect(latest.data?.data[0]).toMatchObject({ channel: "sms", to: phone, subject: null });
    expect(latest.data?.data[0]?.body).toMatch(/Your Booth code is \d{6}\./);
    expect(latest.data?.data[1]).toMatchObject({
      channel: "email",
      to: "newcomer@example.com",
      subject: "Verify your email for Booth",
    });
    expect(latest.data?.data[1]?.body).toMatch(/verification code is \d{6}/);

    const mine = await t.api(admin.token).user.GET("/outbox", { params: { query: { to: " Newcomer@Example.com " } } });
    expect(mine.data).toMatchObject({ total: 1, data: [{ to: "newcomer@example.com" }] });
    const byPhone = await t.api(admin.token).user.GET("/outbox", { params: { query: { to: "+44 7400 123-456" } } });
    expect(byPhone.data).toMatchObject({ total: 1, data: [{ to: phone }] });
    const nobody = await t.api(admin.token).user.GET("/outbox", { params: { query: { to: "ghost@example.com" } } });
    expect(nobody.data).toEqual({ data: [], total: 0 });
  });

  it("refuses a limit outside 1-100 with a 400 naming it", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    // Raw: malformed input, which the typed client cannot send.
    for (const limit of [0, 101, "many"]) {
      const res = await t.request("GET", `${P}/outbox`, { token: admin.token, query: { limit } });
      expect(res.status, String(limit)).toBe(400);
      expect(JSON.stringify(res.body.message)).toContain("limit");
    }
  });
});

describe("GET /auth/delivery", () => {
  const withSenders = async (mailer: Mailer, sms: typeof t.deps.sms) => {
    const saved = { mailer: t.deps.mailer, sms: t.deps.sms };
    Object.assign(t.deps, { mailer, sms });
    try {
      return await t.request("GET", `${P}/auth/delivery`);
    } finally {
      Object.assign(t.deps, saved);
    }
  };

  it("tells anyone whether codes reach the person, the edge's log, or only the outbox", async () => {
    const embedded = await withSenders(
      mailerFrom({}, t.db, silentLogger, () => {}),
      smsFrom({}, t.db, silentLogger, () => {}),
    );
    expect(embedded.status).toBe(200);
    expect(embedded.body).toEqual({ email: "log", sms: "log" });

    const production = { NODE_ENV: "production" };
    const quiet = await withSenders(
      mailerFrom(production, t.db, silentLogger, () => {}),
      smsFrom(production, t.db, silentLogger, () => {}),
    );
    expect(quiet.body).toEqual({ email: "outbox", sms: "outbox" });

    const resend = mailerFrom({ RESEND_API_KEY: "re_x", MAIL_FROM: "a@b.test" }, t.db, silentLogger, () => {});
    const twilio = smsFrom(
      { TWILIO_ACCOUNT_SID: "AC1", TWILIO_AUTH_TOKEN: "x", TWILIO_FROM: "+15005550006" },
      t.db,
      silentLogger,
      () => {},
    );
    expect((await withSenders(resend, twilio)).body).toEqual({ email: "provider", sms: "provider" });
    expect((await withSenders(resend, t.deps.sms)).body).toEqual({ email: "provider", sms: "outbox" });
  });
});
