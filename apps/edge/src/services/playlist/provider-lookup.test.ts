// Song data for tracks the catalogue lacks: asked of Spotify (Booth's app token) and Apple Music (the developer
// token), against the local fake providers; the track joins the catalogue once, merged by ISRC.
import { schema } from "@booth/db";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { shortId } from "../../lib/ids.ts";
import { firstRow } from "../../lib/rows.ts";
import type { FakeProviders } from "../../testing/fake-providers.ts";
import { withProviderApps } from "../../testing/provider-apps.ts";
import { expectRefusal, ok, type TestApp } from "../../testing.ts";

let fake: FakeProviders;
let t: TestApp;
withProviderApps({}, (apps) => ({ fake, t } = apps));

const link = (url: string) => t.api().playlist.GET("/song-data/{link}", { params: { path: { link: url } } });
/** The song a link answers, once it was answered 200. */
async function linkedSong(url: string) {
  const res = await link(url);
  expect(res.response.status).toBe(200);
  return res.data?.song;
}
const songsNamed = (name: string) => t.db.select().from(schema.songs).where(eq(schema.songs.trackName, name));

const spotifyTrack = (name: string, isrc: string) => ({
  name,
  artists: [{ name: "Neon Tide" }, { name: "Guest" }],
  album: { name: "Night Drives", release_date: "2024-05-17", images: [{ url: "https://i.scdn.co/image/cover" }] },
  duration_ms: 201_500,
  explicit: true,
  external_ids: { isrc },
  external_urls: { spotify: "https://open.spotify.com/track/x" },
  preview_url: "https://p.scdn.co/mp3-preview/abc",
});

