import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureAdmin, mailerFromEnv, smsFromEnv } from "./bootstrap.ts";
import { createTestApp, type TestApp } from "./testing.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

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
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => {
        body += d;
      });
      req.on("end", () => {
        seen.push({ auth: req.headers.authorization, body });
        res.statusCode = fail ? 500 : 200;
        res.end(JSON.stringify({ id: "email_1" }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const env = { RESEND_API_KEY: "re_test", MAIL_FROM: "Booth <no-reply@booth.test>", RESEND_BASE_URL: baseUrl };
      const mailer = mailerFromEnv(env, t.db, () => {});
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
      expect(() => mailerFromEnv({ RESEND_API_KEY: "re_test" }, t.db, () => {})).toThrow(/MAIL_FROM/);
      expect(mailerFromEnv({}, t.db, () => {}).kind).toBe("outbox");
    } finally {
      server.close();
    }
  });
});

describe("SMS provider from the environment", () => {
  it("uses Twilio only when fully configured", () => {
    expect(smsFromEnv({}, t.db, () => {}).kind).toBe("outbox");
    expect(() => smsFromEnv({ TWILIO_ACCOUNT_SID: "AC1" }, t.db, () => {})).toThrow(/TWILIO_AUTH_TOKEN/);
    const env = { TWILIO_ACCOUNT_SID: "AC1", TWILIO_AUTH_TOKEN: "x", TWILIO_FROM: "+15005550006" };
    expect(smsFromEnv(env, t.db, () => {}).kind).toBe("twilio");
  });
});
