/**
 * Local stand-ins for the providers' player scripts, which these machines cannot reach: YouTube's IFrame Player API,
 * SoundCloud's Widget API (and its widget page), Spotify's Web Playback SDK (and the Web API that starts a song on
 * it) and Apple's MusicKit JS, each implementing the small part the web's players use (ready, play, pause, seek,
 * position, ended, volume). They play no sound: a clock runs while they
 * "play". Each player they make is recorded in `window.__standIns` for the test to read, and can be made to drift.
 */
import { createServer, type Server } from "node:http";
import { wavFile } from "./harness-b.ts";
import { discPng } from "./images.ts";

/** A clock that runs while playing, in seconds; `set` moves it. Shared by the stand-ins (written into each script). */
const CLOCK = `
const standIns = (window.__standIns ??= { youtube: [], soundcloud: [], spotify: [], apple: [] });
class Clock {
  constructor() { this.base = 0; this.since = null; }
  now() { return this.since === null ? this.base : this.base + (performance.now() - this.since) / 1000; }
  play() { if (this.since === null) this.since = performance.now(); }
  pause() { this.base = this.now(); this.since = null; }
  set(seconds) { const playing = this.since !== null; this.base = seconds; this.since = playing ? performance.now() : null; }
}`;

const YOUTUBE = `(() => {${CLOCK}
function Player(element, options) {
  const clock = new Clock();
  let state = -1;
  const box = document.createElement("div");
  box.dataset.standIn = "youtube";
  box.dataset.videoId = options.videoId;
  element.replaceWith(box);
  const record = { videoId: options.videoId, start: options.playerVars?.start, seeks: [], volume: 100, muted: false,
    destroyed: false, position: () => clock.now(), state: () => state, drift: (by) => clock.set(clock.now() + by) };
  standIns.youtube.push(record);
  const change = (data) => { state = data; options.events?.onStateChange?.({ data, target: this }); };
  this.playVideo = () => { clock.play(); change(1); };
  this.pauseVideo = () => { clock.pause(); change(2); };
  this.seekTo = (seconds) => { record.seeks.push(seconds); clock.set(seconds); };
  this.getCurrentTime = () => clock.now();
  this.getPlayerState = () => state;
  this.setVolume = (v) => { record.volume = v; };
  this.mute = () => { record.muted = true; };
  this.unMute = () => { record.muted = false; };
  this.destroy = () => { record.destroyed = true; clock.pause(); box.remove(); };
  setTimeout(() => options.events?.onReady?.({ target: this }), 50);
}
window.YT = { Player, PlayerState: { UNSTARTED: -1, ENDED: 0, PLAYING: 1, PAUSED: 2, BUFFERING: 3, CUED: 5 } };
setTimeout(() => window.onYouTubeIframeAPIReady?.(), 0);
})();`;

const SOUNDCLOUD = `(() => {${CLOCK}
const Events = { READY: "ready", PLAY: "play", PAUSE: "pause", FINISH: "finish", PLAY_PROGRESS: "playProgress", ERROR: "error" };
function Widget(iframe) {
  const clock = new Clock();
  const listeners = {};
  const fire = (name, event) => (listeners[name] ?? []).forEach((l) => l(event));
  const record = { url: new URL(iframe.src).searchParams.get("url"), src: iframe.src, seeks: [], volume: 100,
    playing: false, position: () => clock.now(), drift: (by) => clock.set(clock.now() + by) };
  standIns.soundcloud.push(record);
  const progress = setInterval(() => {
    if (!iframe.isConnected) return clearInterval(progress);
    if (record.playing) fire(Events.PLAY_PROGRESS, { currentPosition: clock.now() * 1000 });
  }, 500);
  setTimeout(() => fire(Events.READY), 50);
  return {
    bind: (name, listener) => { (listeners[name] ??= []).push(listener); },
    play: () => { clock.play(); record.playing = true; fire(Events.PLAY); },
    pause: () => { clock.pause(); record.playing = false; fire(Events.PAUSE); },
    seekTo: (ms) => { record.seeks.push(ms / 1000); clock.set(ms / 1000); },
    setVolume: (v) => { record.volume = v; },
    getPosition: (callback) => setTimeout(() => callback(clock.now() * 1000), 0),
  };
}
Widget.Events = Events;
window.SC = { Widget };
})();`;

