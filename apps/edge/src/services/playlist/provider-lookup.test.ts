// Song data for tracks the catalogue lacks: asked of Spotify (Booth's app token) and Apple Music (the developer
// token), against the local fake providers; the track joins the catalogue once, merged by ISRC.
import { schema } from "@booth/db";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shortId } from "../../lib/ids.ts";
import type { FakeProviders } from "../../testing/fake-providers.ts";
import { startProviderApps } from "../../testing/provider-apps.ts";
import type { TestApp } from "../../testing.ts";

let fake: FakeProviders;
let t: TestApp;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ fake, t, close } = await startProviderApps());
});
afterAll(() => close());

const L = "/api/playlist-service";
const link = (url: string) => `${L}/song-data/${encodeURIComponent(url)}`;
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
      t.request("GET", link(`https://open.spotify.com/track/${id}`)),
      t.request("GET", `${L}/song-data/${id}/spotify`),
    ]);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
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
    expect(second.status).toBe(200);
    expect(second.body.song.songId).toBe(first.body.song.songId);
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
    const third = await t.request("GET", `${L}/song-data/${id}/spotify`);
    expect(third.body.song.songId).toBe(first.body.song.songId);
    expect(trackCalls()).toHaveLength(asked);

    // Found by search now, like any catalogue song (an explicit one: with the explicit filter).
    const found = await t.request("GET", `${L}/search`, { query: { q: "coastline", explicit: "true" } });
    expect(found.body.map((s: { songId: string }) => s.songId)).toContain(first.body.song.songId);
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
    const res = await t.request("GET", link("https://music.apple.com/us/album/docks/1?i=1440857781"));
    expect(res.status).toBe(200);
    expect(res.body.song.songId).toBe(song?.id);
    const [row] = await t.db
      .select()
      .from(schema.songs)
      .where(eq(schema.songs.id, song?.id ?? ""));
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
    const video = await t.request("GET", link("https://www.youtube.com/watch?v=dQw4w9WgXcQ"));
    expect(video.status).toBe(200);
    expect(video.body.song).toMatchObject({
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
    const track = await t.request("GET", link("https://soundcloud.com/neon-tide/undertow"));
    expect(track.status).toBe(200);
    expect(track.body.song).toMatchObject({
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
    const byId = await t.request("GET", `${L}/song-data/123456/soundcloud`);
    expect(byId.status).toBe(200);
    expect(byId.body.song.songId).toBe(track.body.song.songId);
    expect(await songsNamed("Undertow")).toHaveLength(1);
  });

  it("answers 404 for a track the provider does not have, 502 when it fails, and adds nothing", async () => {
    const count = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(schema.songs))[0]?.n;
    const songs = await count();
    const missing = await t.request("GET", `${L}/song-data/0000000000000000000000/spotify`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("Spotify has no track with this id.");
    const apple = await t.request("GET", `${L}/song-data/999/apple`);
    expect(apple.status).toBe(404);
    expect(apple.body.message).toBe("Apple Music has no track with this id.");
    expect((await t.request("GET", link("https://youtu.be/AAAAAAAAAAA"))).body.message).toBe(
      "YouTube has no track with this id.",
    );
    expect((await t.request("GET", link("https://soundcloud.com/nobody/nothing"))).status).toBe(404);
    const deezer = await t.request("GET", link("https://www.deezer.com/track/3135556"));
    expect(deezer.status).toBe(404);
    expect(deezer.body.message).toBe("This song is not in our catalog, and Booth does not look up deezer tracks.");
    fake.control.failWith = 500;
    try {
      const down = await t.request("GET", `${L}/song-data/1111111111111111111111/spotify`);
      expect(down.status).toBe(502);
    } finally {
      fake.control.failWith = null;
    }
    expect(await count()).toBe(songs);
  });

  it("imports tracks the provider has into a crate, and skips the ones it has not", async () => {
    const id = "3n3Ppam7vgaVa1iaRUc9Lp";
    fake.spotifyTracks.set(id, spotifyTrack("Lanterns", "USX9P2400002"));
    const { token } = await t.createUser();
    const res = await t.request("POST", `${L}/api/v1/track-import`, {
      token,
      body: { songs: [{ musicProviders: { spotify: id } }, { musicProviders: { spotify: "2222222222222222222222" } }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.imported).toBe(1);
    expect(res.body.skipped).toEqual([
      { index: 1, message: "Sorry, this song is not in our catalog and can't be imported." },
    ]);
    const queue = await t.request("GET", `${L}/crate/special/queue/songs`, { token });
    expect(queue.body.map((s: { trackName: string }) => s.trackName)).toEqual(["Lanterns"]);
  });

  it("says which providers are configured", async () => {
    const res = await t.request("GET", `${L}/song-data/providers`);
    const of = (p: string) => res.body.find((x: { provider: string }) => x.provider === p);
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
