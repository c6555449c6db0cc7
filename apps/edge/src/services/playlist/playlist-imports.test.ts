// Playlist import: a Spotify, YouTube or SoundCloud playlist link becomes a crate named after the playlist, its tracks
// added by a job that pages through the provider's API (here the local fake providers); the progress is read from the
// shared cache by the import's owner only.
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../app.ts";
import { firstRow } from "../../lib/rows.ts";
import { type Cache, redisCache } from "../../ports/cache.ts";
import { type FakeProviders, youtubeVideo } from "../../testing/fake-providers.ts";
import { withProviderApps } from "../../testing/provider-apps.ts";
import { createTestApp, expectRefusal, ok, type TestApp, until } from "../../testing.ts";

let fake: FakeProviders;
let t: TestApp;
let bare: TestApp;
withProviderApps({ bare: true }, (apps) => ({ fake, t, bare } = apps));

type Import = NonNullable<Awaited<ReturnType<typeof progress>>["data"]>;
const start = (token: string, link: string, app = t) =>
  app.api(token).playlist.POST("/api/v1/playlist-imports", { body: { link } });
const progress = (token: string, importId: string, app = t) =>
  app.api(token).playlist.GET("/api/v1/playlist-imports/{importId}", { params: { path: { importId } } });
/** Reads the progress until the import has ended, as a client polls it; answers every state it saw on the way. */
async function finished(token: string, importId: string, app = t) {
  const seen: Import[] = [];
  const last = await until(
    async () => {
      const now = ok(await progress(token, importId, app));
      seen.push(now);
      return now.state === "complete" || now.state === "failed" ? now : null;
    },
    "the playlist import to end",
    180_000,
  );
  if (!last) throw new Error("until answered nothing");
  return { last, seen };
}
const crateSongs = async (token: string, id: string) =>
  ok(await t.api(token).playlist.GET("/crate/{id}/songs", { params: { path: { id } } })).map((s) => s.trackName);
/** Waits for the import to complete with these counts; answers the names of the songs it put in the crate it made. */
async function completed(token: string, importId: string, counts: { done: number; imported: number; skipped: number }) {
  const { last } = await finished(token, importId);
  expect(last).toMatchObject({ state: "complete", ...counts });
  const songs = await crateSongs(token, last.crateUuid);
  expect(songs).toHaveLength(counts.imported);
  return songs;
}
const cratesOf = (userUuid: string) => t.db.select().from(schema.crates).where(eq(schema.crates.userUuid, userUuid));

let counter = 0;
/** A Spotify id (22 characters) of its own for each call. */
const spotifyId = () => `pl${String(++counter).padStart(20, "0")}`;
const spotifyItem = (name: string, id = spotifyId()) => ({
  track: {
    id,
    type: "track",
    name,
    artists: [{ name: "Neon Tide" }],
    album: { name: "Night Drives", release_date: "2024-05-17", images: [] },
    duration_ms: 180_000,
    external_ids: {},
    external_urls: { spotify: `https://open.spotify.com/track/${id}` },
  },
});
/** A playlist of `length` tracks named `${prefix} 1`, `${prefix} 2`... that the fake Spotify answers for `id`. */
const spotifyPlaylist = (id: string, name: string, length: number, prefix: string) =>
  fake.spotifyPlaylists.set(id, { name, items: Array.from({ length }, (_, i) => spotifyItem(`${prefix} ${i + 1}`)) });

