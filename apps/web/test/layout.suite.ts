/**
 * What a person sees (#35): a full booth on a phone shows the DJ playing and every seat, on the screen and with no
 * sideways scrolling; the header of a signed-in person (the most links) is one row from 1,024 px up, in English and
 * in Spanish (the longer labels), each link on one line, the less used links in a "More" group that the keyboard and
 * a click both open, scripts or none; on a phone the header's sections still scroll sideways and the group opens on
 * the screen.
 */
import { schema } from "@booth/db";
import { LiveRoomClient } from "@booth/sdk/live";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { MAX_DJ_SEATS } from "../../edge/src/services/room/rooms.ts";
import { expectCount, expectText, PHONE, shot, suiteStack } from "./harness.ts";
import { signedUp } from "./harness-b.ts";
import { roomWithDj } from "./listening.ts";

const stack = suiteStack({ songs: 4 });

/** Where each element matching `selector` is, and the page's width against the screen's. */
const boxesOf = (page: Page, selector: string) =>
  page.$$eval(selector, (elements) =>
    elements.map((e) => {
      const box = e.getBoundingClientRect();
      return { left: box.left, right: box.right, top: box.top, bottom: box.bottom, width: box.width };
    }),
  );
const pageWidth = (page: Page) =>
  page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, screen: window.innerWidth }));

/**
 * What the header shows, each visible control in order: its content box's height against one line box (its
 * line-height), where its box is, and whether it is one of the sections (the main navigation's links and More).
 */
const headerItems = (page: Page) =>
  page.$$eval("header.site-header :is(a, button, summary, .avatar)", (elements) =>
    elements
      .filter((e) => e.getClientRects().length > 0 && !e.closest(".nav-more-menu"))
      .map((e) => {
        const style = getComputedStyle(e);
        const box = e.getBoundingClientRect();
        const px = (value: string) => Number.parseFloat(value) || 0;
        const text = !e.matches(".avatar");
        const line = style.lineHeight === "normal" ? px(style.fontSize) * 1.25 : px(style.lineHeight);
        const content =
          box.height -
          px(style.paddingTop) -
          px(style.paddingBottom) -
          px(style.borderTopWidth) -
          px(style.borderBottomWidth);
        return {
          what: `${e.tagName.toLowerCase()} "${(e.textContent ?? "").trim()}"`,
          lines: text ? content / line : 1,
          section: e.closest(".main-nav") !== null,
          top: Math.round(box.top),
          middle: Math.round(box.top + box.height / 2),
          left: Math.round(box.left),
          right: Math.round(box.right),
        };
      }),
  );

/** From a page just loaded (the keyboard nowhere yet), Tab until the keyboard is on the "More" group's button. */
async function tabToMore(page: Page) {
  for (let presses = 1; presses <= 30; presses++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(() => document.activeElement?.matches(".nav-more > summary") ?? false)) return presses;
  }
  throw new Error("Tab never reached the header's More button");
}

/** Waits until the header's "More" group is open (or, with `false`, closed). */
const moreOpen = (page: Page, open = true) =>
  page.waitForFunction((open) => (document.querySelector(".nav-more") as HTMLDetailsElement).open === open, open);

