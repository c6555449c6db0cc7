/**
 * The room's players against local stand-ins of the providers' scripts (player-stand-ins.ts): a YouTube video and a
 * SoundCloud track start where the room is for someone who joins late and are moved back when they drift; a Spotify
 * song plays in full from the room's position for a Premium account (and is moved back when it drifts), its preview,
 * labelled so, for a listener without Premium; an Apple Music song plays in full for a listener who connected Apple
 * Music, its preview for one who did not; the volume and mute are remembered across a reload and reach the
 * provider's player; the browser's Media Session shows the song (title, artist, cover) and its play and pause work.
 */
import { randomUUID } from "node:crypto";
import { schema } from "@booth/db";
import type { LiveRoomClient } from "@booth/sdk/live";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, expectCount, expectText, type Stack, shot, startStack } from "./harness.ts";
import { signedUp } from "./harness-b.ts";
import { audioOf, roomWithDj } from "./listening.ts";
import { type StandIns, startStandIns } from "./player-stand-ins.ts";

let standIns: StandIns;
let stack: Stack;
const clients: LiveRoomClient[] = [];
beforeAll(async () => {
  standIns = await startStandIns();
  stack = await startStack({ webEnv: standIns.webEnv });
}, 300_000);
afterAll(async () => {
  for (const c of clients) c.close();
  await stack?.stop();
  await standIns?.stop();
}, 60_000);

/** A song in the catalogue as a provider lookup would have added it. */
async function song(fields: Partial<typeof schema.songs.$inferInsert> & { trackName: string }) {
  const [row] = await stack.t.db
    .insert(schema.songs)
    .values({ shortId: randomUUID().slice(0, 12), artistName: "Stand-in Artist", duration: 240, ...fields })
    .returning();
  if (!row) throw new Error("no song");
  return row;
}

/** A room whose DJ (a new user with the SDK's live client) plays `songId`, and where the room is in it. */
async function roomPlaying(name: string, songId: string) {
  const { room, client } = await roomWithDj(stack, `${name} DJ`, { name }, [songId]);
  clients.push(client);
  await eventually(() => expect(client.state?.nowPlaying?.song.songId).toBe(songId), 20_000);
  const startTime = client.state?.nowPlaying?.startTime ?? 0;
  return {
    slug: room.slug,
    startTime,
    /** Where the room is in the song now (one machine, one clock). */
    roomAt: () => (Date.now() - startTime) / 1000,
  };
}

type Provider = "youtube" | "soundcloud" | "spotify" | "apple";

/** What the test reads of a stand-in's player (the plain fields it records, and where it is). */
interface StandInView {
  count: number;
  position: number;
  seeks: number[];
  volume: number;
  muted: boolean | null;
  playing: boolean;
  /** Apple Music: the tokens MusicKit was configured with and holds, the queued song, whether it plays in full. */
  developerToken?: string;
  userToken?: string | null;
  song?: string | null;
  startTime?: number | null;
  full?: boolean | null;
  /** Spotify: the track the device plays. */
  track?: string | null;
}

/** The newest player a stand-in made on the page. */
const standIn = (page: Page, provider: Provider) =>
  page.evaluate((p): StandInView | null => {
    const all = (window as unknown as { __standIns?: Record<string, Record<string, unknown>[]> }).__standIns?.[p] ?? [];
    const last = all.at(-1);
    if (!last) return null;
    const fields = Object.fromEntries(Object.entries(last).filter(([, v]) => typeof v !== "function"));
    const state = typeof last.state === "function" ? (last.state as () => number)() : null;
    return {
      ...(fields as Partial<StandInView>),
      count: all.length,
      position: (last.position as () => number)(),
      seeks: (last.seeks as number[] | undefined) ?? [],
      volume: last.volume as number,
      muted: (last.muted as boolean | undefined) ?? null,
      // YouTube's player state 1 and MusicKit's 2 are "playing"; the others keep a flag.
      playing: p === "youtube" ? state === 1 : p === "apple" ? state === 2 : last.playing === true,
    };
  }, provider);

const drift = (page: Page, provider: Provider, by: number) =>
  page.evaluate(
    ({ p, by }) => {
      const all = (window as unknown as { __standIns: Record<string, { drift: (s: number) => void }[]> }).__standIns[p];
      all?.at(-1)?.drift(by);
    },
    { p: provider, by },
  );

