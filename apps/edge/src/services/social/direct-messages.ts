import { type Db, schema, type Tx } from "@booth/db";
import { and, count, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { User } from "../../lib/auth.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { badRequest, forbidden, found, notFound, USER_NOT_FOUND } from "../../lib/errors.ts";
import { jsonPick } from "../../lib/json-rows.ts";
import { firstRow, returnedRow } from "../../lib/rows.ts";
import type { Cache } from "../../ports/cache.ts";
import { profilesOf } from "../user/public.ts";
import { friendshipOf } from "./friendships.ts";
import { activeUser, blockedBetween } from "./relations.ts";

export const MESSAGE_FRIENDS_ONLY = errorMessage("MESSAGE_FRIENDS_ONLY");
export const MESSAGE_BLOCKED = errorMessage("MESSAGE_BLOCKED");
export const MESSAGE_UNVERIFIED = errorMessage("MESSAGE_UNVERIFIED");
export const MESSAGE_SELF = errorMessage("MESSAGE_SELF");
export const CONVERSATION_NOT_FOUND = errorMessage("CONVERSATION_NOT_FOUND");

/** The longest message, in characters (UTF-16 units, as zod and the browser's maxLength count). */
export const MESSAGE_MAX_LENGTH = 2000;

type Conversation = typeof schema.conversations.$inferSelect;
type Message = typeof schema.directMessages.$inferSelect;

export const messageView = (m: Message) =>
  jsonPick(m, "id", "conversationId", "senderUuid", "recipientUuid", "text", "createdAt", "readAt");
export type MessageView = ReturnType<typeof messageView>;

/** A pair kept once: the smaller uuid first. */
const pair = (a: string, b: string): [string, string] => (a < b ? [a, b] : [b, a]);
const otherOf = (c: Conversation, me: string) => (c.userA === me ? c.userB : c.userA);

/** The caller's conversation {id}: someone else's answers the same 404 as none, so nobody learns it exists. */
export async function ownConversation(db: Db | Tx, me: string, id: string) {
  const row = await firstRow(
    db,
    schema.conversations,
    and(eq(schema.conversations.id, id), or(eq(schema.conversations.userA, me), eq(schema.conversations.userB, me))),
  );
  return found(row, CONVERSATION_NOT_FOUND);
}

/** The caller's conversation with user `other`, or null when they have never written. */
export async function conversationWith(db: Db | Tx, me: string, other: string) {
  const [a, b] = pair(me, other);
  return firstRow(db, schema.conversations, and(eq(schema.conversations.userA, a), eq(schema.conversations.userB, b)));
}

/** How many messages to the user are unread, over all their conversations. */
export async function unreadTotal(db: Db | Tx, me: string) {
  const [row] = await db
    .select({ n: count() })
    .from(schema.directMessages)
    .where(and(eq(schema.directMessages.recipientUuid, me), isNull(schema.directMessages.readAt)));
  return row?.n ?? 0;
}

/**
 * A message from `sender` to `toUuid`: the sender's profile verified (the spec: direct messages require one), the
 * recipient an active account, neither blocking the other, and friends. The conversation is made at the first one.
 */
export async function send(db: Db, sender: User, toUuid: string, text: string, now: Date) {
  if (!sender.verifiedAt) throw forbidden(MESSAGE_UNVERIFIED);
  if (toUuid === sender.uuid) throw badRequest(MESSAGE_SELF);
  if (!(await activeUser(db, toUuid))) throw notFound(USER_NOT_FOUND);
  if (await blockedBetween(db, sender.uuid, toUuid)) throw forbidden(MESSAGE_BLOCKED);
  if (!(await friendshipOf(db, sender.uuid, toUuid))) throw forbidden(MESSAGE_FRIENDS_ONLY);
  const [userA, userB] = pair(sender.uuid, toUuid);
  return db.transaction(async (tx) => {
    const conversation = await returnedRow(
      "conversation upsert",
      tx
        .insert(schema.conversations)
        .values({ userA, userB, createdAt: now, lastMessageAt: now })
        .onConflictDoUpdate({
          target: [schema.conversations.userA, schema.conversations.userB],
          set: { lastMessageAt: sql`greatest(${schema.conversations.lastMessageAt}, excluded.last_message_at)` },
        })
        .returning(),
    );
    const message = await returnedRow(
      "message insert",
      tx
        .insert(schema.directMessages)
        .values({
          conversationId: conversation.id,
          senderUuid: sender.uuid,
          recipientUuid: toUuid,
          text,
          createdAt: now,
        })
        .returning(),
    );
    return { conversation, message };
  });
}

/** The user's conversations, the latest written first, each with the other person, its last message and unread count. */
export async function conversationsOf(db: Db | Tx, me: string, skip: number, take: number) {
  const mine = or(eq(schema.conversations.userA, me), eq(schema.conversations.userB, me));
  const [rows, [total], unread] = await Promise.all([
    db
      .select()
      .from(schema.conversations)
      .where(mine)
      .orderBy(desc(schema.conversations.lastMessageAt), desc(schema.conversations.id))
      .limit(take)
      .offset(skip),
    db.select({ n: count() }).from(schema.conversations).where(mine),
    unreadTotal(db, me),
  ]);
  return { data: await entries(db, me, rows), total: total?.n ?? 0, unreadTotal: unread };
}

/** One conversation as the list shows it. */
export async function conversationEntry(db: Db | Tx, me: string, row: Conversation) {
  const [entry] = await entries(db, me, [row]);
  if (!entry) throw new Error("a conversation without its entry");
  return entry;
}

/** Conversations as the list shows them: the other person, the last message, the caller's unread count. */
async function entries(db: Db | Tx, me: string, rows: Conversation[]) {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const m = schema.directMessages;
  const [counts, lasts, profiles] = await Promise.all([
    db
      .select({ id: m.conversationId, n: count() })
      .from(m)
      .where(and(eq(m.recipientUuid, me), isNull(m.readAt), inArray(m.conversationId, ids)))
      .groupBy(m.conversationId),
    db
      .selectDistinctOn([m.conversationId])
      .from(m)
      .where(inArray(m.conversationId, ids))
      .orderBy(m.conversationId, desc(m.seq)),
    profilesOf(
      db,
      rows.map((r) => otherOf(r, me)),
    ),
  ]);
  const unreadBy = new Map(counts.map((c) => [c.id, c.n]));
  const lastBy = new Map(lasts.map((last) => [last.conversationId, messageView(last)]));
  const profileBy = new Map(profiles.map((p) => [p.uuid, p]));
  return rows.map((r) => ({
    id: r.id,
    withUuid: otherOf(r, me),
    // A deactivated account keeps its messages but shows no profile.
    with: profileBy.get(otherOf(r, me)) ?? null,
    lastMessage: lastBy.get(r.id) ?? null,
    lastMessageAt: r.lastMessageAt.toISOString(),
    unread: unreadBy.get(r.id) ?? 0,
  }));
}

/**
 * A conversation's messages, newest first, `take` at a time; `before` (a message id of this conversation, the
 * oldest of the page the caller holds) goes further back. `nextBefore` is where the next page starts, null at the end.
 */
export async function messagesOf(db: Db | Tx, conversationId: string, before: string | undefined, take: number) {
  const m = schema.directMessages;
  let olderThan: number | undefined;
  if (before) {
    const [cursor] = await db
      .select({ seq: m.seq })
      .from(m)
      .where(and(eq(m.id, before), eq(m.conversationId, conversationId)));
    if (!cursor) throw badRequest(["before: no such message in this conversation"]);
    olderThan = cursor.seq;
  }
  const rows = await db
    .select()
    .from(m)
    .where(and(eq(m.conversationId, conversationId), olderThan === undefined ? undefined : lt(m.seq, olderThan)))
    .orderBy(desc(m.seq))
    .limit(take + 1);
  const page = rows.slice(0, take);
  return {
    data: page.map(messageView),
    nextBefore: rows.length > take ? (page.at(-1)?.id ?? null) : null,
  };
}

/** Marks what the user received in a conversation read; the number of messages it marked. */
export async function markRead(db: Db | Tx, me: string, conversationId: string, now: Date) {
  const marked = await db
    .update(schema.directMessages)
    .set({ readAt: now })
    .where(
      and(
        eq(schema.directMessages.conversationId, conversationId),
        eq(schema.directMessages.recipientUuid, me),
        isNull(schema.directMessages.readAt),
      ),
    )
    .returning({ id: schema.directMessages.id });
  return marked.length;
}

// ---- live delivery

/**
 * What a listener of the user's channel hears. Every edge subscribes its listeners to the shared cache, so a message
 * sent through one edge reaches the browsers connected to any other. A listener that was away reads the database.
 */
export type DirectMessageEvent =
  | { type: "message"; message: MessageView; unreadTotal: number }
  | { type: "read"; conversationId: string; unreadTotal: number };

export const userChannel = (uuid: string) => `dm:${uuid}`;

export async function publish(cache: Cache, uuid: string, event: DirectMessageEvent) {
  await cache.publish(userChannel(uuid), JSON.stringify(event));
}