/**
 * Spotify's SDK: the page becomes a device ("ready") for a Premium account's token (the stand-in accounts service
 * hands those out for refresh tokens that start with "premium-"), and says the account lacks Premium for any other.
 * What the Web API is asked to play on the device reaches it as Spotify's backend would (the stand-in polls its
 * server for it); the SDK then plays from the asked position and reports its state. Like the real SDK it reports a
 * state on changes only (play, pause, seek): a drift (a stall) shows in `getCurrentState()` alone.
 */
const SPOTIFY = `(() => {${CLOCK}
const origin = new URL(document.currentScript.src).origin;
let devices = 0;
function Player(options) {
  const listeners = {};
  const clock = new Clock();
  let track = null;
  const record = { name: options.name, connected: false, deviceId: null, track: null, seeks: [], volume: options.volume,
    playing: false, position: () => clock.now(), drift: (by) => clock.set(clock.now() + by) };
  standIns.spotify.push(record);
  const fire = (name, payload) => setTimeout(() => (listeners[name] ?? []).forEach((l) => l(payload)), 20);
  const state = () => track === null ? null
    : { position: Math.round(clock.now() * 1000), duration: 240000, paused: !record.playing, track_window: { current_track: { uri: track } } };
  const changed = () => fire("player_state_changed", state());
  let poll = null;
  this.addListener = (name, listener) => { (listeners[name] ??= []).push(listener); return true; };
  this.connect = () => {
    record.connected = true;
    options.getOAuthToken((token) => {
      if (!token.startsWith("premium-")) return fire("account_error", { message: "premium required" });
      // Unique across pages: the server keeps each device's commands, and other pages' devices are still listening.
      record.deviceId = "stand-in-device-" + ++devices + "-" + Math.random().toString(36).slice(2, 10);
      fire("ready", { device_id: record.deviceId });
      poll = setInterval(async () => {
        if (!record.connected) return clearInterval(poll);
        const res = await fetch(origin + "/spotify-api/stand-in/devices/" + record.deviceId + "/next").catch(() => null);
        if (res?.status !== 200) return;
        const play = await res.json();
        track = record.track = play.uris?.[0] ?? null;
        clock.set((play.position_ms ?? 0) / 1000);
        clock.play();
        record.playing = true;
        changed();
      }, 100);
    });
    return Promise.resolve(true);
  };
  this.disconnect = () => { record.connected = false; record.playing = false; clock.pause(); clearInterval(poll); };
  this.getCurrentState = () => Promise.resolve(state());
  this.resume = () => { if (track) { clock.play(); record.playing = true; changed(); } return Promise.resolve(); };
  this.pause = () => { clock.pause(); record.playing = false; changed(); return Promise.resolve(); };
  this.seek = (ms) => { record.seeks.push(ms / 1000); clock.set(ms / 1000); changed(); return Promise.resolve(); };
  this.setVolume = (v) => { record.volume = v; return Promise.resolve(); };
}
window.Spotify = { Player };
setTimeout(() => window.onSpotifyWebPlaybackSDKReady?.(), 0);
})();`;

/**
 * Apple's MusicKit JS: `configure` with the developer token gives the instance; it is authorized once it holds a
 * music user token (one MusicKit kept on this browser, or the one the page hands it), and then plays whole songs;
 * without one it plays the 30-second preview, as MusicKit does. Like MusicKit, it cannot seek before playback began
 * (there is no item playing yet): `setQueue`'s `startTime` starts a song further in. `authorize` stands for Apple's
 * sign-in window: it resolves the token the test put in `window.__standInAppleSignIn` (the person signed in), or
 * rejects without one (the person closed the window); `unauthorize` forgets the token.
 */
