/**
 * The room that never falls silent, and the idle DJ's warning, in the browser. The rooms run at a quarter of the time
 * (BOOTH_TIME_SCALE, as demos do): songs play a quarter of their length and a one-minute idle rule takes 15 s, warned
 * at half of it.
 */
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { changeAnswered, expectCount, expectText, shot, suiteStack } from "./harness.ts";
import { asUser, type SignedUp, signedUp } from "./harness-b.ts";

const stack = suiteStack({ songs: 4, songSeconds: 60, timeScale: 0.25 });
beforeAll(async () => {
  // Songs of a minute and more: a quarter of that (15 s) leaves a loaded machine time to show each one.
}, 300_000);

/** A room made over REST by someone signed up in the browser, who is on its page. */
async function ownRoom(owner: SignedUp, body: Record<string, unknown>) {
  const as = await asUser(stack, owner.uuid);
  const created = await as("POST", "/api/room-service/rooms/infrastructure", { type: "PUBLIC", ...body });
  expect(created.status).toBe(201);
  return { room: created.body as { uuid: string; slug: string }, as };
}

/** Someone signed up in the browser who owns a new room (made over REST) and one new playlist. */
async function ownerWithCrate(nickname: string, roomName: string, crateName: string) {
  const owner = await signedUp(stack, nickname);
  const { room, as } = await ownRoom(owner, { name: roomName });
  const crate = await as("POST", "/api/playlist-service/crate", { name: crateName });
  return { owner, room, as, crateUuid: crate.body.crateUuid as string };
}

describe("the room crate", { timeout: 240_000 }, () => {
  it("lets the owner pick a room crate in the room, and an empty booth plays it until a DJ takes a seat", async () => {
    const { owner, room, as, crateUuid } = await ownerWithCrate("Crate Owner", "Never Silent", "Warm-up");
    const songs = await stack.t.db.select().from(schema.songs).orderBy(schema.songs.trackName).limit(3);
    await as("POST", `/api/playlist-service/crate/${crateUuid}/songs`, {
      songIds: songs.slice(0, 2).map((s) => s.id),
    });
    const { page, errors } = owner;
    await page.goto(`/rooms/${room.slug}`);
    await expectText(page, "[data-testid=connection]", /in the room/, 20_000);
    await expectText(page, "[data-testid=now-playing]", /Nothing is playing/i);
    // The owner picks the crate: saved, and the empty booth plays its first song, as the room's.
    const saved = changeAnswered(page);
    await page.selectOption("[data-testid=room-crate-select]", crateUuid);
    expect((await saved).status()).toBe(200);
    await expectText(page, "[data-testid=room-crate-saved]", /plays from this crate/, 20_000);
    await expectText(page, "[data-testid=track-name]", songs[0]!.trackName, 40_000);
    await expectCount(page, "[data-testid=played-by-room]", 1);
    await expectCount(page, "[data-testid=take-seat]", 1);
    await shot(page, "room-crate");
    // The next song of the crate follows when this one ends (a quarter of its length here).
    await expectText(page, "[data-testid=track-name]", songs[1]!.trackName, 30_000);

    // The owner takes a seat with a song queued: the room's song ends and theirs plays.
    await as("POST", "/api/playlist-service/crate/special/queue/songs", { songIds: [songs[2]!.id] });
    await page.click("[data-testid=take-seat]");
    await expectText(page, "[data-testid=track-name]", songs[2]!.trackName, 20_000);
    await expectCount(page, "[data-testid=played-by-room]", 0);
    // The room keeps the owner's pick.
    const [stored] = await stack.t.db.select().from(schema.rooms).where(eq(schema.rooms.uuid, room.uuid));
    expect(stored?.roomCrateId).toBe(crateUuid);
    expect(errors).toEqual([]);
  });
});

describe("idle DJs", { timeout: 240_000 }, () => {
  it("warns a seated DJ who does nothing, and I'm here keeps their seat", async () => {
    const dj = await signedUp(stack, "Idle Dj");
    const { room } = await ownRoom(dj, { name: "Wake Up", idleDjMinutes: 1 });
    const { page, errors } = dj;
    await page.goto(`/rooms/${room.slug}`);
    await expectText(page, "[data-testid=connection]", /in the room/, 20_000);
    // Seated with an empty queue: not playing, so the idle clock runs.
    await page.click("[data-testid=take-seat]");
    await expectCount(page, "[data-testid=leave-booth]", 1, 20_000);
    await expectText(page, "[data-testid=idle-warning]", /idle in the booth/, 30_000);
    await expectCount(page, "[data-testid=idle-stay]", 1);
    // At once: the warning lasts seconds at this time scale, less than a screenshot's checks take under load.
    await page.click("[data-testid=idle-stay]");
    await expectCount(page, "[data-testid=idle-warning]", 0);
    // The clock started again from the click: the next warning comes, and the seat was kept past the first one's end.
    await expectText(page, "[data-testid=idle-warning]", /idle in the booth/, 30_000);
    await expectCount(page, "[data-testid=leave-booth]", 1);
    await shot(page, "room-idle-warning");
    // Left alone this time, they leave the booth.
    await expectCount(page, "[data-testid=take-seat]", 1, 30_000);
    await expectCount(page, "[data-testid=idle-warning]", 0);
    expect(errors).toEqual([]);
  });
});

