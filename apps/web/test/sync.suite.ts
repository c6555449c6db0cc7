/**
 * Sync (#21): two browsers in one room hear the same moment within 150 ms of each other. Two listeners (one signed
 * in, one a visitor) play the room's HLS upload; each page's position is read with its own clock (the machine's,
 * which the room's server runs on too) against where the room says the song is (its nowPlaying end time and
 * duration, as the web computes it: playback/position.ts). The gap between the two, sampled while both play, is
 * printed and must stay under 150 ms.
 */
import { schema } from "@booth/db";
import type { NowPlaying } from "@booth/sdk/live";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { eventually, expectText, suiteStack } from "./harness.ts";
import { audioOf, listener, roomWithDj } from "./listening.ts";

const stack = suiteStack({ songs: 1, songSeconds: 90 });

/** The page's audio position and the time it read it (epoch ms, the page's own clock), in one task of the page. */
const position = (page: Page) =>
  page.$eval("[data-testid=room-audio]", (a) => {
    const audio = a as HTMLAudioElement;
    return { at: Date.now(), time: audio.currentTime, paused: audio.paused };
  });

/** How far ahead of the room a page plays, in ms (negative: behind), by the room's clock. */
function lead(sample: { at: number; time: number }, nowPlaying: NowPlaying) {
  const duration = nowPlaying.song.duration || (nowPlaying.endTime - nowPlaying.startTime) / 1000;
  const roomPosition = duration - (nowPlaying.endTime - sample.at) / 1000;
  return (sample.time - roomPosition) * 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

describe("two listeners in sync", { timeout: 240_000 }, () => {
  it("hear the same moment of an HLS upload within 150 ms of each other", async () => {
    const [track] = await stack.t.db.select().from(schema.songs).limit(1);
    const { room, client } = await roomWithDj(stack, "Sync DJ", { name: "Lockstep" }, [track!.id]);
    // One signed in, one a visitor: a visitor's player starts before the live join, on the clock the page's render
    // estimated (room-session.tsx, EarlyPlay), someone signed in once the join has admitted them.
    const a = await listener(stack, "Left Ear");
    const b = await stack.person();
    for (const { page } of [a, b]) {
      await page.goto(`/rooms/${room.slug}`);
      await expectText(page, "[data-testid=track-name]", track!.trackName, 20_000);
    }
    for (const { page } of [a, b])
      await eventually(async () => expect((await audioOf(page)).time).toBeGreaterThan(2), 20_000);
    const nowPlaying = client.state?.nowPlaying;
    if (!nowPlaying) throw new Error("the room plays nothing");
    // Where each is once both play (a seek to the room's position lands late by the time the element takes to
    // resume), then after the player has steered for a while (8 s of each one's audio).
    const [fa, fb] = await Promise.all([position(a.page), position(b.page)]);
    const first = { a: lead(fa, nowPlaying), b: lead(fb, nowPlaying) };
    await eventually(async () => expect((await position(a.page)).time).toBeGreaterThan(fa.time + 8), 30_000);
    await eventually(async () => expect((await position(b.page)).time).toBeGreaterThan(fb.time + 8), 30_000);

    // Samples while both play: each page read at once, each against the room's clock.
    const gaps: number[] = [];
    const leads: { a: number; b: number }[] = [];
    for (let i = 0; i < 20; i++) {
      const [sa, sb] = await Promise.all([position(a.page), position(b.page)]);
      expect(sa.paused || sb.paused).toBe(false);
      const pair = { a: lead(sa, nowPlaying), b: lead(sb, nowPlaying) };
      leads.push(pair);
      gaps.push(Math.abs(pair.a - pair.b));
      await a.page.waitForTimeout(250);
    }
    const gap = median(gaps);
    const ms = (x: number) => `${x.toFixed(0)} ms`;
    console.log(
      `sync: the two listeners' gap ${ms(gap)} (median of ${gaps.length} samples over 5 s; ${ms(Math.min(...gaps))} to ${ms(Math.max(...gaps))}); ` +
        `each against the room's clock ${ms(median(leads.map((l) => l.a)))} and ${ms(median(leads.map((l) => l.b)))}; ` +
        `at first sound ${ms(first.a)} and ${ms(first.b)} (a gap of ${ms(Math.abs(first.a - first.b))})`,
    );
    expect(gap).toBeLessThan(150);
    client.close();
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });
});
