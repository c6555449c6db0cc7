import type { NowPlaying } from "@booth/sdk/live";

/**
 * Where the song is now, in seconds (spec 4: from the duration and the end time, with the server's clock): a song of
 * `duration` seconds ending at `endTime` (room clock) is at `duration - (endTime - roomNow) / 1000`.
 */
export function playbackOffset(nowPlaying: NowPlaying, clockOffsetMs: number, localNow = Date.now()) {
  const roomNow = localNow + clockOffsetMs;
  const duration = nowPlaying.song.duration || (nowPlaying.endTime - nowPlaying.startTime) / 1000;
  const offset = duration - (nowPlaying.endTime - roomNow) / 1000;
  return Math.min(Math.max(offset, 0), duration);
}

/** The share of the song played, 0..1, by the room's clock. */
export function playbackProgress(nowPlaying: NowPlaying, clockOffsetMs: number, localNow = Date.now()) {
  const span = nowPlaying.endTime - nowPlaying.startTime;
  if (span <= 0) return 0;
  return Math.min(Math.max((localNow + clockOffsetMs - nowPlaying.startTime) / span, 0), 1);
}

/** 245 -> "4:05"; 3725 -> "1:02:05"; days too (spec 5: days, hours, minutes, seconds). */
export function formatDuration(seconds: number) {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const secs = String(s % 60).padStart(2, "0");
  if (days) return `${days}d ${hours}:${String(minutes).padStart(2, "0")}:${secs}`;
  if (hours) return `${hours}:${String(minutes).padStart(2, "0")}:${secs}`;
  return `${minutes}:${secs}`;
}
