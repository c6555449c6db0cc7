import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../app.ts";
import type { Cache } from "../../ports/cache.ts";
import { sharedCaches } from "../../testing/shared-caches.ts";
import { expectRefusal, ok, openTestApp, type TestApi } from "../../testing.ts";
import { MESSAGES_PER_MINUTE } from "./direct-messages.handlers.ts";
import {
  CONVERSATION_NOT_FOUND,
  MESSAGE_BLOCKED,
  MESSAGE_FRIENDS_ONLY,
  MESSAGE_SELF,
  MESSAGE_UNVERIFIED,
} from "./direct-messages.ts";

const t = openTestApp();

const S = "/api/social-service";
const send = (api: TestApi, toUuid: string, text: string) =>
  api.social.POST("/direct-messages", { body: { toUuid, text } });
const messagesOf = (api: TestApi, id: string, query: { before?: string; take?: number } = {}) =>
  api.social.GET("/direct-messages/conversations/{id}/messages", { params: { path: { id }, query } });
const markRead = (api: TestApi, id: string) =>
  api.social.POST("/direct-messages/conversations/{id}/read", { params: { path: { id } } });
const list = (api: TestApi) => api.social.GET("/direct-messages/conversations", { params: { query: {} } });
const unread = async (api: TestApi) => ok(await api.social.GET("/direct-messages/unread")).unreadTotal;

/** Two users who are friends (an accepted invitation). */
async function friends(options: { verified?: boolean } = {}) {
  const a = await t.createUser(options);
  const b = await t.createUser();
  const invitation = ok(await t.api(a.token).social.POST("/friend-invitations", { body: { userUuid: b.user.uuid } }));
  ok(
    await t.api(b.token).social.POST("/friend-invitations/handle-friend", {
      body: { invitationId: invitation.id, status: "accepted" },
    }),
  );
  return [a, b] as const;
}

