import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ensureAdmin, mailerFrom, smsFrom } from "./bootstrap.ts";
import { readEdgeSettings } from "./config.ts";
import { listenLocally, requestText } from "./testing/local-server.ts";
import { openTestApp } from "./testing.ts";

const t = openTestApp();

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

describe("email provider from the environment", () => {
  it("sends through Resend's HTTP API when configured, and turns a provider failure into a 502", async () => {
    const { createServer } = await import("node:http");
    const seen: { auth?: string; body?: string }[] = [];
    let fail = false;
    const server = createServer(async (req, res) => {
      const body = await requestText(req);
      seen.push({ auth: req.headers.authorization, body });
      res.statusCode = fail ? 500 : 200;
      res.end(JSON.stringify({ id: "email_1" }));
    });
    const baseUrl = await listenLocally(server);
    try {
      const env = { RESEND_API_KEY: "re_test", MAIL_FROM: "Booth <no-reply@booth.test>", RESEND_BASE_URL: baseUrl };
      const mailer = mailerFrom(env, t.db, () => {});
      await mailer.send({ to: "fan@example.com", subject: "Hi", text: "Hello" });
      expect(seen[0]?.auth).toBe("Bearer re_test");
      expect(JSON.parse(seen[0]?.body ?? "{}")).toMatchObject({
        to: ["fan@example.com"],
        subject: "Hi",
        text: "Hello",
      });
      fail = true;
      await expect(mailer.send({ to: "fan@example.com", subject: "Hi", text: "x" })).rejects.toMatchObject({
        status: 502,
      });
      expect(() => mailerFrom(readEdgeSettings({ RESEND_API_KEY: "re_test" }), t.db, () => {})).toThrow(/MAIL_FROM/);
      expect(
        mailerFrom(
          {},
          t.db,
          () => {},
          () => {},
        ).kind,
      ).toBe("log");
    } finally {
      server.close();
    }
  });
});

describe("SMS provider from the environment", () => {
  it("uses Twilio only when fully configured", () => {
    expect(
      smsFrom(
        {},
        t.db,
        () => {},
        () => {},
      ).kind,
    ).toBe("log");
    expect(() => smsFrom(readEdgeSettings({ TWILIO_ACCOUNT_SID: "AC1" }), t.db, () => {})).toThrow(/TWILIO_AUTH_TOKEN/);
    const env = { TWILIO_ACCOUNT_SID: "AC1", TWILIO_AUTH_TOKEN: "x", TWILIO_FROM: "+15005550006" };
    expect(smsFrom(env, t.db, () => {}).kind).toBe("twilio");
  });
});

describe("messages without a provider", () => {
  const P = "/api/user-service";

  it("prints each one in the edge's log on the embedded instance, with the code the person needs", async () => {
    const printed: string[] = [];
    const saved = { mailer: t.deps.mailer, sms: t.deps.sms };
    t.deps.mailer = mailerFrom(
      {},
      t.db,
      () => {},
      (text) => printed.push(text),
    );
    t.deps.sms = smsFrom(
      {},
      t.db,
      () => {},
      (text) => printed.push(text),
    );
    try {
      const email = "first-hour@example.com";
      const signUp = await t.request("POST", `${P}/users/sign-up`, {
        body: { email, password: "correct horse battery" },
      });
      expect(signUp.status).toBe(201);
      expect(printed).toHaveLength(1);
      const block = printed[0] ?? "";
      expect(block.split("\n")).toEqual([
        `Email to ${email} (not sent: no email provider is configured)`,
        "  Subject: Verify your email for Booth",
        expect.stringMatching(/^ {2}Your Booth verification code is \d{6}\. It expires in 24 hours\.$/),
      ]);
      // The printed code is the one that verifies the address, and the outbox keeps the message too.
      const code = /code is (\d{6})/.exec(block)?.[1];
      expect((await t.lastMessage(email))?.body).toContain(`code is ${code}.`);
      const verified = await t.request("POST", `${P}/users/emails/verify`, {
        token: signUp.body.accessToken,
        body: { email, code },
      });
      expect(verified.status).toBe(200);

      await t.request("GET", `${P}/auth/magic-link`, { query: { email } });
      expect(printed[1]).toMatch(
        new RegExp(
          `^Email to ${email} .*\n {2}Subject: Your Booth sign-in link\n {2}Sign in to Booth: http\\S+/magic-link\\?token=\\S+\n {2}The link works once`,
        ),
      );

      const phone = "+447400123457";
      await t.request("POST", `${P}/mobile-auth/send-code`, { body: { phone, channel: "whatsapp" } });
      expect(printed[2]).toMatch(
        /^WhatsApp to \+447400123457 \(not sent: no SMS provider is configured\)\n {2}Your Booth code is \d{6}\./,
      );
    } finally {
      Object.assign(t.deps, saved);
    }
  });

  it("keeps them in the outbox without printing in production, where logs are kept and read by others", async () => {
    const printed: string[] = [];
    const production = { NODE_ENV: "production" };
    const mailer = mailerFrom(
      production,
      t.db,
      () => {},
      (text) => printed.push(text),
    );
    const sms = smsFrom(
      { BOOTH_ENV: "production" },
      t.db,
      () => {},
      (text) => printed.push(text),
    );
    await mailer.send({ to: "quiet@example.com", subject: "Verify", text: "Your code is 123456." });
    await sms.send({ to: "+447400123458", channel: "sms", text: "Your code is 654321." });
    expect(printed).toEqual([]);
    expect((await t.lastMessage("quiet@example.com"))?.body).toBe("Your code is 123456.");
    expect((await t.lastMessage("+447400123458"))?.body).toBe("Your code is 654321.");
  });
});
