// The two brands (issue #37 part 4, decision 0027): BOOTH_BRAND=streaming offers uploads and every provider,
// BOOTH_BRAND=catalogue uploads and the licensed catalogue (7digital) only. Each brand's search, link lookups,
// imports, crates and queue offer only its sources; a source it does not offer is a 422 that names it and changes
// nothing. One app on one database, its brand switched between requests, as an operator switches BOOTH_BRAND.
import { schema } from "@booth/db";
import type { Brand } from "@booth/sdk/brand";
import { SettingsError } from "@booth/sdk/settings";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEdgeSettings } from "../../config.ts";
import { defaultConfig } from "../../deps.ts";
import { shortId } from "../../lib/ids.ts";
import { audiusTrack, type FakeAudius, startFakeAudius } from "../../testing/fake-audius.ts";
import { createTestApp, expectRefusal, ok, type TestApp } from "../../testing.ts";

let fake: FakeAudius;
let t: TestApp;
let service: string;
const ids: Record<string, string> = {};

const SPOTIFY_ID = "4uLU6hMCjMI75M1A2tKUQC";
const CATALOGUE = "This Booth plays uploads and the licensed catalogue only:";

beforeAll(async () => {
  fake = await startFakeAudius();
  t = await createTestApp({
    config: { ...defaultConfig, providers: { ...defaultConfig.providers, audiusApiUrl: fake.base } },
  });
  service = await t.serviceToken();
  const rows = await t.db
    .insert(schema.songs)
    .values(
      (
        [
          ["Prism Upload", { uploadService: "up-1" }],
          ["Prism Spotify", { spotify: SPOTIFY_ID }],
          ["Prism Tube", { youtube: "dQw4w9WgXcQ" }],
          ["Prism Licensed", { sevenDigital: "12345" }],
          ["Prism Both", { uploadService: "up-2", spotify: "0VjIjW4GlUZAMYd2vXMi3b", cyanite: "an-1" }],
        ] as const
      ).map(([trackName, musicProviders]) => ({
        shortId: shortId(),
        trackName,
        artistName: "Prism Band",
        duration: 180,
        musicProviders,
      })),
    )
    .returning();
  for (const row of rows) ids[row.trackName] = row.id;
  fake.add(audiusTrack("Pr001", "Prism Audius", { artist: "Flare" }));
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** Runs `fn` with the app's brand set to `brand` (BOOTH_BRAND), then puts the default back. */
async function as<T>(brand: Brand, fn: () => Promise<T>): Promise<T> {
  t.deps.config = { ...t.deps.config, brand };
  try {
    return await fn();
  } finally {
    t.deps.config = { ...t.deps.config, brand: "streaming" };
  }
}

const L = "/api/playlist-service";
const titles = (songs: { trackName: string }[]) => songs.map((s) => s.trackName).sort();
const search = (q: string) => t.api().playlist.GET("/search", { params: { query: { q } } });
const link = (url: string) => t.api().playlist.GET("/song-data/{link}", { params: { path: { link: url } } });
const cratesOf = async (userUuid: string) =>
  (await t.db.select({ n: count() }).from(schema.crates).where(eq(schema.crates.userUuid, userUuid)))[0]?.n;

describe("search, by brand", () => {
  it("streaming: every source's songs, Audius's interleaved", async () => {
    const all = ["Prism Audius", "Prism Both", "Prism Licensed", "Prism Spotify", "Prism Tube", "Prism Upload"];
    const songs = ok(await search("prism"));
    expect(titles(songs)).toEqual(all);
    const page = (await t.request("GET", `${L}/search/v2`, { query: { q: "prism" } })).body;
    expect(titles(page.data)).toEqual(all);
  });

  it("the catalogue's list (the song picker's first page) too: each brand's songs only", async () => {
    const list = async () =>
      titles(
        ok(await t.api().playlist.GET("/api/v1/songs", { params: { query: { prefix: "Prism", limit: 50 } } })).data,
      );
    // (Audius's song joined the catalogue with the search above.)
    expect(await list()).toEqual([
      "Prism Audius",
      "Prism Both",
      "Prism Licensed",
      "Prism Spotify",
      "Prism Tube",
      "Prism Upload",
    ]);
    expect(await as("catalogue", list)).toEqual(["Prism Both", "Prism Licensed", "Prism Upload"]);
  });

  it("catalogue: uploads and 7digital's only, and Audius is not asked", async () => {
    const asked = fake.requests.length;
    await as("catalogue", async () => {
      expect(titles(ok(await search("prism")))).toEqual(["Prism Both", "Prism Licensed", "Prism Upload"]);
      const page = (await t.request("GET", `${L}/search/v2`, { query: { q: "prism" } })).body;
      expect(titles(page.data)).toEqual(["Prism Both", "Prism Licensed", "Prism Upload"]);
      expect(page.total).toBe(3);
    });
    expect(fake.requests.length).toBe(asked);
  });
});

describe("link lookups, by brand", () => {
  it("catalogue: refuses every streaming provider's links and ids with a 422 naming it; finds uploads", async () => {
    await as("catalogue", async () => {
      const spotify = await link(`https://open.spotify.com/track/${SPOTIFY_ID}`);
      expectRefusal(spotify, 422, `${CATALOGUE} Spotify links are not offered.`);
      expect(spotify.error).toMatchObject({ code: "UNPROCESSABLE" });
      expectRefusal(
        await link("https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
        422,
        `${CATALOGUE} YouTube links are not offered.`,
      );
      expectRefusal(
        await link("https://audius.co/flare/prism-audius"),
        422,
        `${CATALOGUE} Audius links are not offered.`,
      );
      expectRefusal(
        await link("https://soundcloud.com/someone/a-track"),
        422,
        `${CATALOGUE} SoundCloud links are not offered.`,
      );
      expectRefusal(
        await link("https://music.apple.com/us/song/x/1440857781"),
        422,
        `${CATALOGUE} Apple Music links are not offered.`,
      );
      // Even a song the catalogue has: this Booth does not play it.
      expectRefusal(
        await t.api().playlist.GET("/song-data/{providerSongId}/{musicProvider}", {
          params: { path: { providerSongId: SPOTIFY_ID, musicProvider: "spotify" } },
        }),
        422,
        `${CATALOGUE} Spotify songs are not offered.`,
      );
      const upload = ok(
        await t.api().playlist.GET("/song-data/{providerSongId}/{musicProvider}", {
          params: { path: { providerSongId: "up-1", musicProvider: "uploadService" } },
        }),
      );
      expect(upload.song.songId).toBe(ids["Prism Upload"]);
    });
  });

  it("streaming: finds the catalogue's 7digital and Spotify songs by their links", async () => {
    expect(ok(await link("https://us.7digital.com/artist/a/release/b/12345")).song.songId).toBe(ids["Prism Licensed"]);
    expect(ok(await link(`https://open.spotify.com/track/${SPOTIFY_ID}`)).song.songId).toBe(ids["Prism Spotify"]);
  });
});

describe("imports, crates and the queue, by brand", () => {
  it("catalogue: refuses a playlist import of a streaming provider, making no crate", async () => {
    const user = await t.createUser();
    const before = await cratesOf(user.user.uuid);
    await as("catalogue", async () => {
      const start = (link: string) => t.api(user.token).playlist.POST("/api/v1/playlist-imports", { body: { link } });
      expectRefusal(
        await start("https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M"),
        422,
        `${CATALOGUE} Spotify playlists are not offered.`,
      );
      expectRefusal(
        await start("https://www.youtube.com/playlist?list=PL590L5WQmH8fJ54F369BLDSqIwcs-TCfs"),
        422,
        `${CATALOGUE} YouTube playlists are not offered.`,
      );
      expectRefusal(
        await start("https://audius.co/flare/playlist/prisms"),
        422,
        `${CATALOGUE} Audius playlists are not offered.`,
      );
    });
    expect(await cratesOf(user.user.uuid)).toBe(before);
  });

  it("catalogue: refuses a streaming song to a crate or the queue (nothing added); takes uploads and 7digital's", async () => {
    const user = await t.createUser();
    const api = t.api(user.token).playlist;
    const crate = ok(await api.POST("/crate", { body: { crateName: "Licensed" } }));
    await as("catalogue", async () => {
      const add = (songIds: string[]) =>
        api.POST("/crate/{id}/songs", { params: { path: { id: crate.crateUuid } }, body: { songIds } });
      expectRefusal(
        await add([ids["Prism Upload"]!, ids["Prism Tube"]!]),
        422,
        `${CATALOGUE} YouTube songs are not offered.`,
      );
      expectRefusal(
        await api.POST("/crate/special/queue/songs", { body: { songId: ids["Prism Spotify"]! } }),
        422,
        `${CATALOGUE} Spotify songs are not offered.`,
      );
      expectRefusal(
        await api.POST("/api/v1/playlists/{crateUuid}/tracks", {
          params: { path: { crateUuid: crate.crateUuid } },
          body: { songId: ids["Prism Spotify"]! },
        }),
        422,
        `${CATALOGUE} Spotify songs are not offered.`,
      );
      const songs = (id: string) => api.GET("/crate/{id}/songs", { params: { path: { id } } });
      expect(ok(await songs(crate.crateUuid))).toEqual([]);
      expect(ok(await api.GET("/crate/special/queue/songs"))).toEqual([]);
      ok(await add([ids["Prism Upload"]!, ids["Prism Licensed"]!, ids["Prism Both"]!]));
      expect(titles(ok(await songs(crate.crateUuid)))).toEqual(["Prism Both", "Prism Licensed", "Prism Upload"]);
    });
  });

  it("catalogue: refuses exports to Spotify and Apple Music", async () => {
    const user = await t.createUser();
    const api = t.api(user.token).playlist;
    const crate = ok(await api.POST("/crate", { body: { crateName: "Out" } }));
    await as("catalogue", async () => {
      expectRefusal(
        await api.POST("/exports/spotify", { body: { crateUuid: crate.crateUuid, accessToken: "token" } }),
        422,
        `${CATALOGUE} Spotify exports are not offered.`,
      );
      expectRefusal(
        await api.POST("/exports/apple", { body: { crateUuid: crate.crateUuid, musicUserToken: "token" } }),
        422,
        `${CATALOGUE} Apple Music exports are not offered.`,
      );
    });
  });

  it("streaming: takes a 7digital song to the queue", async () => {
    const user = await t.createUser();
    ok(
      await t.api(user.token).playlist.POST("/crate/special/queue/songs", { body: { songId: ids["Prism Licensed"]! } }),
    );
  });

  it("catalogue: a track import skips the streaming tracks, saying why, and imports the uploads", async () => {
    const user = await t.createUser();
    await as("catalogue", async () => {
      const answer = ok(
        await t.api(user.token).playlist.POST("/api/v1/track-import", {
          body: {
            songs: [
              { musicProviders: { spotify: SPOTIFY_ID } },
              { songId: ids["Prism Tube"] },
              { musicProviders: { uploadService: "up-1" } },
            ],
          },
        }),
      );
      expect(answer.imported).toBe(1);
      expect(answer.skipped).toEqual([
        { index: 0, message: `${CATALOGUE} Spotify songs are not offered.` },
        { index: 1, message: `${CATALOGUE} YouTube songs are not offered.` },
      ]);
    });
  });

  it("catalogue: a DJ's queued YouTube song (queued under streaming) is passed over, and refused if named", async () => {
    const user = await t.createUser();
    const api = t.api(user.token).playlist;
    ok(await api.POST("/crate/special/queue/songs", { body: { songIds: [ids["Prism Tube"]!, ids["Prism Upload"]!] } }));
    const upcoming = async () =>
      ok(
        await t.api(service).playlist.GET("/crate/service/user/{userUuid}/queue/upcoming", {
          params: { path: { userUuid: user.user.uuid }, query: { limit: 5 } },
        }),
      ).songs.map((s) => s.trackName);
    expect(await upcoming()).toEqual(["Prism Tube", "Prism Upload"]);
    await as("catalogue", async () => {
      expect(await upcoming()).toEqual(["Prism Upload"]);
      expectRefusal(
        await t.api(service).playlist.GET("/crate/service/user/{userUuid}/songs/{songId}", {
          params: { path: { userUuid: user.user.uuid, songId: ids["Prism Tube"]! }, query: {} },
        }),
        422,
        `${CATALOGUE} YouTube songs are not offered.`,
      );
    });
    // The song stays in the queue: the streaming brand plays it again.
    expect(await upcoming()).toEqual(["Prism Tube", "Prism Upload"]);
  });
});

describe("a room's crate, by brand", () => {
  it("catalogue: the live room reads the room crate's uploads and licensed songs, passing the others over", async () => {
    const owner = await t.createUser();
    const api = t.api(owner.token);
    const room = ok(await api.room.POST("/rooms/infrastructure", { body: { name: "Prism Room" } }));
    const crate = ok(await api.playlist.POST("/crate", { body: { crateName: "Prisms" } }));
    ok(
      await api.playlist.POST("/crate/{id}/songs", {
        params: { path: { id: crate.crateUuid } },
        body: { songIds: [ids["Prism Tube"]!, ids["Prism Upload"]!, ids["Prism Spotify"]!] },
      }),
    );
    ok(
      await api.room.PATCH("/rooms/{id}", {
        params: { path: { id: room.uuid } },
        body: { roomCrateId: crate.crateUuid },
      }),
    );
    const read = async () =>
      ok(
        await t.api(service).room.GET("/rooms/service/room/{id}/crate", {
          params: { path: { id: room.uuid }, query: { from: 0 } },
        }),
      ).songs.map((s) => s.trackName);
    expect(await read()).toEqual(["Prism Tube", "Prism Upload", "Prism Spotify"]);
    expect(await as("catalogue", read)).toEqual(["Prism Upload"]);
  });
});

describe("the brand, as clients learn it", () => {
  it("answers GET /song-data/brand", async () => {
    expect((await t.request("GET", `${L}/song-data/brand`)).body).toMatchObject({
      brand: "streaming",
      name: "Booth",
      sources: expect.arrayContaining(["uploadService", "youtube", "spotify", "audius"]),
    });
    await as("catalogue", async () => {
      expect((await t.request("GET", `${L}/song-data/brand`)).body).toEqual({
        brand: "catalogue",
        name: "Booth Records",
        sources: ["uploadService", "sevenDigital"],
      });
    });
  });
});

describe("BOOTH_BRAND", () => {
  it("is streaming unless set; catalogue when set so; anything else refused at start, in one line naming it", () => {
    expect(readEdgeSettings({}).BOOTH_BRAND).toBe("streaming");
    expect(readEdgeSettings({ BOOTH_BRAND: "catalogue" }).BOOTH_BRAND).toBe("catalogue");
    const refused = (() => {
      try {
        readEdgeSettings({ BOOTH_BRAND: "radio" });
      } catch (err) {
        return err;
      }
    })();
    expect(refused).toBeInstanceOf(SettingsError);
    expect((refused as Error).message).toBe(
      'Booth edge cannot start: BOOTH_BRAND is not one of streaming, catalogue: "radio"',
    );
  });
});