describe("what a person sees", { timeout: 240_000 }, () => {
  it("shows the playing DJ and every seat of a full booth on a phone", async () => {
    const [track] = await stack.t.db.select().from(schema.songs).limit(1);
    const { room, client } = await roomWithDj(stack, "Seat One", { name: "Full Booth", numberOfDjs: MAX_DJ_SEATS }, [
      track!.id,
    ]);
    const clients = [client];
    try {
      for (let seat = 2; seat <= MAX_DJ_SEATS; seat++) {
        // Long names too: a seat's name is cut to the seat, never widens it.
        const dj = await stack.t.createUser({ nickname: seat % 3 ? `Seat ${seat}` : `Seat ${seat} with a long name` });
        const other = new LiveRoomClient({ url: stack.partyUrl, roomUuid: room.uuid, token: dj.token });
        clients.push(other);
        await other.connect();
        await other.addDj();
      }
      const { page, errors } = await stack.person();
      await page.setViewportSize(PHONE);
      await page.goto(`/rooms/${room.slug}`);
      await expectCount(page, "[data-testid=booth] [data-testid=dj]", MAX_DJ_SEATS, 20_000);
      await expectCount(page, "[data-testid=dj][data-playing]", 1, 20_000);

      const seats = await boxesOf(page, "[data-testid=booth] > li");
      expect(seats).toHaveLength(MAX_DJ_SEATS);
      const [playing] = await boxesOf(page, "[data-testid=dj][data-playing]");
      const stage = (await boxesOf(page, "[data-testid=stage]"))[0]!;
      for (const [i, seat] of [playing!, ...seats].entries()) {
        const what = i === 0 ? "the DJ playing" : `seat ${i}`;
        expect(seat.width, what).toBeGreaterThan(0);
        expect(seat.left, what).toBeGreaterThanOrEqual(Math.max(0, stage.left));
        expect(seat.right, what).toBeLessThanOrEqual(Math.min(PHONE.width, stage.right));
      }
      expect(await pageWidth(page)).toEqual({ scroll: PHONE.width, screen: PHONE.width });

      // On a desktop the same booth fits its stage too (the screenshots: room-full-booth.png and its -phone.png).
      await page.setViewportSize({ width: 1280, height: 860 });
      const wide = await boxesOf(page, "[data-testid=booth] > li");
      const wideStage = (await boxesOf(page, "[data-testid=stage]"))[0]!;
      for (const [i, seat] of wide.entries()) {
        expect(seat.left, `seat ${i + 1} at 1280 px`).toBeGreaterThanOrEqual(wideStage.left);
        expect(seat.right, `seat ${i + 1} at 1280 px`).toBeLessThanOrEqual(wideStage.right);
      }
      await shot(page, "room-full-booth");
      expect(errors).toEqual([]);
    } finally {
      for (const c of clients) c.close();
    }
  });

  it("keeps a signed-in person's header on one row from 1,024 px up, in English and Spanish, with More by keyboard and click", async () => {
    const person = await signedUp(stack, "Maximiliana de la Fuente");
    const { page, errors } = person;
    for (const lang of ["en", "es"] as const) {
      await page.goto(`/search?lang=${lang}`);
      await expectText(page, "main h1", lang === "en" ? "Search" : "Buscar");
      for (const width of [1024, 1284]) {
        await page.setViewportSize({ width, height: 800 });
        const items = await headerItems(page);
        // The brand, the sections, More, the languages, the avatar and Log out: all there.
        expect(items.length, `${lang} at ${width} px`).toBeGreaterThanOrEqual(10);
        const where = `${lang} at ${width} px: ${JSON.stringify(items)}`;
        // Each on one line: its content as high as one line box (two lines would be twice that).
        for (const item of items) expect(item.lines, `${item.what} (${where})`).toBeLessThan(1.5);
        // One row: the sections share a top, and every control's middle is on one line across the header.
        const tops = items.filter((i) => i.section).map((i) => i.top);
        expect(Math.max(...tops) - Math.min(...tops), where).toBeLessThanOrEqual(2);
        const middles = items.map((i) => i.middle);
        expect(Math.max(...middles) - Math.min(...middles), where).toBeLessThanOrEqual(4);
        // Side by side, in order, none over another; nothing cut on the right, and no sideways scrolling.
        for (const [i, item] of items.entries())
          if (i > 0)
            expect(item.left, `${item.what} over the one before (${where})`).toBeGreaterThanOrEqual(
              items[i - 1]!.right,
            );
        expect(Math.max(...items.map((i) => i.right)), where).toBeLessThanOrEqual(width);
        expect(await pageWidth(page)).toEqual({ scroll: width, screen: width });
      }
      // The group, by keyboard and by click: in English at 1,024 px, in Spanish at 1,284 px.
      await page.setViewportSize({ width: lang === "en" ? 1024 : 1284, height: 800 });

      // By keyboard: Tab to More, Enter opens it, Tab reaches its first link, Escape closes it and the keyboard stays.
      await tabToMore(page);
      await moreOpen(page, false);
      await page.keyboard.press("Enter");
      await moreOpen(page);
      await page.keyboard.press("Tab");
      const first = await page.evaluate(() => document.activeElement?.getAttribute("href"));
      expect(first).toBe("/upload");
      expect(await page.evaluate(() => document.activeElement?.closest(".nav-more-menu") !== null)).toBe(true);
      await page.keyboard.press("Escape");
      await moreOpen(page, false);
      expect(await page.evaluate(() => document.activeElement?.matches(".nav-more > summary"))).toBe(true);
      // Tab on past its last link closes it; Shift+Tab comes back to More.
      await page.keyboard.press("Enter");
      const grouped = await page.locator(".nav-more-menu a").count();
      for (let i = 0; i < grouped; i++) await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.closest(".nav-more-menu") !== null)).toBe(true);
      await page.keyboard.press("Tab");
      await moreOpen(page, false);
      await page.keyboard.press("Shift+Tab");
      expect(await page.evaluate(() => document.activeElement?.matches(".nav-more > summary"))).toBe(true);
      // Enter on a grouped link goes there, and the group closes behind it.
      await page.keyboard.press("Enter");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.getAttribute("href"))).toBe("/communities");
      await Promise.all([page.waitForURL(/\/communities$/), page.keyboard.press("Enter")]);
      await moreOpen(page, false);
      // The group says where the person is when the page is one of its links.
      expect(await page.getAttribute(".nav-more > summary", "class")).toMatch(/\bactive\b/);

      // By click: More, then Shop.
      await page.click(".nav-more > summary");
      await moreOpen(page);
      await Promise.all([page.waitForURL(/\/shop$/), page.click(".nav-more-menu a[href='/shop']")]);
      await expectText(page, "main h1", lang === "en" ? "Token shop" : "Tienda de fichas");
      await moreOpen(page, false);
      // A click elsewhere closes an open group.
      await page.click(".nav-more > summary");
      await moreOpen(page);
      await page.click("footer.site-footer");
      await moreOpen(page, false);
    }
    // What it looks like open, at 1,024 px in Spanish (and on a phone: header-more-es-phone.png).
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.click(".nav-more > summary");
    await moreOpen(page);
    await shot(page, "header-more-es");
    expect(errors).toEqual([]);
  });

  it("opens More without scripts too", async () => {
    const context = await stack.browser.newContext({
      baseURL: stack.webUrl,
      viewport: { width: 1024, height: 800 },
      javaScriptEnabled: false,
    });
    try {
      const page = await context.newPage();
      await page.goto("/search");
      await expectText(page, "main h1", "Search");
      // A guest's group: the events, the shop and the ranking.
      expect(
        await page.locator(".nav-more-menu a").evaluateAll((links) => links.map((a) => a.getAttribute("href"))),
      ).toEqual(["/events", "/shop", "/ranking"]);
      await page.click(".nav-more > summary");
      await moreOpen(page);
      await Promise.all([page.waitForURL(/\/ranking$/), page.click(".nav-more-menu a[href='/ranking']")]);
      await expectText(page, "main h1", "Season ranking");
    } finally {
      await context.close();
    }
  });

  it("keeps the phone's header working: the sections scroll sideways and More opens on the screen", async () => {
    const { page, errors } = await signedUp(stack, "Phone Header");
    await page.setViewportSize(PHONE);
    await page.goto("/search");
    await expectText(page, "main h1", "Search");
    // The sections' row scrolls sideways of its own; the page does not.
    const row = await page.$eval(".main-nav .nav-links", (e) => ({
      overflow: getComputedStyle(e).overflowX,
      right: e.getBoundingClientRect().right,
    }));
    expect(row.overflow).toBe("auto");
    expect(row.right).toBeLessThanOrEqual(PHONE.width);
    expect(await pageWidth(page)).toEqual({ scroll: PHONE.width, screen: PHONE.width });
    // A section at the end of the row is reached and followed.
    await Promise.all([page.waitForURL(/\/messages$/), page.click(".main-nav a[href='/messages']")]);
    // More opens on the screen, every link of it inside the screen, and leads where it points.
    await page.click(".nav-more > summary");
    await moreOpen(page);
    const links = await boxesOf(page, ".nav-more-menu a");
    expect(links.length).toBeGreaterThanOrEqual(5);
    for (const link of links) {
      expect(link.left).toBeGreaterThanOrEqual(0);
      expect(link.right).toBeLessThanOrEqual(PHONE.width);
      expect(link.bottom).toBeLessThanOrEqual(PHONE.height);
    }
    expect(await pageWidth(page)).toEqual({ scroll: PHONE.width, screen: PHONE.width });
    await shot(page, "header-more-phone");
    await Promise.all([page.waitForURL(/\/events$/), page.click(".nav-more-menu a[href='/events']")]);
    expect(errors).toEqual([]);
  });
});
