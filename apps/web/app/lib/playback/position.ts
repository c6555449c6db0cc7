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

/**
 * How far (seconds) a player may stray from the room before it is moved back: the platform's own audio element seeks
 * cheaply and precisely; the providers' embedded players seek to a keyframe or a buffered chunk and rebuffer, so a
 * tighter limit would have them seek over and over.
 */
export const DRIFT_LIMIT = { media: 1.5, embedded: 2 } as const;

/** Once sound first comes out, a player this far (seconds) from the room is moved to it: loading took some time. */
export const START_TOLERANCE = 0.25;

/**
 * Where to move a player that is at `playerAt` while the room is at `roomAt` (seconds), or null to leave it: beyond
 * `limit` it goes where the room is. A player that cannot say where it is (null) is left alone.
 */
export function driftSeek(playerAt: number | null, roomAt: number, limit: number): number | null {
  if (playerAt === null || !Number.isFinite(playerAt)) return null;
  return Math.abs(playerAt - roomAt) > limit ? roomAt : null;
}

/** The first correction, once the player plays (join, or a new song): anything beyond START_TOLERANCE. */
export const startSeek = (playerAt: number | null, roomAt: number) => driftSeek(playerAt, roomAt, START_TOLERANCE);
