/**
 * Audio quality that does something (#21): an upload plays as one HLS master playlist of three renditions, and the
 * listener's quality setting picks the one hls.js loads: the rendition's playlist and its segments, at once when
 * the setting changes, and again after a reload (the setting is kept with the listener's session).
 */
import { schema } from "@booth/db";
import { describe, expect, it } from "vitest";
import { eventually, expectText, suiteStack } from "./harness.ts";
import { audioOf, listener, playlistAnswers, roomWithDj, segmentRenditions } from "./listening.ts";

const stack = suiteStack({ songs: 4, songSeconds: 60 });

/**
 * The playlists that were served. The page may ask for the master before the live room has told the edge the listener
 * is in (a 403 the player retries); such a refusal of the master is allowed, any other is not.
 */
function answered(playlists: { rendition: string | null; status: number }[]) {
  const refused = playlists.filter((p) => p.status !== 200);
  expect(refused.every((p) => p.rendition === null && p.status === 403)).toBe(true);
  return playlists.filter((p) => p.status === 200);
}

describe("audio quality", { timeout: 240_000 }, () => {
  it("plays the rendition of the listener's quality, and another as soon as they choose it", async () => {
    const [track] = await stack.t.db.select().from(schema.songs).limit(1);
    const { client } = await roomWithDj(stack, "Quality DJ", { name: "Hi Fi" }, [track!.id]);
    const { page, errors } = await listener(stack, "Audiophile");
    const playlists = playlistAnswers(page);
    const segments = segmentRenditions(page);
    await page.goto("/rooms/hi-fi");
    await expectText(page, "[data-testid=track-name]", track!.trackName, 20_000);
    await eventually(async () => expect((await audioOf(page)).time).toBeGreaterThan(1), 20_000);

    // The default, medium: the master, then the medium rendition alone, with the listener's token.
    expect(await page.inputValue("[data-testid=quality]")).toBe("medium");
    expect(answered(playlists)).toEqual([
      { rendition: null, status: 200 },
      { rendition: "medium", status: 200 },
    ]);
    expect(new Set(segments)).toEqual(new Set(["medium"]));

    // High: hls.js loads the high rendition's playlist and its segments from then on, and the song plays on.
    const before = segments.length;
    await page.selectOption("[data-testid=quality]", "high");
    await eventually(() => expect(playlists).toContainEqual({ rendition: "high", status: 200 }), 20_000);
    await eventually(() => expect(segments.slice(before)).toContain("high"), 20_000);
    expect(segments.slice(before)).not.toContain("low");
    const playing = (await audioOf(page)).time;
    await eventually(async () => expect((await audioOf(page)).time).toBeGreaterThan(playing + 1), 40_000);
    expect((await audioOf(page)).paused).toBe(false);

    // Low, kept with the session: after a reload only the low rendition is loaded.
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST" && /\.data/.test(r.url())),
      page.selectOption("[data-testid=quality]", "low"),
    ]);
    await eventually(() => expect(playlists).toContainEqual({ rendition: "low", status: 200 }), 20_000);
    playlists.length = 0;
    segments.length = 0;
    await page.reload();
    await eventually(async () => expect((await audioOf(page)).time).toBeGreaterThan(1), 20_000);
    expect(await page.inputValue("[data-testid=quality]")).toBe("low");
    expect(answered(playlists).map((p) => p.rendition)).toEqual([null, "low"]);
    expect(new Set(segments)).toEqual(new Set(["low"]));
    client.close();
    expect(errors).toEqual([]);
  });
});
