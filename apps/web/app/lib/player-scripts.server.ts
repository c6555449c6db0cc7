import type { PlayerScripts } from "./playback/scripts.ts";

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
