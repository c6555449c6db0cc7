// 7digital (issue #37): search, a song by id or link, crates, the explicit flag and the signed 30-second clip, against
// a local stand-in of 7digital's API and preview service (testing/fake-seven-digital.ts) named by the
// SEVENDIGITAL_* settings; 7digital unconfigured, refusing Booth's key, down, slow or out of reach.
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppConfig, defaultConfig } from "../../deps.ts";
import { shortId } from "../../lib/ids.ts";
import { audiusTrack, type FakeAudius, startFakeAudius } from "../../testing/fake-audius.ts";
import {
  FAKE_SEVEN_DIGITAL,
  type FakeSevenDigital,
  sevenDigitalTrack,
  startFakeSevenDigital,
} from "../../testing/fake-seven-digital.ts";
import { createTestApp, expectRefusal, ok, type TestApp } from "../../testing.ts";
import { NOT_A_TRACK_LINK } from "./catalogue.ts";

let fake: FakeSevenDigital;
let audius: FakeAudius;
/** 7digital configured (key, secret, country GB), Audius too. */
let t: TestApp;
/** No key or secret: 7digital is not configured. */
let unconfigured: TestApp;
/** 7digital at a closed port. */
let unreachable: TestApp;
/** A key 7digital does not know. */
let wrongKey: TestApp;

const MP3 = new Uint8Array(4096).map((_, i) => i % 251);
const sevenDigital = (
  base: FakeSevenDigital,
  key: string = FAKE_SEVEN_DIGITAL.key,
): Partial<AppConfig["providers"]> => ({
  sevenDigitalApiUrl: base.apiUrl,
  sevenDigitalPreviewsUrl: base.previewsUrl,
  sevenDigitalConsumerKey: key,
  sevenDigitalConsumerSecret: FAKE_SEVEN_DIGITAL.secret,
  sevenDigitalCountry: "GB",
});
const appWith = (providers: Partial<AppConfig["providers"]>) =>
  createTestApp({ config: { ...defaultConfig, providers: { ...defaultConfig.providers, ...providers } } });

beforeAll(async () => {
  fake = await startFakeSevenDigital({ mp3: MP3 });
  audius = await startFakeAudius();
  t = await appWith({ ...sevenDigital(fake), audiusApiUrl: audius.base, audiusAppName: "booth-test" });
  // The stand-in's clock is the app's: a clip's signature is as old as the edge's clock says.
  fake.control.now = () => t.clock.now().getTime();
  unconfigured = await appWith({ sevenDigitalApiUrl: fake.apiUrl, sevenDigitalPreviewsUrl: fake.previewsUrl });
  unreachable = await appWith({
    ...sevenDigital(fake),
    sevenDigitalApiUrl: "http://127.0.0.1:9/1.2",
    sevenDigitalPreviewsUrl: "http://127.0.0.1:9",
  });
  wrongKey = await appWith(sevenDigital(fake, "not-booths-key"));
}, 60_000);
afterAll(async () => {
  await Promise.all([t?.close(), unconfigured?.close(), unreachable?.close(), wrongKey?.close()]);
  await fake?.close();
  await audius?.close();
});

const byId = (id: string, app = t) =>
  app.api().playlist.GET("/song-data/{providerSongId}/{musicProvider}", {
    params: { path: { providerSongId: id, musicProvider: "sevenDigital" } },
  });
const link = (url: string, app = t) => app.api().playlist.GET("/song-data/{link}", { params: { path: { link: url } } });
const search = (q: string, explicit: "true" | "false" = "false", app = t) =>
  app.api().playlist.GET("/search", { params: { query: { q, explicit } } });
const clipPath = (id: string | number) => `/api/playlist-service/song-data/clip/sevenDigital/${id}`;
const NOT_CONFIGURED = "7digital is not configured: set SEVENDIGITAL_CONSUMER_KEY and SEVENDIGITAL_CONSUMER_SECRET.";

