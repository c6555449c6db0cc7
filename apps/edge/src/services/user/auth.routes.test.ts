import { base64url, SignJWT, UnsecuredJWT } from "jose";
import { describe, expect, it } from "vitest";
import { LIVE_TOKEN_REFUSED } from "../../lib/auth.ts";
import { generateKeys, signToken } from "../../lib/tokens.ts";
import { expectRefusal, ok, openTestApp } from "../../testing.ts";

const t = openTestApp();

const P = "/api/user-service";

describe("sign-up and login", () => {
  it("signs up, emails a verification code, and logs in", async () => {
    const res = await t
      .api()
      .user.POST("/users/sign-up", { body: { email: "New.Person@Example.com", password: "long enough pw" } });
    expect(res.response.status).toBe(201);
    expect(res.data?.user.email).toBe("new.person@example.com");
    expect(res.data?.user.profile.nickname).toBe("new.person");
    expect(res.data?.tokenType).toBe("Bearer");
    const mail = await t.lastMessage("new.person@example.com");
    expect(mail?.body).toMatch(/verification code is \d{6}/);

    const login = await t
      .api()
      .user.POST("/auth/login", { body: { email: "new.person@example.com", password: "long enough pw" } });
    expect(login.response.status).toBe(200);
    const session = await t.api(ok(login).accessToken).user.GET("/auth/session");
    expect(session.response.status).toBe(200);
    expect(session.data?.user.uuid).toBe(ok(res).user.uuid);
  });

  it("refuses a second account with the same email, with the catalogue message", async () => {
    await t.api().user.POST("/users/sign-up", { body: { email: "twice@example.com", password: "password123" } });
    const res = await t
      .api()
      .user.POST("/users/sign-up", { body: { email: "TWICE@example.com", password: "password123" } });
    expectRefusal(res, 403, "This email is already registered.", "EMAIL_ALREADY_REGISTERED");
  });

  it("answers missing fields with the catalogue message and bad fields per field", async () => {
    const missing = await t.api().user.POST("/users/sign-up", { body: { email: "x@example.com" } });
    expectRefusal(missing, 400, "Email or password is missing in request.");
    const bad = await t.api().user.POST("/users/sign-up", { body: { email: "not-an-email", password: "short" } });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.message).toHaveLength(2);
    expect(bad.error?.message[0]).toMatch(/^email: /);
    expect(bad.error?.message[1]).toMatch(/^password: /);
  });

  it("gives the same answer for a wrong password and an unknown email", async () => {
    const { email } = await t.createUser();
    const wrong = await t.api().user.POST("/auth/login", { body: { email, password: "wrong password" } });
    const unknown = await t
      .api()
      .user.POST("/auth/login", { body: { email: "nobody@example.com", password: "wrong password" } });
    expect(wrong.response.status).toBe(401);
    expect(wrong.error).toEqual(unknown.error);
    expect(wrong.error?.message).toBe("Incorrect email or password.");
  });

  it("rate-limits repeated failed logins for one account", async () => {
    const { email } = await t.createUser();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await t.api().user.POST("/auth/login", { body: { email, password: "wrong pw!" } })).response.status,
      );
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe("tokens", () => {
  it("publishes the public key that verifies issued tokens", async () => {
    const res = await t.api().user.GET("/auth/pub-key");
    expect(res.response.status).toBe(200);
    expect(res.data?.alg).toBe("ES256");
    expect(res.data?.publicKey).toContain("BEGIN PUBLIC KEY");
    expect(res.data?.jwk.d).toBeUndefined();
  });

  it("issues guest tokens that are not logged-in sessions", async () => {
    const guest = await t.api().user.GET("/auth/guest");
    expect(guest.response.status).toBe(200);
    const session = await t.api(ok(guest).accessToken).user.GET("/auth/session");
    expect(session.response.status).toBe(401);
  });

  it("hands out 15-minute live tokens to signed-in users and bots, not to guests or services", async () => {
    const { user, token } = await t.createUser();
    const live = await t.api(token).user.POST("/auth/live-token");
    expect(live.response.status).toBe(200);
    const lasts = Date.parse(ok(live).expiresAt) - t.clock.now().getTime();
    expect(lasts).toBeGreaterThan(14 * 60_000);
    expect(lasts).toBeLessThanOrEqual(15 * 60_000);
    const events = { topic: "trackStartedPlaying" as const, data: { roomSlug: "lobby" } };
    const heard = await t.api(ok(live).accessToken).audit.POST("/kinesis", { body: events });
    expect(heard.response.status).toBe(201);
    expect(heard.data?.userUuid).toBe(user.uuid);
    // The live room joins with the socket's own token.
    const room = await t.api(token).room.POST("/rooms/infrastructure", { body: { name: "Live Den" } });
    expect(
      (
        await t
          .api(ok(live).accessToken)
          .room.POST("/rooms/{slug}/join", { params: { path: { slug: ok(room).uuid } }, body: {} })
      ).response.status,
    ).toBe(200);
    t.clock.advance(16 * 60);
    const late = await t.api(ok(live).accessToken).audit.POST("/kinesis", { body: events });
    expect(late.response.status).toBe(401);
    // The session's own token still works, and gets fresh live tokens.
    expect((await t.api(token).user.POST("/auth/live-token")).response.status).toBe(200);
    const guest = await t.api().user.GET("/auth/guest");
    expect((await t.api(ok(guest).accessToken).user.POST("/auth/live-token")).response.status).toBe(401);
    expect((await t.api(await t.serviceToken()).user.POST("/auth/live-token")).response.status).toBe(401);
    expect((await t.api().user.POST("/auth/live-token")).response.status).toBe(401);
  });

  it("never exchanges a live token for a session or any other credential, nor lets it change the account", async () => {
    const { user, token } = await t.createUser();
    const bot = await t.api(token).user.POST("/users/sign-up-bot", { body: { nickname: `bot${Date.now()}` } });
    expect(bot.response.status).toBe(201);
    const live = ok(await t.api(token).user.POST("/auth/live-token")).accessToken as string;
    const botLive = ok(await t.api(ok(bot).accessToken).user.POST("/auth/live-token")).accessToken;
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
      ["GET", `${P}/users/bot-token?botUuid=${ok(bot).user.uuid}`],
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
    const botSession = await t.api(botLive).user.GET("/auth/session");
    expectRefusal(botSession, 401, LIVE_TOKEN_REFUSED);
    // The session still works, and a token signed before purposes existed is a session.
    expect((await t.api(token).user.GET("/auth/session")).response.status).toBe(200);
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const older = await new SignJWT({ type: "user", roles: user.roles, badges: [], ver: user.tokenVersion })
      .setProtectedHeader({ alg: "ES256" })
      .setSubject(user.uuid)
      .setIssuer("booth")
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(t.deps.keys.privateKey);
    expect((await t.api(older).user.GET("/auth/session")).response.status).toBe(200);
  });

  it("refuses forged, tampered, expired and alg:none tokens", async () => {
    const { user, token } = await t.createUser();
    expect((await t.api(token).user.GET("/auth/session")).response.status).toBe(200);

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
      const res = await t.api(bad).user.GET("/auth/session");
      expect(res.response.status).toBe(401);
    }
  });
});

