/**
 * Connected accounts: connecting Spotify and Discord through the providers' consent pages (the edge's local fakes
 * redirect back with a code and the state), shown connected, disconnected; a forged state and someone else's
 * callback refused with nothing connected; signing in with Discord from the login page; and a crate exported to the
 * connected Spotify account (the fake receives the tracks), refused to someone who has not connected Spotify.
 * Apple Music signs in through MusicKit JS in the page: the group file (social-screens.test.ts) points the web's
 * `MUSICKIT_JS_URL` at the local stand-in, whose `authorize` plays Apple's sign-in window.
 */
import { schema } from "@booth/db";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { eventually, expectText, shot, suiteStack } from "./harness.ts";
import { asUser, type SignedUp, signedUp, suiteFakeProviders } from "./harness-b.ts";

const stack = suiteStack({ songs: 0 });
const fake = suiteFakeProviders(stack);
let ana: SignedUp;
let ben: SignedUp;
beforeAll(async () => {
  ana = await signedUp(stack, "Ana");
  ben = await signedUp(stack, "Ben");
}, 300_000);

const linked = async (uuid: string, provider: "spotify" | "discord" | "apple") =>
  stack.t.db
    .select()
    .from(schema.providerAccounts)
    .where(and(eq(schema.providerAccounts.userUuid, uuid), eq(schema.providerAccounts.provider, provider)));

const FORGED = "This connection was not started here, or it took too long: nothing was connected. Please start again.";

