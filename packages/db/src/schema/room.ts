import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { cascadeRef, createdAt, id, timestamps } from "./columns.ts";
import { DjType, RoomDesign, RoomRole, RoomType, values } from "./enums.ts";
import { crates } from "./playlist.ts";
import { users } from "./user.ts";

const userRef = () => cascadeRef(() => users.uuid);
const roomRef = () => cascadeRef(() => rooms.uuid);

export interface PinnedMessage {
  id: string;
  message: string;
  userUuid: string;
  createdAt: string;
}

/** A live room: its settings. The live state (booth, votes, chat) lives in the room's Durable Object (apps/rooms-party). */
export const rooms = pgTable(
  "rooms",
  {
    uuid: id(),
    slug: text().notNull(),
    name: text().notNull(),
    description: text().notNull().default(""),
    vibe: text(),
    type: text({ enum: values(RoomType) })
      .notNull()
      .default("PUBLIC"),
    unlisted: boolean().notNull().default(false),
    djType: text({ enum: values(DjType) })
      .notNull()
      .default("EVERYONE"),
    musicProviderKeys: text().array().notNull().default(sql`'{}'::text[]`),
    numberOfDjs: integer().notNull().default(5),
    songsPerDj: integer(),
    roomSize: integer().notNull().default(500),
    entryFee: integer().notNull().default(0),
    freeEntries: integer().notNull().default(0),
    passwordHash: text(),
    guestPasswordHash: text(),
    promoted: boolean().notNull().default(false),
    /** Which music providers the promotion targets (empty: all). */
    promotedProviders: text().array().notNull().default(sql`'{}'::text[]`),
    pinnedMessages: jsonb().$type<PinnedMessage[]>().notNull().default([]),
    design: text({ enum: values(RoomDesign) })
      .notNull()
      .default("CLUB"),
    isLive: boolean().notNull().default(false),
    liveAudio: boolean().notNull().default(false),
    hasChat: boolean().notNull().default(true),
    /** Vote-skip: the share of the audience whose dislikes skip a song; null = off. */
    voteSkipThreshold: doublePrecision(),
    /** A full booth has a waitlist (the live room keeps it): who wants a seat lines up for the next one. */
    waitlistEnabled: boolean().notNull().default(false),
    /** A seated DJ idle this many minutes while not playing leaves the booth (the live room keeps the clock); null: never. */
    idleDjMinutes: integer(),
    /** The owner's crate the room plays from while no DJ has a song (the live room reads it); null: none. */
    roomCrateId: uuid().references(() => crates.id, { onDelete: "set null" }),
    posterUrl: text(),
    externalUrl: text(),
    /** What the live room reports as playing now, and how many DJs sit in the booth (for room lists). */
    nowPlaying: jsonb().$type<Record<string, unknown> | null>(),
    numberOfActiveDjs: integer().notNull().default(0),
    /** Messages the live room has received from its clients, as it reports them with its live state (metrics). */
    messagesReceived: bigint({ mode: "number" }).notNull().default(0),
    discordGuildId: text(),
    conversationId: text(),
    ownerUuid: userRef(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("rooms_slug_key").on(t.slug),
    index("rooms_owner_idx").on(t.ownerUuid),
    index("rooms_discord_idx").on(t.discordGuildId),
  ],
);

/** A user's role in one room (owner, coOwner, moderator, banned, chatDisabled, ...), optionally until a time. */
export const roomUserRoles = pgTable(
  "room_user_roles",
  {
    id: id(),
    roomUuid: roomRef(),
    userUuid: userRef(),
    role: text({ enum: values(RoomRole) }).notNull(),
    expirationTime: timestamp({ withTimezone: true }),
    grantedBy: uuid(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("room_user_roles_key").on(t.roomUuid, t.userUuid, t.role),
    index("room_user_roles_user_idx").on(t.userUuid),
  ],
);

/** Who is in a room now, as the live room reports it. */
export const roomPresence = pgTable(
  "room_presence",
  { roomUuid: roomRef(), userUuid: userRef(), joinedAt: createdAt() },
  (t) => [primaryKey({ columns: [t.roomUuid, t.userUuid] }), index("room_presence_user_idx").on(t.userUuid)],
);

/** The rooms a user visited, most recent first (`/rooms/recent`). */
export const roomVisits = pgTable(
  "room_visits",
  { userUuid: userRef(), roomUuid: roomRef(), visitedAt: createdAt() },
  (t) => [primaryKey({ columns: [t.userUuid, t.roomUuid] }), index("room_visits_user_idx").on(t.userUuid, t.visitedAt)],
);

export const roomFavorites = pgTable(
  "room_favorites",
  { id: id(), userUuid: userRef(), roomUuid: roomRef(), createdAt: createdAt() },
  (t) => [uniqueIndex("room_favorites_pair_key").on(t.userUuid, t.roomUuid)],
);

export interface VoteCounts {
  likes: number;
  dislikes: number;
  stars: number;
}

/** A song played in a room: the recent-songs list and the played time. */
export const roomPlays = pgTable(
  "room_plays",
  {
    id: id(),
    roomUuid: roomRef(),
    djUuid: uuid(),
    song: jsonb().$type<Record<string, unknown>>().notNull(),
    voteCounts: jsonb().$type<VoteCounts>().notNull(),
    durationSeconds: integer().notNull().default(0),
    playedAt: createdAt(),
  },
  (t) => [index("room_plays_room_idx").on(t.roomUuid, t.playedAt)],
);

export const communities = pgTable(
  "communities",
  {
    id: id(),
    slug: text().notNull(),
    name: text().notNull(),
    description: text().notNull().default(""),
    imageUrl: text(),
    isPublic: boolean().notNull().default(true),
    createdBy: uuid(),
    ...timestamps(),
  },
  (t) => [uniqueIndex("communities_slug_key").on(t.slug)],
);

export const communityMembers = pgTable(
  "community_members",
  {
    communityId: cascadeRef(() => communities.id),
    userUuid: userRef(),
    joinedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.communityId, t.userUuid] }), index("community_members_user_idx").on(t.userUuid)],
);

