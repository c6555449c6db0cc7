/**
 * The browser test: two people sign up; one creates a room, queues songs and takes a seat; the other joins
 * and hears the same song at the same position, likes it, stars it (it lands in their likes crate) and chats; the
 * first sees the vote and the message; a reload keeps the seat.
 */
import { schema } from "@booth/db";
import { beforeAll, describe, expect, it } from "vitest";
import {
  changeAnswered,
  emailFor,
  eventually,
  expectCount,
  expectText,
  newRoom,
  shot,
  signUpVerified,
  suiteStack,
} from "./harness.ts";
import { uuidOf } from "./harness-b.ts";
import { audioOf, listener, roomWithDj } from "./listening.ts";

const stack = suiteStack({ songs: 4, songSeconds: 60 });
beforeAll(async () => {
  // Songs long enough that the first one still plays when the second person arrives on a loaded machine.
}, 300_000);

/** A text as a regular expression that matches it exactly. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("a room for two", { timeout: 240_000 }, () => {
  it("plays the same song at the same place for both, carries votes, stars and chat, and keeps the seat on reload", async () => {
    const dj = await stack.person();
    const listener = await stack.person();
    const djEmail = emailFor("dj");
    const listenerEmail = emailFor("listener");

    // The DJ signs up, verifies, creates a room and queues two songs from the catalogue.
    await signUpVerified(stack, dj.page, { nickname: "Deejay", email: djEmail });
    await dj.page.goto("/rooms/new");
    await dj.page.fill("#name", "Friday Night Booth");
    await dj.page.fill("#description", "Chords and drones, all night.");
    await dj.page.click("label:has(input[value=UNDERGROUND])");
    await shot(dj.page, "create-room");
    await Promise.all([dj.page.waitForURL(/\/rooms\/friday-night-booth/), dj.page.click("main button[type=submit]")]);
    await expectText(dj.page, "[data-testid=connection]", /in the room/, 20_000);
    await expectCount(dj.page, "[data-testid=song-results] li", 4, 20_000);
    for (let i = 0; i < 3; i++) {
      await dj.page.locator("[data-testid=queue-add]:not([disabled])").first().click();
      await expectCount(dj.page, "[data-testid=queue-song]", i + 1);
    }
    await dj.page.click("[data-testid=take-seat]");
    const djUuid = await uuidOf(stack, djEmail);
    await expectCount(dj.page, `[data-testid=dj][data-uuid="${djUuid}"][data-playing]`, 1, 20_000);
    const track = (await dj.page.locator("[data-testid=track-name]").textContent())?.trim();
    expect(track).toBeTruthy();
    // The DJ picks the last queued song to play next: the room looks it up by its ids and shows it.
    const last = (await dj.page.locator("[data-testid=queue-song] strong").nth(2).textContent())?.trim() ?? "";
    await dj.page.locator("[data-testid=queue-song] [data-testid=play-next]").nth(2).click();
    await expectText(dj.page, "[data-testid=next-song]", new RegExp(literally(last)));
    await eventually(async () => expect((await audioOf(dj.page)).time).toBeGreaterThan(1), 20_000);

    // The listener finds the room in the list and joins: same song, same place.
    await signUpVerified(stack, listener.page, { nickname: "Listener", email: listenerEmail });
    await listener.page.goto("/");
    await expectCount(listener.page, "[data-testid=room-card][data-slug=friday-night-booth]", 1);
    await shot(listener.page, "rooms");
    await listener.page.click("[data-testid=room-card][data-slug=friday-night-booth] a >> nth=1");
    await listener.page.waitForURL(/\/rooms\/friday-night-booth/);
    await expectText(listener.page, "[data-testid=track-name]", track ?? "", 20_000);
    // A screen reader hears the song (a polite live region) and reads the chat as a log.
    await expectText(
      listener.page,
      "[data-testid=song-announcer]",
      new RegExp(`^Now playing: ${literally(track ?? "")} by `),
    );
    expect(await listener.page.getAttribute("[data-testid=chat-messages]", "role")).toBe("log");
    await eventually(async () => expect((await audioOf(listener.page)).time).toBeGreaterThan(1), 20_000);
    // It plays on: the position moves more than a second past where it was.
    const first = await audioOf(listener.page);
    await eventually(async () => {
      const later = await audioOf(listener.page);
      expect(later.paused).toBe(false);
      expect(later.time).toBeGreaterThan(first.time + 1);
    }, 20_000);
    await eventually(async () => {
      const [a, b] = await Promise.all([audioOf(dj.page), audioOf(listener.page)]);
      expect(Math.abs(a.time - b.time)).toBeLessThan(1);
    }, 10_000);

    // A like and a star: the DJ sees the votes; the star puts the song in the listener's likes crate.
    await listener.page.click("[data-testid=like]");
    await expectText(dj.page, "[data-testid=vote-counts]", /^1 like · 0 dislikes · 0 stars$/);
    await listener.page.click("[data-testid=star]");
    await expectText(dj.page, "[data-testid=vote-counts]", /1 star$/);
    await expectText(listener.page, "[data-testid=room-notice]", "Added to your likes");
    const listenerUuid = await uuidOf(stack, listenerEmail);
    await eventually(async () => {
      const likes = await stack.t.request("GET", "/api/playlist-service/crate/special/likes/songs", {
        token: await stack.t.tokenFor(listenerUuid),
      });
      expect(likes.status).toBe(200);
      expect((likes.body as { trackName: string }[]).map((s) => s.trackName)).toContain(track);
    });

    // Names lead to profiles: the DJ's in the booth, the listener's in the audience and, below, in the chat.
    expect(
      await listener.page
        .locator(`[data-testid=dj][data-uuid="${djUuid}"] [data-testid=profile-link]`)
        .getAttribute("href"),
    ).toBe(`/users/${djUuid}`);
    expect(
      await dj.page
        .locator(`[data-testid=listener][data-uuid="${listenerUuid}"] [data-testid=profile-link]`)
        .getAttribute("href"),
    ).toBe(`/users/${listenerUuid}`);

    // The chat's placeholder is read whole, and the DJ's catalogue search is as wide as its panel.
    const placeholder = await listener.page.locator("[data-testid=chat-input]").evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const context = document.createElement("canvas").getContext("2d");
      if (!context) return { text: 0, room: 0 };
      context.font = style.font;
      const padding = Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight);
      return { text: context.measureText(input.placeholder).width, room: input.clientWidth - padding };
    });
    expect(placeholder.text).toBeLessThanOrEqual(placeholder.room);
    const search = await dj.page.locator("[data-testid=song-search]").evaluate((input: HTMLElement) => ({
      input: input.getBoundingClientRect().width,
      panel: (input.parentElement as HTMLElement).getBoundingClientRect().width,
    }));
    expect(search.input).toBeGreaterThan(search.panel * 0.95);

    // Chat, with a mention of the DJ.
    await listener.page.fill("[data-testid=chat-input]", "What a tune @Deejay!");
    await listener.page.click("[data-testid=chat-send]");
    await expectText(dj.page, "[data-testid=chat-text]", /What a tune @Deejay!/);
    await expectCount(dj.page, "[data-testid=chat-message] mark", 1);
    expect(
      await dj.page
        .locator(`[data-testid=chat-message][data-author="${listenerUuid}"] [data-testid=profile-link]`)
        .getAttribute("href"),
    ).toBe(`/users/${listenerUuid}`);
    await listener.page.click("button:has-text('🔥')");
    await expectCount(dj.page, "[data-testid=reaction]", 1, 10_000);
    await shot(listener.page, "room-listener");
    await shot(dj.page, "room-dj", { fullPage: true });

    // A reload keeps the DJ's seat and the music.
    await dj.page.reload();
    await expectText(dj.page, "[data-testid=connection]", /in the room/, 20_000);
    await expectCount(dj.page, `[data-testid=dj][data-uuid="${djUuid}"][data-playing]`, 1);
    await expectText(dj.page, "[data-testid=track-name]", track ?? "");
    await eventually(async () => expect((await audioOf(dj.page)).time).toBeGreaterThan(1), 20_000);
    await expectText(dj.page, "[data-testid=chat-text]", /What a tune/);

    expect(dj.errors).toEqual([]);
    expect(listener.errors).toEqual([]);
  });

  it("lets guests listen, the author edit a message for 20 s, and the owner mute someone and pin a message", async () => {
    const owner = await stack.person();
    const member = await stack.person();
    const guest = await stack.person();
    const ownerEmail = emailFor("owner");
    const memberEmail = emailFor("member");
    await signUpVerified(stack, owner.page, { nickname: "Owner", email: ownerEmail });
    await newRoom(owner.page, "Moderated Lounge", "moderated-lounge");

    await signUpVerified(stack, member.page, { nickname: "Member", email: memberEmail });
    await member.page.goto("/rooms/moderated-lounge");
    await member.page.fill("[data-testid=chat-input]", "helo everyone");
    await member.page.click("[data-testid=chat-send]");
    await expectText(owner.page, "[data-testid=chat-text]", /helo everyone/);
    await member.page.click("[data-testid=chat-message] button:has-text('Edit')");
    await member.page.fill("[data-testid=chat-edit-input]", "hello everyone");
    await member.page.click("[data-testid=chat-message] button:has-text('Save')");
    await expectText(owner.page, "[data-testid=chat-text]", /hello everyone \(edited\)/);

    // A visitor without an account listens and reads, but is asked to log in to DJ or chat.
    await guest.page.goto("/rooms/moderated-lounge");
    await expectText(guest.page, "[data-testid=connection]", /in the room/, 20_000);
    await expectText(guest.page, "[data-testid=chat-text]", /hello everyone/);
    await expectCount(guest.page, "[data-testid=chat-input]", 0);
    await expectText(guest.page, "main a[href='/login']", /Log in/);
    await expectText(owner.page, "[data-testid=audience]", /1 guest/);
    await shot(guest.page, "room-guest");

    // The owner pins a message and mutes the member, whose next message is refused.
    await owner.page.fill("#pins", "Be kind. Play loud.");
    await owner.page.click("[data-testid=moderation] button:has-text('Save')");
    await expectText(member.page, "[data-testid=pinned] li", "Be kind. Play loud.");
    await owner.page.click("[data-testid=mod-person]:has-text('Member') button:has-text('Mute 10 min')");
    await eventually(async () => {
      await member.page.fill("[data-testid=chat-input]", "can I still talk?");
      await member.page.click("[data-testid=chat-send]");
      await expectText(member.page, "[data-testid=chat] .alert-error", "You cannot chat in this room right now.", 2000);
    }, 15_000);
    // The owner sees the mute in force beside the member, until when, and lifts it: the member may talk again.
    const mute = "[data-testid=mod-person]:has-text('Member') [data-testid=mod-sanction][data-role=chatDisabled]";
    await expectText(owner.page, mute, /Muted until/);
    await shot(owner.page, "room-moderation", { fullPage: true });
    await owner.page.click(`${mute} button:has-text('Lift')`);
    await expectCount(owner.page, mute, 0);
    await eventually(async () => {
      await member.page.fill("[data-testid=chat-input]", "back on the mic");
      await member.page.click("[data-testid=chat-send]");
      await owner.page
        .locator("[data-testid=chat-text]", { hasText: "back on the mic" })
        .first()
        .waitFor({ timeout: 2000 });
    }, 15_000);

    // Favourites: the star in the room header, then the favourites tab lists the room. (The star shows at once; the
    // test leaves the page only once the edge has answered, as leaving earlier may cancel the request.)
    const saved = changeAnswered(member.page, /\/rooms\/moderated-lounge\.data/);
    await member.page.click("button:has-text('Favourite')");
    await saved;
    await expectText(
      member.page,
      "header button:has-text('Favourited'), main button:has-text('Favourited')",
      /Favourited/,
    );
    await member.page.goto("/?tab=favorites");
    await expectCount(member.page, "[data-testid=room-card][data-slug=moderated-lounge]", 1);
    expect(owner.errors).toEqual([]);
    expect(member.errors).toEqual([]);
    expect(guest.errors).toEqual([]);
  });

  it("lets a guest hear the song of the room they are in", async () => {
    const dj = await stack.person();
    const guest = await stack.person();
    const email = emailFor("guestdj");
    await signUpVerified(stack, dj.page, { nickname: "Guest DJ", email });
    await newRoom(dj.page, "Open Doors", "open-doors");
    await expectCount(dj.page, "[data-testid=song-results] li", 4, 20_000);
    await dj.page.locator("[data-testid=queue-add]:not([disabled])").first().click();
    await expectCount(dj.page, "[data-testid=queue-song]", 1);
    await dj.page.click("[data-testid=take-seat]");
    await eventually(async () => expect((await audioOf(dj.page)).time).toBeGreaterThan(1), 20_000);
    // The edge gives the song's key to a guest the room admitted, and the page's policy lets it all load.
    await guest.page.goto("/rooms/open-doors");
    await expectText(guest.page, "[data-testid=connection]", /in the room/, 20_000);
    await eventually(async () => expect((await audioOf(guest.page)).time).toBeGreaterThan(1), 20_000);
    expect(dj.errors).toEqual([]);
    expect(guest.errors).toEqual([]);
  });

  it("plays the song a DJ queues after taking a seat with an empty queue", async () => {
    const { page, errors } = await stack.person();
    const email = emailFor("emptyqueue");
    await signUpVerified(stack, page, { nickname: "Early Seat", email });
    await newRoom(page, "Empty Crate Club", "empty-crate-club");
    // Alone in her new room, its owner is told so rather than shown an empty list of people.
    await expectText(page, "[data-testid=mod-nobody]", "Nobody else is here yet: share the room's link.");
    await expectCount(page, "[data-testid=mod-person]", 0);
    // A seat first, with nothing queued: the booth waits.
    await page.click("[data-testid=take-seat]");
    const uuid = await uuidOf(stack, email);
    await expectCount(page, `[data-testid=dj][data-uuid="${uuid}"]`, 1, 20_000);
    await expectCount(page, `[data-testid=dj][data-uuid="${uuid}"][data-playing]`, 0);
    // Then a song from the catalogue: it plays at once, without leaving the seat.
    await expectCount(page, "[data-testid=song-results] li", 4, 20_000);
    await page.locator("[data-testid=queue-add]:not([disabled])").first().click();
    await expectCount(page, "[data-testid=queue-song]", 1);
    await expectCount(page, `[data-testid=dj][data-uuid="${uuid}"][data-playing]`, 1, 20_000);
    await eventually(async () => expect((await audioOf(page)).time).toBeGreaterThan(1), 20_000);
    expect(errors).toEqual([]);
  });

  it("gives the browser 15-minute tokens for the live room, never the session's own", async () => {
    const { page, errors } = await stack.person();
    const email = emailFor("tokens");
    await signUpVerified(stack, page, { nickname: "Tokens", email });
    const claims = (token: string) => JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString());
    const first = await page.evaluate(() => fetch("/live-token").then((r) => r.json()));
    const payload = claims(first.token);
    expect(payload.sub).toBe(await uuidOf(stack, email));
    expect(payload.exp - payload.iat).toBe(15 * 60);
    expect(payload.purpose).toBe("live");
    // The same token is handed out again while it has minutes left: the room page loads its data (and a token with
    // it) at every new song, and the edge makes a person 120 of them an hour. 130 asks all get it.
    const asks = await page.evaluate(async () => {
      const tokens: string[] = [];
      for (let i = 0; i < 130; i++) tokens.push(await fetch("/live-token").then((r) => (r.ok ? r.json() : r.status)));
      return tokens.map((t) => (typeof t === "object" ? (t as { token: string }).token : t));
    });
    expect(new Set(asks)).toEqual(new Set([first.token]));
    // The next person on the same browser never gets the one kept for the last.
    await page.click("text=Log out");
    await expectText(page, "header a[href='/login']", "Log in");
    const nextEmail = emailFor("tokens-next");
    await signUpVerified(stack, page, { nickname: "Next", email: nextEmail });
    const next = await page.evaluate(() => fetch("/live-token").then((r) => r.json()));
    expect(claims(next.token).sub).toBe(await uuidOf(stack, nextEmail));
    // The socket's token works where the browser uses it, and is never traded for a session.
    const heard = await stack.t.request("POST", "/api/audit-service/kinesis", {
      token: first.token,
      body: { topic: "trackStartedPlaying", data: {} },
    });
    expect(heard.status).toBe(201);
    const me = await stack.t.request("GET", "/api/user-service/auth/session", { token: first.token });
    expect(me.status).toBe(401);
    // Visitors get a guest token instead.
    const visitor = await stack.person();
    await visitor.page.goto("/");
    const guest = await visitor.page.evaluate(() => fetch("/live-token").then((r) => r.json()));
    expect(claims(guest.token).type).toBe("guest");
    expect(errors).toEqual([]);
  });
});

describe("the booth beyond the peers", { timeout: 240_000 }, () => {
  it("lines a listener up on a full booth's waitlist, shows their place, and seats them when the DJ steps down", async () => {
    const { room, client } = await roomWithDj(stack, "Waitlist Owner", {
      name: "Waitlist Lounge",
      numberOfDjs: 1,
      waitlistEnabled: true,
    });
    expect(room.waitlistEnabled).toBe(true);
    const { page, errors } = await listener(stack, "Patient Listener");
    await page.goto("/rooms/waitlist-lounge");
    await expectText(page, "[data-testid=connection]", /in the room/, 20_000);
    await expectCount(page, "[data-testid=take-seat]", 0);
    await page.click("[data-testid=join-waitlist]");
    await expectText(page, "[data-testid=waitlist-place]", "You are number 1 on the waitlist");
    await expectText(page, "[data-testid=waitlist-person]", "Patient Listener");
    await shot(page, "room-waitlist");
    // The DJ steps down: the room seats the first waiting.
    await client.removeDj();
    await expectCount(page, "[data-testid=leave-booth]", 1, 20_000);
    await expectCount(page, "[data-testid=waitlist-place]", 0);
    client.close();
    expect(errors).toEqual([]);
  });

  it("grabs the song playing into the listener's queue, and the room counts the grab", async () => {
    const [track] = await stack.t.db.select().from(schema.songs).limit(1);
    const { client } = await roomWithDj(stack, "Grab DJ", { name: "Grab Bag" }, [track!.id]);
    const { page, errors } = await listener(stack, "Grabber");
    await page.goto("/rooms/grab-bag");
    await expectText(page, "[data-testid=track-name]", track!.trackName, 20_000);
    await expectCount(page, "[data-testid=queue-song]", 0);
    await page.click("[data-testid=grab-open]");
    await page.click("[data-testid=grab-to][data-crate=queue]");
    await expectText(page, "[data-testid=vote-counts]", /1 grab/);
    await expectText(page, "[data-testid=grab-open]", /Grabbed/);
    // The queue on the page is the loader's: it shows the grab after a reload.
    await page.reload();
    await expectCount(page, "[data-testid=queue-song]", 1, 20_000);
    await expectText(page, "[data-testid=queue-song] strong", track!.trackName);
    client.close();
    expect(errors).toEqual([]);
  });
});
