import { schema } from "@booth/db";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { firstRow } from "../../lib/rows.ts";
import { FAKE_CREDENTIALS, type FakeProviders } from "../../testing/fake-providers.ts";
import { withProviderApps } from "../../testing/provider-apps.ts";
import { expectRefusal, ok, type TestApp } from "../../testing.ts";

let fake: FakeProviders;
let t: TestApp;
let bare: TestApp;
withProviderApps({ bare: true }, (apps) => ({ fake, t, bare } = apps));

const U = "/api/user-service";
const REDIRECT = "https://booth.test/callback";

async function stored(userUuid: string, provider: "spotify" | "youtube" | "soundcloud" | "soundcloudMobile" | "apple") {
  const row = await firstRow(
    t.db,
    schema.providerAccounts,
    and(eq(schema.providerAccounts.userUuid, userUuid), eq(schema.providerAccounts.provider, provider)),
  );
  return row ?? null;
}
const musicProviders = async (uuid: string) =>
  (await t.db.select().from(schema.profiles).where(eq(schema.profiles.userUuid, uuid)))[0]?.musicProviders;
/** A user's Spotify access token, as the caller `token` asks for it (services only). */
const spotifyAccessToken = (token: string | undefined, id: string) =>
  t.api(token).user.GET("/spotify/access-token/{id}/service", { params: { path: { id } } });
/** A user's SoundCloud access token, as the caller `token` asks for it (the user or services). */
const soundcloudAccessToken = (token: string | undefined, id: string) =>
  t.api(token).user.GET("/soundcloud/access-token/{id}", { params: { path: { id } } });
/** A user's Apple Music user token, as the caller `token` asks for it (the user or services). */
const appleUserToken = (token: string | undefined, id: string) =>
  t.api(token).user.GET("/apple/user-token/{id}", { params: { path: { id } } });
const tokenCalls = (path: string) => fake.requests.filter((r) => r.path === path).length;

async function connectSpotify(token: string, subject = "spotify-user") {
  const res = await t
    .api(token)
    .user.POST("/spotify/exchange-code", { body: { code: fake.code("spotify", subject), redirectUri: REDIRECT } });
  expect(res.response.status).toBe(200);
  return ok(res);
}