describe("7digital songs", () => {
  it("finds a track by its id with Booth's key and country, as a 30-second song that plays the clip", async () => {
    fake.add(sevenDigitalTrack(1001, "Harbour Lights", { artist: "Sea Glass", duration: 201, isrc: "GBSEA2300001" }));
    const before = fake.requests.length;
    const first = ok(await byId("1001"));
    expect(first).toMatchObject({
      provider: "sevenDigital",
      song: {
        trackName: "Harbour Lights",
        artistName: "Sea Glass",
        album: "Harbour Lights (Single)",
        // The room plays the preview: the song lasts 30 s, so the room moves on after it.
        duration: 30,
        explicit: false,
        isrc: "GBSEA2300001",
        releaseYear: 2023,
        musicProviders: { sevenDigital: "1001" },
        links: { sevenDigital: "https://us.7digital.com/artist/sea-glass/release/harbour-lights/track/1001" },
        // 7digital's artwork over https (the page's policy wants it).
        thumbnails: { sevenDigital: expect.stringMatching(/^https:\/\/artwork-cdn\.7static\.com\//) },
        streamUrls: { http: clipPath(1001) },
        previews: { sevenDigital: clipPath(1001) },
      },
    });
    const asked = fake.requests.slice(before);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      path: "/1.2/track/details",
      accept: "application/json",
      query: {
        trackId: "1001",
        oauth_consumer_key: FAKE_SEVEN_DIGITAL.key,
        country: "GB",
        usageTypes: "download,subscriptionstreaming,adsupportedstreaming",
      },
    });
    // The secret never goes to 7digital's catalogue API (nor anywhere but into a signature).
    expect(JSON.stringify(asked)).not.toContain(FAKE_SEVEN_DIGITAL.secret);

    // Asked again, by id or by its link: the catalogue answers, 7digital is not asked.
    const again = fake.requests.length;
    expect(ok(await byId("1001")).song.songId).toBe(first.song.songId);
    expect(
      ok(await link("https://us.7digital.com/artist/sea-glass/release/harbour-lights/track/1001")).song.songId,
    ).toBe(first.song.songId);
    expect(fake.requests.length).toBe(again);
  });

  it("finds a track by a 7digital link, and a short track lasts its own length", async () => {
    fake.add(sevenDigitalTrack(1002, "Little Wave", { artist: "Sea Glass", duration: 12, version: "Radio Edit" }));
    expect(
      ok(await link("https://uk.7digital.com/artist/sea-glass/release/little-wave/track/1002")).song,
    ).toMatchObject({
      trackName: "Little Wave (Radio Edit)",
      duration: 12,
      musicProviders: { sevenDigital: "1002" },
    });
  });

  it("carries 7digital's explicit flag into the song, and search leaves explicit songs out unless asked", async () => {
    fake.add(sevenDigitalTrack(1003, "Rough Weather", { artist: "Storm Crew", explicit: true }));
    fake.add(sevenDigitalTrack(1004, "Rough Seas", { artist: "Storm Crew", explicit: false }));
    expect(ok(await byId("1003")).song.explicit).toBe(true);
    const clean = ok(await search("rough")).map((s) => s.trackName);
    expect(clean).toEqual(["Rough Seas"]);
    const all = ok(await search("rough", "true"));
    expect(all.map((s) => [s.trackName, s.explicit])).toEqual(
      expect.arrayContaining([
        ["Rough Weather", true],
        ["Rough Seas", false],
      ]),
    );
  });

  it("adds a 7digital song to a crate and the queue", async () => {
    fake.add(sevenDigitalTrack(1005, "Slow Tide", { artist: "Sea Glass" }));
    const { song } = ok(await byId("1005"));
    const user = await t.createUser();
    const api = t.api(user.token).playlist;
    const crate = ok(await api.POST("/crate", { body: { crateName: "Licensed" } }));
    const added = await api.POST("/crate/{id}/songs", {
      params: { path: { id: crate.crateUuid } },
      body: { songId: song.songId },
    });
    expect(added.response.status).toBeLessThan(300);
    expect(ok(await api.GET("/crate/{id}/songs", { params: { path: { id: crate.crateUuid } } }))).toMatchObject([
      {
        songId: song.songId,
        duration: 30,
        musicProviders: { sevenDigital: "1005" },
        streamUrls: { http: clipPath(1005) },
      },
    ]);
    expect(
      (await api.POST("/crate/special/queue/songs", { body: { songId: song.songId } })).response.status,
    ).toBeLessThan(300);
  });

  it("imports 7digital tracks named by their 7digital ids into the queue", async () => {
    fake.add(sevenDigitalTrack(1007, "Import Me", { artist: "Sea Glass" }));
    const user = await t.createUser();
    const res = await t.api(user.token).playlist.POST("/api/v1/track-import", {
      body: { songs: [{ musicProviders: { sevenDigital: "1007" } }, { musicProviders: { sevenDigital: "999998" } }] },
    });
    expect(res.response.status).toBe(200);
    expect(res.data?.imported).toBe(1);
    expect(res.data?.skipped).toHaveLength(1);
    const songs = ok(await t.api(user.token).playlist.GET("/crate/special/queue/songs"));
    expect(songs).toMatchObject([{ trackName: "Import Me", duration: 30, musicProviders: { sevenDigital: "1007" } }]);
  });

  it("joins a song of the same ISRC as its preview, leaving the song's own stream and length", async () => {
    const [own] = await t.db
      .insert(schema.songs)
      .values({
        shortId: shortId(),
        trackName: "Open Water",
        artistName: "Sea Glass",
        duration: 240,
        isrc: "GBSEA2300099",
        streamUrls: { hls: "/api/upload-service/songs/x/hls-playlist" },
      })
      .returning();
    fake.add(sevenDigitalTrack(1006, "Open Water", { artist: "Sea Glass", isrc: "GBSEA2300099" }));
    const { song } = ok(await byId("1006"));
    expect(song).toMatchObject({
      songId: own?.id,
      duration: 240,
      musicProviders: { sevenDigital: "1006" },
      streamUrls: { hls: "/api/upload-service/songs/x/hls-playlist" },
      previews: { sevenDigital: clipPath(1006) },
    });
    expect(song.streamUrls.http).toBeUndefined();
  });

  it("refuses ids and links that name no 7digital track, with a clear 4xx", async () => {
    expectRefusal(await byId("12ab"), 400, "This is not a 7digital track id.");
    expectRefusal(await link("https://us.7digital.com/artist/sea-glass"), 400, NOT_A_TRACK_LINK);
    expectRefusal(await link("https://7digital.com.evil.example/track/1001"), 400, NOT_A_TRACK_LINK);
    expectRefusal(await byId("999999"), 404, "7digital has no track with this id.");
  });

  it("says what is wrong when 7digital refuses Booth's key, limits, fails or cannot be reached", async () => {
    fake.add(sevenDigitalTrack(1010, "Outage Song"));
    expectRefusal(
      await byId("1010", wrongKey),
      502,
      "7digital refused Booth's key (401): check SEVENDIGITAL_CONSUMER_KEY, SEVENDIGITAL_CONSUMER_SECRET and SEVENDIGITAL_COUNTRY.",
    );
    try {
      fake.control.failWith = 403;
      expectRefusal(
        await byId("1010"),
        502,
        "7digital refused Booth's key (403): check SEVENDIGITAL_CONSUMER_KEY, SEVENDIGITAL_CONSUMER_SECRET and SEVENDIGITAL_COUNTRY.",
      );
      fake.control.failWith = 429;
      expectRefusal(await byId("1010"), 503, "7digital is limiting requests, please try again later.");
      fake.control.failWith = 500;
      expectRefusal(await byId("1010"), 502, "7digital answered 500.");
    } finally {
      fake.control.failWith = null;
    }
    expectRefusal(await byId("1010", unreachable), 502, "7digital could not be reached.");
  });
});