describe("the song picker", { timeout: 240_000 }, () => {
  it("keeps the room on screen when the page reloads its data while the picker is still asking for songs", async () => {
    const { owner, room, crateUuid } = await ownerWithCrate("Picker Owner", "Picker Room", "Picks");
    const { page, errors } = owner;
    // The picker asks for songs as the room opens. Its first question is held back, and meanwhile the page reloads
    // its data (a setting saved here does; so does every new song). A router that had to find the picker's route
    // first answered that with a 404 page, and the person was out of the room.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route(/song-picker/, async (route) => {
      await held;
      await route.continue();
    });
    const asked = page.waitForRequest(/song-picker/);
    await page.goto(`/rooms/${room.slug}`);
    await expectText(page, "[data-testid=connection]", /in the room/, 20_000);
    await asked;
    const saved = changeAnswered(page);
    await page.selectOption("[data-testid=room-crate-select]", crateUuid);
    expect((await saved).status()).toBe(200);
    await expectText(page, "[data-testid=room-crate-saved]", /plays from this crate/, 20_000);
    release();
    await expectCount(page, "[data-testid=song-results] li", 4, 20_000);
    await expectCount(page, ".error-page", 0);
    await expectText(page, "[data-testid=connection]", /in the room/);
    expect(errors).toEqual([]);
  });
});

describe("a failed reload of the room's data", { timeout: 240_000 }, () => {
  it("keeps the person in the room: the live connection stays, and the room comes back with a retry", async () => {
    const { owner, room, crateUuid } = await ownerWithCrate("Reload Owner", "Reload Room", "Reloads");
    const { page, errors } = owner;
    const sockets: string[] = [];
    page.on("websocket", (ws) => {
      sockets.push("opened");
      ws.on("close", () => sockets.push("closed"));
    });
    await page.goto(`/rooms/${room.slug}`);
    await expectText(page, "[data-testid=connection]", /in the room/, 20_000);
    expect(sockets).toEqual(["opened"]);
    // The room's next data reload fails (the web server or the edge unreachable for a moment); what the page logs
    // of that failure is not held against it.
    let failing = true;
    const before = errors.length;
    await page.route(/\/rooms\/reload-room\.data\?_routes=routes%2Frooms/, (route) =>
      failing ? route.fulfill({ status: 502, body: "" }) : route.continue(),
    );
    const saved = changeAnswered(page);
    await page.selectOption("[data-testid=room-crate-select]", crateUuid);
    expect((await saved).status()).toBe(200);
    await expectCount(page, "[data-testid=room-error]", 1, 20_000);
    // Still in the room: nothing closed, and the connection is the same one.
    failing = false;
    const after = errors.length;
    await page.click("[data-testid=room-error-retry]");
    await expectText(page, "[data-testid=connection]", /in the room/, 20_000);
    await expectText(page, "[data-testid=room-crate-saved]", /plays from this crate/, 20_000);
    expect(sockets).toEqual(["opened"]);
    expect([...errors.slice(0, before), ...errors.slice(after)]).toEqual([]);
  });
});

describe("what a new song changes on the room's page", { timeout: 240_000 }, () => {
  it("answers the recently played and the viewer's own queue, and the edge's refusal of a room as it said it", async () => {
    const { owner, room, as } = await ownerWithCrate("After Owner", "After Room", "Afters");
    const [song] = await stack.t.db.select().from(schema.songs).orderBy(schema.songs.trackName).limit(1);
    await as("POST", "/api/playlist-service/crate/special/queue/songs", { songIds: [song!.id] });
    const { page, errors } = owner;
    await page.goto(`/rooms/${room.slug}`);
    await expectText(page, "[data-testid=connection]", /in the room/, 20_000);
    const ask = (path: string) =>
      page.evaluate(async (url) => {
        const res = await fetch(url, { headers: { accept: "application/json" } });
        return { status: res.status, body: await res.json() };
      }, path);
    const mine = await ask(`/rooms/${room.slug}/after-song`);
    expect(mine.status).toBe(200);
    expect(mine.body.recent).toEqual([]);
    expect(mine.body.queue.map((s: { songId: string }) => s.songId)).toEqual([song!.id]);
    // A visitor reads the same room's recently played, and no one's queue.
    const visitor = await fetch(`${stack.webUrl}/rooms/${room.slug}/after-song`);
    expect(visitor.status).toBe(200);
    expect(await visitor.json()).toEqual({ recent: [], queue: [], queueReadAt: expect.any(Number) });
    // No such room, or a key of the wrong shape: the edge's 404 and 400, not an empty answer.
    expect((await ask("/rooms/no-such-room-here/after-song")).status).toBe(404);
    expect((await ask(`/rooms/${"x".repeat(101)}/after-song`)).status).toBe(400);
    expect(errors).toEqual([]);
  });
});
