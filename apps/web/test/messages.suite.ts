/**
 * Direct messages in the browser (#22): two friends write to each other from a profile's Message button; the other
 * sees the message arrive without a reload, with the unread count in the header and on the conversation; opening it
 * reads it and the count goes. Someone who is not a friend gets no form, only the reason.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectCount, expectText, shot, suiteStack } from "./harness.ts";
import { asUser, type SignedUp, signedUp, signedUpAll } from "./harness-b.ts";

const stack = suiteStack();
let ana: SignedUp;
let ben: SignedUp;
let cleo: SignedUp;
beforeAll(async () => {
  [ana, ben] = await signedUpAll(stack, "Ana", "Ben");
  cleo = await signedUp(stack, "Cleo");
  // Ana and Ben are friends (set up through the edge: the invitation screens have their own tests).
  const asAna = await asUser(stack, ana.uuid);
  const asBen = await asUser(stack, ben.uuid);
  const invited = await asAna("POST", "/api/social-service/friend-invitations", { userUuid: ben.uuid });
  expect(invited.status).toBe(201);
  const accepted = await asBen("POST", "/api/social-service/friend-invitations/handle-friend", {
    invitationId: (invited.body as { id: string }).id,
    status: "accepted",
  });
  expect(accepted.status).toBe(200);
}, 300_000);

describe("direct messages", { timeout: 180_000 }, () => {
  it("two friends exchange messages: the other sees them arrive live with the unread count, reads them, and the count goes", async () => {
    // Ben waits on his messages screen, with nothing there yet.
    await ben.page.goto("/messages");
    await expectText(ben.page, "main h1", "Messages");
    await expectCount(ben.page, "[data-testid=conversation]", 0);
    await expectCount(ben.page, "[data-testid=unread-messages]", 0);

    // Ana opens Ben's profile and presses Message.
    await ana.page.goto(`/users/${ben.uuid}`);
    await ana.page.click("[data-testid=message]");
    await ana.page.waitForURL(`**/messages/${ben.uuid}`);
    await expectText(ana.page, "[data-testid=dm-log]", "No messages yet: say hello.");
    // Keyboard: the box, Enter sends (markup is sent as text, and shown as text).
    await ana.page.fill("#dm-text", "Hi Ben! <b>are you</b> coming tonight?");
    await ana.page.press("#dm-text", "Enter");
    await expectCount(ana.page, "[data-testid=dm]", 1);
    await expectText(ana.page, "[data-testid=dm] p", "Hi Ben! <b>are you</b> coming tonight?");
    expect(await ana.page.locator("[data-testid=dm] b").count()).toBe(0);
    await expect.poll(() => ana.page.inputValue("#dm-text"), { timeout: 10_000 }).toBe("");

    // Ben, without reloading: the conversation appears with its unread count, and the header counts it.
    await expectText(ben.page, "[data-testid=unread-count]", "1");
    await expectText(ben.page, "[data-testid=unread-messages] .visually-hidden", "1 unread message");
    await expectText(ben.page, "[data-testid=conversation]", /Ana.*Hi Ben! <b>are you<\/b> coming tonight\?/s);
    await expectText(ben.page, "[data-testid=conversation-unread]", "1 unread");
    await ana.page.fill("#dm-text", "The room opens at nine.");
    await ana.page.click("button[type=submit]:has-text('Send')");
    await expectText(ben.page, "[data-testid=unread-count]", "2");
    await expectText(ben.page, "[data-testid=conversation-unread]", "2 unread");
    await shot(ben.page, "messages-list-unread");

    // Ben opens it: both messages, read, and the counts go (his header; Ana's stays at none).
    await ben.page.click("[data-testid=conversation]");
    await ben.page.waitForURL(`**/messages/${ana.uuid}`);
    await expectCount(ben.page, "[data-testid=dm]", 2);
    await expectText(ben.page, "[data-testid=dm]:last-child p", "The room opens at nine.");
    await expectCount(ben.page, "[data-testid=unread-messages]", 0);
    const asBen = await asUser(stack, ben.uuid);
    expect((await asBen("GET", "/api/social-service/direct-messages/unread")).body).toEqual({ unreadTotal: 0 });

    // Ben answers; Ana, looking at the conversation, sees it arrive and it is read at once (no count for her).
    await ben.page.fill("#dm-text", "Yes! Save me a seat in the booth.");
    await ben.page.press("#dm-text", "Enter");
    await expectCount(ana.page, "[data-testid=dm]", 3, 15_000);
    await expectText(ana.page, "[data-testid=dm]:last-child p", "Yes! Save me a seat in the booth.");
    const asAna = await asUser(stack, ana.uuid);
    await expect
      .poll(async () => (await asAna("GET", "/api/social-service/direct-messages/unread")).body, { timeout: 10_000 })
      .toEqual({ unreadTotal: 0 });
    await expectCount(ana.page, "[data-testid=unread-messages]", 0);
    await shot(ana.page, "messages-conversation");

    // On a phone: the conversation and the box fit.
    await ben.page.setViewportSize({ width: 390, height: 844 });
    await shot(ben.page, "messages-conversation-phone", { fullPage: true });
    await ben.page.setViewportSize({ width: 1280, height: 860 });
    expect(ana.errors).toEqual([]);
    expect(ben.errors).toEqual([]);
  });

  it("a person who is not a friend gets the reason instead of the form, in Spanish too", async () => {
    await cleo.page.goto(`/users/${ana.uuid}`);
    await expectCount(cleo.page, "[data-testid=message]", 0);
    await cleo.page.goto(`/messages/${ana.uuid}`);
    await expectText(
      cleo.page,
      "main [role=status]",
      "You can only message your friends. Invite Ana to be friends first.",
    );
    await expectCount(cleo.page, "#dm-text", 0);
    await cleo.page.goto(`/messages/${ana.uuid}?lang=es`);
    await expectText(cleo.page, "main [role=status]", /^Solo puedes escribir a tus amigos\./);
    await cleo.page.goto("/messages?lang=en");
    await expectText(cleo.page, "main", /No conversations yet\./);
    expect(cleo.errors).toEqual([]);
  });
});
