/** The room player's rules without a browser or a provider: which source plays a song, where, and the volume. */
import type { LiveSong } from "@booth/sdk/live";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mediaMetadataOf, mediaSessionPlaying, updateMediaSession } from "../app/lib/playback/media-session.ts";
import { DRIFT_LIMIT, driftSeek, START_TOLERANCE, startSeek } from "../app/lib/playback/position.ts";
import { loadedPlayer, type SongPlayer } from "../app/lib/playback/song-player.ts";
import { widgetUrl } from "../app/lib/playback/soundcloud.ts";
import { followsRoom, isEmbedded, sourcesOf, wantsAccounts } from "../app/lib/playback/sources.ts";
import { DEFAULT_VOLUME, readVolume, writeVolume } from "../app/lib/playback/volume.ts";

const song = (fields: Partial<LiveSong> = {}): LiveSong => ({
  trackName: "T",
  artistName: "A",
  duration: 200,
  ...fields,
});
const API = "http://edge.test";

describe("a song's sources", () => {
  it("plays the platform's own stream before any provider", () => {
    const s = song({
      streamUrls: { hls: "/api/upload-service/songs/1/hls-playlist" },
      musicProviders: { youtube: "dQw4w9WgXcQ", spotify: "4uLU6hMCjMI75M1A2tKUQC" },
      previews: { spotify: "https://p.scdn.co/mp3-preview/x" },
    });
    expect(sourcesOf(s, API, { spotify: true, apple: false }).map((x) => x.kind)).toEqual([
      "hls",
      "spotify",
      "youtube",
      "preview",
    ]);
  });

  it("plays a 7digital song's clip from the edge's clip route on the audio element, where the room is", () => {
    const clip = "/api/playlist-service/song-data/clip/sevenDigital/1001";
    const s = song({ duration: 30, streamUrls: { http: clip }, previews: { sevenDigital: clip } });
    const [first] = sourcesOf(s, API);
    expect(first).toEqual({ kind: "file", url: `${API}${clip}` });
    expect(followsRoom("file") && !isEmbedded("file")).toBe(true);
  });

  it("plays only the sources the brand offers: the catalogue brand no streaming provider's player or preview, 7digital's", () => {
    const s = song({
      streamUrls: { hls: "/api/upload-service/songs/1/hls-playlist" },
      musicProviders: { uploadService: "u1", youtube: "dQw4w9WgXcQ", spotify: "4uLU6hMCjMI75M1A2tKUQC" },
      previews: { spotify: "https://p.scdn.co/mp3-preview/x" },
    });
    const accounts = { spotify: true, apple: true };
    expect(sourcesOf(s, API, accounts, "catalogue").map((x) => x.kind)).toEqual(["hls"]);
    expect(sourcesOf(s, API, accounts, "streaming").map((x) => x.kind)).toEqual([
      "hls",
      "spotify",
      "youtube",
      "preview",
    ]);
    const licensed = song({
      musicProviders: { sevenDigital: "8675309" },
      previews: { sevenDigital: "https://previews.7digital.com/clip/8675309" },
    });
    expect(sourcesOf(licensed, API, accounts, "catalogue")).toEqual([
      { kind: "preview", url: "https://previews.7digital.com/clip/8675309" },
    ]);
    // The streaming brand offers every provider, the licensed catalogue's too (decision 0027).
    expect(sourcesOf(licensed, API, accounts, "streaming")).toEqual([
      { kind: "preview", url: "https://previews.7digital.com/clip/8675309" },
    ]);
  });

  it("plays an Audius song's full-length stream on the audio element, where the room is, before its other providers", () => {
    const stream = "https://api.audius.co/v1/tracks/D7KyD/stream?app_name=Booth";
    const s = song({ streamUrls: { http: stream }, musicProviders: { audius: "D7KyD", youtube: "dQw4w9WgXcQ" } });
    expect(sourcesOf(s, API)).toEqual([
      { kind: "file", url: stream },
      { kind: "youtube", videoId: "dQw4w9WgXcQ" },
    ]);
    expect(followsRoom("file") && !isEmbedded("file")).toBe(true);
  });

  it("plays Spotify and Apple Music in full only with a connected account, else after YouTube and SoundCloud, their preview", () => {
    const s = song({
      musicProviders: { spotify: "4uLU6hMCjMI75M1A2tKUQC", apple: "1440857781", soundcloud: "artist/track-name" },
      previews: { spotify: "https://p.scdn.co/mp3-preview/x" },
    });
    expect(sourcesOf(s, API).map((x) => x.kind)).toEqual(["soundcloud", "preview"]);
    expect(sourcesOf(s, API, { spotify: true, apple: true })).toEqual([
      { kind: "spotify", trackId: "4uLU6hMCjMI75M1A2tKUQC" },
      { kind: "apple", songId: "1440857781" },
      { kind: "soundcloud", trackUrl: "https://soundcloud.com/artist/track-name" },
      { kind: "preview", url: "https://p.scdn.co/mp3-preview/x" },
    ]);
    expect(wantsAccounts(s)).toEqual({ spotify: true, apple: true });
    expect(wantsAccounts(song({ musicProviders: { youtube: "dQw4w9WgXcQ" } }))).toEqual({
      spotify: false,
      apple: false,
    });
  });

  it("builds provider addresses from ids of the provider's shape only, never from what a song names", () => {
    const hostile = song({
      musicProviders: {
        youtube: 'x"><script>',
        soundcloud: "https://evil.test/player.js",
        spotify: "../../me",
        apple: "javascript:alert(1)",
      },
      previews: { spotify: "javascript:alert(1)" },
    });
    // What is left is a path on the edge (a relative preview is the edge's), nothing to run.
    expect(sourcesOf(hostile, API, { spotify: true, apple: true })).toEqual([
      { kind: "preview", url: `${API}/javascript:alert(1)` },
    ]);
    expect(sourcesOf(song({ musicProviders: { soundCloudPublic: "123456" } }), API)).toEqual([
      { kind: "soundcloud", trackUrl: "https://api.soundcloud.com/tracks/123456" },
    ]);
    // The widget's page is the setting's, with the track as a parameter: its host cannot change.
    const url = new URL(
      widgetUrl("https://w.soundcloud.com/player/", "https://soundcloud.com/a/b?x=1&auto_play=false"),
    );
    expect(url.origin + url.pathname).toBe("https://w.soundcloud.com/player/");
    expect(url.searchParams.get("url")).toBe("https://soundcloud.com/a/b?x=1&auto_play=false");
    expect(url.searchParams.get("auto_play")).toBe("true");
    expect(sourcesOf(song(), API)).toEqual([]);
  });

  it("keeps every source but a preview where the room is, the embedded players more loosely", () => {
    expect(followsRoom("youtube")).toBe(true);
    expect(followsRoom("hls")).toBe(true);
    expect(followsRoom("preview")).toBe(false);
    expect(isEmbedded("soundcloud")).toBe(true);
    expect(isEmbedded("file")).toBe(false);
  });
});