describe("7digital unconfigured", () => {
  it("answers its routes with a 503 naming the settings, and searches without it", async () => {
    fake.add(sevenDigitalTrack(1020, "Quiet Harbour"));
    const before = fake.requests.length;
    expectRefusal(await byId("1020", unconfigured), 503, NOT_CONFIGURED);
    expectRefusal(
      await link("https://us.7digital.com/artist/x/release/y/track/1020", unconfigured),
      503,
      NOT_CONFIGURED,
    );
    expectRefusal(await unconfigured.request("GET", clipPath(1020)), 503, NOT_CONFIGURED);
    expect(ok(await search("quiet", "false", unconfigured))).toEqual([]);
    expect(fake.requests.length).toBe(before);
    const providers = ok(await unconfigured.api().playlist.GET("/song-data/providers"));
    expect(providers.find((p) => p.provider === "sevenDigital")).toEqual({
      provider: "sevenDigital",
      configured: false,
      setting: "SEVENDIGITAL_CONSUMER_KEY and SEVENDIGITAL_CONSUMER_SECRET",
    });
    expect(
      ok(await t.api().playlist.GET("/song-data/providers")).find((p) => p.provider === "sevenDigital"),
    ).toMatchObject({ configured: true });
  });
});

describe("a 7digital song's clip", () => {
  it("redirects to the clip's address signed by the edge, which 7digital plays; never the secret, never cached", async () => {
    fake.add(sevenDigitalTrack(1030, "Tide Pool"));
    ok(await byId("1030"));
    const res = await t.request("GET", clipPath(1030));
    expect(res.status).toBe(302);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const location = new URL(res.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(`${fake.previewsUrl}/clip/1030`);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      country: "GB",
      oauth_consumer_key: FAKE_SEVEN_DIGITAL.key,
      oauth_signature_method: "HMAC-SHA1",
      oauth_version: "1.0",
      oauth_timestamp: String(Math.floor(t.clock.now().getTime() / 1000)),
    });
    expect(location.toString()).not.toContain(FAKE_SEVEN_DIGITAL.secret);
    const clip = await fetch(location);
    expect(clip.status).toBe(200);
    expect(clip.headers.get("content-type")).toBe("audio/mpeg");
    expect(new Uint8Array(await clip.arrayBuffer())).toEqual(MP3);

    // A tampered address, or one signed too long ago, 7digital refuses: the signature is what opens the clip.
    const tampered = new URL(location);
    tampered.searchParams.set("country", "US");
    expect((await fetch(tampered)).status).toBe(401);
    t.clock.advance(600);
    try {
      expect((await fetch(location)).status).toBe(401);
      // Asked again now: a fresh signature.
      const fresh = (await t.request("GET", clipPath(1030))).headers.get("location") ?? "";
      expect((await fetch(fresh)).status).toBe(200);
    } finally {
      t.clock.advance(-600);
    }
  });

  it("signs only tracks the catalogue has, and refuses what is no track id", async () => {
    fake.add(sevenDigitalTrack(1031, "Never Looked Up"));
    expectRefusal(await t.request("GET", clipPath(1031)), 404, "This 7digital track is not in the catalogue.");
    const bad = await t.request("GET", clipPath("12x"));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("must be a 7digital track id");
  });
});

