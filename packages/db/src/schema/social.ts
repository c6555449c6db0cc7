import { sql } from "drizzle-orm";
import { bigserial, boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { cascadeRef, createdAt, id, timestamps } from "./columns.ts";
import { DevicePlatform, FriendInvitationStatus, PushStatus, values } from "./enums.ts";
import { users } from "./user.ts";

const userRef = () => cascadeRef(() => users.uuid);

/** A fan follows a DJ. */
export const djFans = pgTable(
  "dj_fans",
  { id: id(), fanUuid: userRef(), djUuid: userRef(), createdAt: createdAt() },
  (t) => [uniqueIndex("dj_fans_pair_key").on(t.fanUuid, t.djUuid), index("dj_fans_dj_idx").on(t.djUuid, t.createdAt)],
);

export const friendInvitations = pgTable(
  "friend_invitations",
  {
    id: id(),
    fromUuid: userRef(),
    toUuid: userRef(),
    status: text({ enum: values(FriendInvitationStatus) })
      .notNull()
      .default("pending"),
    handledAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // One open invitation between two people, whichever of them sent it.
    uniqueIndex("friend_invitations_open_pair_key")
      .on(sql`least(${t.fromUuid}, ${t.toUuid})`, sql`greatest(${t.fromUuid}, ${t.toUuid})`)
      .where(sql`${t.status} = 'pending'`),
    index("friend_invitations_to_idx").on(t.toUuid),
  ],
);

/** A friendship is kept as two rows, one per direction, so either side lists it with one index. */
export const friends = pgTable(
  "friends",
  { id: id(), userUuid: userRef(), friendUuid: userRef(), createdAt: createdAt() },
  (t) => [uniqueIndex("friends_pair_key").on(t.userUuid, t.friendUuid)],
);

export const blockedUsers = pgTable(
  "blocked_users",
  { id: id(), blockerUuid: userRef(), blockedUuid: userRef(), createdAt: createdAt() },
  (t) => [uniqueIndex("blocked_users_pair_key").on(t.blockerUuid, t.blockedUuid)],
);

/** A phone or browser that receives push notifications: a push token, and the (user, deviceId) pair. */
export const devices = pgTable(
  "devices",
  {
    id: id(),
    userUuid: userRef(),
    deviceId: text().notNull(),
    token: text().notNull().unique(),
    platform: text({ enum: values(DevicePlatform) }).notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex("devices_user_device_key").on(t.userUuid, t.deviceId)],
);

export const webPushSubscriptions = pgTable("web_push_subscriptions", {
  id: id(),
  userUuid: userRef(),
  endpoint: text().notNull().unique(),
  p256dh: text().notNull(),
  auth: text().notNull(),
  createdAt: createdAt(),
});

/** Every push sent or queued (mobile and web): the outbox when no provider is configured, and the log when one is. */
export const pushMessages = pgTable(
  "push_messages",
  {
    id: id(),
    channel: text({ enum: ["fcm", "apns", "web", "outbox"] }).notNull(),
    userUuid: uuid(),
    target: text().notNull(),
    title: text(),
    body: text(),
    data: jsonb(),
    silent: boolean().notNull().default(false),
    status: text({ enum: values(PushStatus) }).notNull(),
    error: text(),
    createdAt: createdAt(),
  },
  (t) => [index("push_messages_user_idx").on(t.userUuid, t.createdAt)],
);

/**
 * When a notification that must not repeat too often was last sent (`sentAt`) and, for sliding windows, last asked
 * for (`seenAt`). Keys name what is limited: `dj:<uuid>` (a DJ's fans), `room:<uuid>` (a room's users).
 */
export const pushCooldowns = pgTable("push_cooldowns", {
  key: text().primaryKey(),
  seenAt: timestamp({ withTimezone: true }).notNull(),
  sentAt: timestamp({ withTimezone: true }).notNull(),
});

/** A user's uploaded contacts: only a hash of each E.164 number is kept. */
export const contacts = pgTable(
  "contacts",
  {
    id: id(),
    ownerUuid: userRef(),
    phoneHash: text().notNull(),
    name: text(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("contacts_owner_phone_key").on(t.ownerUuid, t.phoneHash),
    index("contacts_phone_idx").on(t.phoneHash),
  ],
);

/**
 * A direct-message conversation between two people, kept once per pair: `userA` is the smaller uuid, so either
 * side finds it with one unique index. `lastMessageAt` orders the conversation list.
 */
export const conversations = pgTable(
  "conversations",
  {
    id: id(),
    userA: userRef(),
    userB: userRef(),
    createdAt: createdAt(),
    lastMessageAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("conversations_pair_key").on(t.userA, t.userB),
    index("conversations_b_idx").on(t.userB, t.lastMessageAt),
    index("conversations_a_idx").on(t.userA, t.lastMessageAt),
  ],
);

/** A message of a conversation: plain text, read when its recipient opened the conversation after it arrived. */
export const directMessages = pgTable(
  "direct_messages",
  {
    id: id(),
    /** The order messages were written in (two can share a timestamp): pages follow it. */
    seq: bigserial({ mode: "number" }).notNull().unique(),
    conversationId: cascadeRef(() => conversations.id),
    senderUuid: userRef(),
    recipientUuid: userRef(),
    text: text().notNull(),
    createdAt: createdAt(),
    readAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index("direct_messages_conversation_idx").on(t.conversationId, t.seq),
    // What is unread is found without reading what is not.
    index("direct_messages_unread_idx").on(t.recipientUuid, t.conversationId).where(sql`${t.readAt} is null`),
  ],
);
