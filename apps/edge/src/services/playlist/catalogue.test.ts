import { schema } from "@booth/db";
import { beforeAll, describe, expect, it } from "vitest";
import { shortId } from "../../lib/ids.ts";
import { ok, openTestApp } from "../../testing.ts";

const t = openTestApp();
const ids: Record<string, string> = {};

beforeAll(async () => {
  const [artist] = await t.db.insert(schema.artists).values({ shortId: "ART1", name: "Night Drive" }).returning();
  const [album] = await t.db
    .insert(schema.albums)
    .values({ shortId: "ALB1", title: "Neon Roads", artistId: artist!.id, releaseYear: 2024 })
    .returning();
  await t.db.insert(schema.genres).values([{ name: "synthwave" }, { name: "house" }, { name: "soul" }]);
  const rows = await t.db
    .insert(schema.songs)
    .values([
      {
        shortId: shortId(),
        trackName: "Midnight City Lights",
        artistName: "Night Drive",
        genre: "synthwave",
        albumId: album!.id,
        artistId: artist!.id,
        isrc: "USRC17607839",
        musicProviders: { spotify: "4uLU6hMCjMI75M1A2tKUQC" },
        streamUrls: { hls: "/hls/1.m3u8" },
      },
      { shortId: shortId(), trackName: "City of Night", artistName: "Other Band", genre: "house" },
      { shortId: shortId(), trackName: "Midnight Swearing", artistName: "Loud Mouth", genre: "house", explicit: true },
      { shortId: shortId(), trackName: "Morning Soul", artistName: "Night Drive", genre: "soul", albumId: album!.id },
    ])
    .returning();
  for (const r of rows) ids[r.trackName] = r.id;
});

const titles = (songs: { trackName: string }[]) => songs.map((s) => s.trackName);

describe("search", () => {
  it("finds by word prefixes of title, artist and genre, best match first, without explicit songs", async () => {
    const res = await t.api().playlist.GET("/search", { params: { query: { q: "midn" } } });
    expect(titles(ok(res))).toEqual(["Midnight City Lights"]);
    const night = await t.api().playlist.GET("/search", { params: { query: { q: "night" } } });
    expect(titles(ok(night)).sort()).toEqual(["City of Night", "Midnight City Lights", "Morning Soul"]);
    const both = await t.api().playlist.GET("/search", { params: { query: { q: "night drive" } } });
    expect(titles(ok(both)).sort()).toEqual(["Midnight City Lights", "Morning Soul"]);
    const explicit = await t.api().playlist.GET("/search", { params: { query: { q: "midnight", explicit: "true" } } });
    expect(titles(ok(explicit)).sort()).toEqual(["Midnight City Lights", "Midnight Swearing"]);
  });

  it("finds by ISRC and pages with v2", async () => {
    const byIsrc = await t.api().playlist.GET("/search", { params: { query: { isrc: "usrc17607839" } } });
    expect(byIsrc.response.status, JSON.stringify(byIsrc.error ?? byIsrc.data)).toBe(200);
    expect(titles(ok(byIsrc))).toEqual(["Midnight City Lights"]);
    const page = await t.api().playlist.GET("/search/v2", { params: { query: { q: "night", limit: 1 } } });
    expect(page.data?.data).toHaveLength(1);
    expect(page.data?.total).toBeGreaterThan(1);
    expect(page.data?.nextOffset).toBe(1);
  });

  it("answers from the database's JSON what the row-by-row search answers, in the same order, page by page", async () => {
    const L = "/api/playlist-service";
    for (const query of [
      { q: "night" },
      { q: "midnight", explicit: "true" },
      { q: "night", limit: 2, offset: 1 },
      { q: "night", offset: 50 },
      { q: "night drive", explicit: "false" },
    ]) {
      const fast = await t.request("GET", `${L}/search`, { query });
      const rows = await t.request("GET", `${L}/search/v2`, { query });
      expect(fast.status).toBe(200);
      expect(fast.headers.get("content-type")).toMatch(/^application\/json/);
      expect(fast.body, JSON.stringify(query)).toEqual(rows.body.data);
    }
    const [full] = (await t.request("GET", `${L}/search`, { query: { q: "midn" } })).body;
    expect(full).toMatchObject({ album: "Neon Roads", isrc: "USRC17607839", streamUrls: { hls: "/hls/1.m3u8" } });
  });

  it("needs a query and refuses bad parameters", async () => {
    expect((await t.api().playlist.GET("/search")).response.status).toBe(400);
    expect((await t.api().playlist.GET("/search", { params: { query: { q: "!!!" } } })).response.status).toBe(400);
    expect(
      (await t.api().playlist.GET("/search", { params: { query: { q: "x", limit: 1000 } } })).response.status,
    ).toBe(400);
    expect((await t.api().playlist.GET("/search", { params: { query: { isrc: "nope" } } })).response.status).toBe(400);
  });
});

