import { base64url, SignJWT, UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIVE_TOKEN_REFUSED } from "../../lib/auth.ts";
import { generateKeys, signToken } from "../../lib/tokens.ts";
import { createTestApp, type TestApp } from "../../testing.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const P = "/api/user-service";

describe("sign-up and login", () => {
  it("signs up, emails a verification code, and logs in", async () => {
    const res = await t.request("POST", `${P}/users/sign-up`, {
      body: { email: "New.Person@Example.com", password: "long enough pw" },
    });
    expect(res.status).toBe(201);
    expect(res.body.user.email).toBe("new.person@example.com");
    expect(res.body.user.profile.nickname).toBe("new.person");
    expect(res.body.tokenType).toBe("Bearer");
    const mail = await t.lastMessage("new.person@example.com");
    expect(mail?.body).toMatch(/verification code is \d{6}/);

    const login = await t.request("POST", `${P}/auth/login`, {
      body: { email: "new.person@example.com", password: "long enough pw" },
    });
    expect(login.status).toBe(200);
    const session = await t.request("GET", `${P}/auth/session`, { token: login.body.accessToken });
    expect(session.status).toBe(200);
    expect(session.body.user.uuid).toBe(res.body.user.uuid);
  });

  it("refuses a second account with the same email, with the catalogue message", async () => {
    await t.request("POST", `${P}/users/sign-up`, { body: { email: "twice@example.com", password: "password123" } });
    const res = await t.request("POST", `${P}/users/sign-up`, {
      body: { email: "TWICE@example.com", password: "password123" },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ statusCode: 403, message: "This email is already registered.", error: "Forbidden" });
  });

  it("answers missing fields with the catalogue message and bad fields per field", async () => {
    const missing = await t.request("POST", `${P}/users/sign-up`, { body: { email: "x@example.com" } });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("Email or password is missing in request.");
    const bad = await t.request("POST", `${P}/users/sign-up`, { body: { email: "not-an-email", password: "short" } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toHaveLength(2);
    expect(bad.body.message[0]).toMatch(/^email: /);
    expect(bad.body.message[1]).toMatch(/^password: /);
  });

  it("gives the same answer for a wrong password and an unknown email", async () => {
    const { email } = await t.createUser();
    const wrong = await t.request("POST", `${P}/auth/login`, { body: { email, password: "wrong password" } });
    const unknown = await t.request("POST", `${P}/auth/login`, {
      body: { email: "nobody@example.com", password: "wrong password" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.message).toBe("Incorrect email or password.");
  });

  it("rate-limits repeated failed logins for one account", async () => {
    const { email } = await t.createUser();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await t.request("POST", `${P}/auth/login`, { body: { email, password: "wrong pw!" } })).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe("tokens", () => {
  it("publishes the public key that verifies issued tokens", async () => {
    const res = await t.request("GET", `${P}/auth/pub-key`);
    expect(res.status).toBe(200);
    expect(res.body.alg).toBe("ES256");
    expect(res.body.publicKey).toContain("BEGIN PUBLIC KEY");
    expect(res.body.jwk.d).toBeUndefined();
  });

  it("issues guest tokens that are not logged-in sessions", async () => {
    const guest = await t.request("GET", `${P}/auth/guest`);
    expect(guest.status).toBe(200);
    const session = await t.request("GET", `${P}/auth/session`, { token: guest.body.accessToken });
    expect(session.status).toBe(401);
  });

  it("hands out 15-minute live tokens to signed-in users and bots, not to guests or services", async () => {
    const { user, token } = await t.createUser();
    const live = await t.request("POST", `${P}/auth/live-token`, { token });
    expect(live.status).toBe(200);
    const lasts = Date.parse(live.body.expiresAt) - t.clock.now().getTime();
    expect(lasts).toBeGreaterThan(14 * 60_000);
    expect(lasts).toBeLessThanOrEqual(15 * 60_000);
    const events = { topic: "trackStartedPlaying", data: { roomSlug: "lobby" } };
    const heard = await t.request("POST", "/api/audit-service/kinesis", { token: live.body.accessToken, body: events });
    expect(heard.status).toBe(201);
    expect(heard.body.userUuid).toBe(user.uuid);
    // The live room joins with the socket's own token.
    const room = await t.request("POST", "/api/room-service/rooms/infrastructure", {
      token,
      body: { name: "Live Den" },
    });
    const join = `/api/room-service/rooms/${room.body.uuid}/join`;
    expect((await t.request("POST", join, { token: live.body.accessToken, body: {} })).status).toBe(200);
    t.clock.advance(16 * 60);
    const late = await t.request("POST", "/api/audit-service/kinesis", { token: live.body.accessToken, body: events });
    expect(late.status).toBe(401);
    // The session's own token still works, and gets fresh live tokens.
    expect((await t.request("POST", `${P}/auth/live-token`, { token })).status).toBe(200);
    const guest = await t.request("GET", `${P}/auth/guest`);
    expect((await t.request("POST", `${P}/auth/live-token`, { token: guest.body.accessToken })).status).toBe(401);
    expect((await t.request("POST", `${P}/auth/live-token`, { token: await t.serviceToken() })).status).toBe(401);
    expect((await t.request("POST", `${P}/auth/live-token`)).status).toBe(401);
  });

  it("never exchanges a live token for a session or any other credential, nor lets it change the account", async () => {
    const { user, token } = await t.createUser();
    const bot = await t.request("POST", `${P}/users/sign-up-bot`, { token, body: { nickname: `bot${Date.now()}` } });
    expect(bot.status).toBe(201);
    const live = (await t.request("POST", `${P}/auth/live-token`, { token })).body.accessToken as string;
    const botLive = (await t.request("POST", `${P}/auth/live-token`, { token: bot.body.accessToken })).body.accessToken;
    const attempts: [string, string, unknown?][] = [
      ["GET", `${P}/auth/session`],
      ["POST", `${P}/auth/live-token`],
      ["POST", `${P}/users/set-password`, { password: "a brand new password" }],
      ["POST", `${P}/users/emails`, { email: "thief@example.com" }],
      ["POST", `${P}/users/emails/verification-email`, { email: user.email }],
      ["POST", `${P}/auth/link-discord`, { accessToken: "discord-token" }],
      ["POST", `${P}/spotify/exchange-code`, { code: "code", redirectUri: "https://booth.test/cb" }],
      ["GET", `${P}/soundcloud/public-token`],
      ["GET", `${P}/comet-chat/user-token`],
      ["GET", `${P}/comet-chat/ghost-token`],
      ["POST", `${P}/agora/token`, { channelName: crypto.randomUUID() }],
      ["POST", `${P}/users/sign-up-bot`, { nickname: `other${Date.now()}` }],
      ["GET", `${P}/users/bot-token?botUuid=${bot.body.user.uuid}`],
      ["POST", `${P}/users/request-deactivate`, {}],
    ];
    for (const [method, path, body] of attempts) {
      const res = await t.request(method, path, { token: live, body });
      expect({ path, status: res.status, message: res.body.message }).toEqual({
        path,
        status: 401,
        message: LIVE_TOKEN_REFUSED,
      });
    }
    const botSession = await t.request("GET", `${P}/auth/session`, { token: botLive });
    expect(botSession.status).toBe(401);
    expect(botSession.body.message).toBe(LIVE_TOKEN_REFUSED);
    // The session still works, and a token signed before purposes existed is a session.
    expect((await t.request("GET", `${P}/auth/session`, { token })).status).toBe(200);
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const older = await new SignJWT({ type: "user", roles: user.roles, badges: [], ver: user.tokenVersion })
      .setProtectedHeader({ alg: "ES256" })
      .setSubject(user.uuid)
      .setIssuer("booth")
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(t.deps.keys.privateKey);
    expect((await t.request("GET", `${P}/auth/session`, { token: older })).status).toBe(200);
  });

  it("refuses forged, tampered, expired and alg:none tokens", async () => {
    const { user, token } = await t.createUser();
    expect((await t.request("GET", `${P}/auth/session`, { token })).status).toBe(200);

    const other = await generateKeys();
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const forged = await signToken(
      other.keys,
      { sub: user.uuid, type: "user", roles: ["admin"], badges: [], ver: 0 },
      now,
    );
    const [h, payload, s] = token.split(".") as [string, string, string];
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload)));
    const tampered = `${h}.${base64url.encode(JSON.stringify({ ...claims, roles: ["admin"] }))}.${s}`;
    const none = new UnsecuredJWT({ type: "user", roles: [], badges: [], ver: 0 })
      .setSubject(user.uuid)
      .setIssuer("booth")
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .encode();
    const expired = await new SignJWT({ type: "user", roles: [], badges: [], ver: 0 })
      .setProtectedHeader({ alg: "ES256" })
      .setSubject(user.uuid)
      .setIssuer("booth")
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(t.deps.keys.privateKey);
    for (const bad of [forged, tampered, none, expired, "garbage"]) {
      const res = await t.request("GET", `${P}/auth/session`, { token: bad });
      expect(res.status).toBe(401);
    }
  });
});

describe("magic link", () => {
  it("emails a single-use link that signs the user in", async () => {
    const { email, user } = await t.createUser();
    const res = await t.request("GET", `${P}/auth/magic-link`, { query: { email } });
    expect(res.status).toBe(200);
    const token = (await t.lastMessage(email))?.body.match(/token=([\w-]+)/)?.[1];
    expect(token).toBeTruthy();
    const first = await t.request("POST", `${P}/auth/validate-magic-link`, { body: { token } });
    expect(first.status).toBe(200);
    expect(first.body.user.uuid).toBe(user.uuid);
    const second = await t.request("POST", `${P}/auth/validate-magic-link`, { body: { token } });
    expect(second.status).toBe(401);
  });

  it("answers the same for an unknown email and sends nothing", async () => {
    const res = await t.request("GET", `${P}/auth/magic-link`, { query: { email: "ghost@example.com" } });
    expect(res.status).toBe(200);
    expect(await t.lastMessage("ghost@example.com")).toBeNull();
  });

  it("expires links after 15 minutes", async () => {
    const { email } = await t.createUser();
    await t.request("GET", `${P}/auth/magic-link`, { query: { email } });
    const token = (await t.lastMessage(email))?.body.match(/token=([\w-]+)/)?.[1];
    t.clock.advance(16 * 60);
    const res = await t.request("POST", `${P}/auth/validate-magic-link`, { body: { token } });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("This sign-in link is invalid or has expired.");
  });
});

describe("gateway", () => {
  it("answers unknown routes with the Nest-style 404", async () => {
    const res = await t.request("GET", "/api/user-service/nope");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: "Cannot GET /api/user-service/nope", error: "Not Found" });
  });

  it("answers malformed JSON with a 400 envelope", async () => {
    const res = await t.request("POST", `${P}/auth/login`, {
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.statusCode).toBe(400);
  });

  it("serves each service's OpenAPI document", async () => {
    for (const name of ["user", "social", "audit", "room", "upload", "payment", "playlist", "merch"]) {
      const res = await t.request("GET", `/api/${name}-service/openapi.json`);
      expect(res.status).toBe(200);
      expect(res.body.openapi).toBe("3.0.3");
    }
  });

  it("allows cross-origin calls without credentials", async () => {
    const res = await t.app.request(`${P}/auth/pub-key`, { headers: { origin: "https://elsewhere.example" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });
});