describe("importing a Spotify playlist", () => {
  it("pages through the playlist into a crate named after it, skipping and counting what Spotify cannot give", async () => {
    const user = await t.createUser();
    const playlistId = "37i9dQZF1DXcBWIGoYBM5M";
    const repeated = spotifyItem("Track 2");
    const items = [
      ...Array.from({ length: 110 }, (_, i) => spotifyItem(`Track ${i + 1}`)),
      { track: null },
      { is_local: true, track: { id: null, type: "track", name: "My demo.mp3" } },
      { track: { id: spotifyId(), type: "episode", name: "A podcast" } },
      repeated,
    ];
    // The same track twice (by id): the crate keeps one.
    items[1] = repeated;
    fake.spotifyPlaylists.set(playlistId, { name: "Today's Top Hits", items });
    const before = fake.requests.length;

    const started = await start(user.token, `https://open.spotify.com/playlist/${playlistId}?si=abc`);
    expect(started.response.status).toBe(202);
    expect(started.data).toMatchObject({
      provider: "spotify",
      playlistName: "Today's Top Hits",
      state: "queued",
      total: 114,
      done: 0,
    });
    const { last, seen } = await finished(user.token, started.data!.importId);
    expect(last).toMatchObject({
      state: "complete",
      total: 114,
      done: 114,
      imported: 110,
      skipped: 4,
      message: "4 of 114 tracks could not be imported.",
      crateUuid: started.data?.crateUuid,
    });
    // The count only goes up on the way.
    const dones = seen.map((s) => s.done);
    expect(dones).toEqual([...dones].sort((a, b) => a - b));

    const [crate] = await cratesOf(user.user.uuid).then((rows) => rows.filter((c) => c.kind === "default"));
    expect(crate).toMatchObject({ name: "Today's Top Hits", importStatus: "COMPLETE", id: last.crateUuid });
    const songs = await crateSongs(user.token, last.crateUuid);
    expect(songs).toHaveLength(110);
    expect(songs.slice(0, 3)).toEqual(["Track 1", "Track 2", "Track 3"]);
    expect(songs.at(-1)).toBe("Track 110");

    // Two pages of 100, with Booth's app token.
    const pages = fake.requests
      .slice(before)
      .filter((r) => r.path === `/spotify-api/v1/playlists/${playlistId}/tracks`);
    expect(pages.length).toBe(2);
    expect(pages.every((r) => r.headers.authorization?.startsWith("Bearer spotify-access-"))).toBe(true);
  });

  it("imports the first 500 tracks of a longer playlist and says so", async () => {
    const user = await t.createUser();
    const playlistId = "1ongP1ay1istWith520Trk";
    spotifyPlaylist(playlistId, "Everything", 520, "Long");
    const started = ok(await start(user.token, `spotify:playlist:${playlistId}`));
    expect(started).toMatchObject({ total: 500, playlistTracks: 520 });
    const { last } = await finished(user.token, started.importId);
    expect(last).toMatchObject({
      state: "complete",
      done: 500,
      imported: 500,
      skipped: 0,
      message: "The playlist has 520 tracks; the first 500 were imported.",
    });
    const songs = await crateSongs(user.token, last.crateUuid);
    expect(songs).toHaveLength(500);
    expect(songs.at(-1)).toBe("Long 500");
  }, 120_000);

  it("ends as failed, keeping what it added, when Spotify fails part-way", async () => {
    const user = await t.createUser();
    const playlistId = "0utageP1ay1istHa1fWay0";
    spotifyPlaylist(playlistId, "Half way", 103, "Half");
    fake.outages.push({ match: new RegExp(`/v1/playlists/${playlistId}/tracks\\?offset=100`), status: 500 });
    const started = ok(await start(user.token, `https://open.spotify.com/playlist/${playlistId}`));
    const { last } = await finished(user.token, started.importId);
    expect(last).toMatchObject({ state: "failed", done: 100, imported: 100, message: "Spotify answered 500." });
    const crate = await firstRow(t.db, schema.crates, eq(schema.crates.id, last.crateUuid));
    expect(crate).toMatchObject({ importStatus: "FAILED", importMessage: "Spotify answered 500." });
    expect(await crateSongs(user.token, last.crateUuid)).toHaveLength(100);
  });
});