describe("magic link", () => {
  it("emails a single-use link that signs the user in", async () => {
    const { email, user } = await t.createUser();
    const res = await t.api().user.GET("/auth/magic-link", { params: { query: { email } } });
    expect(res.response.status).toBe(200);
    const token = (await t.lastMessage(email))?.body.match(/token=([\w-]+)/)?.[1];
    expect(token).toBeTruthy();
    const first = await t.api().user.POST("/auth/validate-magic-link", { body: { token: token! } });
    expect(first.response.status).toBe(200);
    expect(first.data?.user.uuid).toBe(user.uuid);
    const second = await t.api().user.POST("/auth/validate-magic-link", { body: { token: token! } });
    expect(second.response.status).toBe(401);
  });

  it("answers the same for an unknown email and sends nothing", async () => {
    const res = await t.api().user.GET("/auth/magic-link", { params: { query: { email: "ghost@example.com" } } });
    expect(res.response.status).toBe(200);
    expect(await t.lastMessage("ghost@example.com")).toBeNull();
  });

  it("expires links after 15 minutes", async () => {
    const { email } = await t.createUser();
    await t.api().user.GET("/auth/magic-link", { params: { query: { email } } });
    const token = (await t.lastMessage(email))?.body.match(/token=([\w-]+)/)?.[1];
    t.clock.advance(16 * 60);
    const res = await t.api().user.POST("/auth/validate-magic-link", { body: { token: token! } });
    expectRefusal(res, 401, "This sign-in link is invalid or has expired.");
  });
});

describe("gateway", () => {
  it("answers unknown routes with the Nest-style 404", async () => {
    const res = await t.request("GET", "/api/user-service/nope");
    expectRefusal(res, 404, "Cannot GET /api/user-service/nope", "NOT_FOUND");
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

  it("sends an API's security headers on every answer, and none that only a page or a retired browser reads", async () => {
    const answers = [
      await t.app.request(`${P}/auth/pub-key`),
      await t.app.request(`${P}/no-such-route`),
      await t.app.request(`${P}/auth/pub-key`, {
        method: "OPTIONS",
        headers: { origin: "https://elsewhere.example", "access-control-request-method": "GET" },
      }),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 404, 204]);
    for (const res of answers) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
      expect(res.headers.get("strict-transport-security")).toBe("max-age=15552000; includeSubDomains");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      for (const pageOnly of [
        "x-xss-protection",
        "x-download-options",
        "x-dns-prefetch-control",
        "origin-agent-cluster",
        "x-permitted-cross-domain-policies",
      ])
        expect(res.headers.get(pageOnly)).toBeNull();
    }
  });
});