describe("the room's position rules", () => {
  it("moves a player once sound comes out when it is more than a quarter second off", () => {
    expect(startSeek(0, 42.5)).toBe(42.5);
    expect(startSeek(42.4, 42.5)).toBeNull();
    expect(startSeek(42.5 + START_TOLERANCE + 0.01, 42.5)).toBe(42.5);
    expect(startSeek(null, 42.5)).toBeNull();
  });

  it("corrects drift beyond the limit only, either way", () => {
    expect(driftSeek(100, 101.4, DRIFT_LIMIT.media)).toBeNull();
    expect(driftSeek(100, 101.6, DRIFT_LIMIT.media)).toBe(101.6);
    expect(driftSeek(110, 100, DRIFT_LIMIT.embedded)).toBe(100);
    expect(driftSeek(101.9, 100, DRIFT_LIMIT.embedded)).toBeNull();
    expect(driftSeek(Number.NaN, 100, DRIFT_LIMIT.embedded)).toBeNull();
    expect(DRIFT_LIMIT.embedded).toBeGreaterThan(DRIFT_LIMIT.media);
  });
});

describe("volume and the media session", () => {
  const memory = () => {
    const items = new Map<string, string>();
    return {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      items,
    };
  };

  it("remembers the volume and mute per browser, and reads anything else as full volume", () => {
    const storage = memory();
    expect(readVolume(storage)).toEqual(DEFAULT_VOLUME);
    writeVolume(storage, { level: 0.35, muted: true });
    expect(readVolume(storage)).toEqual({ level: 0.35, muted: true });
    storage.setItem("booth.volume", "{not json");
    expect(readVolume(storage)).toEqual(DEFAULT_VOLUME);
    storage.setItem("booth.volume", JSON.stringify({ level: 7, muted: "yes" }));
    expect(readVolume(storage)).toEqual({ level: 1, muted: false });
    expect(readVolume(null)).toEqual(DEFAULT_VOLUME);
  });

  it("shows the song's title, artist, album and cover to the system", () => {
    expect(
      mediaMetadataOf(song({ album: "Al", thumbnails: { uploadService: "/api/upload-service/songs/1/cover" } }), API),
    ).toEqual({
      title: "T",
      artist: "A",
      album: "Al",
      artwork: [{ src: "http://edge.test/api/upload-service/songs/1/cover" }],
    });
    expect(mediaMetadataOf(song(), API).artwork).toEqual([]);
  });
  describe("the system's play and pause", () => {
    /** A browser's Media Session, as far as the player uses it. */
    const fakeSession = () => {
      const handlers = new Map<string, (() => void) | null>();
      const session = {
        metadata: null as MediaMetadataInit | null,
        playbackState: "none" as MediaSessionPlaybackState,
        setActionHandler: (action: string, handler: (() => void) | null) => void handlers.set(action, handler),
      };
      vi.stubGlobal("navigator", { mediaSession: session });
      vi.stubGlobal(
        "MediaMetadata",
        class {
          constructor(init: MediaMetadataInit) {
            Object.assign(this, init);
          }
        },
      );
      return { session, handlers };
    };
    afterEach(() => vi.unstubAllGlobals());

    it("registers play and pause for the playing song, and they reach the player", () => {
      const { session, handlers } = fakeSession();
      const calls: string[] = [];
      updateMediaSession(song({ trackName: "Lock Screen", artistName: "Keys" }), API, {
        play: () => calls.push("play"),
        pause: () => calls.push("pause"),
      });
      expect(session.metadata).toMatchObject({ title: "Lock Screen", artist: "Keys", artwork: [] });
      expect(session.playbackState).toBe("playing");
      handlers.get("pause")?.();
      mediaSessionPlaying(false);
      expect(session.playbackState).toBe("paused");
      handlers.get("play")?.();
      mediaSessionPlaying(true);
      expect(session.playbackState).toBe("playing");
      expect(calls).toEqual(["pause", "play"]);
    });

    it("clears the song and its handlers when nothing plays, and leaves browsers without the API alone", () => {
      const { session, handlers } = fakeSession();
      updateMediaSession(song(), API, { play: () => {}, pause: () => {} });
      updateMediaSession(null, API, { play: () => {}, pause: () => {} });
      expect(session.metadata).toBeNull();
      expect(session.playbackState).toBe("none");
      expect(handlers.get("play")).toBeNull();
      expect(handlers.get("pause")).toBeNull();
      // Nothing shown: the play state is not the system's to show.
      mediaSessionPlaying(true);
      expect(session.playbackState).toBe("none");
      vi.stubGlobal("navigator", {});
      expect(() => updateMediaSession(song(), API, { play: () => {}, pause: () => {} })).not.toThrow();
    });
  });
});

