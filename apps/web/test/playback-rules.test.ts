import { describe, expect, it } from "vitest";
import { rateFor, STEERING, steer } from "../app/lib/playback/drift.ts";
import { levelFor } from "../app/lib/playback/quality.ts";

describe("the level a quality plays", () => {
  // hls.js's levels of an upload: the master playlist's BANDWIDTH (the bit rate and the container's share).
  const upload = [{ bitrate: 70_400 }, { bitrate: 140_800 }, { bitrate: 281_600 }];

  it("is the upload's rendition of the same name", () => {
    expect(levelFor("low", upload)).toBe(0);
    expect(levelFor("medium", upload)).toBe(1);
    expect(levelFor("high", upload)).toBe(2);
  });

  it("is the nearest by bit rate in a playlist listed in another order or with other renditions", () => {
    const shuffled = [{ bitrate: 281_600 }, { bitrate: 70_400 }, { bitrate: 140_800 }];
    expect(levelFor("low", shuffled)).toBe(1);
    expect(levelFor("high", shuffled)).toBe(0);
    const two = [{ bitrate: 96_000 }, { bitrate: 320_000 }];
    expect(levelFor("low", two)).toBe(0);
    expect(levelFor("medium", two)).toBe(0);
    expect(levelFor("high", two)).toBe(1);
  });

  it("is the only one of a song transcoded before renditions, and none without levels", () => {
    for (const quality of ["low", "medium", "high"] as const) expect(levelFor(quality, [{ bitrate: 176_000 }])).toBe(0);
    expect(levelFor("medium", [])).toBe(-1);
  });

  it("goes to the lighter of two as near", () => {
    // 128 kb/s is as far (by ratio) from 64 as from 256.
    expect(levelFor("medium", [{ bitrate: 256_000 }, { bitrate: 64_000 }])).toBe(1);
  });
});

describe("steering a listener back to the room's clock", () => {
  it("plays faster when behind, slower when ahead, in proportion, within 5%, and at normal speed when in step", () => {
    expect(rateFor(0)).toBe(1);
    expect(rateFor(0.01)).toBe(1);
    expect(rateFor(-0.1)).toBeCloseTo(1.05);
    expect(rateFor(-0.06)).toBeCloseTo(1.03);
    expect(rateFor(0.06)).toBeCloseTo(0.97);
    expect(rateFor(-1)).toBe(1 + STEERING.maxChange);
    expect(rateFor(1)).toBe(1 - STEERING.maxChange);
  });

  it("closes a drift within a few corrections, one a second, without overshooting", () => {
    let drift = -0.2; // a seek that landed 200 ms late
    const seen: number[] = [];
    for (let second = 0; second < 8; second++) {
      drift += rateFor(drift) - 1; // a second of audio at that rate
      seen.push(drift);
    }
    expect(seen.every((d) => d <= 0)).toBe(true);
    expect(Math.abs(seen[5] ?? 1)).toBeLessThan(0.03);
  });

  it("jumps over a large drift at normal speed, and leaves a small one to the rate", () => {
    const audio = { currentTime: 10, playbackRate: 1 } as HTMLMediaElement;
    steer(audio, 13);
    expect(audio).toMatchObject({ currentTime: 13, playbackRate: 1 });
    steer(audio, 13.1);
    expect(audio.currentTime).toBe(13);
    expect(audio.playbackRate).toBeCloseTo(1.05);
  });
});