/**
 * Keeps the Media Session's action handlers where the test can call them, as the system's keys would (the browser
 * cannot read them back): set before the page's scripts run.
 */
const recordMediaActions = (page: Page) =>
  page.addInitScript(() => {
    const handlers: Record<string, MediaSessionActionHandler | null> = {};
    (window as unknown as { __mediaActions: typeof handlers }).__mediaActions = handlers;
    const set = MediaSession.prototype.setActionHandler;
    MediaSession.prototype.setActionHandler = function (action, handler) {
      handlers[action] = handler;
      return set.call(this, action, handler);
    };
  });

/** The actions the page answers, and a press of one of them. */
const mediaActions = (page: Page) =>
  page.evaluate(() =>
    Object.entries((window as unknown as { __mediaActions: Record<string, unknown> }).__mediaActions)
      .filter(([, handler]) => typeof handler === "function")
      .map(([action]) => action)
      .sort(),
  );
const pressMediaKey = (page: Page, action: "play" | "pause") =>
  page.evaluate((a) => {
    const handlers = (window as unknown as { __mediaActions: Record<string, MediaSessionActionHandler | null> })
      .__mediaActions;
    handlers[a]?.({ action: a });
  }, action);

/** Moves a range input as a hand would (React hears the input event). */
const setRange = (page: Page, selector: string, value: number) =>
  page
    .locator(selector)
    .first()
    .evaluate((input: HTMLInputElement, v) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set?.call(input, String(v));
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }, value);

/** Waits until the room is `seconds` into its song, so whoever joins now joins late. */
async function joinLate(roomAt: () => number, seconds: number) {
  await eventually(() => expect(roomAt()).toBeGreaterThan(seconds), 20_000);
}

/** Waits until a stand-in plays, started late (more than 3 s in) and where the room is now. */
async function expectInStep(page: Page, provider: Provider, roomAt: () => number, ms: number) {
  await eventually(async () => {
    const player = await standIn(page, provider);
    expect(player?.playing).toBe(true);
    expect(player?.position).toBeGreaterThan(3);
    expect(Math.abs((player?.position ?? 0) - roomAt())).toBeLessThan(1);
  }, ms);
}

/** Moves a stand-in `by` seconds away from the room, and waits for the room's player to seek it back. */
async function expectPutBack(page: Page, provider: Provider, by: number, roomAt: () => number) {
  const seeks = (await standIn(page, provider))?.seeks.length ?? 0;
  await drift(page, provider, by);
  await eventually(async () => {
    const player = await standIn(page, provider);
    expect(player?.seeks.length).toBeGreaterThan(seeks);
    expect(Math.abs((player?.position ?? 0) - roomAt())).toBeLessThan(1);
  }, 10_000);
}

/** Waits until the page's audio plays the song's preview. */
async function expectPreviewPlaying(page: Page, ms: number) {
  await eventually(async () => {
    const { paused, src } = await audioOf(page);
    expect({ paused, src }).toEqual({ paused: false, src: standIns.previewUrl });
  }, ms);
}

/** What the web answers the page when its player asks for the viewer's own token at a provider. */
const providerToken = (page: Page, provider: "spotify" | "apple") =>
  page.evaluate(
    (p) => fetch(`/provider-token/${p}`).then(async (r) => ({ status: r.status, body: await r.json() })),
    provider,
  );

/**
 * A room playing a Spotify song (its preview at the stand-ins), on an edge that can connect Spotify accounts and
 * trades their refresh tokens at the stand-ins' accounts service.
 */
async function spotifyRoom(roomName: string, trackName: string, trackId: string) {
  const config = stack.t.deps.config;
  config.integrations = {
    ...config.integrations,
    spotifyClientId: "booth-test",
    spotifyClientSecret: "booth-test",
    spotifyAccountsUrl: `${standIns.url}/spotify-accounts`,
  };
  const track = await song({
    trackName,
    musicProviders: { spotify: trackId },
    previews: { spotify: standIns.previewUrl },
  });
  return roomPlaying(roomName, track.id);
}

/** A person's connected Spotify account, its access token expired (`kind` names its refresh token: premium, free). */
const spotifyAccount = (userUuid: string, kind: "premium" | "free") =>
  stack.t.db.insert(schema.providerAccounts).values({
    userUuid,
    provider: "spotify",
    refreshToken: `${kind}-${userUuid}`,
    accessToken: "expired",
    accessTokenExpiresAt: new Date(Date.now() - 60_000),
  });

