// Audius (issue #37): search, a song by link or id, crates, playlist import and the stream, against a local stand-in
// of Audius's API (testing/fake-audius.ts) named by the AUDIUS_API_URL setting; bad links and Audius down.
import { schema } from "@booth/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultConfig } from "../../deps.ts";
import { shortId } from "../../lib/ids.ts";
import { synthesizeMp3 } from "../../ports/audio.ts";
import { audiusTrack, type FakeAudius, startFakeAudius } from "../../testing/fake-audius.ts";
import { createTestApp, expectRefusal, ok, TEST_FFMPEG, type TestApp, until } from "../../testing.ts";
import { NOT_A_TRACK_LINK } from "./catalogue.ts";
import { NOT_A_PLAYLIST_LINK } from "./playlist-links.ts";
import { PLAYLIST_NOT_FOUND } from "./playlist-sources.ts";

let fake: FakeAudius;
let t: TestApp;
/** An app whose AUDIUS_API_URL is a closed port: Audius cannot be reached. */
let unreachable: TestApp;

beforeAll(async () => {
  const mp3 = await synthesizeMp3({ ffmpeg: TEST_FFMPEG, seconds: 3, frequencies: [440], title: "Tone", artist: "A" });
  fake = await startFakeAudius({ mp3 });
  t = await createTestApp({
    config: {
      ...defaultConfig,
      providers: { ...defaultConfig.providers, audiusApiUrl: fake.base, audiusAppName: "booth-test" },
    },
  });
  unreachable = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.close();
  await unreachable?.close();
  await fake?.close();
});

const link = (url: string, app = t) => app.api().playlist.GET("/song-data/{link}", { params: { path: { link: url } } });
const byId = (id: string) =>
  t.api().playlist.GET("/song-data/{providerSongId}/{musicProvider}", {
    params: { path: { providerSongId: id, musicProvider: "audius" } },
  });
const search = (q: string, explicit: "true" | "false" = "false", app = t) =>
  app.api().playlist.GET("/search", { params: { query: { q, explicit } } });
const streamOf = (id: string) => `${fake.base}/v1/tracks/${id}/stream?app_name=booth-test`;

