import { type Db, schema } from "@booth/db";
import { asc, desc, eq, exists, inArray, or, sql } from "drizzle-orm";
import type { User } from "../../../lib/auth.ts";
import { pageWhere } from "../../../lib/pages.ts";
import type { Room } from "../access.ts";
import { selectCommunities, visibleTo } from "./community.ts";

/** The communities a user belongs to or runs, the latest joined first. */
export async function communitiesOf(db: Db, userUuid: string, limit: number, offset: number) {
  const m = schema.communityMembers;
  const mine = or(
    eq(schema.communities.createdBy, userUuid),
    exists(sql`(select 1 from ${m} where ${m.communityId} = ${schema.communities.id} and ${m.userUuid} = ${userUuid})`),
  );
  const joinedAt = sql`(select ${m.joinedAt} from ${m} where ${m.communityId} = ${schema.communities.id} and ${m.userUuid} = ${userUuid})`;
  const communities = selectCommunities(db, userUuid)
    .where(mine)
    .orderBy(sql`${joinedAt} desc nulls last`, desc(schema.communities.createdAt), schema.communities.id);
  return pageWhere(db, schema.communities, mine, communities, { limit, offset });
}

/** The communities a room is in that `user` may see, by name. */
export async function communitiesWithRoom(db: Db, room: Room, user: User | null) {
  const rows = await selectCommunities(db, user?.uuid)
    .where(
      inArray(
        schema.communities.id,
        db
          .select({ id: schema.communityRooms.communityId })
          .from(schema.communityRooms)
          .where(eq(schema.communityRooms.roomUuid, room.uuid)),
      ),
    )
    .orderBy(asc(schema.communities.name), schema.communities.id);
  return rows.filter((r) => visibleTo(r, user));
}