const MUSICKIT = `(() => {${CLOCK}
const PlaybackStates = { none: 0, loading: 1, playing: 2, paused: 3, stopped: 4, ended: 5, seeking: 6, waiting: 8,
  stalled: 9, completed: 10 };
let instance = null;
function Instance(options) {
  const clock = new Clock();
  const listeners = {};
  let userToken = null;
  let queued = null;
  let item = null;
  let state = PlaybackStates.none;
  const record = { developerToken: options.developerToken, app: options.app?.name, userToken: null, song: null,
    authorizations: 0, unauthorizations: 0,
    startTime: null, full: null, seeks: [], volume: 1, position: () => clock.now(), state: () => state,
    drift: (by) => clock.set(clock.now() + by), end: () => { clock.pause(); change(PlaybackStates.completed); } };
  standIns.apple.push(record);
  const change = (next) => { state = next; (listeners.playbackStateDidChange ?? []).forEach((l) => l({ state })); };
  Object.defineProperties(this, {
    isAuthorized: { get: () => userToken !== null },
    musicUserToken: { get: () => userToken ?? "", set: (t) => { userToken = t || null; record.userToken = userToken; } },
    isPlaying: { get: () => state === PlaybackStates.playing },
    playbackState: { get: () => state },
    currentPlaybackTime: { get: () => clock.now() },
    volume: { get: () => record.volume, set: (v) => { record.volume = v; } },
  });
  // Apple's sign-in window, played by the test: the person signs in as window.__standInAppleSignIn when the test set
  // one, else closes the window (MusicKit then rejects, as it does for a cancelled sign-in).
  this.authorize = () => {
    record.authorizations += 1;
    if (userToken) return Promise.resolve(userToken);
    const signIn = window.__standInAppleSignIn;
    if (!signIn) return Promise.reject(new Error("stand-in: the person closed Apple Music's sign-in window"));
    userToken = signIn; record.userToken = signIn;
    return Promise.resolve(signIn);
  };
  this.unauthorize = () => { userToken = null; record.userToken = null; record.unauthorizations += 1; return Promise.resolve(); };
  this.addEventListener = (name, listener) => { (listeners[name] ??= []).push(listener); };
  this.setQueue = (q) => {
    queued = q; item = null; record.song = q.song; record.startTime = q.startTime ?? 0;
    clock.pause(); clock.set(q.startTime ?? 0);
    return q.startPlaying ? this.play() : Promise.resolve({ items: [{ id: q.song }] });
  };
  this.play = () => {
    if (!queued) return Promise.reject(new Error("stand-in: nothing queued"));
    item = queued.song; record.full = userToken !== null;
    clock.play(); change(PlaybackStates.playing);
    return Promise.resolve();
  };
  this.pause = () => { clock.pause(); change(PlaybackStates.paused); };
  this.stop = () => { clock.pause(); item = null; change(PlaybackStates.stopped); };
  this.seekToTime = (seconds) => {
    if (item === null) return Promise.reject(new Error("stand-in: seekToTime needs a nowPlayingItem"));
    record.seeks.push(seconds); clock.set(seconds);
    return Promise.resolve();
  };
}
window.MusicKit = {
  PlaybackStates,
  configure: (options) => { instance = new Instance(options); return Promise.resolve(instance); },
  getInstance: () => instance,
};
setTimeout(() => document.dispatchEvent(new Event("musickitloaded")), 0);
})();`;

/** A song Spotify's Web API was asked to start on a device. */
export interface SpotifyPlay {
  /** When it arrived (epoch ms). */
  at: number;
  deviceId: string | null;
  authorization: string | undefined;
  body: { uris?: string[]; position_ms?: number };
}