describe("the providers' players", { timeout: 240_000 }, () => {
  it("plays a YouTube video where the room is, moves it back when it drifts, and shows the song to the system", async () => {
    const video = await song({
      trackName: "Video Killed",
      musicProviders: { youtube: "dQw4w9WgXcQ" },
      thumbnails: { youtube: standIns.coverUrl },
    });
    const room = await roomPlaying("Video Lounge", video.id);
    await joinLate(room.roomAt, 4);
    const { page, errors } = await stack.person();
    await recordMediaActions(page);
    await page.goto(`/rooms/${room.slug}`);
    await expectText(page, "[data-testid=track-name]", "Video Killed", 20_000);
    await expectCount(page, "[data-testid=room-embed] [data-stand-in=youtube][data-video-id=dQw4w9WgXcQ]", 1, 20_000);
    // Started where the room is, not at the start.
    await expectInStep(page, "youtube", room.roomAt, 20_000);
    expect(await page.locator("[data-testid=preview-label]").count()).toBe(0);

    // The video falls ten seconds behind: the player puts it back where the room is.
    await expectPutBack(page, "youtube", -10, room.roomAt);

    // The system's media controls show the song and can pause it.
    const session = await page.evaluate(() => ({
      title: navigator.mediaSession.metadata?.title,
      artist: navigator.mediaSession.metadata?.artist,
      state: navigator.mediaSession.playbackState,
    }));
    expect(session).toEqual({ title: "Video Killed", artist: "Stand-in Artist", state: "playing" });
    const artwork = await page.evaluate(() => navigator.mediaSession.metadata?.artwork.map((a) => a.src));
    expect(artwork).toEqual([standIns.coverUrl]);
    await shot(page, "room-youtube");

    // The lock screen's or the keyboard's pause key pauses the video, and the system shows it paused; play plays it
    // again from where the room is by now, not from where it was paused.
    expect(await mediaActions(page)).toEqual(["pause", "play"]);
    await pressMediaKey(page, "pause");
    await eventually(async () => {
      expect((await standIn(page, "youtube"))?.playing).toBe(false);
      expect(await page.evaluate(() => navigator.mediaSession.playbackState)).toBe("paused");
    }, 10_000);
    const pausedAt = (await standIn(page, "youtube"))?.position ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await standIn(page, "youtube"))?.position).toBeCloseTo(pausedAt, 1);
    await pressMediaKey(page, "play");
    await eventually(async () => {
      const player = await standIn(page, "youtube");
      expect(player?.playing).toBe(true);
      expect(Math.abs((player?.position ?? 0) - room.roomAt())).toBeLessThan(1);
      expect(await page.evaluate(() => navigator.mediaSession.playbackState)).toBe("playing");
    }, 10_000);
    expect(errors).toEqual([]);
  });

  it("plays a SoundCloud track in SoundCloud's widget where the room is, and remembers the volume across a reload", async () => {
    const track = await song({ trackName: "Cloud Nine", musicProviders: { soundcloud: "stand-in/cloud-nine" } });
    const room = await roomPlaying("Cloud Room", track.id);
    await joinLate(room.roomAt, 4);
    const { page, errors } = await stack.person();
    await page.goto(`/rooms/${room.slug}`);
    await expectText(page, "[data-testid=track-name]", "Cloud Nine", 20_000);
    // The widget's page comes from the setting, naming the track; nothing of the song became the address.
    const src = await page.locator("[data-testid=room-embed] iframe").getAttribute("src", { timeout: 20_000 });
    const widget = new URL(src ?? "");
    expect(`${widget.origin}${widget.pathname}`).toBe(standIns.webEnv.SOUNDCLOUD_WIDGET_URL);
    expect(widget.searchParams.get("url")).toBe("https://soundcloud.com/stand-in/cloud-nine");
    await expectInStep(page, "soundcloud", room.roomAt, 20_000);
    await expectPutBack(page, "soundcloud", 8, room.roomAt);

    // Volume 30 %, then mute: the widget hears both; a reload keeps them.
    await setRange(page, "[data-testid=volume]", 30);
    await eventually(async () => expect((await standIn(page, "soundcloud"))?.volume).toBe(30));
    await page.locator("[data-testid=mute]").first().click();
    await eventually(async () => expect((await standIn(page, "soundcloud"))?.volume).toBe(0));
    await page.reload();
    await expectText(page, "[data-testid=track-name]", "Cloud Nine", 20_000);
    expect(await page.locator("[data-testid=volume]").first().inputValue()).toBe("30");
    await expectCount(page, "[data-testid=mute][aria-pressed=true]", 1);
    await eventually(async () => expect((await standIn(page, "soundcloud"))?.playing).toBe(true), 20_000);
    expect((await standIn(page, "soundcloud"))?.volume).toBe(0);
    await page.locator("[data-testid=mute]").first().click();
    await eventually(async () => expect((await standIn(page, "soundcloud"))?.volume).toBe(30));
    expect(errors).toEqual([]);
  });

  it("plays a Spotify song's preview, labelled so, to a listener without a Premium account, whose token is theirs alone", async () => {
    // The edge can connect Spotify accounts (its settings are there); this listener connected none.
    const room = await spotifyRoom("Preview Room", "Preview Only", "4uLU6hMCjMI75M1A2tKUQC");
    const listener = await signedUp(stack, "Free Listener");
    await listener.page.goto(`/rooms/${room.slug}`);
    await expectText(listener.page, "[data-testid=track-name]", "Preview Only", 20_000);
    await expectText(listener.page, "[data-testid=preview-label]", "Preview", 20_000);
    await eventually(async () => {
      const audio = await audioOf(listener.page);
      expect(audio.paused).toBe(false);
      expect(audio.src).toBe(standIns.previewUrl);
      expect(audio.time).toBeGreaterThan(1);
    }, 20_000);
    await shot(listener.page, "room-preview");

    // The player asks the web for the viewer's own Spotify token: without an account there is none to give, and a
    // visitor who is not signed in is refused.
    const own = await providerToken(listener.page, "spotify");
    expect(own).toEqual({ status: 404, body: { statusCode: 404, message: "Spotify is not connected for this user." } });
    const visitor = await stack.person();
    await visitor.page.goto("/");
    const refused = await providerToken(visitor.page, "spotify");
    expect(refused.status).toBe(401);
    expect(refused.body.accessToken).toBeUndefined();
    expect(listener.errors).toEqual([]);
  });

  it("plays a Spotify song in full, from the room's position, for a Premium listener's own account; one without Premium hears the preview", async () => {
    const trackId = "1301WleyT98MSxVHPZCA6M";
    const room = await spotifyRoom("Premium Room", "Whole Song", trackId);
    const premium = await signedUp(stack, "Premium Listener");
    const free = await signedUp(stack, "Free Account");
    // Both connected Spotify (the edge keeps their refresh tokens); only one of the accounts has Premium.
    await spotifyAccount(premium.uuid, "premium");
    await spotifyAccount(free.uuid, "free");
    // Each asks for the Spotify token and gets their own, whoever else is connected.
    expect((await providerToken(premium.page, "spotify")).body.accessToken).toBe(`premium-${premium.uuid}:access`);
    expect((await providerToken(free.page, "spotify")).body.accessToken).toBe(`free-${free.uuid}:access`);

    await joinLate(() => (Date.now() - room.startTime) / 1000, 4);
    await premium.page.goto(`/rooms/${room.slug}`);
    await expectText(premium.page, "[data-testid=track-name]", "Whole Song", 20_000);
    const bearer = `Bearer premium-${premium.uuid}:access`;
    await eventually(() => expect(standIns.spotifyPlays.some((p) => p.authorization === bearer)).toBe(true), 20_000);
    const play = standIns.spotifyPlays.find((p) => p.authorization === bearer);
    expect(play?.body.uris).toEqual([`spotify:track:${trackId}`]);
    expect(play?.deviceId).toMatch(/^stand-in-device-/);
    // Started where the room was when the player asked.
    const roomAtThen = ((play?.at ?? 0) - room.startTime) / 1000;
    expect(roomAtThen).toBeGreaterThan(3);
    expect(Math.abs((play?.body.position_ms ?? 0) / 1000 - roomAtThen)).toBeLessThan(1.5);
    expect(await premium.page.locator("[data-testid=preview-label]").count()).toBe(0);
    expect((await audioOf(premium.page)).paused).toBe(true);

    // Without Premium, Spotify's player says so and the preview plays instead, labelled.
    await free.page.goto(`/rooms/${room.slug}`);
    await expectText(free.page, "[data-testid=preview-label]", "Preview", 20_000);
    // Spotify's player answers first (account_error), then the preview loads: slow on a loaded machine.
    await expectPreviewPlaying(free.page, 45_000);
    expect(standIns.spotifyPlays.some((p) => p.authorization?.includes(`free-${free.uuid}`))).toBe(false);
    expect(premium.errors).toEqual([]);
    expect(free.errors).toEqual([]);
  });
  it("moves a Premium listener's Spotify song back to the room's position when it drifts", async () => {
    const trackId = "3n3Ppam7vgaVa1iaRUc9Lp";
    const room = await spotifyRoom("Spotify Drift Room", "Drifting Whole", trackId);
    const listener = await signedUp(stack, "Drifting Premium");
    await spotifyAccount(listener.uuid, "premium");
    await joinLate(room.roomAt, 4);
    await listener.page.goto(`/rooms/${room.slug}`);
    await expectText(listener.page, "[data-testid=track-name]", "Drifting Whole", 20_000);
    // The SDK's device plays the track where the room is.
    await expectInStep(listener.page, "spotify", room.roomAt, 30_000);
    expect((await standIn(listener.page, "spotify"))?.track).toBe(`spotify:track:${trackId}`);

    // The device stalls ten seconds behind (the SDK tells no state of it): the player finds it and seeks it back.
    await expectPutBack(listener.page, "spotify", -10, room.roomAt);
    // And ahead of the room, back too.
    await expectPutBack(listener.page, "spotify", 6, room.roomAt);
    expect(await listener.page.locator("[data-testid=preview-label]").count()).toBe(0);
    expect(listener.errors).toEqual([]);
  });

  it("plays an Apple Music song in full, from the room's position, for a listener who connected Apple Music; one who did not hears the preview, labelled so", async () => {
    stack.t.deps.config.providers.appleMusicDeveloperToken = "stand-in-developer-token";
    const songId = "1440857781";
    const track = await song({
      trackName: "Orchard Song",
      musicProviders: { apple: songId },
      previews: { apple: standIns.previewUrl },
    });
    const room = await roomPlaying("Orchard Room", track.id);
    const connected = await signedUp(stack, "Apple Listener");
    const other = await signedUp(stack, "Appleless Listener");
    // The connected listener's music user token is kept by the edge (as when they connected on another browser:
    // MusicKit on this one holds no sign-in).
    await stack.t.db.insert(schema.providerAccounts).values({
      userUuid: connected.uuid,
      provider: "apple",
      accessToken: `apple-mut-${connected.uuid}`,
    });
    expect(await providerToken(connected.page, "apple")).toEqual({
      status: 200,
      body: {
        accessToken: `apple-mut-${connected.uuid}`,
        developerToken: "stand-in-developer-token",
        expiresAt: null,
      },
    });
    expect(await providerToken(other.page, "apple")).toEqual({
      status: 404,
      body: { statusCode: 404, message: "Apple Music is not connected." },
    });

    await joinLate(room.roomAt, 4);
    await connected.page.goto(`/rooms/${room.slug}`);
    await expectText(connected.page, "[data-testid=track-name]", "Orchard Song", 20_000);
    // MusicKit, configured with Booth's developer token and holding the listener's own token, plays the whole song,
    // started where the room is.
    await eventually(async () => {
      const player = await standIn(connected.page, "apple");
      expect(player).toMatchObject({
        developerToken: "stand-in-developer-token",
        userToken: `apple-mut-${connected.uuid}`,
        song: songId,
        full: true,
        playing: true,
      });
      expect(player?.startTime).toBeGreaterThan(3);
      expect(Math.abs((player?.position ?? 0) - room.roomAt())).toBeLessThan(1);
    }, 30_000);
    expect(await connected.page.locator("[data-testid=preview-label]").count()).toBe(0);
    expect((await audioOf(connected.page)).paused).toBe(true);
    // It drifts: the player moves it back.
    await expectPutBack(connected.page, "apple", -8, room.roomAt);
    await shot(connected.page, "room-apple-music");

    // Without Apple Music connected, the preview plays on the page's audio, labelled.
    await other.page.goto(`/rooms/${room.slug}`);
    await expectText(other.page, "[data-testid=preview-label]", "Preview", 20_000);
    await expectPreviewPlaying(other.page, 30_000);
    expect(await standIn(other.page, "apple")).toBeNull();
    expect(connected.errors).toEqual([]);
    expect(other.errors).toEqual([]);
  });
});