describe("a provider's player fetched with its first song", () => {
  const fake = () => {
    const calls: string[] = [];
    const player: SongPlayer = {
      ready: Promise.resolve(),
      play: async () => void calls.push("play"),
      pause: () => calls.push("pause"),
      seek: (s) => calls.push(`seek ${s}`),
      position: () => 12,
      playing: () => true,
      ended: () => false,
      volume: (level, muted) => calls.push(`volume ${level} ${muted}`),
      destroy: () => calls.push("destroy"),
    };
    return { player, calls };
  };

  it("is still and silent until its module is here, then takes the last volume and plays", async () => {
    const { player, calls } = fake();
    let loaded!: (p: SongPlayer) => void;
    const lazy = loadedPlayer(() => new Promise<SongPlayer>((r) => (loaded = r)));
    expect([lazy.playing(), lazy.position(), lazy.ended()]).toEqual([false, null, false]);
    lazy.volume(0.3, false);
    lazy.volume(0.5, true);
    const playing = lazy.play();
    loaded(player);
    await playing;
    expect(calls).toEqual(["volume 0.5 true", "play"]);
    expect([lazy.playing(), lazy.position()]).toEqual([true, 12]);
  });

  it("destroys a player made after the room moved on, and says so to whoever waits for it", async () => {
    const { player, calls } = fake();
    let loaded!: (p: SongPlayer) => void;
    const lazy = loadedPlayer(() => new Promise<SongPlayer>((r) => (loaded = r)));
    lazy.destroy();
    loaded(player);
    await expect(lazy.ready).rejects.toThrow(/destroyed/);
    expect(calls).toEqual(["destroy"]);
  });
});
