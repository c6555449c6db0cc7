import type { Brand } from "@booth/sdk/brand";
import { ProviderAccounts } from "./accounts.ts";
import { isBlocked, mediaPlayer } from "./media-player.ts";
import { type AudioQuality, PlaybackController, type PlayRequest } from "./player.ts";
import { DRIFT_LIMIT, driftSeek, startSeek } from "./position.ts";
import type { PlayerScripts } from "./scripts.ts";
import { loadedPlayer, type PlayerContext, type SongPlayer } from "./song-player.ts";
import { followsRoom, isEmbedded, type Source, type SourceKind, sourcesOf, wantsAccounts } from "./sources.ts";

/** What the page shows of the player: which kind plays (a preview is labelled), and what stops it. */
export interface RoomPlayerView {
  kind: SourceKind | null;
  blocked: boolean;
  failure: string | null;
}

export interface RoomPlayerOptions {
  audio: HTMLAudioElement;
  /** Where the embedded players draw (the app shell's). */
  mount: HTMLElement;
  apiUrl: string;
  /** This Booth's brand (BOOTH_BRAND): a song's sources it does not offer are not played (the default brand's when unset). */
  brand?: Brand | undefined;
  token: () => string | null;
  scripts: PlayerScripts;
  signedIn: boolean;
  onChange: (view: RoomPlayerView) => void;
}

/**
 * The room's player: one song at a time, on the first of its sources that plays (sources.ts), kept where the room is.
 * It starts each player where the room is, moves it there again once sound comes out (loading takes a while), and
 * every tick after that when it drifts beyond DRIFT_LIMIT (position.ts). A source that cannot play makes way for the
 * next (a Spotify account without Premium for the preview); the old song's player is destroyed before the next starts.
 */
export class RoomPlayer {
  private readonly media: PlaybackController;
  private readonly accounts: ProviderAccounts;
  private current: {
    request: PlayRequest;
    sources: Source[];
    index: number;
    player: SongPlayer | null;
    /** Sound came out and the first correction is done. */
    started: boolean;
  } | null = null;
  private view: RoomPlayerView = { kind: null, blocked: false, failure: null };
  private level = 1;
  private muted = false;

  constructor(private readonly options: RoomPlayerOptions) {
    this.media = new PlaybackController(options.audio, options.apiUrl, options.token);
    this.accounts = new ProviderAccounts(options.signedIn);
  }

  get playingKey() {
    return this.current?.request.key ?? null;
  }

  private show(change: Partial<RoomPlayerView>) {
    this.view = { ...this.view, ...change };
    this.options.onChange(this.view);
  }

  async play(request: PlayRequest) {
    if (this.current?.request.key === request.key) return;
    this.stop();
    const current = { request, sources: [] as Source[], index: -1, player: null, started: false };
    this.current = current;
    this.show({ failure: null });
    const wanted = wantsAccounts(request.song);
    const accounts =
      wanted.spotify || wanted.apple ? await this.accounts.which(wanted) : { spotify: false, apple: false };
    if (this.current !== current) return;
    current.sources = sourcesOf(request.song, this.options.apiUrl, accounts, this.options.brand);
    this.next(current);
  }

  /** The next source of the song, or the failure when none is left. */
  private next(current: NonNullable<RoomPlayer["current"]>) {
    current.player?.destroy();
    current.player = null;
    current.started = false;
    current.index += 1;
    const source = current.sources[current.index];
    if (!source) {
      this.show({ kind: null, failure: "failed to play song: no playable source" });
      return;
    }
    const player = this.make(current.request, source);
    current.player = player;
    this.show({ kind: source.kind });
    player.ready.catch((error: Error) => {
      if (this.current !== current || current.player !== player) return;
      console.warn(`${source.kind}: ${error.message}`);
      this.next(current);
    });
  }

  private make(request: PlayRequest, source: Source): SongPlayer {
    const context: PlayerContext = {
      mount: this.options.mount,
      scripts: this.options.scripts,
      at: request.at,
      admitted: request.admitted,
      level: this.level,
      muted: this.muted,
      onFailure: (message) => this.show({ failure: message }),
    };
    switch (source.kind) {
      case "hls":
      case "file":
      case "preview":
        return mediaPlayer(this.media, this.options.audio, `${request.key}:${source.kind}`, request.song, source, {
          ...context,
          onBlocked: () => this.show({ blocked: true }),
        });
      // The providers' players load with their first song (loadedPlayer): not part of every first visit.
      case "youtube":
        return loadedPlayer(async () => (await import("./youtube.ts")).youtubePlayer(source.videoId, context));
      case "soundcloud":
        return loadedPlayer(async () => (await import("./soundcloud.ts")).soundcloudPlayer(source.trackUrl, context));
      case "spotify":
        return loadedPlayer(async () =>
          (await import("./spotify.ts")).spotifyPlayer(
            source.trackId,
            async () => (await this.accounts.require("spotify")).accessToken,
            context,
          ),
        );
      case "apple":
        return loadedPlayer(async () =>
          (await import("./apple.ts")).applePlayer(source.songId, () => this.accounts.require("apple"), context),
        );
    }
  }

  /** Whether sound is coming out (listening time counts only then). */
  playing() {
    return this.current?.player?.playing() ?? false;
  }

  /** Once a second: the first correction after sound comes out, then the drift rule. */
  tick() {
    const current = this.current;
    const player = current?.player;
    const kind = this.view.kind;
    if (!current || !player || !kind || !followsRoom(kind) || !player.playing()) return;
    if (this.view.blocked) this.show({ blocked: false });
    const at = current.request.at();
    if (current.started && player.follow) {
      player.follow(at);
      return;
    }
    const target = current.started
      ? driftSeek(player.position(), at, isEmbedded(kind) ? DRIFT_LIMIT.embedded : DRIFT_LIMIT.media)
      : startSeek(player.position(), at);
    current.started = true;
    if (target !== null) player.seek(target);
  }

  pause() {
    this.current?.player?.pause();
  }

  /** Plays again (a gesture, or the media keys), from where the room is by now. */
  async resume() {
    const current = this.current;
    const player = current?.player;
    if (!current || !player) return;
    if (this.view.kind && followsRoom(this.view.kind)) player.seek(current.request.at());
    try {
      await player.play();
      this.show({ blocked: false });
    } catch (error) {
      const message = (error as Error).message;
      if (isBlocked(message) || (error as Error).name === "NotAllowedError") this.show({ blocked: true });
    }
  }

  volume(level: number, muted: boolean) {
    this.level = level;
    this.muted = muted;
    this.current?.player?.volume(level, muted);
  }

  setQuality(quality: AudioQuality) {
    this.media.setQuality(quality);
  }

  stop() {
    this.current?.player?.destroy();
    this.current = null;
    this.show({ kind: null, blocked: false });
  }
}