describe("importing a YouTube playlist", () => {
  it("pages through the playlist items, asks for the videos 50 at a time, and skips private and deleted ones", async () => {
    const user = await t.createUser();
    const listId = "PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf";
    const videoIds = Array.from({ length: 57 }, (_, i) => `vid${String(i).padStart(8, "0")}`);
    // Videos 3 and 55 are private or deleted: the playlist lists them, /videos does not answer them.
    for (const [i, id] of videoIds.entries())
      if (i !== 3 && i !== 55) fake.youtubeVideos.set(id, youtubeVideo(id, `Clip ${i}`));
    fake.youtubePlaylists.set(listId, { title: "Lumen live", videoIds });
    const before = fake.requests.length;

    const started = ok(await start(user.token, `https://www.youtube.com/watch?v=${videoIds[0]}&list=${listId}`));
    expect(started).toMatchObject({ provider: "youtube", playlistName: "Lumen live", total: 57 });
    const songs = await completed(user.token, started.importId, { done: 57, imported: 55, skipped: 2 });
    expect(songs.slice(2, 4)).toEqual(["Clip 2", "Clip 4"]);
    const song = await firstRow(t.db, schema.songs, eq(schema.songs.trackName, "Clip 4"));
    expect(song).toMatchObject({ artistName: "Lumen", duration: 185, musicProviders: { youtube: videoIds[4] } });

    // Two pages of items (50 and 7), and the videos of each page in one request.
    const asked = fake.requests.slice(before).map((r) => r.path);
    expect(asked.filter((p) => p === "/youtube-api/playlistItems")).toHaveLength(2);
    expect(asked.filter((p) => p === "/youtube-api/videos")).toHaveLength(2);
  });

  it("answers 404 for a playlist YouTube does not list (missing or private)", async () => {
    const user = await t.createUser();
    const res = await start(user.token, "https://www.youtube.com/playlist?list=PLprivateOrMissing");
    expectRefusal(res, 404, "This playlist does not exist or is private.");
    expect(await cratesOf(user.user.uuid)).toEqual([]);
  });
});

describe("importing a SoundCloud set", () => {
  it("resolves the set's link, follows its pages, and skips blocked tracks", async () => {
    const user = await t.createUser();
    const tracks = Array.from({ length: 53 }, (_, i) => ({
      id: 9000 + i,
      title: `Wave ${i}`,
      duration: 200_000,
      user: { username: "Tidal Echo" },
      permalink_url: `https://soundcloud.com/tidal-echo/wave-${i}`,
    }));
    tracks[10] = { id: 9010, access: "blocked" } as never;
    fake.soundcloudPlaylists.set("tidal-echo/sets/waves", { id: 777, title: "Waves", tracks });

    const started = ok(await start(user.token, "https://soundcloud.com/tidal-echo/sets/waves"));
    expect(started).toMatchObject({ provider: "soundcloud", playlistName: "Waves", total: 53 });
    const songs = await completed(user.token, started.importId, { done: 53, imported: 52, skipped: 1 });
    expect(songs.slice(9, 11)).toEqual(["Wave 9", "Wave 11"]);
    // The catalogue knows each track by its path, as a link to it does.
    const found = ok(
      await t.api().playlist.GET("/song-data/{link}", {
        params: { path: { link: "https://soundcloud.com/tidal-echo/wave-12" } },
      }),
    );
    expect(found.song.trackName).toBe("Wave 12");
    expect(fake.requests.filter((r) => r.path === "/soundcloud-api/playlists/777/tracks")).toHaveLength(2);
  });
});