describe("direct messages", () => {
  it("two friends write; the recipient sees the conversation unread, reads it, and the count goes", async () => {
    const [ana, ben] = await friends();
    const anaApi = t.api(ana.token);
    const benApi = t.api(ben.token);
    const first = await send(anaApi, ben.user.uuid, "  Hi Ben! <b>not bold</b>  ");
    expect(first.response.status).toBe(201);
    // Kept as the text it is (trimmed), never as markup.
    expect(ok(first).text).toBe("Hi Ben! <b>not bold</b>");
    t.clock.advance(1000);
    ok(await send(anaApi, ben.user.uuid, "Are you in the room tonight?"));

    expect(await unread(benApi)).toBe(2);
    expect(await unread(anaApi)).toBe(0);
    const benList = ok(await list(benApi));
    expect(benList.unreadTotal).toBe(2);
    expect(benList.total).toBe(1);
    const conversation = benList.data[0]!;
    expect(conversation.withUuid).toBe(ana.user.uuid);
    expect(conversation.with?.uuid).toBe(ana.user.uuid);
    expect(conversation.unread).toBe(2);
    expect(conversation.lastMessage?.text).toBe("Are you in the room tonight?");
    // The sender's side: the same conversation, nothing unread for her.
    const anaList = ok(await list(anaApi));
    expect(anaList.data.map((c) => [c.id, c.withUuid, c.unread])).toEqual([[conversation.id, ben.user.uuid, 0]]);
    expect(
      ok(await benApi.social.GET("/direct-messages/with/{id}", { params: { path: { id: ana.user.uuid } } })).id,
    ).toBe(conversation.id);

    const page = ok(await messagesOf(benApi, conversation.id));
    expect(page.data.map((m) => m.text)).toEqual(["Are you in the room tonight?", "Hi Ben! <b>not bold</b>"]);
    expect(page.data.every((m) => m.readAt === null)).toBe(true);
    expect(page.nextBefore).toBeNull();

    // Ben answers: now Ana has one unread, Ben still two.
    ok(await send(benApi, ana.user.uuid, "Yes!"));
    expect(await unread(anaApi)).toBe(1);
    expect(await unread(benApi)).toBe(2);

    const read = ok(await markRead(benApi, conversation.id));
    expect(read).toEqual({ marked: 2, unreadTotal: 0 });
    expect(await unread(benApi)).toBe(0);
    expect(ok(await list(benApi)).data[0]?.unread).toBe(0);
    // Reading again marks nothing; Ana's own unread message is hers to read.
    expect(ok(await markRead(benApi, conversation.id))).toEqual({ marked: 0, unreadTotal: 0 });
    expect(await unread(anaApi)).toBe(1);
    const after = ok(await messagesOf(anaApi, conversation.id));
    expect(after.data.find((m) => m.text === "Are you in the room tonight?")?.readAt).not.toBeNull();
    expect(after.data.find((m) => m.text === "Yes!")?.readAt).toBeNull();
  });

  it("pages a conversation newest first with a cursor, and lists the latest conversation first", async () => {
    const [ana, ben] = await friends();
    const anaApi = t.api(ana.token);
    for (let i = 1; i <= 5; i++) ok(await send(anaApi, ben.user.uuid, `message ${i}`));
    const benApi = t.api(ben.token);
    const { id } = ok(await list(benApi)).data[0]!;
    const first = ok(await messagesOf(benApi, id, { take: 2 }));
    expect(first.data.map((m) => m.text)).toEqual(["message 5", "message 4"]);
    const second = ok(await messagesOf(benApi, id, { take: 2, before: first.nextBefore! }));
    expect(second.data.map((m) => m.text)).toEqual(["message 3", "message 2"]);
    const last = ok(await messagesOf(benApi, id, { take: 2, before: second.nextBefore! }));
    expect(last.data.map((m) => m.text)).toEqual(["message 1"]);
    expect(last.nextBefore).toBeNull();
    // A cursor from another conversation is refused, clearly.
    const [cleo, dan] = await friends();
    ok(await send(t.api(cleo.token), dan.user.uuid, "elsewhere"));
    const other = ok(await list(t.api(dan.token))).data[0]!;
    const foreign = ok(await messagesOf(t.api(dan.token), other.id)).data[0]!.id;
    const refused = await messagesOf(benApi, id, { before: foreign });
    expectRefusal(refused, 400, ["before: no such message in this conversation"]);

    // Ana befriends Cleo and writes to her later: that conversation comes first in Ana's list.
    const invite = ok(await anaApi.social.POST("/friend-invitations", { body: { userUuid: cleo.user.uuid } }));
    ok(
      await t.api(cleo.token).social.POST("/friend-invitations/handle-friend", {
        body: { invitationId: invite.id, status: "accepted" },
      }),
    );
    t.clock.advance(60_000);
    ok(await send(anaApi, cleo.user.uuid, "hello Cleo"));
    expect(ok(await list(anaApi)).data.map((c) => c.withUuid)).toEqual([cleo.user.uuid, ben.user.uuid]);
  });

  it("answers 401 without a session and 404 to anyone outside the conversation", async () => {
    const [ana, ben] = await friends();
    ok(await send(t.api(ana.token), ben.user.uuid, "private"));
    const { id } = ok(await list(t.api(ben.token))).data[0]!;
    const anonymous = t.api();
    expect((await send(anonymous, ben.user.uuid, "hi")).response.status).toBe(401);
    expect((await list(anonymous)).response.status).toBe(401);
    expect((await anonymous.social.GET("/direct-messages/unread")).response.status).toBe(401);
    expect((await messagesOf(anonymous, id)).response.status).toBe(401);
    expect((await markRead(anonymous, id)).response.status).toBe(401);
    expect((await t.request("GET", `${S}/direct-messages/events`)).status).toBe(401);

    const stranger = await t.createUser();
    const strangerApi = t.api(stranger.token);
    const peek = await messagesOf(strangerApi, id);
    expectRefusal(peek, 404, CONVERSATION_NOT_FOUND);
    expect(peek.error?.code).toBe("CONVERSATION_NOT_FOUND");
    expect((await markRead(strangerApi, id)).response.status).toBe(404);
    expect((await messagesOf(strangerApi, crypto.randomUUID())).response.status).toBe(404);
    expect(
      (await strangerApi.social.GET("/direct-messages/with/{id}", { params: { path: { id: ana.user.uuid } } })).response
        .status,
    ).toBe(404);
    // The stranger's read changed nothing for Ben.
    expect(await unread(t.api(ben.token))).toBe(1);

    // A guest token is no session for messages.
    const guest = ok(await anonymous.user.GET("/auth/guest"));
    expect((await list(t.api(guest.accessToken))).response.status).toBe(401);
    // A banned account is refused.
    await t.db.insert(schema.sanctions).values({ userUuid: ana.user.uuid, type: "ban", createdAt: t.clock.now() });
    await t.accountChanged(ana.user.uuid);
    expect((await send(t.api(ana.token), ben.user.uuid, "still here?")).response.status).toBe(403);
    expect((await messagesOf(t.api(ana.token), id)).response.status).toBe(403);
  });

  it("sends only to friends, never across a block, and only from a verified profile", async () => {
    const [ana, ben] = await friends();
    const anaApi = t.api(ana.token);
    const stranger = await t.createUser();
    const toStranger = await send(anaApi, stranger.user.uuid, "hi");
    expectRefusal(toStranger, 403, MESSAGE_FRIENDS_ONLY);
    expect(toStranger.error?.code).toBe("MESSAGE_FRIENDS_ONLY");
    const toSelf = await send(anaApi, ana.user.uuid, "hi me");
    expectRefusal(toSelf, 400, MESSAGE_SELF);
    expect((await send(anaApi, crypto.randomUUID(), "hi")).response.status).toBe(404);

    // Once friends write, a block stops them both ways; the history stays readable to both.
    ok(await send(anaApi, ben.user.uuid, "before the block"));
    ok(await t.api(ben.token).social.POST("/blocked-users", { body: { userUuid: ana.user.uuid } }));
    for (const [from, to] of [
      [ana, ben],
      [ben, ana],
    ] as const) {
      const refused = await send(t.api(from.token), to.user.uuid, "after the block");
      expectRefusal(refused, 403, MESSAGE_BLOCKED);
    }
    const { id } = ok(await list(anaApi)).data[0]!;
    expect(ok(await messagesOf(anaApi, id)).data.map((m) => m.text)).toEqual(["before the block"]);

    // Friends who stop being friends cannot write any more.
    const [cleo, dan] = await friends();
    expect(
      (await t.api(cleo.token).social.DELETE("/friends/{id}", { params: { path: { id: dan.user.uuid } } })).response
        .status,
    ).toBe(204);
    expect((await send(t.api(dan.token), cleo.user.uuid, "still friends?")).error?.message).toBe(MESSAGE_FRIENDS_ONLY);

    // An unverified profile may read but not send.
    const [eve, fay] = await friends({ verified: false });
    const unverified = await send(t.api(eve.token), fay.user.uuid, "hello");
    expectRefusal(unverified, 403, MESSAGE_UNVERIFIED);
    expect(unverified.error?.code).toBe("MESSAGE_UNVERIFIED");
    ok(await send(t.api(fay.token), eve.user.uuid, "verify your email!"));
    expect(await unread(t.api(eve.token))).toBe(1);
    const messages = await t.db
      .select()
      .from(schema.directMessages)
      .where(eq(schema.directMessages.senderUuid, eve.user.uuid));
    expect(messages).toEqual([]);
  });

  it("refuses bad input with clear messages and keeps nothing", async () => {
    const [ana, ben] = await friends();
    const anaApi = t.api(ana.token);
    const empty = await send(anaApi, ben.user.uuid, "   ");
    expectRefusal(empty, 400, ["text: must not be empty"]);
    const long = await send(anaApi, ben.user.uuid, "x".repeat(2001));
    expectRefusal(long, 400, ["text: must be at most 2000 characters"]);
    expect(ok(await send(anaApi, ben.user.uuid, "x".repeat(2000))).text).toHaveLength(2000);
    const notUuid = await t.request("POST", `${S}/direct-messages`, {
      token: ana.token,
      body: { toUuid: "ben", text: 5 },
    });
    expect(notUuid.status).toBe(400);
    expect(notUuid.body.message).toEqual(
      expect.arrayContaining([expect.stringMatching(/^toUuid: /), expect.stringMatching(/^text: /)]),
    );
    const nul = await t.request("POST", `${S}/direct-messages`, {
      token: ana.token,
      body: { toUuid: ben.user.uuid, text: "a\u0000b" },
    });
    expect(nul.status).toBe(400);
    expect((await messagesOf(anaApi, "not-a-uuid")).response.status).toBe(400);
    const { id } = ok(await list(anaApi)).data[0]!;
    expect((await messagesOf(anaApi, id, { take: 0 })).response.status).toBe(400);
    expect(ok(await messagesOf(anaApi, id)).data).toHaveLength(1);
  });

  it("limits how fast one person sends", async () => {
    const [ana, ben] = await friends();
    const anaApi = t.api(ana.token);
    for (let i = 0; i < MESSAGES_PER_MINUTE; i++) ok(await send(anaApi, ben.user.uuid, `m${i}`));
    const refused = await send(anaApi, ben.user.uuid, "one too many");
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get("retry-after")).toBeTruthy();
    expect(await unread(t.api(ben.token))).toBe(MESSAGES_PER_MINUTE);
  });
});

