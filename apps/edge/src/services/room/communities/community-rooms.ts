import { type Db, schema } from "@booth/db";
import { and, desc, eq, exists, inArray, or, type SQL, sql } from "drizzle-orm";
import { highestRank, ROLE_RANK, type User } from "../../../lib/auth.ts";
import { forbidden, found, notFound } from "../../../lib/errors.ts";
import { pageWhere } from "../../../lib/pages.ts";
import { firstRow } from "../../../lib/rows.ts";
import { ROOM_RANK, type Room, roleInForce, roomRank } from "../access.ts";
import { roomUsersCount, selectRooms } from "../rooms.ts";
import { COMMUNITY_MESSAGES, type CommunityRow, isCommunityAdmin, iso } from "./community.ts";

/** Rooms a caller may see in a community's list: listed public ones, and those they help run (staff: all). */
function roomsVisibleTo(user: User | null, now: Date): SQL | undefined {
  const listed = and(eq(schema.rooms.type, "PUBLIC"), eq(schema.rooms.unlisted, false));
  if (!user) return listed;
  if (highestRank(user.roles) >= ROLE_RANK.globalModerator) return undefined;
  const r = schema.roomUserRoles;
  return or(
    listed,
    eq(schema.rooms.ownerUuid, user.uuid),
    exists(
      sql`(select 1 from ${r} where ${r.roomUuid} = ${schema.rooms.uuid} and ${r.userUuid} = ${user.uuid} and ${inArray(r.role, ["owner", "coOwner", "moderator"])} and ${roleInForce(now) ?? sql`true`})`,
    ),
  );
}

/** May `user` put `room` into the community? Its owner or co-owners may, into public ones or ones they run. */
export async function checkRoomAddition(db: Db, community: CommunityRow, room: Room, user: User, now: Date) {
  if ((await roomRank(db, room, user, now)) < ROOM_RANK.coOwner) throw forbidden(COMMUNITY_MESSAGES.notRoomOwner);
  if (!community.isPublic && !isCommunityAdmin(community, user)) throw forbidden(COMMUNITY_MESSAGES.privateCommunity);
}

/** May `user` take `room` out? The community's admins, or the room's owner or co-owners. */
export async function checkRoomRemoval(db: Db, community: CommunityRow, room: Room, user: User, now: Date) {
  if (isCommunityAdmin(community, user)) return;
  if ((await roomRank(db, room, user, now)) < ROOM_RANK.coOwner) throw forbidden(COMMUNITY_MESSAGES.mayNotRemoveRoom);
}

/** A community's rooms as `user` may see them, the busiest first. */
export async function communityRoomPage(
  db: Db,
  communityId: string,
  user: User | null,
  now: Date,
  limit: number,
  offset: number,
) {
  const where = and(
    inArray(
      schema.rooms.uuid,
      db
        .select({ uuid: schema.communityRooms.roomUuid })
        .from(schema.communityRooms)
        .where(eq(schema.communityRooms.communityId, communityId)),
    ),
    roomsVisibleTo(user, now),
  );
  const rooms = selectRooms(db)
    .where(where)
    .orderBy(desc(roomUsersCount), desc(schema.rooms.createdAt), schema.rooms.uuid);
  return pageWhere(db, schema.rooms, where, rooms, { limit, offset });
}

const inCommunity = (communityId: string, roomUuid: string) =>
  and(eq(schema.communityRooms.communityId, communityId), eq(schema.communityRooms.roomUuid, roomUuid));

/** Puts a room in a community (checked); `created` is false when it was there already. */
export async function addRoom(db: Db, community: CommunityRow, room: Room, user: User, now: Date) {
  await checkRoomAddition(db, community, room, user, now);
  const [added] = await db
    .insert(schema.communityRooms)
    .values({ communityId: community.id, roomUuid: room.uuid, addedAt: now })
    .onConflictDoNothing()
    .returning();
  if (added) return { entry: { ...added, addedAt: iso(added.addedAt) }, created: true };
  const existing = await firstRow(db, schema.communityRooms, inCommunity(community.id, room.uuid));
  const entry = found(existing, COMMUNITY_MESSAGES.roomNotInCommunity);
  return { entry: { ...entry, addedAt: iso(entry.addedAt) }, created: false };
}

/** Takes a room out of a community (checked); a 404 when it is not in it. */
export async function removeRoom(db: Db, community: CommunityRow, room: Room, user: User, now: Date) {
  await checkRoomRemoval(db, community, room, user, now);
  const deleted = await db
    .delete(schema.communityRooms)
    .where(inCommunity(community.id, room.uuid))
    .returning({ roomUuid: schema.communityRooms.roomUuid });
  if (!deleted.length) throw notFound(COMMUNITY_MESSAGES.roomNotInCommunity);
}