describe("Audius songs", () => {
  it("finds a track by its link, stores it with its id and stream, and answers the next ask from the catalogue", async () => {
    const track = fake.add(audiusTrack("D7KyD", "Harbour Lights", { artist: "Sea Glass", duration: 201 }));
    const before = fake.requests.length;
    const first = ok(await link("https://audius.co/seaglass/harbour-lights"));
    expect(first).toMatchObject({
      provider: "audius",
      song: {
        trackName: "Harbour Lights",
        artistName: "Sea Glass",
        duration: 201,
        explicit: false,
        releaseYear: 2024,
        musicProviders: { audius: "D7KyD" },
        links: { audius: "https://audius.co/seaglass/harbour-lights" },
        streamUrls: { http: streamOf("D7KyD") },
      },
    });
    // The link was resolved at the configured base URL, with Booth's app name.
    const asked = fake.requests.slice(before);
    expect(asked.map((r) => r.path)).toEqual(["/v1/resolve", "/v1/tracks/D7KyD"]);
    expect(asked.every((r) => r.query.app_name === "booth-test")).toBe(true);
    expect(asked[0]?.query.url).toBe("https://audius.co/seaglass/harbour-lights");

    // Asked again, by link or by id: the catalogue answers, Audius is not asked.
    const again = fake.requests.length;
    expect(ok(await link(`https://audius.co${track.permalink}/`)).song.songId).toBe(first.song.songId);
    expect(ok(await byId("D7KyD")).song.songId).toBe(first.song.songId);
    expect(fake.requests.length).toBe(again);
  });

  it("finds a track by its id", async () => {
    fake.add(audiusTrack("Q9x2L", "Paper Moons", { artist: "Sea Glass" }));
    expect(ok(await byId("Q9x2L")).song).toMatchObject({
      trackName: "Paper Moons",
      musicProviders: { audius: "Q9x2L" },
    });
  });

  it("adds an Audius song to a crate and to the queue, and its stream answers the audio", async () => {
    fake.add(audiusTrack("Zz31k", "Slow Tide", { artist: "Sea Glass", slug: "slow-tide" }));
    const { song } = ok(await link("https://audius.co/seaglass/slow-tide"));
    const user = await t.createUser();
    const api = t.api(user.token).playlist;
    const crate = ok(await api.POST("/crate", { body: { crateName: "Waves" } }));
    expect(
      (
        await api.POST("/crate/{id}/songs", {
          params: { path: { id: crate.crateUuid } },
          body: { songId: song.songId },
        })
      ).response.status,
    ).toBeLessThan(300);
    const inCrate = ok(await api.GET("/crate/{id}/songs", { params: { path: { id: crate.crateUuid } } }));
    expect(inCrate).toMatchObject([
      { songId: song.songId, musicProviders: { audius: "Zz31k" }, streamUrls: { http: streamOf("Zz31k") } },
    ]);
    expect(
      (await api.POST("/crate/special/queue/songs", { body: { songId: song.songId } })).response.status,
    ).toBeLessThan(300);

    // What the player is given: Audius's stream, which redirects to the audio.
    const stream = await fetch(song.streamUrls.http as string);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("audio/mpeg");
    expect((await stream.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });

  it("refuses links and ids that name no Audius track, with a clear 4xx", async () => {
    expectRefusal(await link("https://audius.co/seaglass"), 400, NOT_A_TRACK_LINK);
    expectRefusal(await link("https://audius.co.evil.example/seaglass/x"), 400, NOT_A_TRACK_LINK);
    expectRefusal(await byId("not-an-id!"), 400, "This is not an Audius track id or link.");
    expectRefusal(await link("https://audius.co/seaglass/no-such-track"), 404, "Audius has no track at this link.");
    expectRefusal(await byId("Nope1"), 404, "Audius has no track with this id.");
  });

  it("says so with a 502 or 503 when Audius is down, limiting or unreachable", async () => {
    fake.add(audiusTrack("Dn001", "Outage Song", { slug: "outage" }));
    try {
      fake.control.failWith = 503;
      expectRefusal(await link("https://audius.co/lumenaudius/outage"), 502, "Audius answered 503.");
      fake.control.failWith = 429;
      expectRefusal(
        await link("https://audius.co/lumenaudius/outage"),
        503,
        "Audius is limiting requests, please try again later.",
      );
    } finally {
      fake.control.failWith = null;
    }
    expectRefusal(await link("https://audius.co/lumenaudius/outage", unreachable), 502, "Audius could not be reached.");
  });
});

describe("search with Audius", () => {
  /** Catalogue songs named `${word} 1`..`${word} n`, not from Audius. */
  async function catalogueSongs(word: string, n: number) {
    await t.db.insert(schema.songs).values(
      Array.from({ length: n }, (_, i) => ({
        shortId: shortId(),
        trackName: `${word} ${i + 1}`,
        artistName: "Catalogue Band",
        duration: 200,
      })),
    );
  }

  it("puts the first five catalogue songs first, then Audius's and the catalogue's in turn", async () => {
    await catalogueSongs("Ember", 7);
    fake.add(audiusTrack("Em001", "Ember Glow", { artist: "Flare" }));
    fake.add(audiusTrack("Em002", "Ember Rise", { artist: "Flare" }));
    fake.add({ ...audiusTrack("Em003", "Ember Locked", { artist: "Flare" }), is_streamable: false });
    const songs = ok(await search("ember"));
    const names = songs.map((s) => s.trackName);
    expect(names.slice(0, 5).every((n) => /^Ember \d$/.test(n))).toBe(true);
    expect(names.slice(5)).toEqual([
      "Ember Glow",
      expect.stringMatching(/^Ember \d$/),
      "Ember Rise",
      expect.stringMatching(/^Ember \d$/),
    ]);
    // Audius's songs carry their id and the stream the player plays; one that cannot be streamed is left out.
    expect(songs.find((s) => s.trackName === "Ember Glow")).toMatchObject({
      musicProviders: { audius: "Em001" },
      streamUrls: { http: streamOf("Em001") },
      explicit: false,
    });
    expect(names).not.toContain("Ember Locked");
    const asked = fake.requests.filter((r) => r.path === "/v1/tracks/search").at(-1);
    expect(asked?.query).toMatchObject({ query: "ember", app_name: "booth-test" });

    // Searched again, each song once (Audius's are in the catalogue now).
    const again = ok(await search("ember", "true")).map((s) => s.songId);
    expect(new Set(again).size).toBe(again.length);
    expect(again).toHaveLength(9);
  });

  it("answers the catalogue alone when Audius is down", async () => {
    await catalogueSongs("Cinder", 2);
    fake.add(audiusTrack("Ci001", "Cinder Audius"));
    fake.control.failWith = 500;
    try {
      expect(ok(await search("cinder")).map((s) => s.trackName)).toEqual(["Cinder 1", "Cinder 2"]);
    } finally {
      fake.control.failWith = null;
    }
    expect(ok(await search("cinder", "false", unreachable))).toEqual([]);
  });
});

describe("importing an Audius playlist", () => {
  it("imports its tracks into a crate named after it, skipping a deleted one", async () => {
    fake.add(audiusTrack("Pl001", "Night Swim", { artist: "Sea Glass" }));
    fake.add(audiusTrack("Pl002", "Undertow", { artist: "Sea Glass" }));
    fake.playlists.set("PLx01", {
      name: "Deep Water",
      path: "seaglass/playlist/deep-water",
      trackIds: ["Pl001", "Gone1", "Pl002"],
    });
    const user = await t.createUser();
    const api = t.api(user.token).playlist;
    const started = ok(
      await api.POST("/api/v1/playlist-imports", { body: { link: "https://audius.co/seaglass/playlist/deep-water" } }),
    );
    expect(started).toMatchObject({ provider: "audius", playlistName: "Deep Water", total: 3 });
    const last = await until(
      async () => {
        const now = ok(
          await api.GET("/api/v1/playlist-imports/{importId}", { params: { path: { importId: started.importId } } }),
        );
        return now.state === "complete" || now.state === "failed" ? now : null;
      },
      "the Audius import to end",
      120_000,
    );
    expect(last).toMatchObject({ state: "complete", done: 3, imported: 2, skipped: 1 });
    const songs = ok(await api.GET("/crate/{id}/songs", { params: { path: { id: started.crateUuid } } }));
    expect(songs.map((s) => [s.trackName, s.musicProviders.audius, s.streamUrls.http])).toEqual([
      ["Night Swim", "Pl001", streamOf("Pl001")],
      ["Undertow", "Pl002", streamOf("Pl002")],
    ]);
  });

  it("refuses what is no Audius playlist, and a playlist Audius does not have", async () => {
    const user = await t.createUser();
    const start = (l: string) => t.api(user.token).playlist.POST("/api/v1/playlist-imports", { body: { link: l } });
    expectRefusal(await start("https://audius.co/seaglass/deep-water"), 400, NOT_A_PLAYLIST_LINK);
    expectRefusal(await start("https://audius.co/seaglass/playlist/none-such"), 404, PLAYLIST_NOT_FOUND);
    fake.control.failWith = 502;
    try {
      expectRefusal(await start("https://audius.co/seaglass/playlist/deep-water"), 502, "Audius answered 502.");
    } finally {
      fake.control.failWith = null;
    }
  });
});
