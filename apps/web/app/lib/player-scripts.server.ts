import type { WebSettings } from "../config.server.ts";
import type { PlayerScripts } from "./playback/scripts.ts";

/**
 * The providers' player scripts, from the settings (`YOUTUBE_IFRAME_API_URL`, `SOUNDCLOUD_WIDGET_API_URL`,
 * `SOUNDCLOUD_WIDGET_URL`, `SPOTIFY_PLAYER_SDK_URL`, `SPOTIFY_WEB_API_URL`, `MUSICKIT_JS_URL`), the real ones when
 * unset. The page's policy allows scripts, frames and connections for these origins only.
 */
export const playerScriptsOf = (settings: WebSettings): PlayerScripts => ({
  youtube: settings.YOUTUBE_IFRAME_API_URL,
  soundcloud: settings.SOUNDCLOUD_WIDGET_API_URL,
  soundcloudWidget: settings.SOUNDCLOUD_WIDGET_URL,
  spotify: settings.SPOTIFY_PLAYER_SDK_URL,
  spotifyApi: settings.SPOTIFY_WEB_API_URL.replace(/\/+$/, ""),
  musicKit: settings.MUSICKIT_JS_URL,
});

const origin = (url: string) => new URL(url).origin;

/**
 * What the players need of the page's policy: their scripts; the frames they draw into (YouTube's player comes from
 * the origin of its script, SoundCloud's widget from its page, Spotify's from its SDK's origin); the Web API calls
 * (Spotify) and MusicKit's catalogue and playback calls.
 */
export const playerSourcesOf = (playerScripts: PlayerScripts) => ({
  scripts: [playerScripts.youtube, playerScripts.soundcloud, playerScripts.spotify, playerScripts.musicKit].map(origin),
  frames: [origin(playerScripts.youtube), origin(playerScripts.soundcloudWidget), origin(playerScripts.spotify)],
  connect: [
    origin(playerScripts.spotifyApi),
    "https://api.music.apple.com",
    "https://play.itunes.apple.com",
    "https://*.itunes.apple.com",
  ],
});
