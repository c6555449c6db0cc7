import { type Db, schema } from "@booth/db";
import type { RoomRole } from "@booth/db/schema";
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { badRequest, forbidden, notFound } from "../../lib/errors.ts";
import { jsonPick } from "../../lib/json-rows.ts";
import { firstRow, returnedRow } from "../../lib/rows.ts";
import { logModeration } from "../audit/public.ts";
import { activeBan, banInForce } from "../user/public.ts";
import { ROOM_RANK, type Room, rankFrom, roomRolesOf, roomRolesWhere } from "./access.ts";
import { loadUser, USER_NOT_FOUND } from "./users.ts";

/** How long a kick keeps someone out of the room. */
export const KICK_SECONDS = 5 * 60;

/** The rank needed to give or take each room role. */
export const GRANT_RANK: Record<RoomRole, number> = {
  owner: Number.POSITIVE_INFINITY,
  coOwner: ROOM_RANK.owner,
  moderator: ROOM_RANK.coOwner,
  banned: ROOM_RANK.moderator,
  kicked: ROOM_RANK.moderator,
  chatDisabled: ROOM_RANK.moderator,
  djDisabled: ROOM_RANK.moderator,
  dj: ROOM_RANK.moderator,
};
export const SANCTIONS: readonly RoomRole[] = ["banned", "kicked", "chatDisabled", "djDisabled"];

export const ROLE_MESSAGES = {
  notAllowed: "You are not allowed to change this user's roles in this room.",
  self: "You cannot change your own roles this way.",
  owner: "Use change-owner to give the room to someone else.",
  notFound: "This user does not have that role in this room.",
  pastExpiration: "expirationTime must be in the future.",
} as const;

type RoleRow = typeof schema.roomUserRoles.$inferSelect;
export const roleView = (r: RoleRow) =>
  jsonPick(r, "id", "roomUuid", "userUuid", "role", "expirationTime", "createdAt");

/** A user (404 when unknown) and their rank in the room. */
export async function targetRank(db: Db, room: Room, userUuid: string, now: Date) {
  const target = await loadUser(db, userUuid);
  return {
    target,
    rank: rankFrom(room, target.uuid, target.roles, await roomRolesOf(db, room.uuid, target.uuid, now)),
  };
}

/**
 * May a caller of rank `rank` change `role` for `userUuid`? Only above the role's grant rank and strictly above the
 * target; never the owner role, never their own.
 */
export async function checkRoleChange(
  db: Db,
  room: Room,
  caller: { uuid: string; rank: number },
  userUuid: string,
  role: RoomRole,
  now: Date,
) {
  if (role === "owner") throw badRequest(ROLE_MESSAGES.owner);
  if (caller.uuid === userUuid) throw forbidden(ROLE_MESSAGES.self);
  const target = await targetRank(db, room, userUuid, now);
  if (caller.rank < GRANT_RANK[role] || caller.rank <= target.rank) throw forbidden(ROLE_MESSAGES.notAllowed);
  return target.target;
}

const MODERATION_ACTION = { banned: "banUser", kicked: "kickUser" } as const;

/** Gives (or renews) a room role and logs it as a moderation action. */
export async function grantRole(
  db: Db,
  room: Room,
  g: { userUuid: string; role: RoomRole; expiration: Date | null; by: string; reason: string | null; now: Date },
) {
  return db.transaction(async (tx) => {
    const row = await returnedRow(
      "role upsert",
      tx
        .insert(schema.roomUserRoles)
        .values({
          roomUuid: room.uuid,
          userUuid: g.userUuid,
          role: g.role,
          expirationTime: g.expiration,
          grantedBy: g.by,
          createdAt: g.now,
        })
        .onConflictDoUpdate({
          target: [schema.roomUserRoles.roomUuid, schema.roomUserRoles.userUuid, schema.roomUserRoles.role],
          set: { expirationTime: g.expiration, grantedBy: g.by, createdAt: g.now },
        })
        .returning(),
    );
    await logModeration(tx, {
      actionType:
        g.role in MODERATION_ACTION ? MODERATION_ACTION[g.role as keyof typeof MODERATION_ACTION] : "grantRole",
      moderatorUuid: g.by,
      targetUuid: g.userUuid,
      roomUuid: room.uuid,
      role: g.role,
      reason: g.reason,
      expiresAt: g.expiration,
      now: g.now,
    });
    return row;
  });
}

