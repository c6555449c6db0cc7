import type { LiveSong } from "@booth/sdk/live";

/** The song's cover: the catalogue's (on the edge) or a provider's thumbnail; null without one. */
export function artworkOf(song: Pick<LiveSong, "thumbnails">, apiUrl: string): string | null {
  const url = Object.values(song.thumbnails ?? {})[0];
  if (!url) return null;
  return /^https?:\/\//.test(url) ? url : `${apiUrl}${url.startsWith("/") ? "" : "/"}${url}`;
}

/** What the system shows of the song (the lock screen, the media keys' overlay): the Media Session's metadata. */
export function mediaMetadataOf(song: LiveSong, apiUrl: string): MediaMetadataInit {
  const art = artworkOf(song, apiUrl);
  return {
    title: song.trackName,
    artist: song.artistName,
    album: song.album ?? "",
    artwork: art ? [{ src: art }] : [],
  };
}

/**
 * Tells the browser's Media Session what plays and what its play and pause buttons do (the lock screen, headsets,
 * the keyboard's media keys); null clears it. Browsers without the API are left alone.
 */
export function updateMediaSession(
  song: LiveSong | null,
  apiUrl: string,
  handlers: { play: () => void; pause: () => void },
) {
  if (typeof navigator === "undefined" || !("mediaSession" in navigator)) return;
  const session = navigator.mediaSession;
  session.metadata = song ? new MediaMetadata(mediaMetadataOf(song, apiUrl)) : null;
  session.setActionHandler("play", song ? handlers.play : null);
  session.setActionHandler("pause", song ? handlers.pause : null);
  session.playbackState = song ? "playing" : "none";
}

/** The play/pause state the system shows. */
export function mediaSessionPlaying(playing: boolean) {
  if (typeof navigator === "undefined" || !("mediaSession" in navigator) || !navigator.mediaSession.metadata) return;
  navigator.mediaSession.playbackState = playing ? "playing" : "paused";
}
