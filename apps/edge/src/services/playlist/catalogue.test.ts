import { schema } from "@booth/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shortId } from "../../lib/ids.ts";
import { createTestApp, type TestApp } from "../../testing.ts";

let t: TestApp;
const L = "/api/playlist-service";
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
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
afterAll(() => t.close());

const titles = (songs: { trackName: string }[]) => songs.map((s) => s.trackName);

describe("search", () => {
  it("finds by word prefixes of title, artist and genre, best match first, without explicit songs", async () => {
    const res = await t.request("GET", `${L}/search`, { query: { q: "midn" } });
    expect(titles(res.body)).toEqual(["Midnight City Lights"]);
    const night = await t.request("GET", `${L}/search`, { query: { q: "night" } });
    expect(titles(night.body).sort()).toEqual(["City of Night", "Midnight City Lights", "Morning Soul"]);
    const both = await t.request("GET", `${L}/search`, { query: { q: "night drive" } });
    expect(titles(both.body).sort()).toEqual(["Midnight City Lights", "Morning Soul"]);
    const explicit = await t.request("GET", `${L}/search`, { query: { q: "midnight", explicit: "true" } });
    expect(titles(explicit.body).sort()).toEqual(["Midnight City Lights", "Midnight Swearing"]);
  });

  it("finds by ISRC and pages with v2", async () => {
    const byIsrc = await t.request("GET", `${L}/search`, { query: { isrc: "usrc17607839" } });
    expect(byIsrc.status, JSON.stringify(byIsrc.body)).toBe(200);
    expect(titles(byIsrc.body)).toEqual(["Midnight City Lights"]);
    const page = await t.request("GET", `${L}/search/v2`, { query: { q: "night", limit: 1 } });
    expect(page.body.data).toHaveLength(1);
    expect(page.body.total).toBeGreaterThan(1);
    expect(page.body.nextOffset).toBe(1);
  });

  it("answers from the database's JSON what the row-by-row search answers, in the same order, page by page", async () => {
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
    expect((await t.request("GET", `${L}/search`)).status).toBe(400);
    expect((await t.request("GET", `${L}/search`, { query: { q: "!!!" } })).status).toBe(400);
    expect((await t.request("GET", `${L}/search`, { query: { q: "x", limit: 1000 } })).status).toBe(400);
    expect((await t.request("GET", `${L}/search`, { query: { isrc: "nope" } })).status).toBe(400);
  });
});

describe("catalogue", () => {
  it("lists songs and genres by prefix and ids", async () => {
    const songs = await t.request("GET", `${L}/api/v1/songs`, { query: { prefix: "mid" } });
    expect(titles(songs.body.data).sort()).toEqual(["Midnight City Lights", "Midnight Swearing"]);
    const byIds = await t.request("GET", `${L}/api/v1/songs`, { query: { idIn: `${ids["Morning Soul"]}` } });
    expect(titles(byIds.body.data)).toEqual(["Morning Soul"]);
    const one = await t.request("GET", `${L}/api/v1/songs/${ids["Morning Soul"]}`);
    expect(one.body.album).toBe("Neon Roads");
    expect((await t.request("GET", `${L}/api/v1/songs/${crypto.randomUUID()}`)).status).toBe(404);
    const genres = await t.request("GET", `${L}/api/v1/genres`, { query: { prefix: "s" } });
    expect(genres.body.map((g: { name: string }) => g.name)).toEqual(["soul", "synthwave"]);
    expect((await t.request("GET", `${L}/api/v1/genres`, { query: { idIn: "x" } })).status).toBe(400);
  });

  it("serves albums and artists to services only", async () => {
    const service = await t.serviceToken();
    const { token } = await t.createUser();
    expect((await t.request("GET", `${L}/albums/service/all-albums`, { token: service })).body[0]).toMatchObject({
      albumShortId: "ALB1",
      artistName: "Night Drive",
    });
    expect(titles((await t.request("GET", `${L}/albums/service/ALB1/songs`, { token: service })).body).sort()).toEqual([
      "Midnight City Lights",
      "Morning Soul",
    ]);
    expect((await t.request("GET", `${L}/artists/service/ART1/albums`, { token: service })).body).toHaveLength(1);
    expect(
      (
        await t.request("POST", `${L}/artists/service/albums-by-artists`, {
          token: service,
          body: { artistShortIds: ["ART1"] },
        })
      ).body,
    ).toHaveLength(1);
    expect((await t.request("GET", `${L}/artists/service/all-artists`, { token: service })).body).toEqual([
      { artistShortId: "ART1", name: "Night Drive" },
    ]);
    expect((await t.request("GET", `${L}/albums/service/all-songs`, { token: service })).body.total).toBe(4);
    expect((await t.request("GET", `${L}/albums/service/all-albums`, { token })).status).toBe(403);
    expect((await t.request("GET", `${L}/albums/service/all-albums`)).status).toBe(401);
    expect((await t.request("GET", `${L}/artists/service/NOPE/albums`, { token: service })).status).toBe(404);
  });
});

describe("song data", () => {
  it("finds catalogue songs by provider link or id; names the missing setting otherwise", async () => {
    const link = encodeURIComponent("https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC");
    const found = await t.request("GET", `${L}/song-data/${link}`);
    expect(found.body).toMatchObject({ provider: "spotify", song: { trackName: "Midnight City Lights" } });
    const byId = await t.request("GET", `${L}/song-data/4uLU6hMCjMI75M1A2tKUQC/spotify`);
    expect(byId.body.song.songId).toBe(ids["Midnight City Lights"]);
    const unknown = await t.request(
      "GET",
      `${L}/song-data/${encodeURIComponent("https://open.spotify.com/track/0000000000000000000000")}`,
    );
    expect(unknown.status).toBe(503);
    expect(unknown.body.message).toBe(
      "This song is not in our catalog, and spotify lookups are not configured: set SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET.",
    );
    const youtube = await t.request("GET", `${L}/song-data/dQw4w9WgXcQ/youtube`);
    expect(youtube.status).toBe(503);
    expect(youtube.body.message).toBe(
      "This song is not in our catalog, and youtube lookups are not configured: set YOUTUBE_API_KEY.",
    );
    expect((await t.request("GET", `${L}/song-data/${encodeURIComponent("https://example.com/x")}`)).status).toBe(400);
    expect((await t.request("GET", `${L}/song-data/123/myspace`)).status).toBe(400);
    const providers = await t.request("GET", `${L}/song-data/providers`);
    expect(providers.body.find((p: { provider: string }) => p.provider === "spotify")).toMatchObject({
      configured: false,
    });
  });

  it("gives stream and preview URLs of catalogue songs", async () => {
    const stream = await t.request("GET", `${L}/song-data/stream/us/${ids["Midnight City Lights"]}`);
    expect(stream.body.urls).toEqual({ hls: "/hls/1.m3u8" });
    expect((await t.request("GET", `${L}/song-data/preview/us/${ids["Midnight City Lights"]}`)).status).toBe(404);
    expect((await t.request("GET", `${L}/song-data/stream/usa/${ids["Midnight City Lights"]}`)).status).toBe(400);
    const service = await t.serviceToken();
    const many = await t.request("GET", `${L}/song-data/service`, {
      token: service,
      query: { songIds: `${ids["Morning Soul"]},${ids["City of Night"]}` },
    });
    expect(titles(many.body)).toEqual(["Morning Soul", "City of Night"]);
    expect((await t.request("GET", `${L}/song-data/service`, { query: { songIds: ids["Morning Soul"] } })).status).toBe(
      401,
    );
  });
});
