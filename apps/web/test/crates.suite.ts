/**
 * Search and crates in the browser: the debounced search, adding songs to the queue and a crate, a crate's reorder
 * (at once, and put back when the server refuses), remove, shuffle, rename, track import with its messages, delete.
 */
import { randomUUID } from "node:crypto";
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { changeAnswered, eventually, expectCount, expectText, shot, suiteStack } from "./harness.ts";
import { type SignedUp, signedUp } from "./harness-b.ts";

const stack = suiteStack({ songs: 4 });
let ana: SignedUp;
beforeAll(async () => {
  ana = await signedUp(stack, "Ana");
}, 300_000);

const titles = (page: Page) => page.locator("[data-testid=crate-song] [data-testid=song-title]").allTextContents();

describe("search", { timeout: 120_000 }, () => {
  it("lists the catalogue, searches as you type (debounced) and queues a song", async () => {
    const { page, errors } = ana;
    await page.goto("/search");
    await expectText(page, "h1", "Search");
    await expectText(page, "[data-testid=search-heading]", "The catalogue");
    await expectCount(page, "[data-testid=search-result]", 4);

    // One search for the whole word, after the typing stops.
    const searches: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/search.data")) searches.push(r.url());
    });
    await page.locator("[data-testid=search-input]").pressSequentially("synth", { delay: 40 });
    await expectText(page, "[data-testid=search-heading]", "Results for “synth”");
    await expectCount(page, "[data-testid=search-result]", 1);
    await expectText(page, "[data-testid=search-result] [data-testid=song-title]", "Harbor I");
    expect(page.url()).toContain("q=synth");
    expect(searches.length).toBe(1);

    await page.click("[data-testid=search-result] [data-testid=add-to-queue]");
    await expectText(page, "[data-testid=search-result] [data-testid=add-to-queue]", /In your queue/);
    await shot(page, "search");

    await page.fill("[data-testid=search-input]", "zzzz");
    await expectText(page, "[data-testid=search-empty]", /Nothing matches “zzzz”/);
    expect(errors).toEqual([]);
  });

  it("goes where a link clicked during the typing's pause leads, not back to the search", async () => {
    const { page, errors } = ana;
    await page.goto("/search");
    await expectCount(page, "[data-testid=search-result]", 4);
    const searches: string[] = [];
    const record = (r: { url(): string }) => {
      if (r.url().includes("/search.data")) searches.push(r.url());
    };
    page.on("request", record);
    // The crates page's data is held until the search's pause is over, as on a slow network.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/crates.data*", async (route) => {
      await held;
      await route.continue();
    });
    // The link is clicked in the same moment as the last key, well inside the search's 300 ms pause after it; a
    // timer set then fires after the search's pending one would have: by then no search was asked.
    await page.evaluate(async () => {
      const input = document.querySelector<HTMLInputElement>("[data-testid=search-input]");
      const link = document.querySelector<HTMLAnchorElement>("header a[href='/crates']");
      if (!input || !link) throw new Error("no search box or crates link");
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set?.call(input, "harbor");
      input.dispatchEvent(new Event("input", { bubbles: true }));
      link.click();
      await new Promise((resolve) => setTimeout(resolve, 400));
    });
    release();
    await page.waitForURL(/\/crates$/);
    await expectText(page, "h1", "Crates");
    await page.unroute("**/crates.data*");
    page.off("request", record);
    expect(searches).toEqual([]);
    expect(new URL(page.url()).pathname).toBe("/crates");
    expect(errors).toEqual([]);
  });
});