describe("search with 7digital", () => {
  /** Catalogue songs named `${word} 1`..`${word} n`, from no provider. */
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

  it("puts the first five catalogue songs first, then Audius's, 7digital's and the catalogue's in turn", async () => {
    await catalogueSongs("Lantern", 7);
    audius.add(audiusTrack("La001", "Lantern Audius", { artist: "Flare" }));
    fake.add(sevenDigitalTrack(1040, "Lantern Digital", { artist: "Flare" }));
    fake.add(sevenDigitalTrack(1041, "Lantern Licensed", { artist: "Flare" }));
    const songs = ok(await search("lantern"));
    const names = songs.map((s) => s.trackName);
    expect(names.slice(0, 5).every((n) => /^Lantern \d$/.test(n))).toBe(true);
    expect(names.slice(5)).toEqual([
      "Lantern Audius",
      expect.stringMatching(/^Lantern \d$/),
      "Lantern Digital",
      expect.stringMatching(/^Lantern \d$/),
      "Lantern Licensed",
    ]);
    expect(songs.find((s) => s.trackName === "Lantern Digital")).toMatchObject({
      duration: 30,
      musicProviders: { sevenDigital: "1040" },
      streamUrls: { http: clipPath(1040) },
    });
    const asked = fake.requests.filter((r) => r.path === "/1.2/track/search").at(-1);
    expect(asked?.query).toMatchObject({ q: "lantern", oauth_consumer_key: FAKE_SEVEN_DIGITAL.key, country: "GB" });
    const stored = await t.db.select().from(schema.songs).where(eq(schema.songs.trackName, "Lantern Licensed"));
    expect(stored).toHaveLength(1);
  });

  it("answers without 7digital when it is down, refuses the key, or is slow", async () => {
    await catalogueSongs("Beacon", 2);
    fake.add(sevenDigitalTrack(1050, "Beacon Digital"));
    const catalogueOnly = ["Beacon 1", "Beacon 2"];
    fake.control.failWith = 500;
    try {
      expect(ok(await search("beacon")).map((s) => s.trackName)).toEqual(catalogueOnly);
    } finally {
      fake.control.failWith = null;
    }
    expect(ok(await search("beacon", "false", wrongKey))).toEqual([]);
    fake.control.delayMs = 6000;
    try {
      const started = Date.now();
      expect(ok(await search("beacon")).map((s) => s.trackName)).toEqual(catalogueOnly);
      // The search waited 3 s for 7digital, not the 6 s 7digital took.
      expect(Date.now() - started).toBeLessThan(5500);
    } finally {
      fake.control.delayMs = 0;
    }
    expect(ok(await search("beacon")).map((s) => s.trackName)).toContain("Beacon Digital");
  }, 30_000);
});