// ---- live delivery ------------------------------------------------------------------------------------------------

/** Reads a server-sent event stream: every event as it arrives. */
function listen(res: Response) {
  const events: { event: string; data: unknown }[] = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const done = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += value;
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) });
        end = buffer.indexOf("\n\n");
      }
    }
  })();
  return { events, stop: () => reader.cancel(), done };
}

describe.each(sharedCaches())("live delivery across two edges sharing a %s", (_, makeCaches) => {
  let caches: [Cache, Cache];
  let one: ReturnType<typeof createApp>;
  let other: ReturnType<typeof createApp>;
  beforeAll(async () => {
    caches = await makeCaches();
    one = createApp({ ...t.deps, cache: caches[0] });
    other = createApp({ ...t.deps, cache: caches[1] });
  });
  afterAll(async () => {
    await Promise.all([...new Set(caches ?? [])].map((cache) => cache.close()));
  });

  const call = (edge: typeof one, method: string, path: string, token: string, body?: unknown) =>
    edge.request(`${S}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("a message sent through one edge reaches the recipient listening on the other, with the unread count", async () => {
    const [ana, ben] = await friends();
    const stranger = await t.createUser();
    ok(await send(t.api(ana.token), ben.user.uuid, "before listening"));

    const stream = await call(other, "GET", "/direct-messages/events", ben.token);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const ben$ = listen(stream);
    const anaTab = listen(await call(other, "GET", "/direct-messages/events", ana.token));
    const stranger$ = listen(await call(one, "GET", "/direct-messages/events", stranger.token));
    // At once: what is unread already.
    await expect.poll(() => ben$.events).toEqual([{ event: "unread", data: { unreadTotal: 1 } }]);
    await expect.poll(() => stranger$.events.length).toBe(1);

    const sent = await call(one, "POST", "/direct-messages", ana.token, { toUuid: ben.user.uuid, text: "live!" });
    expect(sent.status).toBe(201);
    const message = await sent.json();
    await expect
      .poll(() => ben$.events.at(-1))
      .toEqual({ event: "message", data: { type: "message", message, unreadTotal: 2 } });
    // The sender's other tab hears her own message too; nobody else hears anything.
    await expect
      .poll(() => anaTab.events.at(-1))
      .toEqual({
        event: "message",
        data: { type: "message", message, unreadTotal: 0 },
      });

    // Reading on one edge tells the reader's listeners on the other: the count goes.
    const read = await call(one, "POST", `/direct-messages/conversations/${message.conversationId}/read`, ben.token);
    expect(await read.json()).toEqual({ marked: 2, unreadTotal: 0 });
    await expect
      .poll(() => ben$.events.at(-1))
      .toEqual({
        event: "read",
        data: { type: "read", conversationId: message.conversationId, unreadTotal: 0 },
      });
    expect(stranger$.events).toHaveLength(1);
    expect(anaTab.events.map((e) => e.event)).toEqual(["unread", "message"]);
    await Promise.all([ben$.stop(), anaTab.stop(), stranger$.stop()]);
  });

  it("a listener that went away is forgotten: sending still works", async () => {
    const [ana, ben] = await friends();
    const ben$ = listen(await call(other, "GET", "/direct-messages/events", ben.token));
    await expect.poll(() => ben$.events.length).toBe(1);
    await ben$.stop();
    await ben$.done;
    const sent = await call(one, "POST", "/direct-messages", ana.token, { toUuid: ben.user.uuid, text: "anyone?" });
    expect(sent.status).toBe(201);
    expect(await unread(t.api(ben.token))).toBe(1);
  });
});