describe("connected accounts", { timeout: 180_000 }, () => {
  it("connects Spotify and Discord at their consent pages, shows them connected, disconnects", async () => {
    const { page, errors } = ana;
    await page.goto("/profile/edit");
    await page.click("[data-testid=connections-link]");
    await page.waitForURL(/\/profile\/connections$/);
    await expectText(page, "h1", "Connected accounts");
    expect(await page.locator("[data-testid=connections] li").count()).toBe(5);
    await expectText(page, "[data-testid=connection-spotify] [data-testid=connection-status]", "Not connected");

    fake.consent.spotify = "ana-on-spotify";
    await page.click("[data-testid=connection-spotify] [data-testid=connect]");
    await page.waitForURL(/\/profile\/connections$/);
    await expectText(page, "[data-testid=connection-notice]", "Spotify is connected.");
    await expectText(
      page,
      "[data-testid=connection-spotify] [data-testid=connection-status]",
      "Connected as Spotify ana-on-spotify",
    );
    // The code was exchanged with the PKCE verifier the web kept; the page never held a token.
    const exchange = fake.requests.findLast((r) => r.path === "/spotify-accounts/api/token");
    expect(exchange?.form.code_verifier).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(await page.content()).not.toMatch(/spotify-(access|refresh)-/);

    fake.consent.discord = { id: "900000000000000010", username: "ana_d", global_name: "Ana D" };
    await page.click("[data-testid=connection-discord] [data-testid=connect]");
    await page.waitForURL(/\/profile\/connections$/);
    await expectText(page, "[data-testid=connection-discord] [data-testid=connection-status]", /^Connected/);
    await shot(page, "connected-accounts");

    await page.click("[data-testid=connection-spotify] [data-testid=disconnect]");
    await expectText(page, "[data-testid=connection-spotify] [data-testid=connection-status]", "Not connected");
    await eventually(async () => expect(await linked(ana.uuid, "spotify")).toEqual([]));
    await page.reload();
    await expectText(page, "[data-testid=connection-spotify] [data-testid=connection-status]", "Not connected");
    expect((await linked(ana.uuid, "discord")).length).toBe(1);
    expect(errors).toEqual([]);
  });

  it("connects Apple Music through MusicKit's sign-in, keeps the token at the edge, disconnects and signs MusicKit out", async () => {
    const { page, errors } = ana;
    /** The person signs in at Apple's window (the MusicKit stand-in's `authorize`) as `token`; null: closes it. */
    const signInAs = (token: string | null) =>
      page.evaluate((t) => {
        (window as unknown as { __standInAppleSignIn: string | null }).__standInAppleSignIn = t;
      }, token);
    const musicKit = () =>
      page.evaluate(() => {
        const all = (window as unknown as { __standIns?: { apple: Record<string, unknown>[] } }).__standIns?.apple;
        const last = all?.at(-1);
        return last
          ? {
              developerToken: last.developerToken,
              userToken: last.userToken,
              authorizations: last.authorizations,
              unauthorizations: last.unauthorizations,
            }
          : null;
      });
    const row = "[data-testid=connection-apple]";
    await page.goto("/profile/connections");
    await expectText(page, `${row} [data-testid=connection-status]`, "Not connected");
    // Nothing of Apple's is loaded before the person reaches for Connect.
    expect(await musicKit()).toBeNull();

    // The person closes Apple's window: said so, nothing kept.
    await page.click(`${row} [data-testid=connect]`);
    await expectText(
      page,
      `${row} [data-testid=connection-error]`,
      "Apple Music was not connected: the sign-in was cancelled.",
    );
    expect(await musicKit()).toMatchObject({
      developerToken: fake.providers.appleMusicDeveloperToken,
      authorizations: 1,
    });

    // A token Apple does not accept: the edge's refusal, in the person's language; MusicKit is signed out again.
    await page.goto("/profile/connections?lang=es");
    await signInAs("mut-apple-does-not-know");
    await page.click(`${row} [data-testid=connect]`);
    await expectText(
      page,
      `${row} [data-testid=connection-error]`,
      "Apple Music no aceptó el inicio de sesión. Vuelve a intentarlo.",
    );
    await eventually(async () => expect((await musicKit())?.userToken).toBeNull());
    expect(await linked(ana.uuid, "apple")).toEqual([]);

    // Signed in as a listener Apple knows: the edge keeps the token, the row shows Apple Music connected.
    await page.goto("/profile/connections?lang=en");
    fake.appleUserTokens.set("mut-ana-apple", "es");
    await signInAs("mut-ana-apple");
    await page.click(`${row} [data-testid=connect]`);
    await expectText(page, `${row} [data-testid=connection-status]`, "Connected");
    expect(await page.getAttribute(row, "data-connected")).toBe("true");
    await eventually(async () =>
      expect((await linked(ana.uuid, "apple")).map((a) => a.accessToken)).toEqual(["mut-ana-apple"]),
    );
    const held = await asUser(stack, ana.uuid).then((call) =>
      call("GET", `/api/user-service/apple/user-token/${ana.uuid}`),
    );
    expect(held.body).toMatchObject({ musicUserToken: "mut-ana-apple", storefront: "es" });
    await page.reload();
    await expectText(page, `${row} [data-testid=connection-status]`, "Connected");
    await shot(page, "connected-apple-music");

    // Disconnected: the edge forgets the token, and MusicKit forgets this browser's sign-in.
    await page.click(`${row} [data-testid=disconnect]`);
    await expectText(page, `${row} [data-testid=connection-status]`, "Not connected");
    expect(await linked(ana.uuid, "apple")).toEqual([]);
    await eventually(async () => expect(await musicKit()).toMatchObject({ userToken: null, unauthorizations: 1 }));

    // Apple Music not configured on the edge: the row says which setting is missing, and offers no Connect.
    const providers = stack.t.deps.config.providers;
    stack.t.deps.config.providers = { ...providers, appleMusicDeveloperToken: undefined };
    await page.reload();
    await expectText(
      page,
      `${row} [data-testid=connection-status]`,
      "Apple Music is not configured: set APPLE_MUSIC_DEVELOPER_TOKEN.",
    );
    expect(await page.locator(`${row} [data-testid=connect]`).count()).toBe(0);
    stack.t.deps.config.providers = providers;
    expect(errors).toEqual([]);
  });

  it("refuses a forged state, and someone else's callback, with nothing connected", async () => {
    // A callback with a code but a state this browser never made: refused before the code is used.
    const code = fake.code("spotify", "mallory");
    await ben.page.goto(`/connections/spotify/callback?code=${code}&state=${"f".repeat(43)}`);
    await ben.page.waitForURL(/\/profile\/connections$/);
    await expectText(ben.page, "[data-testid=connection-notice]", FORGED);
    await expectText(ben.page, "[data-testid=connection-spotify] [data-testid=connection-status]", "Not connected");
    expect(fake.oauth.spotify.codes.has(code)).toBe(true);

    // Ana starts connecting; the address the provider sends her back to is opened in Ben's browser instead.
    fake.consent.spotify = "ana-on-spotify";
    // (Playwright does not route redirected requests: the consent page's answer is fetched here, not followed.)
    let callback = "";
    await ana.page.route("**/spotify-accounts/authorize**", async (route) => {
      const consent = await route.fetch({ maxRedirects: 0 });
      // A 204 leaves Ana's page where it was (an aborted navigation's error page is reloaded by Chromium later).
      await route.fulfill({ status: 204 });
      callback = consent.headers().location ?? "";
    });
    await ana.page.goto("/profile/connections");
    await ana.page.click("[data-testid=connection-spotify] [data-testid=connect]").catch(() => undefined);
    await eventually(() => expect(callback).toMatch(/\/connections\/spotify\/callback\?code=spotify-code-.+&state=/));
    await ana.page.unroute("**/spotify-accounts/authorize**");
    await ben.page.goto(callback);
    await ben.page.waitForURL(/\/profile\/connections$/);
    await expectText(ben.page, "[data-testid=connection-notice]", FORGED);
    expect(await linked(ben.uuid, "spotify")).toEqual([]);
    expect(await linked(ana.uuid, "spotify")).toEqual([]);

    // A provider that says no: said so, nothing connected.
    fake.consent.deny = true;
    await ben.page.click("[data-testid=connection-youtube] [data-testid=connect]");
    await ben.page.waitForURL(/\/profile\/connections$/);
    await expectText(
      ben.page,
      "[data-testid=connection-notice]",
      "YouTube was not connected: the request was declined.",
    );
    fake.consent.deny = false;

    // YouTube not configured on the edge: the screen says which setting is missing, and offers no Connect.
    stack.t.deps.config.integrations = { ...fake.integrations, youtubeClientSecret: undefined };
    await ben.page.reload();
    await expectText(
      ben.page,
      "[data-testid=connection-youtube] [data-testid=connection-status]",
      "YouTube is not configured: set YOUTUBE_CLIENT_SECRET.",
    );
    expect(await ben.page.locator("[data-testid=connection-youtube] [data-testid=connect]").count()).toBe(0);
    stack.t.deps.config.integrations = fake.integrations;
    expect(ben.errors).toEqual([]);
  });

  it("signs in with Discord from the login page", async () => {
    const { page, errors } = await stack.person();
    fake.consent.discord = {
      id: "900000000000000020",
      username: "dora",
      global_name: "Dora",
      email: "dora@booth.test",
      verified: true,
    };
    await page.goto("/login");
    await shot(page, "login-discord");
    await page.click("[data-testid=discord-signin]");
    await page.waitForURL((url) => url.pathname === "/");
    await page.goto("/profile/connections");
    await expect(page.url()).toMatch(/\/profile\/connections$/);
    await expectText(page, "[data-testid=connection-discord] [data-testid=connection-status]", /^Connected/);
    expect(errors).toEqual([]);
  });

  it("exports a crate to the connected Spotify account, and refuses someone who has not connected it", async () => {
    const { page, errors } = ana;
    const songs = await stack.t.db
      .insert(schema.songs)
      .values([
        {
          shortId: "acc1",
          trackName: "Night Drive",
          artistName: "Lumen",
          musicProviders: { spotify: "4uLU6hMCjMI75M1A2tKUQC" },
        },
        {
          shortId: "acc2",
          trackName: "Tidal",
          artistName: "Lumen",
          musicProviders: { spotify: "7ouMYWpwJ422jRcDASZB7P" },
        },
        { shortId: "acc3", trackName: "Only Here", artistName: "Booth", musicProviders: { uploadService: "u1" } },
      ])
      .returning();
    const crateFor = async (uuid: string, name: string) => {
      const call = await asUser(stack, uuid);
      const crate = (await call("POST", "/api/playlist-service/crate", { name })).body as { crateUuid: string };
      await call("POST", `/api/playlist-service/crate/${crate.crateUuid}/songs`, { songIds: songs.map((s) => s.id) });
      return crate.crateUuid;
    };
    const anas = await crateFor(ana.uuid, "Road trip");

    // Spotify connected again (it was disconnected above).
    fake.consent.spotify = "ana-on-spotify";
    await page.goto("/profile/connections");
    await page.click("[data-testid=connection-spotify] [data-testid=connect]");
    await expectText(page, "[data-testid=connection-notice]", "Spotify is connected.");

    await page.goto(`/crates/${anas}`);
    await page.click("[data-testid=export-spotify]");
    await expectText(
      page,
      "[data-testid=export-result]",
      /^Exported to Spotify: 2 songs, 1 not available there\. Open the playlist on Spotify$/,
    );
    const [id, made] = [...fake.createdSpotifyPlaylists].at(-1) ?? [];
    expect(made).toMatchObject({
      owner: "ana-on-spotify",
      name: "Road trip",
      public: false,
      uris: ["spotify:track:4uLU6hMCjMI75M1A2tKUQC", "spotify:track:7ouMYWpwJ422jRcDASZB7P"],
    });
    expect(await page.getAttribute("[data-testid=export-link]", "href")).toBe(
      `https://open.spotify.com/playlist/${id}`,
    );
    await shot(page, "crate-export");

    // Apple Music is not connected: said so, with the way to connect it.
    await page.click("[data-testid=export-apple]");
    await expectText(page, "[data-testid=export-result]", /^Connect Apple Music first/);

    // Ben has not connected Spotify: his export is refused, and nothing reaches Spotify.
    const before = fake.createdSpotifyPlaylists.size;
    const bens = await crateFor(ben.uuid, "Ben's mix");
    await ben.page.goto(`/crates/${bens}`);
    await ben.page.click("[data-testid=export-spotify]");
    await expectText(ben.page, "[data-testid=export-result]", /^Connect Spotify first/);
    expect(fake.createdSpotifyPlaylists.size).toBe(before);
    expect(errors).toEqual([]);
    expect(ben.errors).toEqual([]);
  });
});