describe("song data from the providers", () => {
  it("asks Spotify for a track the catalogue lacks, adds it once, and answers the next lookup from the catalogue", async () => {
    const id = "7ouMYWpwJ422jRcDASZB7P";
    fake.spotifyTracks.set(id, spotifyTrack("Coastline", "USX9P2400001"));
    const before = fake.requests.length;

    const [first, second] = await Promise.all([
      link(`https://open.spotify.com/track/${id}`),
      t.api().playlist.GET("/song-data/{providerSongId}/{musicProvider}", {
        params: { path: { providerSongId: id, musicProvider: "spotify" } },
      }),
    ]);
    expect(first.response.status).toBe(200);
    expect(first.data).toMatchObject({
      provider: "spotify",
      providerSongId: id,
      song: {
        trackName: "Coastline",
        artistName: "Neon Tide, Guest",
        album: "Night Drives",
        duration: 202,
        explicit: true,
        isrc: "USX9P2400001",
        releaseYear: 2024,
        musicProviders: { spotify: id },
        thumbnails: { spotify: "https://i.scdn.co/image/cover" },
        previews: { spotify: "https://p.scdn.co/mp3-preview/abc" },
      },
    });
    expect(second.response.status).toBe(200);
    expect(second.data?.song.songId).toBe(first.data?.song.songId);
    expect(await songsNamed("Coastline")).toHaveLength(1);

    // Booth's own token (client credentials), asked for once and kept.
    const tokenCalls = fake.requests.slice(before);
    expect(tokenCalls.filter((r) => r.path === "/spotify-accounts/api/token").map((r) => r.form.grant_type)).toEqual([
      "client_credentials",
    ]);
    // The two lookups at once may each have asked Spotify (or the second found the first's song already); the next
    // one is answered from the catalogue alone.
    const trackCalls = () => fake.requests.slice(before).filter((r) => r.path.startsWith("/spotify-api/v1/tracks/"));
    const asked = trackCalls().length;
    expect(asked).toBeGreaterThanOrEqual(1);
    expect(asked).toBeLessThanOrEqual(2);
    const third = await t.api().playlist.GET("/song-data/{providerSongId}/{musicProvider}", {
      params: { path: { providerSongId: "7ouMYWpwJ422jRcDASZB7P", musicProvider: "spotify" } },
    });
    expect(third.data?.song.songId).toBe(first.data?.song.songId);
    expect(trackCalls()).toHaveLength(asked);

    // Found by search now, like any catalogue song (an explicit one: with the explicit filter).
    const found = await t.api().playlist.GET("/search", { params: { query: { q: "coastline", explicit: "true" } } });
    expect(found.data?.map((s) => s.songId)).toContain(first.data?.song.songId);
  });

  it("merges an Apple Music song into the catalogue song with the same ISRC", async () => {
    const [song] = await t.db
      .insert(schema.songs)
      .values({ shortId: shortId(), trackName: "Harbour Lights", artistName: "Booth", isrc: "GBAYE0000001" })
      .returning();
    fake.appleSongs.set("1440857781", {
      name: "Harbour Lights",
      artistName: "Booth",
      albumName: "Docks",
      durationInMillis: 180_000,
      isrc: "GBAYE0000001",
      contentRating: "clean",
      releaseDate: "2019-01-01",
      url: "https://music.apple.com/us/album/docks/1?i=1440857781",
      artwork: { url: "https://is1.mzstatic.com/image/{w}x{h}bb.jpg" },
      previews: [{ url: "https://audio.itunes.apple.com/preview.m4a" }],
    });
    expect((await linkedSong("https://music.apple.com/us/album/docks/1?i=1440857781"))?.songId).toBe(song?.id);
    const row = await firstRow(t.db, schema.songs, eq(schema.songs.id, song?.id ?? ""));
    expect(row?.musicProviders).toEqual({ apple: "1440857781" });
    expect(row?.thumbnails).toEqual({ apple: "https://is1.mzstatic.com/image/600x600bb.jpg" });
    expect(row?.previews).toEqual({ apple: "https://audio.itunes.apple.com/preview.m4a" });
    expect(await songsNamed("Harbour Lights")).toHaveLength(1);
  });

  it("looks up YouTube videos with the API key, and SoundCloud tracks by their link's path with Booth's app token", async () => {
    fake.youtubeVideos.set("dQw4w9WgXcQ", {
      id: "dQw4w9WgXcQ",
      snippet: {
        title: "Slow Motion",
        channelTitle: "Neon Tide - Topic",
        publishedAt: "2021-03-04T10:00:00Z",
        thumbnails: { high: { url: "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg" } },
      },
      contentDetails: { duration: "PT1H2M3S", contentRating: {} },
    });
    expect(await linkedSong("https://www.youtube.com/watch?v=dQw4w9WgXcQ")).toMatchObject({
      trackName: "Slow Motion",
      artistName: "Neon Tide",
      duration: 3723,
      explicit: false,
      releaseYear: 2021,
      musicProviders: { youtube: "dQw4w9WgXcQ" },
      links: { youtube: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" },
      thumbnails: { youtube: "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg" },
    });

    fake.soundcloudTracks.set("neon-tide/undertow", {
      id: 123456,
      title: "Undertow",
      duration: 245_000,
      user: { username: "neontide" },
      publisher_metadata: { artist: "Neon Tide", isrc: "USX9P2400003", explicit: false },
      release_year: 2023,
      artwork_url: "https://i1.sndcdn.com/artworks-abc-large.jpg",
      permalink_url: "https://soundcloud.com/neon-tide/undertow",
    });
    const before = fake.requests.length;
    const track = await linkedSong("https://soundcloud.com/neon-tide/undertow");
    expect(track).toMatchObject({
      trackName: "Undertow",
      artistName: "Neon Tide",
      duration: 245,
      isrc: "USX9P2400003",
      musicProviders: { soundcloud: "neon-tide/undertow" },
      thumbnails: { soundcloud: "https://i1.sndcdn.com/artworks-abc-t500x500.jpg" },
    });
    const token = fake.requests.slice(before).find((r) => r.path === "/soundcloud/oauth/token");
    expect(token?.form.grant_type).toBe("client_credentials");
    // By the numeric id too: the catalogue has it by path, so SoundCloud is asked and the same song answers.
    const byId = await t.api().playlist.GET("/song-data/{providerSongId}/{musicProvider}", {
      params: { path: { providerSongId: "123456", musicProvider: "soundcloud" } },
    });
    expect(byId.response.status).toBe(200);
    expect(byId.data?.song.songId).toBe(track?.songId);
    expect(await songsNamed("Undertow")).toHaveLength(1);
  });

  it("answers 404 for a track the provider does not have, 502 when it fails, and adds nothing", async () => {
    const count = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(schema.songs))[0]?.n;
    const songs = await count();
    const missing = await t.api().playlist.GET("/song-data/{providerSongId}/{musicProvider}", {
      params: { path: { providerSongId: "0000000000000000000000", musicProvider: "spotify" } },
    });
    expectRefusal(missing, 404, "Spotify has no track with this id.");
    const apple = await t.api().playlist.GET("/song-data/{providerSongId}/{musicProvider}", {
      params: { path: { providerSongId: "999", musicProvider: "apple" } },
    });
    expectRefusal(apple, 404, "Apple Music has no track with this id.");
    expect((await link("https://youtu.be/AAAAAAAAAAA")).error?.message).toBe("YouTube has no track with this id.");
    expect((await link("https://soundcloud.com/nobody/nothing")).response.status).toBe(404);
    const deezer = await link("https://www.deezer.com/track/3135556");
    expectRefusal(deezer, 404, "This song is not in our catalog, and Booth does not look up deezer tracks.");
    fake.control.failWith = 500;
    try {
      const down = await t.api().playlist.GET("/song-data/{providerSongId}/{musicProvider}", {
        params: { path: { providerSongId: "1111111111111111111111", musicProvider: "spotify" } },
      });
      expect(down.response.status).toBe(502);
    } finally {
      fake.control.failWith = null;
    }
    expect(await count()).toBe(songs);
  });

  it("imports tracks the provider has into a crate, and skips the ones it has not", async () => {
    const id = "3n3Ppam7vgaVa1iaRUc9Lp";
    fake.spotifyTracks.set(id, spotifyTrack("Lanterns", "USX9P2400002"));
    const { token } = await t.createUser();
    const res = await t.api(token).playlist.POST("/api/v1/track-import", {
      body: {
        songs: [{ musicProviders: { spotify: id } }, { musicProviders: { spotify: "2222222222222222222222" } }],
      },
    });
    expect(res.response.status).toBe(200);
    expect(res.data?.imported).toBe(1);
    expect(res.data?.skipped).toEqual([
      { index: 1, message: "Sorry, this song is not in our catalog and can't be imported." },
    ]);
    const queue = await t.api(token).playlist.GET("/crate/special/queue/songs");
    expect(queue.data?.map((s) => s.trackName)).toEqual(["Lanterns"]);
  });

  it("says which providers are configured", async () => {
    const res = await t.api().playlist.GET("/song-data/providers");
    const of = (p: string) => ok(res).find((x) => x.provider === p);
    expect(of("spotify")).toEqual({
      provider: "spotify",
      configured: true,
      setting: "SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET",
    });
    expect(of("apple")).toMatchObject({ configured: true });
    expect(of("youtube")).toMatchObject({ configured: true, setting: "YOUTUBE_API_KEY" });
    expect(of("soundcloud")).toMatchObject({ configured: true });
    expect(of("deezer")).toEqual({ provider: "deezer", configured: false, setting: null });
  });
});
