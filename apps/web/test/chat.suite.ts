/**
 * Chat that people expect (#22): a reply quotes what it answers, reactions are added and taken back by each person,
 * and the song playing is shared as a card. A DJ plays a demo song from the SDK's live client, as a bot would.
 * Links: http(s) addresses are plain links (no preview is fetched), other schemes and markup stay text.
 */
import { schema } from "@booth/db";
import { describe, expect, it } from "vitest";
import { eventually, expectCount, expectText, shot, suiteStack } from "./harness.ts";
import { listener, roomWithDj } from "./listening.ts";

const stack = suiteStack({ songs: 1, songSeconds: 90 });

describe("chat", { timeout: 240_000 }, () => {
  it("replies quote what they answer, reactions come and go per person, and the playing song is shared as a card", async () => {
    const [track] = await stack.t.db.select().from(schema.songs).limit(1);
    const { room, client } = await roomWithDj(stack, "Chat DJ", { name: "Talk Show" }, [track!.id]);
    const [ana, ben] = [await listener(stack, "Chatty Ana"), await listener(stack, "Chatty Ben")];
    for (const p of [ana, ben]) {
      await p.page.goto(`/rooms/${room.slug}`);
      await expectText(p.page, "[data-testid=connection]", /in the room/, 20_000);
    }
    await expectText(ana.page, "[data-testid=track-name]", track!.trackName, 20_000);

    // Ana says something; Ben answers it: both see his message quoting hers.
    await ana.page.fill("[data-testid=chat-input]", "Who made this one?");
    await ana.page.click("[data-testid=chat-send]");
    await expectCount(ben.page, "[data-testid=chat-message]", 1);
    await ben.page.locator("[data-testid=chat-message]").first().hover();
    await ben.page.click("[data-testid=chat-reply]");
    await expectText(ben.page, "[data-testid=chat-replying]", /Replying to Chatty Ana/);
    await ben.page.fill("[data-testid=chat-input]", "A demo artist, I think");
    await ben.page.click("[data-testid=chat-send]");
    await expectCount(ben.page, "[data-testid=chat-replying]", 0);
    for (const p of [ana, ben])
      await expectText(p.page, "[data-testid=chat-reply-quote]", /Chatty Ana\s+Who made this one\?/);

    // Ana reacts to the answer with fire: Ben sees one, pressed for her alone; she takes it back and it goes.
    const answer = ana.page.locator("[data-testid=chat-message]").nth(1);
    await answer.hover();
    await answer.locator("[data-testid=chat-react]").click();
    await answer.locator("[data-testid=chat-react-picker] button", { hasText: "🔥" }).click();
    await expectText(ben.page, "[data-testid=chat-reaction]", "🔥 1");
    expect(await ben.page.getAttribute("[data-testid=chat-reaction]", "aria-pressed")).toBe("false");
    expect(await ana.page.getAttribute("[data-testid=chat-reaction]", "aria-pressed")).toBe("true");
    // Ben adds his own: two people, one emoji.
    await ben.page.click("[data-testid=chat-reaction]");
    await expectText(ana.page, "[data-testid=chat-reaction]", "🔥 2");
    await ana.page.click("[data-testid=chat-reaction]");
    await expectText(ben.page, "[data-testid=chat-reaction]", "🔥 1");
    expect(await ben.page.getAttribute("[data-testid=chat-reaction]", "aria-pressed")).toBe("true");

    // Ben shares the song playing: a card with its title and artist, as the catalogue has them.
    await ben.page.click("[data-testid=chat-share-song]");
    await expectText(ana.page, "[data-testid=chat-song] strong", track!.trackName);
    await shot(ana.page, "room-chat");

    // Ana deletes her question while Ben answers it again: his reply is refused in words, and nothing is sent.
    await ben.page.locator("[data-testid=chat-message]").first().hover();
    await ben.page.click("[data-testid=chat-reply]");
    await ana.page.locator("[data-testid=chat-message]").first().hover();
    await ana.page.locator("[data-testid=chat-message]").first().getByRole("button", { name: "Delete" }).click();
    await expectCount(ben.page, "[data-testid=chat-message]", 2);
    await ben.page.fill("[data-testid=chat-input]", "As I said");
    await ben.page.click("[data-testid=chat-send]");
    await expectText(ben.page, "[data-testid=chat] .alert-error", /no longer in the chat/);
    await expectCount(ana.page, "[data-testid=chat-message]", 2);
    // The earlier answer keeps its quote of the deleted question.
    await expectText(ana.page, "[data-testid=chat-reply-quote]", /Who made this one\?/);
    client.close();
    expect([...ana.errors, ...ben.errors]).toEqual([]);
  });

  it("shows http(s) addresses as plain links, fetches no preview, and leaves other schemes and markup as text", async () => {
    const [track] = await stack.t.db.select().from(schema.songs).limit(1);
    const { room, client } = await roomWithDj(stack, "Link DJ", { name: "Links" }, [track!.id]);
    const [ana, ben] = [await listener(stack, "Linking Ana"), await listener(stack, "Reading Ben")];
    // Whatever Ben's browser would load from the linked site (a preview's page, its picture) is recorded and refused.
    const loaded: string[] = [];
    await ben.context.route(/^https?:\/\/(www\.)?example\.(com|org)\//, (route) => {
      loaded.push(route.request().url());
      return route.abort();
    });
    for (const p of [ana, ben]) {
      await p.page.goto(`/rooms/${room.slug}`);
      await expectText(p.page, "[data-testid=connection]", /in the room/, 20_000);
    }

    const said = "Tonight's list: https://example.com/setlist?week=3. <b>Bold</b> <img src=https://example.org/x.png>";
    await ana.page.fill("[data-testid=chat-input]", said);
    await ana.page.click("[data-testid=chat-send]");
    await expectCount(ben.page, "[data-testid=chat-message]", 1);
    const message = ben.page.locator("[data-testid=chat-message] [data-testid=chat-text]").first();
    // The sentence as written, the markup as text; the addresses are links, opened elsewhere without a referrer.
    await expectText(
      ben.page,
      "[data-testid=chat-text]",
      new RegExp(`^${said.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
    );
    const links = message.locator("a[href^=http]");
    expect(await links.count()).toBe(2);
    const link = message.locator("[data-testid=chat-link]").first();
    expect(await link.textContent()).toBe("https://example.com/setlist?week=3");
    expect(await link.getAttribute("href")).toBe("https://example.com/setlist?week=3");
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer nofollow ugc");
    expect(await link.getAttribute("target")).toBe("_blank");
    // The address inside the <img> markup is a link too (it is an address), never a picture: nothing is loaded.
    expect(await message.locator("[data-testid=chat-link]").nth(1).getAttribute("href")).toBe(
      "https://example.org/x.png",
    );
    expect(await message.locator("b, img, iframe, video, audio, object").count()).toBe(0);

    // Schemes other than http(s) are text, whatever they look like.
    await ana.page.fill(
      "[data-testid=chat-input]",
      "javascript:alert(document.cookie) data:text/html,hi ftp://example.com/a",
    );
    await ana.page.click("[data-testid=chat-send]");
    await expectCount(ben.page, "[data-testid=chat-message]", 2);
    const second = ben.page.locator("[data-testid=chat-message] [data-testid=chat-text]").nth(1);
    await eventually(async () =>
      expect(await second.textContent()).toMatch(
        /^javascript:alert\(document\.cookie\) data:text\/html,hi ftp:\/\/example\.com\/a/,
      ),
    );
    expect(await second.locator("a").count()).toBe(0);
    await shot(ben.page, "room-chat-links");

    // No preview: the room's page never asked the linked sites for anything.
    await ben.page.waitForTimeout(500);
    expect(loaded).toEqual([]);
    client.close();
    expect([...ana.errors, ...ben.errors]).toEqual([]);
  });
});
