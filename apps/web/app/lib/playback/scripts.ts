/**
 * Where the providers' player scripts (and what they talk to) are: the web server's settings, handed to the page by
 * the root loader. Never anything a room, a song or a visitor sends: the page loads scripts from these alone.
 */
export interface PlayerScripts {
  /** YouTube's IFrame Player API. */
  youtube: string;
  /** SoundCloud's Widget API, and the widget page its iframe shows. */
  soundcloud: string;
  soundcloudWidget: string;
  /** Spotify's Web Playback SDK, and the Web API that starts a song on the SDK's device. */
  spotify: string;
  spotifyApi: string;
  /** Apple's MusicKit JS. */
  musicKit: string;
}

export const DEFAULT_PLAYER_SCRIPTS: PlayerScripts = {
  youtube: "https://www.youtube.com/iframe_api",
  soundcloud: "https://w.soundcloud.com/player/api.js",
  soundcloudWidget: "https://w.soundcloud.com/player/",
  spotify: "https://sdk.scdn.co/spotify-player.js",
  spotifyApi: "https://api.spotify.com",
  musicKit: "https://js-cdn.music.apple.com/musickit/v3/musickit.js",
};

const loading = new Map<string, Promise<void>>();

/**
 * Loads a provider's script once per page (a failure may be tried again) and waits for `ready`, the provider's own
 * signal that its API is there (most of them call a global function or fire an event once they are), or else for
 * the script to have run.
 */
export function loadScript(url: string, ready?: (done: () => void) => void): Promise<void> {
  let promise = loading.get(url);
  if (!promise) {
    promise = new Promise<void>((resolve, reject) => {
      const script = document.createElement("script");
      if (ready) ready(resolve);
      else script.onload = () => resolve();
      script.src = url;
      script.async = true;
      script.onerror = () => {
        loading.delete(url);
        script.remove();
        reject(new Error(`the player script ${new URL(url, location.href).host} did not load`));
      };
      document.head.append(script);
    });
    loading.set(url, promise);
  }
  return promise;
}

/**
 * Loads a provider's script whose API calls the global function `callback` once it is there (a function the page set
 * before is still called); ready at once when `loaded()` says an earlier load already made it.
 */
export function loadScriptCalling(url: string, callback: string, loaded: () => boolean): Promise<void> {
  return loadScript(url, (done) => {
    if (loaded()) return done();
    const globals = window as unknown as Record<string, (() => void) | undefined>;
    const before = globals[callback];
    globals[callback] = () => {
      before?.();
      done();
    };
  });
}
