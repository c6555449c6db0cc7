/**
 * The room's song picker at a DJ's pace (#35): five songs clicked as fast as the page lets, on a page whose CPU is
 * slowed four times, are all queued in the order they were clicked, and no other "+ Add" waits for them; an add the
 * edge refuses says why under the song and leaves its button usable; a song taken out of the queue goes at once.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { eventually, expectCount, expectText, newRoom, suiteStack } from "./harness.ts";
import { asUser, type SignedUp, signedUpAll } from "./harness-b.ts";

const stack = suiteStack({ songs: 6 });
let dj: SignedUp;
beforeAll(async () => {
  [dj] = await signedUpAll(stack, "Quick Hands");
}, 300_000);

const queued = (page: SignedUp["page"]) => page.locator("[data-testid=queue-song] strong").allTextContents();

/** The queued song of that exact title. */
const queuedSong = (page: SignedUp["page"], title: string) =>
  page.locator("[data-testid=queue-song]").filter({
    has: page.locator("strong", { hasText: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) }),
  });

describe("the song picker", { timeout: 180_000 }, () => {
  it("queues five songs clicked in a row, in their order, while every other song stays ready to add", async () => {
    const { page, errors } = dj;
    await newRoom(page, "Quick Picks", "quick-picks");
    await expectCount(page, "[data-testid=song-result]", 6, 20_000);
    const rows = page.locator("[data-testid=song-result]");
    // The page four times slower, as on a cheap phone or a busy machine.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    // Nothing loads the room's page again for an add (its data is six calls to the edge): each answer is the queue.
    const pageLoads: string[] = [];
    page.on("request", (r) => {
      if (/\.data(\?|$)/.test(r.url())) pageLoads.push(r.url());
    });
    // A read of the queue the page makes meanwhile (a new song's, or the page's data) reads it on the server at once,
    // but reaches the page only after the five adds have answered: read before the last adds, it must not hide them.
    let answeredAdds = 0;
    let allAnswered: () => void = () => {};
    const adds = new Promise<void>((done) => {
      allAnswered = done;
    });
    page.on("response", (r) => {
      if (r.request().method() === "POST" && new URL(r.url()).pathname === "/queue" && ++answeredAdds === 5)
        allAnswered();
    });
    await page.route(/\/after-song|\.data(\?|$)/, async (route) => {
      const response = await route.fetch();
      await adds;
      await route.fulfill({ response });
    });
    try {
      const picked: string[] = [];
      for (const i of [3, 0, 4, 1, 2]) {
        picked.push(((await rows.nth(i).locator("strong").textContent()) ?? "").trim());
        // A click waits only until this button can be clicked: the one asked for before may still be on its way.
        await rows.nth(i).locator("[data-testid=queue-add]").click({ timeout: 5000 });
      }
      // The song nobody picked was never held up by the others.
      expect(await rows.nth(5).locator("[data-testid=queue-add]").isEnabled()).toBe(true);
      await eventually(async () => expect(await queued(page)).toEqual(picked), 30_000);
      for (const i of [0, 1, 2, 3, 4]) {
        await expectText(page, `[data-testid=song-result] >> nth=${i} >> [data-testid=queue-add]`, "Queued");
        expect(await rows.nth(i).locator("[data-testid=queue-add]").isDisabled()).toBe(true);
      }
      expect(await rows.nth(5).locator("[data-testid=queue-add]").textContent()).toBe("+ Add");
      expect(pageLoads).toEqual([]);
      // The edge holds them in that order too.
      const asDj = await asUser(stack, dj.uuid);
      const kept = await asDj("GET", "/api/playlist-service/crate/special/queue/songs?limit=100");
      expect((kept.body as { trackName: string }[]).map((s) => s.trackName)).toEqual(picked);

      // Two taken out in a row: both go, the rest keeps its order.
      await queuedSong(page, picked[1] ?? "")
        .locator("button[aria-label=Remove]")
        .click();
      await queuedSong(page, picked[3] ?? "")
        .locator("button[aria-label=Remove]")
        .click();
      await eventually(async () => expect(await queued(page)).toEqual([picked[0], picked[2], picked[4]]), 30_000);
    } finally {
      allAnswered();
      await page.unroute(/\/after-song|\.data(\?|$)/);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    }
    expect(errors).toEqual([]);
  });

  it("says why an add was refused, under the song, and lets it be tried again", async () => {
    const { page, errors } = dj;
    await page.goto("/rooms/quick-picks");
    await expectText(page, "[data-testid=connection]", /in the room/, 20_000);
    // With songs queued the picker starts folded.
    await page.click("summary:has-text('Add songs')");
    await expectCount(page, "[data-testid=song-result]", 6, 20_000);
    const last = page.locator("[data-testid=song-result] >> nth=5");
    const songId = (await last.getAttribute("data-song-id")) ?? "";
    // Queued behind the page's back (another tab, the CLI): the edge refuses it a second time.
    const asDj = await asUser(stack, dj.uuid);
    const added = await asDj("POST", "/api/playlist-service/crate/special/queue/songs", { songIds: [songId] });
    expect(added.status).toBe(201);
    await last.locator("[data-testid=queue-add]").click();
    await expectText(page, "[data-testid=queue-add-error]", "This song is already in the crate.");
    expect(await last.locator("[data-testid=queue-add]").isEnabled()).toBe(true);
    // Taken out there, tried again here: now it is queued, and the refusal is gone.
    const queue = (await asDj("GET", "/api/playlist-service/crate/special/queue/songs?limit=100")).body as {
      songId: string;
      crateSongUuid: string;
    }[];
    const entry = queue.find((s) => s.songId === songId);
    expect(entry).toBeDefined();
    const removed = await asDj("DELETE", `/api/playlist-service/crate/special/queue/songs/${entry?.crateSongUuid}`);
    expect(removed.status).toBeLessThan(300);
    await last.locator("[data-testid=queue-add]").click();
    await expectText(page, "[data-testid=song-result] >> nth=5 >> [data-testid=queue-add]", "Queued");
    await expectCount(page, "[data-testid=queue-add-error]", 0);
    expect(errors).toEqual([]);
  });

  it("refuses a signed-out caller and a change that is not a form, and the queue stays as it was", async () => {
    const asDj = await asUser(stack, dj.uuid);
    const queueNow = async () =>
      (
        (await asDj("GET", "/api/playlist-service/crate/special/queue/songs?limit=100")).body as { songId: string }[]
      ).map((s) => s.songId);
    const before = await queueNow();
    const songId = (await dj.page.locator("[data-testid=song-result] >> nth=0").getAttribute("data-song-id")) ?? "";
    const cookie = (await dj.page.context().cookies())
      .filter((c) => c.name === "booth_session")
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
    expect(cookie).not.toBe("");
    const post = (body: BodyInit, headers: Record<string, string>) =>
      fetch(`${stack.web.url}/queue`, { method: "POST", body, headers: { origin: stack.web.url, ...headers } });

    const signedOut = await post(new URLSearchParams({ songId }), {});
    expect(signedOut.status).toBe(401);
    expect(((await signedOut.json()) as { error: string }).error).not.toBe("");

    for (const [body, type] of [
      [JSON.stringify({ songId }), "application/json"],
      ["songId", "text/plain"],
      [new URLSearchParams({ songIdx: songId }), "application/x-www-form-urlencoded"],
    ] as const) {
      const refused = await post(body, { cookie, "content-type": type });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        error: "Send a form with the song to add (songId) or the queued song to take out (crateSongUuid).",
      });
    }
    expect(await queueNow()).toEqual(before);
  });
});
