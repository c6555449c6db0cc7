import { loadScriptCalling } from "./scripts.ts";
import { type PlayerContext, type SongPlayer, startProvider } from "./song-player.ts";

/** The part of Spotify's Web Playback SDK the player uses (positions in milliseconds). */
interface SpotifyState {
  position: number;
  duration: number;
  paused: boolean;
}
interface SpotifyPlayer {
  connect(): Promise<boolean>;
  disconnect(): void;
  addListener(event: string, listener: (payload: never) => void): boolean;
  resume(): Promise<void>;
  pause(): Promise<void>;
  seek(ms: number): Promise<void>;
  setVolume(volume: number): Promise<void>;
  getCurrentState(): Promise<SpotifyState | null>;
}
interface SpotifyNamespace {
  Player: new (options: {
    name: string;
    getOAuthToken: (callback: (token: string) => void) => void;
    volume?: number;
  }) => SpotifyPlayer;
}
declare global {
  interface Window {
    Spotify?: SpotifyNamespace;
  }
}

const sdk = (url: string) => loadScriptCalling(url, "onSpotifyWebPlaybackSDKReady", () => !!window.Spotify?.Player);

/**
 * A Spotify track in full through the Web Playback SDK, for a listener whose connected account is Premium: the SDK
 * makes this page a Spotify device, and the Web API starts the track on it where the room is. Without Premium the SDK
 * says so (`account_error`) and the room's player plays the preview instead.
 */
export function spotifyPlayer(trackId: string, accessToken: () => Promise<string>, context: PlayerContext): SongPlayer {
  let player: SpotifyPlayer | null = null;
  let destroyed = false;
  let state: (SpotifyState & { at: number }) | null = null;
  const heard = (s: SpotifyState | null) => {
    state = s ? { position: s.position, duration: s.duration, paused: s.paused, at: performance.now() } : null;
  };
  // The SDK reports a state on changes only (play, pause, seek, the next track): a stall or a slow device drifts
  // without one, so the player asks where it is once a second for the room's player to see the drift.
  const asking = setInterval(() => {
    void player?.getCurrentState().then(
      (s) => {
        if (player) heard(s);
      },
      () => undefined,
    );
  }, 1000);
  const ready = startProvider(sdk(context.scripts.spotify), "Spotify's player did not answer", (resolve, reject) => {
    const Spotify = window.Spotify;
    if (!Spotify) return reject(new Error("Spotify's player did not load"));
    if (destroyed) return resolve();
    const made = new Spotify.Player({
      name: "Booth",
      getOAuthToken: (callback) => void accessToken().then(callback, () => callback("")),
      volume: context.muted ? 0 : context.level,
    });
    player = made;
    const refuse = (reason: string) => () => reject(new Error(reason));
    made.addListener("account_error", refuse("Spotify plays whole songs for Premium accounts only"));
    made.addListener("authentication_error", refuse("Spotify did not accept the account's token"));
    made.addListener("initialization_error", refuse("Spotify's player cannot run in this browser"));
    made.addListener("player_state_changed", (s: SpotifyState | null) => heard(s));
    made.addListener("ready", ({ device_id }: { device_id: string }) => {
      void accessToken()
        .then((token) =>
          fetch(`${context.scripts.spotifyApi}/v1/me/player/play?device_id=${encodeURIComponent(device_id)}`, {
            method: "PUT",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: JSON.stringify({
              uris: [`spotify:track:${trackId}`],
              position_ms: Math.round(context.at() * 1000),
            }),
          }),
        )
        .then((res) => (res.ok ? resolve() : reject(new Error(`Spotify refused to play the track (${res.status})`))))
        .catch((e: Error) => reject(new Error(`Spotify did not answer: ${e.message}`)));
    });
    void made.connect().then((connected) => {
      if (!connected) reject(new Error("Spotify's player did not connect"));
    });
  });
  return {
    ready,
    play: async () => player?.resume(),
    pause: () => void player?.pause(),
    seek: (seconds) => {
      void player?.seek(Math.round(seconds * 1000));
      if (state) state = { ...state, position: seconds * 1000, at: performance.now() };
    },
    position: () => (state ? (state.position + (state.paused ? 0 : performance.now() - state.at)) / 1000 : null),
    playing: () => state !== null && !state.paused,
    ended: () => state?.paused === true && state.position === 0,
    volume: (level, muted) => void player?.setVolume(muted ? 0 : level),
    destroy: () => {
      destroyed = true;
      clearInterval(asking);
      player?.disconnect();
      player = null;
    },
  };
}
