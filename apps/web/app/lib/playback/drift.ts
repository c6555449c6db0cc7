/**
 * Keeping a listener's audio where the room is (#21: two browsers hear the same moment within 150 ms). A seek lands
 * late by however long the element takes to resume, and it is audible; so a small drift is steered away instead:
 * the element plays a little faster or slower (pitch kept: `preservesPitch` is on by default) until it is back on
 * the room's clock. Only a large one (a stall, a tab that slept) is jumped over.
 */
export const STEERING = {
  /** Closer than this (seconds) is in step: normal speed. */
  tolerance: 0.015,
  /** The drift is steered away over about this long (seconds): each correction takes back 1 / horizon a second. */
  horizon: 2,
  /** The most the speed changes (5%: a semitone is 6%; a short stretch of it is hard to hear). */
  maxChange: 0.05,
  /** Further than this (seconds) is jumped over with a seek. */
  jump: 1.5,
} as const;

/** The playback rate for an element `drift` seconds ahead of the room (negative: behind); 1 when in step. */
export function rateFor(drift: number): number {
  if (Math.abs(drift) < STEERING.tolerance) return 1;
  const change = Math.min(Math.max(drift / STEERING.horizon, -STEERING.maxChange), STEERING.maxChange);
  return 1 - change;
}

/** Brings a playing element towards `roomPosition` (seconds): a new rate, or a seek when it is far off. */
export function steer(audio: HTMLMediaElement, roomPosition: number) {
  const drift = audio.currentTime - roomPosition;
  if (Math.abs(drift) > STEERING.jump) {
    audio.playbackRate = 1;
    audio.currentTime = roomPosition;
    return;
  }
  const rate = rateFor(drift);
  if (audio.playbackRate !== rate) audio.playbackRate = rate;
}