describe("what is refused", () => {
  it("answers 400 for links that are not playlists of the three providers, and creates nothing", async () => {
    const user = await t.createUser();
    for (const link of [
      "https://open.spotify.com/track/7ouMYWpwJ422jRcDASZB7P",
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://soundcloud.com/tidal-echo/wave-1",
      "https://www.deezer.com/playlist/908622995",
      "javascript:alert(1)",
      "not a link",
    ]) {
      const res = await start(user.token, link);
      expect(res.response.status, link).toBe(400);
      expect(res.error?.message).toBe("This is not a Spotify, YouTube or SoundCloud playlist link.");
    }
    const empty = await start(user.token, "  ");
    expect(empty.response.status).toBe(400);
    expect(await cratesOf(user.user.uuid)).toEqual([]);
  });

  it("answers 404 for a playlist Spotify or SoundCloud does not have", async () => {
    const user = await t.createUser();
    for (const link of [
      "https://open.spotify.com/playlist/0000000000000000000000",
      "https://soundcloud.com/nobody/sets/nothing",
    ]) {
      const res = await start(user.token, link);
      expect(res.response.status, link).toBe(404);
      expect(res.error?.message).toBe("This playlist does not exist or is private.");
    }
    expect(await cratesOf(user.user.uuid)).toEqual([]);
  });

  it("answers 502 when the provider is down at the start, and creates nothing", async () => {
    const user = await t.createUser();
    fake.control.failWith = 503;
    try {
      const res = await start(user.token, "https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M");
      expect(res.response.status).toBe(502);
      expect(res.error?.message).toMatch(/Spotify/);
    } finally {
      fake.control.failWith = null;
    }
    expect(await cratesOf(user.user.uuid)).toEqual([]);
  });

  it("answers 503 naming the settings when the provider is not configured", async () => {
    const user = await bare.createUser();
    const cases = [
      ["https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M", "SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET"],
      ["https://www.youtube.com/playlist?list=PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf", "YOUTUBE_API_KEY"],
      ["https://soundcloud.com/tidal-echo/sets/waves", "SOUNDCLOUD_CLIENT_ID and SOUNDCLOUD_CLIENT_SECRET"],
    ] as const;
    for (const [link, settings] of cases) {
      const res = await start(user.token, link, bare);
      expect(res.response.status).toBe(503);
      expect(res.error?.message).toContain(settings);
    }
  });

  it("needs a signed-in caller, and shows an import to its owner only", async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    fake.youtubePlaylists.set("PLsmall", { title: "Small", videoIds: ["small000001"] });
    fake.youtubeVideos.set("small000001", youtubeVideo("small000001", "Small one"));
    const anonymous = await t.api().playlist.POST("/api/v1/playlist-imports", {
      body: { link: "https://www.youtube.com/playlist?list=PLsmall" },
    });
    expect(anonymous.response.status).toBe(401);

    const started = ok(await start(owner.token, "https://www.youtube.com/playlist?list=PLsmall"));
    expect(
      (
        await t.api().playlist.GET("/api/v1/playlist-imports/{importId}", {
          params: { path: { importId: started.importId } },
        })
      ).response.status,
    ).toBe(401);
    const stranger = await progress(other.token, started.importId);
    expectRefusal(stranger, 404, "Playlist import not found.");
    expect((await progress(owner.token, crypto.randomUUID())).response.status).toBe(404);
    expect((await finished(owner.token, started.importId)).last).toMatchObject({ state: "complete", imported: 1 });
  });
});

describe("the limit", () => {
  it("lets an account start 20 imports an hour, then answers 429", async () => {
    const user = await t.createUser();
    // Missing playlists are quick to ask for, and count as much as the others.
    for (let i = 0; i < 20; i++)
      expect(
        (await start(user.token, "https://open.spotify.com/playlist/0000000000000000000000")).response.status,
      ).toBe(404);
    const refused = await start(user.token, "https://open.spotify.com/playlist/0000000000000000000000");
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get("retry-after")).toBeTruthy();
    // Someone else still may.
    const other = await t.createUser();
    expect((await start(other.token, "https://open.spotify.com/playlist/0000000000000000000000")).response.status).toBe(
      404,
    );
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)("two edges sharing Redis", () => {
  let one: TestApp;
  let other: ReturnType<typeof createApp>;
  let caches: Cache[];
  beforeAll(async () => {
    const url = process.env.TEST_REDIS_URL ?? "";
    const prefix = `test:${crypto.randomUUID()}:`;
    caches = [await redisCache(url, prefix), await redisCache(url, prefix)];
    // The first edge starts the import and works the job; the second, with its own Redis connection, is only asked.
    one = await createTestApp({ config: fake.config, cache: caches[0] });
    other = createApp({ ...one.deps, cache: caches[1]! });
  });
  afterAll(async () => {
    await one?.close();
    await caches?.[1]?.close();
  });

  it("answers the progress of an import another edge started and works", async () => {
    const user = await one.createUser();
    fake.youtubePlaylists.set("PLshared", { title: "Shared", videoIds: ["small000001"] });
    const started = ok(await start(user.token, "https://www.youtube.com/playlist?list=PLshared", one));
    const read = async () => {
      const res = await other.request(`/api/playlist-service/api/v1/playlist-imports/${started.importId}`, {
        headers: { authorization: `Bearer ${user.token}` },
      });
      return { status: res.status, body: (await res.json()) as Import };
    };
    const done = await until(async () => {
      const res = await read();
      return res.body.state === "complete" ? res : null;
    }, "the other edge to see the import finished");
    expect(done).toMatchObject({ status: 200, body: { playlistName: "Shared", imported: 1, done: 1, total: 1 } });
    // Nothing of it is kept in the first edge's memory: with the record gone from Redis, neither edge knows it.
    await caches[1]!.del(`playlist-import:${started.importId}`);
    expect((await read()).status).toBe(404);
    expect((await progress(user.token, started.importId, one)).response.status).toBe(404);
  });
});