describe("Spotify", () => {
  it("connects with a code (PKCE verifier passed on), keeps the refresh token and never hands it out", async () => {
    const me = await t.createUser();
    const verifier = "v".repeat(43);
    const res = await t.api(me.token).user.POST("/spotify/exchange-code", {
      body: { code: fake.code("spotify", "dj-sam"), redirectUri: REDIRECT, codeVerifier: verifier },
    });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({
      provider: "spotify",
      accessToken: expect.stringMatching(/^spotify-access-/),
      tokenType: "Bearer",
      providerUserId: "dj-sam",
      expiresAt: new Date(t.clock.now().getTime() + 3600_000).toISOString(),
    });
    expect(JSON.stringify(res.error ?? res.data)).not.toContain("refresh");
    const exchange = fake.requests.findLast((r) => r.path === "/spotify-accounts/api/token");
    expect(exchange?.form).toEqual({
      grant_type: "authorization_code",
      code: expect.any(String),
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(exchange?.headers.authorization).toBe(
      `Basic ${btoa(`${FAKE_CREDENTIALS.spotify.id}:${FAKE_CREDENTIALS.spotify.secret}`)}`,
    );
    expect((await stored(me.user.uuid, "spotify"))?.refreshToken).toMatch(/^spotify-refresh-/);
    expect(await musicProviders(me.user.uuid)).toEqual(["spotify"]);
  });

  it("refreshes the caller's token from the stored refresh token, or from one the client gives", async () => {
    const me = await t.createUser();
    const first = await connectSpotify(me.token);
    const refreshed = await t.api(me.token).user.POST("/spotify/refresh-token");
    expect(refreshed.response.status).toBe(200);
    expect(refreshed.data?.accessToken).not.toBe(first.accessToken);
    const withBody = await t.api(me.token).user.POST("/spotify/refresh-token", { body: {} });
    expect(withBody.response.status).toBe(200);

    const other = await t.createUser();
    const mine = (await stored(me.user.uuid, "spotify"))?.refreshToken;
    const given = await t.api(other.token).user.POST("/spotify/refresh-token", { body: { refreshToken: mine! } });
    expect(given.response.status).toBe(200);
    expect((await stored(other.user.uuid, "spotify"))?.refreshToken).toBe(mine);
  });

  it("answers 404 to a refresh before connecting, 400 to a refused code or bad input", async () => {
    const me = await t.createUser();
    const none = await t.api(me.token).user.POST("/spotify/refresh-token");
    expectRefusal(none, 404, "Spotify is not connected for this user.");
    const refused = await t
      .api(me.token)
      .user.POST("/spotify/exchange-code", { body: { code: "made-up", redirectUri: REDIRECT } });
    expectRefusal(refused, 400, "Spotify refused the authorization code (invalid_grant).");
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [
      {},
      { code: "x" },
      { code: "x", redirectUri: "not a url" },
      { code: "x", redirectUri: REDIRECT, codeVerifier: "short" },
    ]) {
      const res = await t.request("POST", `${U}/spotify/exchange-code`, { token: me.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const extra = await t.api(me.token).user.POST("/spotify/refresh-token", { body: { nope: 1 } });
    expect(extra.response.status).toBe(400);
    expect(await stored(me.user.uuid, "spotify")).toBeNull();
  });

  it("forgets the tokens on disconnect", async () => {
    const me = await t.createUser();
    await connectSpotify(me.token);
    const res = await t.api(me.token).user.DELETE("/spotify/refresh-token");
    expect(res.response.status).toBe(204);
    expect(await stored(me.user.uuid, "spotify")).toBeNull();
    expect(await musicProviders(me.user.uuid)).toEqual([]);
    const again = await t.api(me.token).user.DELETE("/spotify/refresh-token");
    expect(again.response.status).toBe(404);
    expect((await t.api().user.DELETE("/spotify/refresh-token")).response.status).toBe(401);
  });

  it("hands a user's access token to service tokens only, refreshing it once it expired", async () => {
    const me = await t.createUser();
    const first = await connectSpotify(me.token);
    const before = tokenCalls("/spotify-accounts/api/token");
    const cached = await spotifyAccessToken(await t.serviceToken(), me.user.uuid);
    expect(cached.response.status).toBe(200);
    expect(cached.data?.accessToken).toBe(first.accessToken);
    expect(tokenCalls("/spotify-accounts/api/token")).toBe(before);

    t.clock.advance(3600);
    const renewed = await spotifyAccessToken(await t.serviceToken(), me.user.uuid);
    expect(renewed.data?.accessToken).not.toBe(first.accessToken);
    expect(tokenCalls("/spotify-accounts/api/token")).toBe(before + 1);

    const admin = await t.createUser({ roles: ["user", "admin"] });
    expect((await spotifyAccessToken(me.token, me.user.uuid)).response.status).toBe(403);
    expect((await spotifyAccessToken(admin.token, me.user.uuid)).response.status).toBe(403);
    expect((await spotifyAccessToken(undefined, me.user.uuid)).response.status).toBe(401);
    const stranger = await t.createUser();
    expect((await spotifyAccessToken(await t.serviceToken(), stranger.user.uuid)).response.status).toBe(404);
    expect((await spotifyAccessToken(await t.serviceToken(), "not-a-uuid")).response.status).toBe(400);
  });

  it("forgets a link Spotify no longer honours (409, connect again)", async () => {
    const me = await t.createUser();
    await connectSpotify(me.token);
    fake.oauth.spotify.refreshTokens.clear();
    const res = await t.api(me.token).user.POST("/spotify/refresh-token");
    expectRefusal(res, 409, "The Spotify connection has expired or was revoked: connect Spotify again.");
    expect(await stored(me.user.uuid, "spotify")).toBeNull();
  });

  it("answers 502 when Spotify fails and 503 naming the settings when unconfigured", async () => {
    const me = await t.createUser();
    fake.control.failWith = 503;
    try {
      const res = await t
        .api(me.token)
        .user.POST("/spotify/exchange-code", { body: { code: "x", redirectUri: REDIRECT } });
      expectRefusal(res, 502, "Spotify answered 503.");
    } finally {
      fake.control.failWith = null;
    }
    const user = await bare.createUser();
    const off = await bare
      .api(user.token)
      .user.POST("/spotify/exchange-code", { body: { code: "x", redirectUri: REDIRECT } });
    expectRefusal(off, 503, "Spotify is not configured: set SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET.");
    const svc = await bare.serviceToken();
    const offService = await bare
      .api(svc)
      .user.GET("/spotify/access-token/{id}/service", { params: { path: { id: user.user.uuid } } });
    expect(offService.response.status).toBe(503);
    const noUser = await t.api().user.POST("/spotify/exchange-code", { body: { code: "x", redirectUri: REDIRECT } });
    expect(noUser.response.status).toBe(401);
  });
});

describe("YouTube", () => {
  it("connects with a Google code and refreshes from the stored token", async () => {
    const me = await t.createUser();
    const res = await t
      .api(me.token)
      .user.POST("/youtube/exchange-code", { body: { code: fake.code("youtube", "g-user"), redirectUri: REDIRECT } });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ provider: "youtube", accessToken: expect.stringMatching(/^youtube-access-/) });
    expect(fake.requests.findLast((r) => r.path === "/google/token")?.form.redirect_uri).toBe(REDIRECT);
    const refreshed = await t.api(me.token).user.POST("/youtube/refresh-token");
    expect(refreshed.response.status).toBe(200);
    expect(refreshed.data?.accessToken).not.toBe(ok(res).accessToken);
    // Google does not send the refresh token again: the stored one stays.
    expect((await stored(me.user.uuid, "youtube"))?.refreshToken).toMatch(/^youtube-refresh-/);
    expect(await musicProviders(me.user.uuid)).toEqual(["youtube"]);
  });

  it("refuses bad codes, strangers and bad input; 503 unconfigured", async () => {
    const me = await t.createUser();
    const bad = await t
      .api(me.token)
      .user.POST("/youtube/exchange-code", { body: { code: "x", redirectUri: REDIRECT } });
    expectRefusal(bad, 400, "YouTube refused the authorization code (invalid_grant).");
    // Raw: input the typed client cannot send (it is wrong on purpose).
    expect(
      (await t.request("POST", "/api/user-service/youtube/exchange-code", { token: me.token, body: {} })).status,
    ).toBe(400);
    expect((await t.api().user.POST("/youtube/refresh-token")).response.status).toBe(401);
    const user = await bare.createUser();
    const off = await bare.api(user.token).user.POST("/youtube/refresh-token");
    expectRefusal(off, 503, "YouTube is not configured: set YOUTUBE_CLIENT_ID and YOUTUBE_CLIENT_SECRET.");
  });
});

describe("SoundCloud", () => {
  async function connect(token: string, mobile = false) {
    const res = await t.request("POST", `${U}/soundcloud${mobile ? "/mobile" : ""}/refresh-token`, {
      token,
      body: { code: fake.code("soundcloud", "sc-user"), redirectUri: REDIRECT },
    });
    expect(res.status).toBe(200);
    return res.body;
  }

  it("connects with a code, then refreshes (SoundCloud rotates the refresh token)", async () => {
    const me = await t.createUser();
    const linked = await connect(me.token);
    const firstRefresh = (await stored(me.user.uuid, "soundcloud"))?.refreshToken;
    const res = await t.api(me.token).user.POST("/soundcloud/refresh-token");
    expect(res.response.status).toBe(200);
    expect(res.data?.accessToken).not.toBe(linked.accessToken);
    const secondRefresh = (await stored(me.user.uuid, "soundcloud"))?.refreshToken;
    expect(secondRefresh).not.toBe(firstRefresh);
    expect(fake.oauth.soundcloud.refreshTokens.has(secondRefresh ?? "")).toBe(true);
    expect(await musicProviders(me.user.uuid)).toEqual(["soundcloud"]);
  });

  it("uses the mobile app's credentials for the mobile routes, and keeps its link apart", async () => {
    const me = await t.createUser();
    await connect(me.token, true);
    const exchange = fake.requests.findLast((r) => r.path === "/soundcloud/oauth/token");
    expect(exchange?.headers.authorization).toBe(
      `Basic ${btoa(`${FAKE_CREDENTIALS.soundcloudMobile.id}:${FAKE_CREDENTIALS.soundcloudMobile.secret}`)}`,
    );
    expect(await stored(me.user.uuid, "soundcloudMobile")).not.toBeNull();
    expect(await stored(me.user.uuid, "soundcloud")).toBeNull();
    const web = await soundcloudAccessToken(me.token, me.user.uuid);
    expect(web.response.status).toBe(404);
    const mobile = await t
      .api(me.token)
      .user.GET("/soundcloud/access-token/{id}", { params: { path: { id: me.user.uuid }, query: { mobile: "true" } } });
    expect(mobile.response.status).toBe(200);
  });

  it("gives a user's access token to that user and to services, never to other users", async () => {
    const me = await t.createUser();
    const linked = await connect(me.token);
    expect((await soundcloudAccessToken(me.token, me.user.uuid)).data?.accessToken).toBe(linked.accessToken);
    expect((await soundcloudAccessToken(await t.serviceToken(), me.user.uuid)).data?.accessToken).toBe(
      linked.accessToken,
    );
    const other = await t.createUser();
    const admin = await t.createUser({ roles: ["user", "admin"] });
    expect((await soundcloudAccessToken(other.token, me.user.uuid)).response.status).toBe(403);
    expect((await soundcloudAccessToken(admin.token, me.user.uuid)).response.status).toBe(403);
    expect((await soundcloudAccessToken(undefined, me.user.uuid)).response.status).toBe(401);
    // Raw: input the typed client cannot send (it is wrong on purpose).
    expect(
      (
        await t.request("GET", `/api/user-service/soundcloud/access-token/${me.user.uuid}`, {
          token: me.token,
          query: { mobile: "maybe" },
        })
      ).status,
    ).toBe(400);
  });

  it("refreshes once when two callers find the token expired at the same time", async () => {
    const me = await t.createUser();
    await connect(me.token);
    t.clock.advance(3600);
    const before = tokenCalls("/soundcloud/oauth/token");
    fake.control.delayMs = 50;
    let results: Awaited<ReturnType<typeof t.request>>[];
    try {
      results = await Promise.all(
        [0, 1, 2].map(async () =>
          t.request("GET", `${U}/soundcloud/access-token/${me.user.uuid}`, { token: await t.serviceToken() }),
        ),
      );
    } finally {
      fake.control.delayMs = 0;
    }
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    // One refresh for all three, so the link survives: the stored refresh token is the one SoundCloud honours now.
    const row = await stored(me.user.uuid, "soundcloud");
    expect(fake.oauth.soundcloud.refreshTokens.has(row?.refreshToken ?? "")).toBe(true);
    expect(new Set(results.map((r) => r.body.accessToken)).size).toBe(1);
    expect(tokenCalls("/soundcloud/oauth/token")).toBe(before + 1);
    const after = await t.api(me.token).user.POST("/soundcloud/refresh-token");
    expect(after.response.status).toBe(200);
  });

  it("hands Booth's public-catalogue token to any token holder, guests too, from the cache", async () => {
    const guest = ok(await t.api().user.GET("/auth/guest")).accessToken;
    const before = tokenCalls("/soundcloud/oauth/token");
    const first = await t.api(guest).user.GET("/soundcloud/public-token");
    expect(first.response.status).toBe(200);
    expect(fake.requests.findLast((r) => r.path === "/soundcloud/oauth/token")?.form).toEqual({
      grant_type: "client_credentials",
    });
    const second = await t.api(guest).user.GET("/soundcloud/public-token");
    expect(second.data?.accessToken).toBe(ok(first).accessToken);
    expect(tokenCalls("/soundcloud/oauth/token")).toBe(before + 1);
    const mobile = await t.api(guest).user.GET("/soundcloud/mobile/public-token");
    expect(mobile.response.status).toBe(200);
    expect(mobile.data?.accessToken).not.toBe(ok(first).accessToken);
    expect((await t.api().user.GET("/soundcloud/public-token")).response.status).toBe(401);
  });

  it("refuses contradictory or incomplete input, strangers; 503 unconfigured", async () => {
    const me = await t.createUser();
    const both = await t
      .api(me.token)
      .user.POST("/soundcloud/refresh-token", { body: { code: "a", redirectUri: REDIRECT, refreshToken: "b" } });
    expect(both.response.status).toBe(400);
    const noRedirect = await t.api(me.token).user.POST("/soundcloud/refresh-token", { body: { code: "a" } });
    expectRefusal(noRedirect, 400, ["redirectUri: is required with code"]);
    expect(await stored(me.user.uuid, "soundcloud")).toBeNull();
    expect((await t.api().user.POST("/soundcloud/mobile/refresh-token", { body: {} })).response.status).toBe(401);
    const guest = ok(await bare.api().user.GET("/auth/guest")).accessToken;
    const off = await bare.api(guest).user.GET("/soundcloud/mobile/public-token");
    expect(off.response.status).toBe(503);
    expect(off.error?.message).toBe(
      "SoundCloud for mobile is not configured: set SOUNDCLOUD_MOBILE_CLIENT_ID and SOUNDCLOUD_MOBILE_CLIENT_SECRET.",
    );
  });
});

describe("Apple Music", () => {
  it("keeps the caller's music user token once Apple accepts it, with the storefront", async () => {
    const me = await t.createUser();
    fake.appleUserTokens.set("mut-good", "gb");
    const res = await t.api(me.token).user.POST("/apple/user-token", { body: { musicUserToken: "mut-good" } });
    expect(res.response.status).toBe(200);
    expect(res.data).toEqual({
      developerToken: FAKE_CREDENTIALS.appleDeveloperToken,
      musicUserToken: "mut-good",
      storefront: "gb",
    });
    const check = fake.requests.findLast((r) => r.path === "/apple/v1/me/storefront");
    expect(check?.headers["music-user-token"]).toBe("mut-good");
    const mine = await appleUserToken(me.token, me.user.uuid);
    expect(mine.data).toEqual(ok(res));
    const bySevice = await appleUserToken(await t.serviceToken(), me.user.uuid);
    expect(bySevice.data?.musicUserToken).toBe("mut-good");
    expect(await musicProviders(me.user.uuid)).toEqual(["apple"]);
  });

  it("answers the developer token with no user token before connecting", async () => {
    const me = await t.createUser();
    const res = await appleUserToken(me.token, me.user.uuid);
    expect(res.data).toEqual({
      developerToken: FAKE_CREDENTIALS.appleDeveloperToken,
      musicUserToken: null,
      storefront: null,
    });
  });

  it("refuses a token Apple refuses, other users, bad input; 503 without the developer token", async () => {
    const me = await t.createUser();
    const refused = await t.api(me.token).user.POST("/apple/user-token", { body: { musicUserToken: "mut-bad" } });
    expectRefusal(refused, 400, "Apple Music refused the music user token.");
    expect(refused.error?.code).toBe("APPLE_MUSIC_TOKEN_REFUSED");
    expect(await stored(me.user.uuid, "apple")).toBeNull();
    // Raw: input the typed client cannot send (it is wrong on purpose).
    expect((await t.request("POST", "/api/user-service/apple/user-token", { token: me.token, body: {} })).status).toBe(
      400,
    );
    const other = await t.createUser();
    expect((await appleUserToken(other.token, me.user.uuid)).response.status).toBe(403);
    expect((await appleUserToken(undefined, me.user.uuid)).response.status).toBe(401);
    const user = await bare.createUser();
    const off = await bare.api(user.token).user.POST("/apple/user-token", { body: { musicUserToken: "x" } });
    expectRefusal(off, 503, "Apple Music is not configured: set APPLE_MUSIC_DEVELOPER_TOKEN.");
  });
});
