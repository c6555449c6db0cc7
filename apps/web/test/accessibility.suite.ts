/**
 * Everyone can use it (issue 22): a skip link first, every control reached by Tab shows where the keyboard is, a
 * form works from the keyboard alone, and a person who asks for less motion gets none. axe-core and the 390 px check
 * run on every screenshot (harness.ts `shot`).
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectCount, expectText, shot, suiteStack } from "./harness.ts";

const stack = suiteStack({ songs: 4 });

/** What the keyboard is on, and whether a person can see it there (an outline or a ring). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const e = document.activeElement as HTMLElement | null;
    if (!e || e === document.body) return null;
    const style = getComputedStyle(e);
    const ring =
      (style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0) || style.boxShadow !== "none";
    const box = e.getBoundingClientRect();
    return {
      what: `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ""} "${(e.textContent ?? e.getAttribute("aria-label") ?? "").trim().slice(0, 30)}"`,
      ring,
      onScreen: box.bottom > 0 && box.top < window.innerHeight && box.width > 0,
    };
  });

describe("everyone can use it", { timeout: 120_000 }, () => {
  it("starts with a skip link to the content, and shows the keyboard's place on every control of a screen", async () => {
    const { page, errors } = await stack.person();
    for (const path of ["/", "/search", "/login", "/signup"]) {
      await page.goto(path);
      await expectCount(page, "main h1", 1);
      await page.keyboard.press("Tab");
      const first = await focused(page);
      expect(first?.what, path).toMatch(/^a "Skip to content"/);
      expect(first?.onScreen, `${path}: the skip link shows when it has the focus`).toBe(true);
      // Through the whole screen: every stop is visible where it is.
      const seen: string[] = [];
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press("Tab");
        const now = await focused(page);
        if (!now) break;
        expect(now.ring, `${path}: ${now.what} shows no focus`).toBe(true);
        if (seen.includes(now.what) && now.what === seen[0]) break;
        seen.push(now.what);
      }
      expect(seen.length, path).toBeGreaterThan(3);
    }
    // The skip link takes the keyboard past the header, into the page.
    await page.goto("/search");
    await expectCount(page, "main h1", 1);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");
    expect(errors).toEqual([]);
  });

  it("searches the catalogue from the keyboard alone", async () => {
    const { page, errors } = await stack.person();
    await page.goto("/search");
    await expectCount(page, "main h1", 1);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    // From the start of the content, Tab reaches the search field.
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type === "search")) break;
    }
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe("search");
    await page.keyboard.type("zzz-nothing-matches");
    await Promise.all([page.waitForURL(/q=zzz-nothing-matches/), page.keyboard.press("Enter")]);
    await expectText(page, "[data-testid=search-total]", /^0 songs/);
    expect(errors).toEqual([]);
  });

  it("moves nothing for a person who asks for reduced motion", async () => {
    const { page } = await stack.person({ motion: true });
    await page.goto("/");
    await expectCount(page, "main h1", 1);
    const transition = () =>
      page.evaluate(() => getComputedStyle(document.querySelector(".btn") as Element).transitionDuration);
    expect(await transition()).not.toMatch(/^(0s|1e-05s)$/);
    await page.emulateMedia({ reducedMotion: "reduce" });
    expect(await transition()).toBe("0s");
    await shot(page, "rooms-reduced-motion");
  });
});