describe("crates", { timeout: 180_000 }, () => {
  it("creates a crate, fills it from the search, reorders it, and puts a refused move back", async () => {
    const { page, errors } = ana;
    page.on("dialog", (d) => void d.accept());
    await page.goto("/crates");
    await expectText(page, "h1", "Crates");
    await page.fill("#crate-name", "Late Night");
    await Promise.all([page.waitForURL(/\/crates\/[0-9a-f-]{36}$/), page.click("[data-testid=create-crate]")]);
    const crateUrl = new URL(page.url()).pathname;
    await expectText(page, "[data-testid=crate-title]", "Late Night");
    await expectText(page, "[data-testid=crate-count]", /^0 songs/);

    // Every catalogue song into the crate, from the search screen.
    await page.goto("/search");
    await expectCount(page, "[data-testid=search-result]", 4);
    for (let i = 0; i < 4; i++) {
      const row = page.locator("[data-testid=search-result]").nth(i);
      await row.locator("[data-testid=crate-choice]").selectOption({ label: "Late Night" });
      // Shown as added at once: the next add waits for the edge's answer, so the crate keeps the order of the clicks.
      const added = changeAnswered(page, /\/search\.data/);
      await row.locator("[data-testid=add-to-crate]").click();
      await expectText(page, `[data-testid=search-result] >> nth=${i} >> [data-testid=add-to-crate]`, /Added/);
      await added;
    }

    // Added twice: shown as added at once, then put back with the edge's reason.
    await page.reload();
    const again = page.locator("[data-testid=search-result]").first();
    await again.locator("[data-testid=crate-choice]").selectOption({ label: "Late Night" });
    await again.locator("[data-testid=add-to-crate]").click();
    await expectText(page, "[data-testid=add-error]", "This song is already in the crate.");
    await expectText(page, "[data-testid=search-result] >> nth=0 >> [data-testid=add-to-crate]", "Add");

    await page.goto(crateUrl);
    await expectCount(page, "[data-testid=crate-song]", 4);
    const first = await titles(page);
    expect(first).toEqual(["Orbit I", "Tide I", "Dawn I", "Harbor I"]);

    // A move shows at once and stays after a reload. (Each change waits for the edge's answer before the next, as
    // a person would: `networkidle` is only the page's first load, and on a loaded machine a reload or the next
    // click could overtake the change.)
    const saved = () => changeAnswered(page, /\/crates\/.+\.data/);
    const answered = saved();
    await page.locator("[data-testid=crate-song] >> nth=0 >> [data-testid=move-down]").click();
    expect(await titles(page)).toEqual(["Tide I", "Orbit I", "Dawn I", "Harbor I"]);
    await answered;
    await page.reload();
    await expectCount(page, "[data-testid=crate-song]", 4);
    expect(await titles(page)).toEqual(["Tide I", "Orbit I", "Dawn I", "Harbor I"]);

    // The server refuses the next move (it names a song no longer in the crate): the order goes back.
    let armed = true;
    await page.route(/\/crates\/.+\.data/, async (route) => {
      const request = route.request();
      const body = request.postData() ?? "";
      if (armed && request.method() === "POST" && body.includes("intent=move")) {
        armed = false;
        const form = new URLSearchParams(body);
        form.set("crateSongUuid", randomUUID());
        await new Promise((r) => setTimeout(r, 400));
        await route.continue({ postData: form.toString() });
      } else await route.continue();
    });
    await page.locator("[data-testid=crate-song] >> nth=3 >> [data-testid=move-up]").click();
    expect(await titles(page)).toEqual(["Tide I", "Orbit I", "Harbor I", "Dawn I"]);
    await expectText(
      page,
      "[data-testid=crate-notice]",
      "The song could not be moved: This song is not in the crate. It is back where it was.",
    );
    expect(await titles(page)).toEqual(["Tide I", "Orbit I", "Dawn I", "Harbor I"]);
    await shot(page, "crate-rollback");
    await page.unroute(/\/crates\/.+\.data/);

    // Drag and drop: the last song to the top.
    await Promise.all([
      saved(),
      page.dragAndDrop("[data-testid=crate-song] >> nth=3", "[data-testid=crate-song] >> nth=0"),
    ]);
    await eventually(async () => expect((await titles(page))[0]).toBe("Harbor I"));

    // Remove one, shuffle, rename.
    await Promise.all([
      saved(),
      page.locator("[data-testid=crate-song] >> nth=1 >> [data-testid=remove-song]").click(),
    ]);
    await expectCount(page, "[data-testid=crate-song]", 3);
    await expectText(page, "[data-testid=crate-count]", /^3 songs/);
    await Promise.all([saved(), page.click("[data-testid=shuffle]")]);
    await expectCount(page, "[data-testid=crate-song]", 3);
    await page.click("[data-testid=rename]");
    await page.fill("[data-testid=rename-form] input[name=name]", "Late Night Drive");
    await page.click("[data-testid=rename-save]");
    await expectText(page, "[data-testid=crate-title]", "Late Night Drive");
    expect(errors).toEqual([]);
  });

  it("imports track links and says why each one that was not imported was left out", async () => {
    const { page, errors } = ana;
    await page.goto("/crates");
    await page.click("[data-testid=crate-card][data-kind=default]");
    await page.waitForURL(/\/crates\/[0-9a-f-]{36}$/);
    await expectCount(page, "[data-testid=crate-song]", 3);
    const present = await titles(page);
    const songs = await stack.t.db.select().from(schema.songs);
    const missing = songs.find((s) => !present.includes(s.trackName));
    if (!missing) throw new Error("every song is in the crate");
    await page.fill(
      "[data-testid=import-links]",
      [
        `${stack.webUrl}/songs/${missing.id}`,
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC",
        "not a link",
      ].join("\n"),
    );
    await page.click("[data-testid=import-submit]");
    await expectText(page, "[data-testid=import-result] .alert", "1 track imported.");
    const skipped = await page.locator("[data-testid=import-skipped] span").allTextContents();
    expect(skipped).toEqual([
      "Sorry, this song does not have any supported music providers to import from.",
      "Sorry, this song is not in our catalog and can't be imported.",
      "This is not a track link we know.",
    ]);
    await expectCount(page, "[data-testid=crate-song]", 4);
    await shot(page, "crate");
    expect(errors).toEqual([]);
  });

  it("shows the queue and likes crates, and deletes a crate", async () => {
    const { page, errors } = ana;
    await page.goto("/crates");
    await expectCount(page, "[data-testid=crate-card]", 3);
    await shot(page, "crates");
    await page.click("[data-testid=crate-card][data-kind=queue]");
    await page.waitForURL(/\/crates\/queue$/);
    await expectText(page, "[data-testid=crate-title]", "Queue");
    await expectText(page, "[data-testid=crate-song] [data-testid=song-title]", "Harbor I");
    await expectText(page, "[data-testid=crate-song] .pill-live", "Up next");

    await page.goto("/crates");
    await page.click("[data-testid=crate-card][data-kind=default]");
    await page.waitForURL(/\/crates\/[0-9a-f-]{36}$/);
    await Promise.all([page.waitForURL(/\/crates$/), page.click("[data-testid=delete-crate]")]);
    await expectCount(page, "[data-testid=crate-card]", 2);
    const left = await stack.t.db.select().from(schema.crates).where(eq(schema.crates.userUuid, ana.uuid));
    expect(left.map((c) => c.kind).sort()).toEqual(["likes", "queue"]);
    expect(errors).toEqual([]);
  });
});
