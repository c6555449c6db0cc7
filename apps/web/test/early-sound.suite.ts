/**
 * The first sound before the live join (#20): the room page's render tells the player what the room plays, so a
 * visitor hears it while the page's socket to the live room is still joining; once the room answers, the player
 * follows the room (another song, or nothing). The live room's answer is held back by holding the page's socket
 * (Playwright's routeWebSocket: the page's socket stays connecting until it is let through), so "before the join"
 * is a fact of the test, not a race it hopes to win.
 */
import { schema } from "@booth/db";
import type { NowPlaying } from "@booth/sdk/live";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { eventually, expectText, suiteStack } from "./harness.ts";
import { audioOf, listener, roomWithDj } from "./listening.ts";

const stack = suiteStack({ songs: 4, songSeconds: 60 });

/** Holds the page's sockets to the live room until `release` is called; what the page sent meanwhile goes on then. */
async function holdLiveRoom(page: Page) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.routeWebSocket(/\/parties\//, async (ws) => {
    const early: (string | Buffer)[] = [];
    let server: ReturnType<typeof ws.connectToServer> | null = null;
    ws.onMessage((message) => (server ? server.send(message) : early.push(message)));
    await released;
    server = ws.connectToServer();
    for (const message of early) server.send(message);
  });
  return release;
}

/** The song playlists the page asked the edge for, in order, with the answers' statuses. */
function playlistsAsked(page: Page) {
  const asked: { path: string; status: number }[] = [];
  page.on("response", (res) => {
    const url = new URL(res.url());
    if (url.pathname.endsWith("/hls-playlist") && !url.searchParams.has("rendition"))
      asked.push({ path: url.pathname, status: res.status() });
  });
  return asked;
}

/** How far (ms) the page's audio is from where the room is in its song, by the page's clock (the machine's). */
const offRoom = (page: Page, nowPlaying: NowPlaying) =>
  page.$eval(
    "[data-testid=room-audio]",
    (a, np) => {
      const duration = np.song.duration || (np.endTime - np.startTime) / 1000;
      return ((a as HTMLAudioElement).currentTime - (duration - (np.endTime - Date.now()) / 1000)) * 1000;
    },
    nowPlaying,
  );

const connection = (page: Page) => page.getAttribute("[data-testid=room]", "data-connection");

async function hlsPaths() {
  const songs = await stack.t.db.select().from(schema.songs).limit(2);
  return songs.map((s) => ({ id: s.id, name: s.trackName, hls: new URL(s.streamUrls.hls ?? "", "http://x").pathname }));
}

/** A room whose DJ plays `songs`, once the first of them is playing. */
async function playingRoom(dj: string, name: string, songs: { id: string }[]) {
  const made = await roomWithDj(
    stack,
    dj,
    { name },
    songs.map((s) => s.id),
  );
  await eventually(() => expect(made.client.state?.nowPlaying?.song.songId).toBe(songs[0]!.id), 20_000);
  return made;
}

/** Opens the room's page with its live socket held: `release` lets it join; `asked` lists the playlists asked. */
async function openHeld(page: Page, slug: string) {
  const release = await holdLiveRoom(page);
  const asked = playlistsAsked(page);
  await page.goto(`/rooms/${slug}`);
  return { release, asked };
}

