import { type Db, schema } from "@booth/db";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { User } from "../../../lib/auth.ts";
import { badRequest, forbidden, found, notFound } from "../../../lib/errors.ts";
import { firstRow } from "../../../lib/rows.ts";
import { ROOM_NOT_FOUND } from "../access.ts";
import { USER_NOT_FOUND } from "../users.ts";
import { COMMUNITY_MESSAGES, type CommunityRow, isCommunityAdmin, iso } from "./community.ts";
import { checkRoomAddition, checkRoomRemoval } from "./community-rooms.ts";

/** Refuses (404) unless every uuid is an active user. */
export async function requireActiveUsers(db: Db, uuids: string[]) {
  if (!uuids.length) return;
  const rows = await db
    .select({ uuid: schema.users.uuid, deactivatedAt: schema.users.deactivatedAt })
    .from(schema.users)
    .where(inArray(schema.users.uuid, uuids));
  const active = new Set(rows.filter((r) => !r.deactivatedAt).map((r) => r.uuid));
  if (uuids.some((u) => !active.has(u))) throw notFound(USER_NOT_FOUND);
}

const memberWhere = (communityId: string, userUuid: string) =>
  and(eq(schema.communityMembers.communityId, communityId), eq(schema.communityMembers.userUuid, userUuid));

/** A community's members with their profiles, the earliest first. */
export async function membersOf(db: Db, communityId: string, limit: number, offset: number) {
  const m = schema.communityMembers;
  const rows = await db
    .select({
      userUuid: m.userUuid,
      nickname: schema.profiles.nickname,
      avatarId: schema.profiles.avatarId,
      profilePicture: schema.profiles.profilePicture,
      joinedAt: m.joinedAt,
    })
    .from(m)
    .leftJoin(schema.profiles, eq(schema.profiles.userUuid, m.userUuid))
    .where(eq(m.communityId, communityId))
    .orderBy(asc(m.joinedAt), m.userUuid)
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({ ...r, joinedAt: iso(r.joinedAt) }));
}

/** Makes a user a member; a member already changes nothing. */
export async function join(db: Db, communityId: string, userUuid: string, now: Date) {
  await db.insert(schema.communityMembers).values({ communityId, userUuid, joinedAt: now }).onConflictDoNothing();
}

/** Ends a membership; answers whether there was one. */
export async function leave(db: Db, communityId: string, userUuid: string) {
  const deleted = await db
    .delete(schema.communityMembers)
    .where(memberWhere(communityId, userUuid))
    .returning({ userUuid: schema.communityMembers.userUuid });
  return deleted.length > 0;
}

/** Adds an (active) member, or finds them there already; answers the membership. */
export async function addMember(db: Db, communityId: string, userUuid: string, now: Date) {
  await requireActiveUsers(db, [userUuid]);
  await join(db, communityId, userUuid, now);
  const member = await firstRow(db, schema.communityMembers, memberWhere(communityId, userUuid));
  const row = found(member, COMMUNITY_MESSAGES.userNotMember);
  return { ...row, joinedAt: iso(row.joinedAt) };
}

export type Change = { roomUuids?: string[] | undefined; userUuids?: string[] | undefined };

/**
 * Checks every room and user of an /add or /remove before anything changes: users only by the community's admins
 * (anyone may name themselves), rooms as the single routes allow.
 */
export async function checkChange(
  db: Db,
  community: CommunityRow,
  user: User,
  body: Change,
  adding: boolean,
  now: Date,
) {
  const roomUuids = [...new Set(body.roomUuids ?? [])];
  const userUuids = [...new Set(body.userUuids ?? [])];
  if (!roomUuids.length && !userUuids.length) throw badRequest(COMMUNITY_MESSAGES.emptyChange);
  const admin = isCommunityAdmin(community, user);
  const onlySelf = userUuids.every((u) => u === user.uuid);
  if (!admin && !onlySelf) throw forbidden(COMMUNITY_MESSAGES.notAdmin);
  if (adding && !admin && userUuids.length && !community.isPublic) throw forbidden(COMMUNITY_MESSAGES.notAdmin);
  if (adding) await requireActiveUsers(db, userUuids);
  const rooms = roomUuids.length
    ? await db.select().from(schema.rooms).where(inArray(schema.rooms.uuid, roomUuids))
    : [];
  if (rooms.length !== roomUuids.length) throw notFound(ROOM_NOT_FOUND);
  for (const room of rooms) await (adding ? checkRoomAddition : checkRoomRemoval)(db, community, room, user, now);
  return { roomUuids, userUuids };
}

/** Adds rooms and members at once, all or none; ones in it already are skipped. */
export async function addAll(
  db: Db,
  communityId: string,
  change: { roomUuids: string[]; userUuids: string[] },
  now: Date,
) {
  await db.transaction(async (tx) => {
    if (change.roomUuids.length)
      await tx
        .insert(schema.communityRooms)
        .values(change.roomUuids.map((roomUuid) => ({ communityId, roomUuid, addedAt: now })))
        .onConflictDoNothing();
    if (change.userUuids.length)
      await tx
        .insert(schema.communityMembers)
        .values(change.userUuids.map((userUuid) => ({ communityId, userUuid, joinedAt: now })))
        .onConflictDoNothing();
  });
}

/** Takes rooms and members out at once, all or none; ones not in it are skipped. */
export async function removeAll(db: Db, communityId: string, change: { roomUuids: string[]; userUuids: string[] }) {
  const rooms = schema.communityRooms;
  const members = schema.communityMembers;
  await db.transaction(async (tx) => {
    for (const [table, column, uuids] of [
      [rooms, rooms.roomUuid, change.roomUuids],
      [members, members.userUuid, change.userUuids],
    ] as const)
      if (uuids.length) await tx.delete(table).where(and(eq(table.communityId, communityId), inArray(column, uuids)));
  });
}