describe("catalogue", () => {
  it("lists songs and genres by prefix and ids", async () => {
    const songs = await t.api().playlist.GET("/api/v1/songs", { params: { query: { prefix: "mid" } } });
    expect(titles(ok(songs).data).sort()).toEqual(["Midnight City Lights", "Midnight Swearing"]);
    const byIds = await t
      .api()
      .playlist.GET("/api/v1/songs", { params: { query: { idIn: `${ids["Morning Soul"]}` } } });
    expect(titles(ok(byIds).data)).toEqual(["Morning Soul"]);
    const one = await t
      .api()
      .playlist.GET("/api/v1/songs/{songId}", { params: { path: { songId: ids["Morning Soul"]! } } });
    expect(one.data?.album).toBe("Neon Roads");
    expect(
      (await t.api().playlist.GET("/api/v1/songs/{songId}", { params: { path: { songId: crypto.randomUUID() } } }))
        .response.status,
    ).toBe(404);
    const genres = await t.api().playlist.GET("/api/v1/genres", { params: { query: { prefix: "s" } } });
    expect(genres.data?.map((g) => g.name)).toEqual(["soul", "synthwave"]);
    expect((await t.api().playlist.GET("/api/v1/genres", { params: { query: { idIn: "x" } } })).response.status).toBe(
      400,
    );
  });

  it("serves albums and artists to services only", async () => {
    const service = await t.serviceToken();
    const { token } = await t.createUser();
    expect((await t.api(service).playlist.GET("/albums/service/all-albums")).data?.[0]).toMatchObject({
      albumShortId: "ALB1",
      artistName: "Night Drive",
    });
    expect(
      titles(
        ok(
          await t
            .api(service)
            .playlist.GET("/albums/service/{albumShortId}/songs", { params: { path: { albumShortId: "ALB1" } } }),
        ),
      ).sort(),
    ).toEqual(["Midnight City Lights", "Morning Soul"]);
    expect(
      (
        await t
          .api(service)
          .playlist.GET("/artists/service/{artistShortId}/albums", { params: { path: { artistShortId: "ART1" } } })
      ).data,
    ).toHaveLength(1);
    expect(
      (await t.api(service).playlist.POST("/artists/service/albums-by-artists", { body: { artistShortIds: ["ART1"] } }))
        .data,
    ).toHaveLength(1);
    expect((await t.api(service).playlist.GET("/artists/service/all-artists")).data).toEqual([
      { artistShortId: "ART1", name: "Night Drive" },
    ]);
    expect((await t.api(service).playlist.GET("/albums/service/all-songs")).data?.total).toBe(4);
    expect((await t.api(token).playlist.GET("/albums/service/all-albums")).response.status).toBe(403);
    expect((await t.api().playlist.GET("/albums/service/all-albums")).response.status).toBe(401);
    expect(
      (
        await t
          .api(service)
          .playlist.GET("/artists/service/{artistShortId}/albums", { params: { path: { artistShortId: "NOPE" } } })
      ).response.status,
    ).toBe(404);
  });
});

describe("song data", () => {
  it("finds catalogue songs by provider link or id; names the missing setting otherwise", async () => {
    const link = "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC";
    const found = await t.api().playlist.GET("/song-data/{link}", { params: { path: { link } } });
    expect(found.data).toMatchObject({ provider: "spotify", song: { trackName: "Midnight City Lights" } });
    const byId = await t.api().playlist.GET("/song-data/{providerSongId}/{musicProvider}", {
      params: { path: { providerSongId: "4uLU6hMCjMI75M1A2tKUQC", musicProvider: "spotify" } },
    });
    expect(byId.data?.song.songId).toBe(ids["Midnight City Lights"]);
    const unknown = await t.api().playlist.GET("/song-data/{link}", {
      params: { path: { link: "https://open.spotify.com/track/0000000000000000000000" } },
    });
    expect(unknown.response.status).toBe(503);
    expect(unknown.error?.message).toBe(
      "This song is not in our catalog, and spotify lookups are not configured: set SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET.",
    );
    const youtube = await t.api().playlist.GET("/song-data/{providerSongId}/{musicProvider}", {
      params: { path: { providerSongId: "dQw4w9WgXcQ", musicProvider: "youtube" } },
    });
    expect(youtube.response.status).toBe(503);
    expect(youtube.error?.message).toBe(
      "This song is not in our catalog, and youtube lookups are not configured: set YOUTUBE_API_KEY.",
    );
    expect(
      (
        await t.api().playlist.GET("/song-data/{link}", {
          params: { path: { link: "https://example.com/x" } },
        })
      ).response.status,
    ).toBe(400);
    // Raw: a provider outside the enum, which the typed client cannot send.
    expect((await t.request("GET", "/api/playlist-service/song-data/123/myspace")).status).toBe(400);
    const providers = await t.api().playlist.GET("/song-data/providers");
    expect(providers.data?.find((p) => p.provider === "spotify")).toMatchObject({
      configured: false,
    });
  });

  it("gives stream and preview URLs of catalogue songs", async () => {
    const stream = await t.api().playlist.GET("/song-data/stream/{country}/{id}", {
      params: { path: { country: "us", id: ids["Midnight City Lights"]! } },
    });
    expect(stream.data?.urls).toEqual({ hls: "/hls/1.m3u8" });
    expect(
      (
        await t.api().playlist.GET("/song-data/preview/{country}/{id}", {
          params: { path: { country: "us", id: ids["Midnight City Lights"]! } },
        })
      ).response.status,
    ).toBe(404);
    expect(
      (
        await t.api().playlist.GET("/song-data/stream/{country}/{id}", {
          params: { path: { country: "usa", id: ids["Midnight City Lights"]! } },
        })
      ).response.status,
    ).toBe(400);
    const service = await t.serviceToken();
    const many = await t.api(service).playlist.GET("/song-data/service", {
      params: { query: { songIds: `${ids["Morning Soul"]},${ids["City of Night"]}` } },
    });
    expect(titles(ok(many))).toEqual(["Morning Soul", "City of Night"]);
    expect(
      (await t.api().playlist.GET("/song-data/service", { params: { query: { songIds: ids["Morning Soul"]! } } }))
        .response.status,
    ).toBe(401);
  });
});
