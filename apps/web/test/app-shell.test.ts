/**
 * Issue #15's browser test: the room plays on while a person browses the app. A listener in a room with a playing DJ
 * follows the header's link to their crates: the music keeps playing, a bar at the bottom shows the song and the
 * room, and the DJ still sees them in the audience after the grace period; the bar's link leads back to the room,
 * still on the same song, and its button leaves the room (the bar goes, the music stops, the audience empties).
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { emailFor, eventually, expectCount, expectText, newRoom, shot, signUpVerified, suiteStack } from "./harness.ts";
import { uuidOf } from "./harness-b.ts";
import { audioOf } from "./listening.ts";

/**
 * How long a disconnected person keeps their place: shorter than the production default (20 s), as the test waits it
 * out twice; what it shows (browsing longer than that keeps the person in the room) holds for any length.
 */
const GRACE_MS = 6_000;
/** Short songs: the way back to the room waits for the start of one. */
const SONG_SECONDS = 18;

const stack = suiteStack({ songs: 4, songSeconds: SONG_SECONDS, graceMs: GRACE_MS });

/** The audio plays on: its position advances by more than a second over 1.5 s (retried across a song's change). */
async function expectPlaying(page: Page) {
  await eventually(async () => {
    const before = await audioOf(page);
    await page.waitForTimeout(1500);
    const after = await audioOf(page);
    expect(after.paused).toBe(false);
    expect(after.time).toBeGreaterThan(before.time + 1);
  }, 20_000);
}

describe("the app shell", { timeout: 300_000 }, () => {
  it("keeps the room playing while the listener browses, with a bar back to it and a way out", async () => {
    const dj = await stack.person();
    const listener = await stack.person();
    const djEmail = emailFor("shelldj");
    const listenerEmail = emailFor("shelllistener");

    // A DJ plays in their new room, four songs queued.
    await signUpVerified(stack, dj.page, { nickname: "Shell DJ", email: djEmail });
    await newRoom(dj.page, "Shell Session", "shell-session");
    await expectCount(dj.page, "[data-testid=song-results] li", 4, 20_000);
    for (let i = 0; i < 4; i++) {
      await dj.page.locator("[data-testid=queue-add]:not([disabled])").first().click();
      await expectCount(dj.page, "[data-testid=queue-song]", i + 1);
    }
    await dj.page.click("[data-testid=take-seat]");
    const djUuid = await uuidOf(stack, djEmail);
    await expectCount(dj.page, `[data-testid=dj][data-uuid="${djUuid}"][data-playing]`, 1, 20_000);

    // The listener joins and hears it; no bar on the room's own page.
    await signUpVerified(stack, listener.page, { nickname: "Shell Listener", email: listenerEmail });
    await listener.page.goto("/rooms/shell-session");
    await expectText(listener.page, "[data-testid=connection]", /in the room/, 20_000);
    await expectPlaying(listener.page);
    await expectCount(listener.page, "[data-testid=now-playing-bar]", 0);
    const listenerUuid = await uuidOf(stack, listenerEmail);
    const inAudience = `[data-testid=listener][data-uuid="${listenerUuid}"]`;
    await expectCount(dj.page, inAudience, 1, 10_000);

    // To the crates by the header's link: the page changes in place (the mark on the window survives), the room's
    // screen is gone, and the music plays on.
    await listener.page.evaluate(() => {
      (window as unknown as { shellMark: string }).shellMark = "same page";
    });
    await Promise.all([listener.page.waitForURL(/\/crates$/), listener.page.click("header nav a[href='/crates']")]);
    await expectCount(listener.page, "[data-testid=room]", 0);
    expect(await listener.page.evaluate(() => (window as unknown as { shellMark?: string }).shellMark)).toBe(
      "same page",
    );
    await expectPlaying(listener.page);

    // The bar shows the song the room plays (the DJ's page names it too), its artist, and the room.
    await expectCount(listener.page, "[data-testid=now-playing-bar]", 1);
    await eventually(async () => {
      const [playing, shown] = await Promise.all([
        dj.page.locator("[data-testid=track-name]").textContent(),
        listener.page.locator("[data-testid=bar-track]").textContent(),
      ]);
      expect(shown?.trim()).toBeTruthy();
      expect(shown?.trim()).toBe(playing?.trim());
    });
    expect((await listener.page.locator("[data-testid=bar-artist]").textContent())?.trim()).toBeTruthy();
    await expectText(listener.page, "[data-testid=bar-room]", "Shell Session");
    expect(await listener.page.locator("[data-testid=bar-back]").getAttribute("href")).toBe("/rooms/shell-session");
    await shot(listener.page, "now-playing-bar");

    // Longer than the grace period away from the room's page: still in the audience, the DJ still playing, the
    // music still going.
    const awaySince = Date.now();
    await listener.page.waitForTimeout(GRACE_MS + 5000);
    expect(Date.now() - awaySince).toBeGreaterThan(GRACE_MS);
    await expectCount(dj.page, inAudience, 1, 1000);
    await expectCount(dj.page, `[data-testid=dj][data-uuid="${djUuid}"][data-playing]`, 1, 1000);
    await expectPlaying(listener.page);

    // Back by the bar's link, early in a song (so it cannot end on the way): the same song, at the same place.
    await eventually(async () => {
      const { time, paused } = await audioOf(listener.page);
      expect(paused).toBe(false);
      expect(time).toBeGreaterThan(1);
      expect(time).toBeLessThan(SONG_SECONDS - 12);
    }, SONG_SECONDS * 2000);
    const song = (await listener.page.locator("[data-testid=bar-track]").textContent())?.trim() ?? "";
    const before = await audioOf(listener.page);
    await Promise.all([
      listener.page.waitForURL(/\/rooms\/shell-session$/),
      listener.page.click("[data-testid=bar-back]"),
    ]);
    await expectText(listener.page, "[data-testid=track-name]", song);
    await expectText(listener.page, "[data-testid=connection]", /in the room/);
    const after = await audioOf(listener.page);
    expect(after.paused).toBe(false);
    expect(after.src).toBe(before.src);
    expect(after.time).toBeGreaterThanOrEqual(before.time);
    await expectCount(listener.page, "[data-testid=now-playing-bar]", 0);
    expect(await listener.page.evaluate(() => (window as unknown as { shellMark?: string }).shellMark)).toBe(
      "same page",
    );

    // Away again, then the bar's button leaves the room: the bar goes, the music stops, and once the room lets the
    // closed connection go (its grace period) the DJ's audience is empty.
    await Promise.all([listener.page.waitForURL(/\/crates$/), listener.page.click("header nav a[href='/crates']")]);
    await expectCount(listener.page, "[data-testid=now-playing-bar]", 1);
    await listener.page.click("[data-testid=bar-leave]");
    await expectCount(listener.page, "[data-testid=now-playing-bar]", 0);
    await eventually(async () => expect((await audioOf(listener.page)).paused).toBe(true), 20_000);
    const stopped = await audioOf(listener.page);
    await listener.page.waitForTimeout(1500);
    expect((await audioOf(listener.page)).time).toBe(stopped.time);
    await expectCount(dj.page, inAudience, 0, GRACE_MS + 15_000);
    await expectCount(dj.page, `[data-testid=dj][data-uuid="${djUuid}"][data-playing]`, 1, 1000);

    expect(dj.errors).toEqual([]);
    expect(listener.errors).toEqual([]);
  });
});