/** Takes a room role away and logs it; a 404 when the user does not hold it. */
export async function removeRole(db: Db, room: Room, r: { userUuid: string; role: RoomRole; by: string; now: Date }) {
  const removed = await db.transaction(async (tx) => {
    const rows = await tx
      .delete(schema.roomUserRoles)
      .where(
        and(
          eq(schema.roomUserRoles.roomUuid, room.uuid),
          eq(schema.roomUserRoles.userUuid, r.userUuid),
          eq(schema.roomUserRoles.role, r.role),
        ),
      )
      .returning();
    if (rows.length)
      await logModeration(tx, {
        actionType: "removeRole",
        moderatorUuid: r.by,
        targetUuid: r.userUuid,
        roomUuid: room.uuid,
        role: r.role,
        now: r.now,
      });
    return rows.length;
  });
  if (!removed) throw notFound(ROLE_MESSAGES.notFound);
}

/** Of `ids`, those who must not show on the room's dance floor: banned or kicked there, banned or gone. */
export async function offDancefloor(db: Db, roomUuid: string, ids: string[], now: Date) {
  const sanctioned = await db
    .select({ uuid: schema.roomUserRoles.userUuid })
    .from(schema.roomUserRoles)
    .where(roomRolesWhere(roomUuid, now, { user: ids, roles: ["banned", "kicked"] }));
  const gone = await db
    .select({ uuid: schema.users.uuid })
    .from(schema.users)
    .where(and(inArray(schema.users.uuid, ids), isNotNull(schema.users.deactivatedAt)));
  const banned = await db
    .select({ uuid: schema.sanctions.userUuid })
    .from(schema.sanctions)
    .where(and(inArray(schema.sanctions.userUuid, ids), banInForce(now)));
  const out = new Set([...sanctioned, ...gone, ...banned].map((r) => r.uuid));
  return ids.filter((id) => out.has(id));
}

/** Gives the room to `userUuid` (active, not banned); the previous owner stays as co-owner. Answers the room. */
export async function changeOwner(db: Db, room: Room, userUuid: string, by: string, now: Date) {
  if (userUuid === room.ownerUuid) throw badRequest("This user already owns the room.");
  const next = await firstRow(db, schema.users, eq(schema.users.uuid, userUuid));
  if (!next || next.deactivatedAt) throw notFound(USER_NOT_FOUND);
  if (await activeBan(db, userUuid, now)) throw forbidden("This account is banned.");
  return db.transaction(async (tx) => {
    // The new owner's sanctions and lesser roles in the room end; the old owner becomes a co-owner.
    await tx
      .delete(schema.roomUserRoles)
      .where(and(eq(schema.roomUserRoles.roomUuid, room.uuid), eq(schema.roomUserRoles.userUuid, userUuid)));
    await tx
      .insert(schema.roomUserRoles)
      .values({ roomUuid: room.uuid, userUuid: room.ownerUuid, role: "coOwner", grantedBy: by, createdAt: now })
      .onConflictDoNothing();
    const [row] = await tx
      .update(schema.rooms)
      .set({ ownerUuid: userUuid, updatedAt: now })
      .where(eq(schema.rooms.uuid, room.uuid))
      .returning();
    await logModeration(tx, {
      actionType: "grantRole",
      moderatorUuid: by,
      targetUuid: userUuid,
      roomUuid: room.uuid,
      role: "owner",
      now,
    });
    return row ?? room;
  });
}
