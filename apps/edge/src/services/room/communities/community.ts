import { type Db, schema } from "@booth/db";
import { eq, getTableColumns, sql } from "drizzle-orm";
import { hasAnyRole, STAFF, type User } from "../../../lib/auth.ts";
import { found, notFound } from "../../../lib/errors.ts";
import { findRoom, ROOM_NOT_FOUND } from "../access.ts";
import { looksLikeSlug, looksLikeUuid } from "../slugs.ts";

/** A community: rooms and members gathered under one name, run by its admin (createdBy) and staff. */
export const COMMUNITY_NOT_FOUND = "Community not found.";
export const COMMUNITY_MESSAGES = {
  slugTaken: "This community slug is already taken.",
  notAdmin: "Only this community's admins may do that.",
  notRoomOwner: "Only the room's owner or co-owners may add it to a community.",
  privateCommunity: "Only this community's admins may add rooms to a private community.",
  mayNotRemoveRoom: "Only this community's admins or the room's owner or co-owners may take it out.",
  roomNotInCommunity: "This room is not in this community.",
  userNotMember: "This user is not a member of this community.",
  emptyChange: "Give roomUuids or userUuids.",
} as const;

export type Community = typeof schema.communities.$inferSelect;
export type CommunityRow = Community & { memberCount: number; roomCount: number; joined: boolean };

export const memberCount = sql<number>`(select count(*)::int from ${schema.communityMembers} where ${schema.communityMembers.communityId} = ${schema.communities.id})`;
export const roomCount = sql<number>`(select count(*)::int from ${schema.communityRooms} where ${schema.communityRooms.communityId} = ${schema.communities.id})`;
const joinedBy = (userUuid: string | undefined) =>
  userUuid
    ? sql<boolean>`exists (select 1 from ${schema.communityMembers} where ${schema.communityMembers.communityId} = ${schema.communities.id} and ${schema.communityMembers.userUuid} = ${userUuid})`
    : sql<boolean>`false`;

/** Communities with their counts, and whether the viewer is a member. */
export const selectCommunities = (db: Db, viewerUuid?: string) =>
  db
    .select({ ...getTableColumns(schema.communities), memberCount, roomCount, joined: joinedBy(viewerUuid) })
    .from(schema.communities)
    .$dynamic();

export const iso = (d: Date) => d.toISOString();

export const communityView = (row: CommunityRow) => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  description: row.description,
  imageUrl: row.imageUrl,
  isPublic: row.isPublic,
  createdBy: row.createdBy,
  memberCount: row.memberCount,
  roomCount: row.roomCount,
  joined: row.joined,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

const hasStaffRole = (user: User) => hasAnyRole(user.roles, STAFF);
export const isCommunityAdmin = (community: Community, user: User | null) =>
  !!user && (community.createdBy === user.uuid || hasStaffRole(user));

/** Public communities are open to all; private ones only to their members and admins (others get a 404). */
export const visibleTo = (row: CommunityRow, user: User | null) =>
  row.isPublic || row.joined || isCommunityAdmin(row, user);

/** The community a path names (id or slug) as `user` may see it, or a 404. */
export async function loadCommunity(db: Db, key: string, user: User | null) {
  if (!looksLikeUuid(key) && !looksLikeSlug(key)) throw notFound(COMMUNITY_NOT_FOUND);
  const where = looksLikeUuid(key)
    ? eq(schema.communities.id, key)
    : eq(schema.communities.slug, key.trim().toLowerCase());
  const [row] = await selectCommunities(db, user?.uuid).where(where).limit(1);
  if (!row || !visibleTo(row, user)) throw notFound(COMMUNITY_NOT_FOUND);
  return row;
}

/** A community by id after a change, as `user` sees it. */
export async function reloadCommunity(db: Db, id: string, user: User | null) {
  const [row] = await selectCommunities(db, user?.uuid).where(eq(schema.communities.id, id)).limit(1);
  return found(row, COMMUNITY_NOT_FOUND);
}

/** A path key naming a room: its uuid or its slug. */
export const findRoomByKey = async (db: Db, key: string) =>
  looksLikeUuid(key) ? findRoom(db, { uuid: key }) : looksLikeSlug(key) ? findRoom(db, { slug: key }) : null;

export const loadRoomByKey = async (db: Db, key: string) => found(await findRoomByKey(db, key), ROOM_NOT_FOUND);
