import { type Db, schema } from "@booth/db";
import { DjType, RoomDesign, RoomRole, RoomType, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { and, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../../lib/context.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { badRequest, forbidden, notFound } from "../../lib/errors.ts";
import { isoOrNull } from "../../lib/json-rows.ts";
import { Timestamps } from "../../lib/openapi.ts";
import { hashPassword } from "../../lib/password.ts";
import { type Room, roomRolesWhere } from "./access.ts";

export const MAX_DJ_SEATS = 10;
export const MAX_PINNED_MESSAGES = 5;

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** `name` as lower-case words joined by dashes (accents dropped, anything else a dash), at most `max` characters. */
export const dashedWords = (name: string, max: number) =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, max)
    .replace(/-+$/, "");

/** A room's slug from its name: lower-case words joined by dashes. */
export const slugify = (name: string) => dashedWords(name, 60) || "room";

/** `wanted`, or `wanted-2`, `wanted-3`... whichever is free. */
export async function freeSlug(db: Db, wanted: string, exceptUuid?: string) {
  const taken = await db
    .select({ slug: schema.rooms.slug, uuid: schema.rooms.uuid })
    .from(schema.rooms)
    .where(sql`${schema.rooms.slug} = ${wanted} or ${schema.rooms.slug} like ${`${wanted}-%`}`);
  const used = new Set(taken.filter((r) => r.uuid !== exceptUuid).map((r) => r.slug));
  if (!used.has(wanted)) return wanted;
  for (let n = 2; ; n++) if (!used.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
}

export const roomUsersCount = sql<number>`(select count(*)::int from ${schema.roomPresence} where ${schema.roomPresence.roomUuid} = ${schema.rooms.uuid})`;

/** Rooms with the number of people in each. */
export const selectRooms = (db: Db) =>
  db
    .select({ ...getTableColumns(schema.rooms), numberOfUsersInRoom: roomUsersCount })
    .from(schema.rooms)
    .$dynamic();
export type RoomRow = Room & { numberOfUsersInRoom: number };

export async function roomRowsByUuid(db: Db, uuids: string[]): Promise<RoomRow[]> {
  if (!uuids.length) return [];
  return selectRooms(db).where(inArray(schema.rooms.uuid, uuids));
}

/** What anyone may see of a room: no password hashes, only whether there are passwords. */
export function roomView(room: Room & { numberOfUsersInRoom?: number }, extra: { favorited?: boolean } = {}) {
  return {
    uuid: room.uuid,
    slug: room.slug,
    name: room.name,
    description: room.description,
    vibe: room.vibe,
    type: room.type,
    unlisted: room.unlisted,
    djType: room.djType,
    musicProviderKeys: room.musicProviderKeys,
    numberOfDjs: room.numberOfDjs,
    songsPerDj: room.songsPerDj,
    roomSize: room.roomSize,
    entryFee: room.entryFee,
    freeEntries: room.freeEntries,
    isPasswordProtected: room.passwordHash !== null,
    isGuestPasswordProtected: room.guestPasswordHash !== null,
    promoted: room.promoted,
    promotedProviders: room.promotedProviders,
    pinnedMessages: room.pinnedMessages,
    design: room.design,
    isLive: room.isLive,
    liveAudio: room.liveAudio,
    hasChat: room.hasChat,
    voteSkipThreshold: room.voteSkipThreshold,
    waitlistEnabled: room.waitlistEnabled,
    idleDjMinutes: room.idleDjMinutes,
    roomCrateId: room.roomCrateId,
    posterUrl: room.posterUrl,
    externalUrl: room.externalUrl,
    discordGuildId: room.discordGuildId,
    song: room.nowPlaying ?? null,
    numberOfActiveDjs: room.numberOfActiveDjs,
    numberOfUsersInRoom: room.numberOfUsersInRoom ?? 0,
    ownerUuid: room.ownerUuid,
    favorited: extra.favorited ?? false,
    createdAt: room.createdAt.toISOString(),
    updatedAt: room.updatedAt.toISOString(),
  };
}

const PinnedMessageSchema = z.object({
  id: z.string(),
  message: z.string(),
  userUuid: z.string(),
  createdAt: z.string(),
});

export const RoomSchema = z
  .object({
    uuid: z.uuid(),
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    vibe: z.string().nullable(),
    type: z.enum(values(RoomType)),
    unlisted: z.boolean(),
    djType: z.enum(values(DjType)),
    musicProviderKeys: z.array(z.string()),
    numberOfDjs: z.number().int(),
    songsPerDj: z.number().int().nullable(),
    roomSize: z.number().int(),
    entryFee: z.number().int(),
    freeEntries: z.number().int(),
    isPasswordProtected: z.boolean(),
    isGuestPasswordProtected: z.boolean(),
    promoted: z.boolean(),
    promotedProviders: z.array(z.string()),
    pinnedMessages: z.array(PinnedMessageSchema),
    design: z.enum(values(RoomDesign)),
    isLive: z.boolean(),
    liveAudio: z.boolean(),
    hasChat: z.boolean(),
    voteSkipThreshold: z.number().nullable(),
    waitlistEnabled: z.boolean(),
    idleDjMinutes: z.number().int().nullable(),
    roomCrateId: z.uuid().nullable(),
    posterUrl: z.string().nullable(),
    externalUrl: z.string().nullable(),
    discordGuildId: z.string().nullable(),
    song: z.record(z.string(), z.unknown()).nullable(),
    numberOfActiveDjs: z.number().int(),
    numberOfUsersInRoom: z.number().int(),
    ownerUuid: z.uuid(),
    favorited: z.boolean(),
    ...Timestamps,
  })
  .openapi("Room");

export const RoomRoleSchema = z
  .object({
    userUuid: z.uuid(),
    role: z.enum(values(RoomRole)),
    expirationTime: z.string().nullable(),
  })
  .openapi("RoomUserRole");

/** Roles anyone may see; the rest (sanctions: banned, kicked, chatDisabled, djDisabled) only the room's moderators. */
export const VISIBLE_ROLES: readonly RoomRole[] = ["owner", "coOwner", "moderator", "dj"];

/** Settings as someone below the room's moderators may see them: the sanctions left out. */
export const withoutSanctions = <S extends { roomRoles: { role: RoomRole }[] }>(settings: S): S => ({
  ...settings,
  roomRoles: settings.roomRoles.filter((r) => VISIBLE_ROLES.includes(r.role)),
});

/** The room as the live room needs it: the settings and every role in force, the owner's included. */
export const RoomSettingsSchema = RoomSchema.extend({ roomRoles: z.array(RoomRoleSchema) }).openapi("RoomSettings");

export async function rolesInForce(db: Db, roomUuid: string, now: Date) {
  const rows = await db
    .select()
    .from(schema.roomUserRoles)
    .where(roomRolesWhere(roomUuid, now))
    .orderBy(schema.roomUserRoles.createdAt);
  return rows.map((r) => ({ userUuid: r.userUuid, role: r.role, expirationTime: isoOrNull(r.expirationTime) }));
}

export async function settingsView(db: Db, room: RoomRow | Room, now: Date) {
  const roles = await rolesInForce(db, room.uuid, now);
  if (!roles.some((r) => r.role === "owner" && r.userUuid === room.ownerUuid))
    roles.unshift({ userUuid: room.ownerUuid, role: "owner", expirationTime: null });
  let numberOfUsersInRoom = "numberOfUsersInRoom" in room ? room.numberOfUsersInRoom : undefined;
  if (numberOfUsersInRoom === undefined) {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(schema.roomPresence)
      .where(eq(schema.roomPresence.roomUuid, room.uuid));
    numberOfUsersInRoom = row?.n ?? 0;
  }
  return { ...roomView({ ...room, numberOfUsersInRoom }), roomRoles: roles };
}

/** Favourite flags of the caller for a page of rooms. */
export async function favoritedSet(db: Db, userUuid: string | undefined, roomUuids: string[]) {
  if (!userUuid || !roomUuids.length) return new Set<string>();
  const rows = await db
    .select({ roomUuid: schema.roomFavorites.roomUuid })
    .from(schema.roomFavorites)
    .where(and(eq(schema.roomFavorites.userUuid, userUuid), inArray(schema.roomFavorites.roomUuid, roomUuids)));
  return new Set(rows.map((r) => r.roomUuid));
}

/** Whose favourites room views flag: the caller's, with a user or bot token. */
export function favoritesOwner(c: Context<AppEnv>) {
  const auth = c.var.auth;
  return auth && (auth.type === "user" || auth.type === "bot") ? auth.sub : undefined;
}

/** Room views for a caller (user token: favourite flags). */
export async function roomViews(c: Context<AppEnv>, rooms: RoomRow[]) {
  const me = favoritesOwner(c);
  const favorites = await favoritedSet(
    c.var.deps.db,
    me,
    rooms.map((r) => r.uuid),
  );
  return rooms.map((r) => roomView(r, { favorited: favorites.has(r.uuid) }));
}

// Inputs -----------------------------------------------------------------------------------------------------------

const trimmed = (min: number, max: number) => z.string().trim().min(min).max(max);
export const PasswordInput = z.string().min(4).max(128).nullable();

/** Everything an owner sets on a room; `PATCH` takes any subset. */
export const RoomSettingsInput = z
  .object({
    name: trimmed(2, 80),
    slug: z.string().trim().toLowerCase().min(2).max(60).regex(SLUG_PATTERN, "slug: lower-case words joined by dashes"),
    description: z.string().trim().max(2000),
    vibe: trimmed(1, 80).nullable(),
    type: z.enum(values(RoomType)),
    unlisted: z.boolean(),
    djType: z.enum(values(DjType)),
    musicProviderKeys: z.array(trimmed(1, 40)).max(20),
    numberOfDjs: z.number().int().min(1).max(MAX_DJ_SEATS),
    songsPerDj: z.number().int().min(1).max(100).nullable(),
    roomSize: z.number().int().min(2).max(10_000),
    entryFee: z.number().int().min(0).max(100_000),
    freeEntries: z.number().int().min(0).max(1_000_000),
    password: PasswordInput,
    design: z.enum(values(RoomDesign)),
    hasChat: z.boolean(),
    voteSkipThreshold: z.number().gt(0).max(1).nullable(),
    waitlistEnabled: z.boolean(),
    idleDjMinutes: z.number().int().min(1).max(240).nullable(),
    roomCrateId: z
      .uuid()
      .nullable()
      .openapi({ description: "one of the owner's crates the room plays while no DJ has a song; null: none" }),
  })
  .partial()
  .strict();
export type RoomSettingsInput = z.infer<typeof RoomSettingsInput>;

export const ROOM_CRATE_OWNER_ONLY = errorMessage("ROOM_CRATE_OWNER_ONLY");
export const ROOM_CRATE_NOT_OWNERS = "The room crate must be one of the room owner's crates.";
export const ROOM_CRATE_SPECIAL = errorMessage("ROOM_CRATE_NOT_A_PLAYLIST");

/** A room crate an owner picks: a playlist of theirs (404 when it does not exist, 403 another's, 400 queue or likes). */
export async function checkRoomCrate(db: Db, crateId: string, ownerUuid: string) {
  const [crate] = await db
    .select({ userUuid: schema.crates.userUuid, kind: schema.crates.kind })
    .from(schema.crates)
    .where(eq(schema.crates.id, crateId));
  if (!crate) throw notFound("Crate not found.");
  if (crate.userUuid !== ownerUuid) throw forbidden(ROOM_CRATE_NOT_OWNERS);
  if (crate.kind !== "default") throw badRequest(ROOM_CRATE_SPECIAL);
}

/**
 * The columns an input changes; passwords are hashed, a null password removes it. `room` is the room changed (its
 * slug may stay its own; its room crate must be its owner's).
 */
export async function settingsColumns(db: Db, input: RoomSettingsInput, room: { uuid?: string; ownerUuid: string }) {
  const { password, slug, ...rest } = input;
  const exceptUuid = room.uuid;
  const set: Partial<typeof schema.rooms.$inferInsert> = { ...rest };
  if (input.roomCrateId) await checkRoomCrate(db, input.roomCrateId, room.ownerUuid);
  if (password !== undefined) set.passwordHash = password === null ? null : await hashPassword(password);
  if (slug !== undefined) {
    if ((await freeSlug(db, slug, exceptUuid)) !== slug) throw badRequest("This room slug is already taken.");
    set.slug = slug;
  }
  return set;
}