export const communityRooms = pgTable(
  "community_rooms",
  {
    communityId: cascadeRef(() => communities.id),
    roomUuid: roomRef(),
    addedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.communityId, t.roomUuid] }), index("community_rooms_room_idx").on(t.roomUuid)],
);

/** A scheduled session in a room. */
export const events = pgTable(
  "events",
  {
    id: id(),
    slug: text().notNull(),
    name: text().notNull(),
    description: text().notNull().default(""),
    imageUrl: text(),
    roomUuid: uuid().references(() => rooms.uuid, { onDelete: "set null" }),
    hostUuid: userRef(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    endsAt: timestamp({ withTimezone: true }).notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex("events_slug_key").on(t.slug), index("events_starts_idx").on(t.startsAt)],
);

/**
 * A Discord guild's choice of the channel where a followed DJ starting to play in one of its rooms is posted
 * (`/booth announce`). `channelId` null: announcements are off, with `offReason` saying why when Booth turned them
 * off itself (the channel gone, the bot shut out of it).
 */
export const discordAnnouncements = pgTable("discord_announcements", {
  guildId: text().primaryKey(),
  channelId: text(),
  /** The Discord user who last chose or stopped (their id). */
  changedBy: text(),
  offReason: text(),
  ...timestamps(),
});

/**
 * The last time a DJ's start in a room was posted to its guild's channel: at most one post per DJ per room per
 * 30 minutes, however many edges and workers. `startId` is the start that holds the claim (its job retries it).
 */
export const discordAnnounced = pgTable(
  "discord_announced",
  {
    roomUuid: roomRef(),
    djUuid: uuid().notNull(),
    startId: uuid().notNull(),
    announcedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.roomUuid, t.djUuid] })],
);

/**
 * A Discord Activity's room: the voice channel of a guild whose Activity plays in one Booth room. The first person to
 * start the Activity in the channel decides it (the guild's attached room free of another channel, else a new one);
 * everyone who joins the Activity there lands in the same room. One row per channel (the primary key): two first
 * starts at once make one room.
 */
export const discordActivityRooms = pgTable(
  "discord_activity_rooms",
  {
    guildId: text().notNull(),
    channelId: text().notNull(),
    roomUuid: roomRef(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.guildId, t.channelId] }), index("discord_activity_rooms_room_idx").on(t.roomUuid)],
);
