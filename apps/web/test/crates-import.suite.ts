/**
 * Playlist import on the crates page: a YouTube playlist link (the edge's local fake provider) becomes a crate named
 * after it, with a progress line that updates until the import ends, then a link to the new crate.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { changeAnswered, expectText, shot, suiteStack } from "./harness.ts";
import { type SignedUp, signedUp, suiteFakeProviders } from "./harness-b.ts";

const stack = suiteStack({ songs: 0 });
const fake = suiteFakeProviders(stack);
let ana: SignedUp;
beforeAll(async () => {
  ana = await signedUp(stack, "Ana");
}, 300_000);

const video = (id: string, title: string) => ({
  id,
  snippet: { title, channelTitle: "Lumen - Topic", publishedAt: "2023-01-02T00:00:00Z", thumbnails: {} },
  contentDetails: { duration: "PT3M" },
});

describe("playlist import", { timeout: 180_000 }, () => {
  it("turns a playlist link into a crate, with a progress line, then links to the crate", async () => {
    const { page, errors } = ana;
    const videoIds = Array.from({ length: 120 }, (_, i) => `web${String(i).padStart(8, "0")}`);
    // Two of them are private or deleted: the playlist lists them, YouTube does not give them.
    for (const [i, id] of videoIds.entries())
      if (i !== 5 && i !== 70) fake.youtubeVideos.set(id, video(id, `Session ${i}`));
    fake.youtubePlaylists.set("PLweb", { title: "Studio sessions", videoIds });

    await page.goto("/crates");
    await expectText(page, "[data-testid=playlist-import] h2", "Import a playlist");

    // A link that is not a playlist: the edge's reason, and nothing started.
    await page.fill("[data-testid=playlist-link]", "https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    const refused = changeAnswered(page);
    await page.click("[data-testid=import-playlist]");
    await refused;
    await expectText(
      page,
      "[data-testid=playlist-import] [data-testid=form-error]",
      "This is not a Spotify, YouTube or SoundCloud playlist link.",
    );

    // YouTube answers slowly here, so the import is seen under way.
    fake.control.delayMs = 400;
    await page.fill("[data-testid=playlist-link]", "https://www.youtube.com/playlist?list=PLweb");
    const started = changeAnswered(page);
    await page.click("[data-testid=import-playlist]");
    await started;
    await expectText(page, "[data-testid=playlist-import-status]", /^Importing “Studio sessions”: \d+ of 120 tracks/);
    expect(page.url()).toMatch(/\/crates\?import=[0-9a-f-]{36}$/);
    expect(await page.locator("[data-testid=playlist-import-status] progress").count()).toBe(1);
    fake.control.delayMs = 0;

    await expectText(
      page,
      "[data-testid=playlist-import-status] span",
      "“Studio sessions” is imported: 118 tracks, 2 skipped.",
      120_000,
    );
    await expectText(page, "[data-testid=playlist-import-status]", /2 of 120 tracks could not be imported\./);
    // The new crate is in the list below, named after the playlist.
    await expectText(page, "[data-testid=crate-list]", /Studio sessions/);
    await shot(page, "crates-import");

    const importUrl = new URL(page.url()).pathname + new URL(page.url()).search;
    await page.click("[data-testid=playlist-import-crate]");
    await page.waitForURL(/\/crates\/[0-9a-f-]{36}$/);
    await expectText(page, "h1", "Studio sessions");
    await expectText(page, "body", /118 songs/);
    expect(errors).toEqual([]);

    // Someone else opening the same address sees nothing of Ana's import.
    const ben = await signedUp(stack, "Ben");
    await ben.page.goto(importUrl);
    await expectText(ben.page, "[data-testid=playlist-import] [data-testid=form-error]", "Playlist import not found.");
    expect(await ben.page.locator("[data-testid=playlist-import-status]").count()).toBe(0);
    expect(ben.errors).toEqual([]);
  });
});
