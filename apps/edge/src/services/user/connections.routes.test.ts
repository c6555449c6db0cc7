import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { FAKE_CREDENTIALS, type FakeProviders } from "../../testing/fake-providers.ts";
import { withProviderApps } from "../../testing/provider-apps.ts";
import { expectRefusal, ok, type TestApp } from "../../testing.ts";

let fake: FakeProviders;
let t: TestApp;
let bare: TestApp;
withProviderApps({ bare: true }, (apps) => ({ fake, t, bare } = apps));

const REDIRECT = "https://booth.test/connections/spotify/callback";
const STATE = "s".repeat(32);

/** Follows the fake consent page as a browser would: the code and state it sends back. */
async function consent(url: string) {
  const res = await fetch(url, { redirect: "manual" });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location") ?? "");
}

describe("connected accounts", () => {
  it("builds each provider's consent page with Booth's client id, the client's state and redirect", async () => {
    const challenge = "c".repeat(43);
    const { url } = ok(
      await t.api().user.POST("/connections/{provider}/authorize-url", {
        params: { path: { provider: "spotify" } },
        body: { redirectUri: REDIRECT, state: STATE, codeChallenge: challenge },
      }),
    );
    const page = new URL(url);
    expect(page.origin + page.pathname).toBe(`${fake.base}/spotify-accounts/authorize`);
    expect(Object.fromEntries(page.searchParams)).toMatchObject({
      client_id: FAKE_CREDENTIALS.spotify.id,
      response_type: "code",
      redirect_uri: REDIRECT,
      state: STATE,
      code_challenge: challenge,
      code_challenge_method: "S256",
      scope: expect.stringContaining("playlist-modify-private"),
    });
    const back = await consent(url);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe(STATE);
    expect(back.searchParams.get("code")).toMatch(/^spotify-code-/);

    for (const [provider, path] of [
      ["youtube", "/google-accounts/o/oauth2/v2/auth"],
      ["soundcloud", "/soundcloud/authorize"],
      ["discord", "/discord-web/oauth2/authorize"],
    ] as const) {
      const { url: other } = ok(
        await t.api().user.POST("/connections/{provider}/authorize-url", {
          params: { path: { provider } },
          body: { redirectUri: REDIRECT, state: STATE },
        }),
      );
      expect(new URL(other).pathname).toBe(path);
      expect(new URL(other).searchParams.get("client_id")).toBe(FAKE_CREDENTIALS[provider].id);
      expect((await consent(other)).searchParams.get("code")).toMatch(new RegExp(`^${provider}-code-`));
    }
  });

  it("refuses a state that is not URL-safe and an unknown provider", async () => {
    const bad = await t.request("POST", "/api/user-service/connections/spotify/authorize-url", {
      body: { redirectUri: REDIRECT, state: "short" },
    });
    expect(bad.status).toBe(400);
    const unknown = await t.request("POST", "/api/user-service/connections/myspace/authorize-url", {
      body: { redirectUri: REDIRECT, state: STATE },
    });
    expect(unknown.status).toBe(400);
  });

  it("answers 503 naming the setting when the provider is not configured, and lists it so", async () => {
    const res = await bare.api().user.POST("/connections/{provider}/authorize-url", {
      params: { path: { provider: "spotify" } },
      body: { redirectUri: REDIRECT, state: STATE },
    });
    expectRefusal(res, 503, "Spotify is not configured: set SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET.");
    const me = await bare.createUser();
    const list = ok(await bare.api(me.token).user.GET("/connections"));
    expect(list.map((c) => [c.provider, c.notConfigured])).toEqual([
      ["spotify", "Spotify is not configured: set SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET."],
      ["youtube", "YouTube is not configured: set YOUTUBE_CLIENT_ID and YOUTUBE_CLIENT_SECRET."],
      ["soundcloud", "SoundCloud is not configured: set SOUNDCLOUD_CLIENT_ID and SOUNDCLOUD_CLIENT_SECRET."],
      ["apple", "Apple Music is not configured: set APPLE_MUSIC_DEVELOPER_TOKEN."],
      ["discord", "Discord is not configured: set DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET."],
    ]);
  });

  it("lists what the caller connected, and disconnects each (404 when not connected)", async () => {
    const me = await t.createUser();
    const other = await t.createUser();
    ok(
      await t.api(me.token).user.POST("/spotify/exchange-code", {
        body: { code: fake.code("spotify", "dj-lia"), redirectUri: REDIRECT },
      }),
    );
    ok(
      await t.api(me.token).user.POST("/soundcloud/refresh-token", {
        body: { code: fake.code("soundcloud", "sc-lia"), redirectUri: REDIRECT },
      }),
    );
    ok(
      await t.api(me.token).user.POST("/auth/link-discord", {
        body: { code: fake.discordCode({ id: "777000000000000001", username: "lia" }), redirectUri: REDIRECT },
      }),
    );
    const list = ok(await t.api(me.token).user.GET("/connections"));
    expect(list.filter((c) => c.connected).map((c) => [c.provider, c.displayName])).toEqual([
      ["spotify", "Spotify dj-lia"],
      ["soundcloud", null],
      ["discord", "lia"],
    ]);
    expect(list.every((c) => c.notConfigured === null)).toBe(true);
    expect(JSON.stringify(list)).not.toMatch(/access|refresh/);
    // Someone else's list shows none of it.
    expect(ok(await t.api(other.token).user.GET("/connections")).some((c) => c.connected)).toBe(false);

    for (const provider of ["spotify", "soundcloud", "discord"] as const) {
      const res = await t.api(me.token).user.DELETE("/connections/{provider}", { params: { path: { provider } } });
      expect(res.response.status).toBe(204);
    }
    expect(ok(await t.api(me.token).user.GET("/connections")).some((c) => c.connected)).toBe(false);
    const rows = await t.db
      .select()
      .from(schema.providerAccounts)
      .where(eq(schema.providerAccounts.userUuid, me.user.uuid));
    expect(rows).toEqual([]);
    const again = await t.api(me.token).user.DELETE("/connections/{provider}", {
      params: { path: { provider: "youtube" } },
    });
    expectRefusal(again, 404, "YouTube is not connected.");
    expect((await t.request("DELETE", "/api/user-service/connections/spotify")).status).toBe(401);
  });

  it("keeps Discord when it is the only way into an account made by signing in with Discord", async () => {
    const signIn = ok(
      await t.api().user.POST("/auth/discord-auth", {
        body: { code: fake.discordCode({ id: "777000000000000002", username: "noemail" }), redirectUri: REDIRECT },
      }),
    );
    const res = await t.api(signIn.accessToken).user.DELETE("/connections/{provider}", {
      params: { path: { provider: "discord" } },
    });
    expect(res.response.status).toBe(409);
    expect(
      ok(await t.api(signIn.accessToken).user.GET("/connections")).find((c) => c.provider === "discord"),
    ).toMatchObject({ connected: true });
  });
});
