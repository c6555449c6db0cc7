/**
 * What a person sees (#35): a full booth on a phone shows the DJ playing and every seat, on the screen and with no
 * sideways scrolling.
 */
import { schema } from "@booth/db";
import { LiveRoomClient } from "@booth/sdk/live";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { MAX_DJ_SEATS } from "../../edge/src/services/room/rooms.ts";
import { expectCount, PHONE, shot, suiteStack } from "./harness.ts";
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
});
