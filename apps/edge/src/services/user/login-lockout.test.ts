import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { expectRefusal, openTestApp } from "../../testing.ts";

const t = openTestApp();

const P = "/api/user-service";
const login = (email: string, password: string, address: string) =>
  t.request("POST", `${P}/auth/login`, { body: { email, password }, headers: { "x-forwarded-for": address } });

describe("password guessing", () => {
  it("ten wrong passwords stop the guesser's address, not the owner signing in from theirs", async () => {
    const owner = await t.createUser();
    const attacker = "198.51.100.66";
    for (let i = 0; i < 10; i++) expect((await login(owner.email, "not the password", attacker)).status).toBe(401);

    const refused = await login(owner.email, owner.password, attacker);
    expectRefusal(refused, 429, "Too many attempts, please try again later.");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(refused.headers.get("ratelimit-limit")).toBe("10");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("ratelimit-reset")).toBe(String(retryAfter));

    const ownLogin = await login(owner.email, owner.password, "203.0.113.80");
    expect(ownLogin.status).toBe(200);
    expect(ownLogin.body.user.uuid).toBe(owner.user.uuid);
  });

  it("a right password wipes the owner's own mistakes from their address", async () => {
    const owner = await t.createUser();
    const home = "203.0.113.81";
    for (let i = 0; i < 9; i++) expect((await login(owner.email, "typo typo", home)).status).toBe(401);
    expect((await login(owner.email, owner.password, home)).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await login(owner.email, "typo typo", home)).status).toBe(401);
    expect((await login(owner.email, owner.password, home)).status).toBe(200);
  });
});

describe("links sent to an email", () => {
  it("a stranger asking for sign-in links runs out of their own requests, not the owner's", async () => {
    const owner = await t.createUser();
    const ask = (address: string) =>
      t.request("GET", `${P}/auth/magic-link`, {
        query: { email: owner.email },
        headers: { "x-forwarded-for": address },
      });
    for (let i = 0; i < 5; i++) expect((await ask("198.51.100.67")).status).toBe(200);
    const refused = await ask("198.51.100.67");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const mails = async () => (await t.db.select().from(schema.outbox).where(eq(schema.outbox.to, owner.email))).length;
    expect(await mails()).toBe(5);
    expect((await ask("203.0.113.82")).status).toBe(200);
    expect(await mails()).toBe(6);
  });
});
