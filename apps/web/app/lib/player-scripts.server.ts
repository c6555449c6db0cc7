import { DEFAULT_PLAYER_SCRIPTS, type PlayerScripts } from "./playback/scripts.ts";

/** An http(s) URL from a setting, else the provider's own. */
function setting(name: string, fallback: string) {
  const value = process.env[name]?.trim();
  if (!value) return fallback;
  try {
    const url = new URL(value);
    if (url.protocol === "https:" || url.protocol === "http:") return url.href;
  } catch {}
  throw new Error(`${name} must be an http(s) URL (saw ${JSON.stringify(value)}).`);
}

/**
 * The providers' player scripts, from the settings (`YOUTUBE_IFRAME_API_URL`, `SOUNDCLOUD_WIDGET_API_URL`,
 * `SOUNDCLOUD_WIDGET_URL`, `SPOTIFY_PLAYER_SDK_URL`, `SPOTIFY_WEB_API_URL`, `MUSICKIT_JS_URL`), the real ones when
 * unset. The page's policy allows scripts, frames and connections for these origins only.
 */
export const playerScripts: PlayerScripts = {
  youtube: setting("YOUTUBE_IFRAME_API_URL", DEFAULT_PLAYER_SCRIPTS.youtube),
  soundcloud: setting("SOUNDCLOUD_WIDGET_API_URL", DEFAULT_PLAYER_SCRIPTS.soundcloud),
  soundcloudWidget: setting("SOUNDCLOUD_WIDGET_URL", DEFAULT_PLAYER_SCRIPTS.soundcloudWidget),
  spotify: setting("SPOTIFY_PLAYER_SDK_URL", DEFAULT_PLAYER_SCRIPTS.spotify),
  spotifyApi: setting("SPOTIFY_WEB_API_URL", DEFAULT_PLAYER_SCRIPTS.spotifyApi).replace(/\/+$/, ""),
  musicKit: setting("MUSICKIT_JS_URL", DEFAULT_PLAYER_SCRIPTS.musicKit),
};

const origin = (url: string) => new URL(url).origin;

/**
 * What the players need of the page's policy: their scripts; the frames they draw into (YouTube's player comes from
 * the origin of its script, SoundCloud's widget from its page, Spotify's from its SDK's origin); the Web API calls
 * (Spotify) and MusicKit's catalogue and playback calls.
 */
export const playerSources = {
  scripts: [playerScripts.youtube, playerScripts.soundcloud, playerScripts.spotify, playerScripts.musicKit].map(origin),
  frames: [origin(playerScripts.youtube), origin(playerScripts.soundcloudWidget), origin(playerScripts.spotify)],
  connect: [
    origin(playerScripts.spotifyApi),
    "https://api.music.apple.com",
    "https://play.itunes.apple.com",
    "https://*.itunes.apple.com",
  ],
};
