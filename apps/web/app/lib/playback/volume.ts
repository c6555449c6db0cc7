/** The listener's volume, remembered per browser (localStorage). */
export interface Volume {
  /** 0..1 */
  level: number;
  muted: boolean;
}

export const DEFAULT_VOLUME: Volume = { level: 1, muted: false };
const KEY = "booth.volume";

/** What this browser remembered, or full volume; anything unreadable counts as nothing remembered. */
export function readVolume(storage: Pick<Storage, "getItem"> | null): Volume {
  try {
    const kept = JSON.parse(storage?.getItem(KEY) ?? "null") as Partial<Volume> | null;
    const level = Number(kept?.level);
    if (!kept || !Number.isFinite(level)) return DEFAULT_VOLUME;
    return { level: Math.min(Math.max(level, 0), 1), muted: kept.muted === true };
  } catch {
    return DEFAULT_VOLUME;
  }
}

export function writeVolume(storage: Pick<Storage, "setItem"> | null, volume: Volume) {
  try {
    storage?.setItem(KEY, JSON.stringify(volume));
  } catch {
    // A browser that keeps nothing (private mode, full storage) forgets it: the volume still applies now.
  }
}
