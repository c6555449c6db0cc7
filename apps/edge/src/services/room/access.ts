import { type Db, schema } from "@booth/db";
import type { RoomRole } from "@booth/db/schema";
import { roomRank as sharedRoomRank } from "@booth/sdk/live/permissions";
import { z } from "@hono/zod-openapi";
import { type AnyColumn, and, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { ADMINS, hasAnyRole, type User } from "../../lib/auth.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { forbidden, found } from "../../lib/errors.ts";
import { pathKey } from "../../lib/openapi.ts";
import { preparedPerDb } from "../../lib/sql-json.ts";

export type Room = typeof schema.rooms.$inferSelect;

export const ROOM_NOT_FOUND = errorMessage("ROOM_NOT_FOUND");

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (key: string) => UUID.test(key);

/** A room named in a path: by its slug, or by its uuid. */
export const RoomSlugParam = z.object({ slug: pathKey("slug", "the room's slug (or uuid)") });
/** The lookup `findRoom` takes for a path's room key. */
export const roomKey = (key: string) => (isUuid(key) ? { uuid: key.toLowerCase() } : { slug: key });

/**
 * Who may change what in a room: owner > coOwner > moderator > everyone else, and the platform's global
 * moderators, staff and admins above every room role. One rule for the edge, the live room and the web
 * (`@booth/sdk/live/permissions`).
 */
export { ROOM_RANK } from "@booth/sdk/live/permissions";

/** Roles in force: those without an expiration, or expiring later than `now`. */
export const roleInForce = (now: Date) =>
  or(isNull(schema.roomUserRoles.expirationTime), gt(schema.roomUserRoles.expirationTime, now));

/**
 * A room's roles in force: all of them, or those held by `user` (a uuid, a column, or any of several uuids), of the
 * `roles` given.
 */
export function roomRolesWhere(
  roomUuid: string,
  now: Date,
  { user, roles }: { user?: string | AnyColumn | string[]; roles?: RoomRole[] } = {},
) {
  const r = schema.roomUserRoles;
  return and(
    eq(r.roomUuid, roomUuid),
    user === undefined ? undefined : Array.isArray(user) ? inArray(r.userUuid, user) : eq(r.userUuid, user),
    roles ? inArray(r.role, roles) : undefined,
    roleInForce(now),
  );
}

/** The prepared lookup of a room by one of its keys. */
const roomBy = (key: "uuid" | "slug") =>
  preparedPerDb((db) =>
    db
      .select()
      .from(schema.rooms)
      .where(eq(schema.rooms[key], sql.placeholder("key")))
      .limit(1)
      .prepare(`room_by_${key}`),
  );
const roomByUuid = roomBy("uuid");
const roomBySlug = roomBy("slug");

export async function findRoom(db: Db, key: { uuid?: string; slug?: string }): Promise<Room | null> {
  const [room] = key.uuid
    ? await roomByUuid(db).execute({ key: key.uuid })
    : await roomBySlug(db).execute({ key: (key.slug ?? "").toLowerCase() });
  return room ?? null;
}

export async function loadRoom(db: Db, key: { uuid?: string; slug?: string }): Promise<Room> {
  return found(await findRoom(db, key), ROOM_NOT_FOUND);
}

/** The room `uuid` names, when `user` owns it or is an admin (room roles do not count); else a 403 saying `refusal`. */
export async function ownedRoom(db: Db, uuid: string, user: Pick<User, "uuid" | "roles">, refusal: string) {
  const room = await loadRoom(db, { uuid });
  if (room.ownerUuid !== user.uuid && !hasAnyRole(user.roles, ADMINS)) throw forbidden(refusal);
  return room;
}

export async function roomRolesOf(db: Db, roomUuid: string, userUuid: string, now: Date): Promise<RoomRole[]> {
  const rows = await db
    .select({ role: schema.roomUserRoles.role })
    .from(schema.roomUserRoles)
    .where(roomRolesWhere(roomUuid, now, { user: userUuid }));
  return rows.map((r) => r.role);
}

/** A user's rank in a room, global roles included (a global moderator outranks any owner). */
export const rankFrom = (
  room: Room,
  userUuid: string,
  globalRoles: readonly User["roles"][number][],
  roles: RoomRole[],
) => sharedRoomRank(room, userUuid, globalRoles, roles);

export async function roomRank(db: Db, room: Room, user: Pick<User, "uuid" | "roles">, now: Date) {
  return rankFrom(room, user.uuid, user.roles, await roomRolesOf(db, room.uuid, user.uuid, now));
}

/** Refuses (403) unless the user holds at least `min` in the room. */
export async function requireRoomRank(
  db: Db,
  room: Room,
  user: Pick<User, "uuid" | "roles">,
  now: Date,
  min: number,
  message = "You are not allowed to do that in this room.",
) {
  const rank = await roomRank(db, room, user, now);
  if (rank < min) throw forbidden(message);
  return rank;
}