describe("the first sound before the live join", { timeout: 240_000 }, () => {
  it("a visitor hears the room's song where the room is while joining, and silence once the room says it stopped", async () => {
    const [a] = await hlsPaths();
    const { room, client } = await playingRoom("Early DJ", "Early Bird", [a!]);
    const { page, errors } = await stack.person();
    const { release, asked } = await openHeld(page, room.slug);

    // Sound, though the room has not answered: the page still says it is connecting.
    await eventually(async () => expect((await audioOf(page)).time).toBeGreaterThan(1), 20_000);
    expect(await connection(page)).toBe("connecting");
    expect((await audioOf(page)).paused).toBe(false);
    expect(asked).toEqual([{ path: a!.hls, status: 200 }]);
    // hls.js came with the page's own scripts (preloaded), not after them.
    expect(await page.locator('head link[rel=modulepreload][href^="/assets/hls"]').count()).toBe(1);
    // Where the room is (the render's clock, before the join measures it), within what a first seek lands by.
    expect(Math.abs(await offRoom(page, client.state!.nowPlaying!))).toBeLessThan(1000);

    // The DJ leaves the booth while the page waits: once the room answers, the page plays nothing.
    await client.removeDj();
    await eventually(() => expect(client.state?.nowPlaying ?? null).toBeNull(), 10_000);
    release();
    await eventually(async () => expect(await connection(page)).toBe("live"), 20_000);
    await eventually(async () => expect(await audioOf(page)).toMatchObject({ paused: true, time: 0 }), 10_000);
    client.close();
    expect(errors).toEqual([]);
  });

  it("a visitor follows a song change that came while joining", async () => {
    const [a, b] = await hlsPaths();
    const { room, client } = await playingRoom("Skip DJ", "Skip Ahead", [a!, b!]);
    const { page, errors } = await stack.person();
    const { release, asked } = await openHeld(page, room.slug);
    await eventually(async () => expect((await audioOf(page)).time).toBeGreaterThan(1), 20_000);
    expect(await connection(page)).toBe("connecting");

    // The DJ skips to the next song; the page, let through, plays that one where the room is.
    await client.skipSong();
    await eventually(() => expect(client.state?.nowPlaying?.song.songId).toBe(b!.id), 10_000);
    release();
    await expectText(page, "[data-testid=track-name]", b!.name, 20_000);
    await eventually(() => expect(asked.at(-1)).toEqual({ path: b!.hls, status: 200 }), 20_000);
    await eventually(async () => expect((await audioOf(page)).time).toBeGreaterThan(1), 20_000);
    expect(Math.abs(await offRoom(page, client.state!.nowPlaying!))).toBeLessThan(1000);
    client.close();
    expect(errors).toEqual([]);
  });

  it("someone signed in is not asked the song's playlist before the room admits them, and hears it after", async () => {
    const [a] = await hlsPaths();
    const { room, client } = await playingRoom("Gate DJ", "Members Only", [a!]);
    const { page, errors } = await listener(stack, "Early Member");
    const { release, asked } = await openHeld(page, room.slug);
    // hls.js is there (preloaded with the page), the playlist is not asked for while the room has not admitted them.
    await eventually(
      async () =>
        expect(
          await page.evaluate(() =>
            performance.getEntriesByType("resource").some((r) => /\/hls[^/]*\.js$/.test(r.name)),
          ),
        ).toBe(true),
      20_000,
    );
    await page.waitForTimeout(1000);
    expect(asked).toEqual([]);
    expect((await audioOf(page)).time).toBe(0);
    release();
    await eventually(async () => expect((await audioOf(page)).time).toBeGreaterThan(1), 20_000);
    expect(asked.at(-1)).toEqual({ path: a!.hls, status: 200 });
    client.close();
    expect(errors).toEqual([]);
  });

  it("reads what the room plays when its page opens, and not again when a new song refreshes the page", async () => {
    const [a, b] = await hlsPaths();
    const { room, client } = await playingRoom("Reload DJ", "Reloads", [a!, b!]);
    // The edge's reads of a room's live state: only the web's render asks for it here (the live room never does).
    const reads: string[] = [];
    const edge = stack.t.app.fetch;
    stack.t.app.fetch = (request, ...rest) => {
      if (new URL(request.url).pathname.includes("/rooms/room-state/")) reads.push(request.url);
      return edge(request, ...rest);
    };
    try {
      const { page, errors } = await stack.person();
      await page.goto(`/rooms/${room.slug}`);
      await eventually(async () => expect((await audioOf(page)).time).toBeGreaterThan(1), 20_000);
      await eventually(async () => expect(await connection(page)).toBe("live"), 20_000);
      expect(reads).toHaveLength(1);
      // A new song asks for what it changes on the page (the recently played, the queue), not for the page's whole
      // data, which every listener would ask for at the same moment; and the room's state is not read again.
      const reloads: string[] = [];
      page.on("request", (r) => {
        if (r.method() === "GET" && /\.data/.test(r.url())) reloads.push(r.url());
      });
      const asked = page.waitForResponse((r) => new URL(r.url()).pathname === `/rooms/${room.slug}/after-song`);
      await client.skipSong();
      await expectText(page, "[data-testid=track-name]", b!.name, 20_000);
      expect((await asked).status()).toBe(200);
      expect(reloads).toEqual([]);
      expect(reads).toHaveLength(1);
      client.close();
      expect(errors).toEqual([]);
    } finally {
      stack.t.app.fetch = edge;
    }
  });
});
