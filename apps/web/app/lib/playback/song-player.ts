import type { PlayerScripts } from "./scripts.ts";

/**
 * One song on one player: the platform's HLS or a file on the page's audio element, or a provider's own player. The
 * room's player (room-player.ts) makes one per song and source, keeps it where the room is, and destroys it for the
 * next; it never needs to know which provider it holds.
 */
export interface SongPlayer {
  /** Settles once the player can play the song (its script loaded, the song found); rejects with what went wrong. */
  readonly ready: Promise<void>;
  play(): Promise<void>;
  pause(): void;
  /** To `seconds` into the song. */
  seek(seconds: number): void;
  /** Where the song is, in seconds; null while the player cannot say. */
  position(): number | null;
  playing(): boolean;
  ended(): boolean;
  /** 0..1, and whether muted. */
  volume(level: number, muted: boolean): void;
  /**
   * Keeps step with the room, given where it is now (seconds), once a second after the first correction: a player
   * that can change its speed steers a small drift away (drift.ts); one without it is seeked past a limit instead.
   */
  follow?(roomPosition: number): void;
  destroy(): void;
}

/** What every player is made with. */
export interface PlayerContext {
  /** Where an embedded player draws itself (YouTube's video, SoundCloud's widget); emptied on destroy. */
  mount: HTMLElement;
  scripts: PlayerScripts;
  /** Where the room is in the song now, in seconds. */
  at: () => number;
  /** Settles once the edge lets this listener load the song (player.ts, PlayRequest). */
  admitted?: Promise<void> | undefined;
  /** The listener's volume when the player starts. */
  level: number;
  muted: boolean;
  /** Something stopped the song after it began (reported by the room's player). */
  onFailure: (message: string) => void;
}

/** How long a provider's player may take to be ready before the room's player gives up on it. */
export const PROVIDER_ANSWER_MS = 20_000;

/**
 * A provider's player getting ready: once its script is there, `start` (resolve when the song plays, reject with what
 * went wrong); `silent` is the failure when the provider has not answered within PROVIDER_ANSWER_MS.
 */
export function startProvider(
  script: Promise<void>,
  silent: string,
  start: (resolve: () => void, reject: (error: Error) => void) => void,
): Promise<void> {
  return within(
    script.then(() => new Promise<void>(start)),
    PROVIDER_ANSWER_MS,
    silent,
  );
}

/** A promise that rejects after `ms` with `message`: providers that never call back must not hold the room forever. */
export function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/**
 * A provider's player whose module is fetched when a song of that provider plays: the providers' code (YouTube,
 * SoundCloud, Spotify, Apple Music) is no part of a first visit, and most rooms play uploads. Until the module is
 * here the player is silent and still; a volume set meanwhile reaches it once it is made, and one destroyed meanwhile
 * is destroyed as soon as it is.
 */
export function loadedPlayer(load: () => Promise<SongPlayer>): SongPlayer {
  let player: SongPlayer | null = null;
  let destroyed = false;
  let volume: [number, boolean] | null = null;
  const ready = load().then((made) => {
    if (destroyed) {
      made.destroy();
      throw new Error("player destroyed before it loaded");
    }
    player = made;
    if (volume) made.volume(...volume);
    return made.ready;
  });
  return {
    ready,
    async play() {
      await ready;
      return player?.play();
    },
    pause: () => player?.pause(),
    seek: (seconds) => player?.seek(seconds),
    position: () => player?.position() ?? null,
    playing: () => player?.playing() ?? false,
    ended: () => player?.ended() ?? false,
    volume(level, muted) {
      volume = [level, muted];
      player?.volume(level, muted);
    },
    destroy() {
      destroyed = true;
      player?.destroy();
    },
  };
}