export interface StandIns {
  url: string;
  /** What Spotify's Web API was asked to play, in order. */
  spotifyPlays: SpotifyPlay[];
  /** The web server's settings that point the players here (and let the page load the preview). */
  webEnv: Record<string, string>;
  /** A provider's 30-second preview, as a playable file. */
  previewUrl: string;
  /** A provider's cover image (a song's thumbnail). */
  coverUrl: string;
  stop(): Promise<void>;
}

export async function startStandIns(): Promise<StandIns> {
  const preview = wavFile(30, 8000);
  const files: Record<string, { type: string; body: string | Buffer }> = {
    "/youtube/iframe_api": { type: "text/javascript", body: YOUTUBE },
    "/soundcloud/api.js": { type: "text/javascript", body: SOUNDCLOUD },
    "/soundcloud/player/": { type: "text/html", body: "<!doctype html><title>SoundCloud widget stand-in</title>" },
    "/spotify/spotify-player.js": { type: "text/javascript", body: SPOTIFY },
    "/musickit/musickit.js": { type: "text/javascript", body: MUSICKIT },
    "/previews/preview.wav": { type: "audio/wav", body: preview },
    "/covers/cover.png": { type: "image/png", body: discPng([200, 80, 40]) },
  };
  const spotifyPlays: SpotifyPlay[] = [];
  /** What each device was asked to play and has not yet heard of (its SDK asks, as if told by Spotify). */
  const pending = new Map<string, SpotifyPlay[]>();
  const cors = {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "PUT",
    "access-control-allow-headers": "authorization, content-type",
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    // Spotify's accounts service: a refreshed token per refresh token (the edge refreshes a listener's stored link).
    if (req.method === "POST" && url.pathname === "/spotify-accounts/api/token") {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        const refresh = new URLSearchParams(body).get("refresh_token") ?? "";
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ access_token: `${refresh}:access`, token_type: "Bearer", expires_in: 3600 }));
      });
      return;
    }
    // Spotify's Web API: start a track on the SDK's device.
    if (url.pathname === "/spotify-api/v1/me/player/play") {
      if (req.method === "OPTIONS") {
        res.writeHead(204, cors).end();
        return;
      }
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        const play: SpotifyPlay = {
          at: Date.now(),
          deviceId: url.searchParams.get("device_id"),
          authorization: req.headers.authorization,
          body: JSON.parse(body || "{}"),
        };
        spotifyPlays.push(play);
        if (play.deviceId) pending.set(play.deviceId, [...(pending.get(play.deviceId) ?? []), play]);
        res.writeHead(204, cors).end();
      });
      return;
    }
    // Spotify's backend telling a device (the SDK stand-in) what to play.
    const device = /^\/spotify-api\/stand-in\/devices\/([\w-]+)\/next$/.exec(url.pathname);
    if (device?.[1]) {
      const next = pending.get(device[1])?.shift();
      if (!next) {
        res.writeHead(204, cors).end();
        return;
      }
      res.writeHead(200, { ...cors, "content-type": "application/json" }).end(JSON.stringify(next.body));
      return;
    }
    const file = files[url.pathname];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      "content-type": file.type,
      "content-length": Buffer.byteLength(file.body),
      "access-control-allow-origin": "*",
      "accept-ranges": "none",
    });
    res.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    spotifyPlays,
    previewUrl: `${url}/previews/preview.wav`,
    coverUrl: `${url}/covers/cover.png`,
    webEnv: {
      YOUTUBE_IFRAME_API_URL: `${url}/youtube/iframe_api`,
      SOUNDCLOUD_WIDGET_API_URL: `${url}/soundcloud/api.js`,
      SOUNDCLOUD_WIDGET_URL: `${url}/soundcloud/player/`,
      SPOTIFY_PLAYER_SDK_URL: `${url}/spotify/spotify-player.js`,
      SPOTIFY_WEB_API_URL: `${url}/spotify-api`,
      MUSICKIT_JS_URL: `${url}/musickit/musickit.js`,
      CSP_MEDIA_HOSTS: url,
      CSP_IMAGE_HOSTS: url,
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
