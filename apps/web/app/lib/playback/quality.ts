import type HlsType from "hls.js";

export type AudioQuality = "low" | "medium" | "high";

/**
 * The bit rate each audio-quality setting names: the renditions the edge transcodes every upload to (AAC at 64, 128
 * and 256 kb/s; the edge's upload service, audio.ts RENDITIONS). hls.js reads a level's bit rate from the master
 * playlist's BANDWIDTH, which adds the container's share (about a tenth) to these.
 */
export const QUALITY_BITRATE: Record<AudioQuality, number> = { low: 64_000, medium: 128_000, high: 256_000 };

/**
 * The level of a song's HLS that plays for a listener's quality: the one whose bit rate is nearest the setting's
 * (by ratio, so 70 kb/s is nearer 64 than 128 is; a tie goes to the lighter). A song with one rendition plays it
 * whatever the setting; -1 when there is no level.
 */
export function levelFor(quality: AudioQuality, levels: readonly { bitrate: number }[]): number {
  const target = QUALITY_BITRATE[quality];
  let best = -1;
  let bestDistance = Number.POSITIVE_INFINITY;
  levels.forEach((level, index) => {
    const distance = Math.abs(Math.log(Math.max(level.bitrate, 1) / target));
    const lighter = best >= 0 && level.bitrate < (levels[best]?.bitrate ?? 0);
    if (distance < bestDistance - 1e-9 || (Math.abs(distance - bestDistance) <= 1e-9 && lighter)) {
      best = index;
      bestDistance = distance;
    }
  });
  return best;
}

/**
 * Plays the listener's quality on an hls.js player whose manifest is parsed: the level is pinned (hls.js's bandwidth
 * estimate does not pick another: the listener chose), as the first one loaded when nothing is yet, else from the
 * next segment on, without cutting what is buffered.
 */
export function applyQuality(hls: HlsType, quality: AudioQuality) {
  const level = levelFor(quality, hls.levels);
  if (level < 0) return;
  hls.startLevel = level;
  hls.nextLevel = level;
}
