import { type Db, schema } from "@booth/db";
import { eq, inArray } from "drizzle-orm";
import type { ChatUser } from "../../ports/cometchat.ts";

/** The CometChat user of each Booth account: its nickname and picture. */
export async function chatUsers(db: Db, uuids: string[]): Promise<ChatUser[]> {
  if (!uuids.length) return [];
  const rows = await db
    .select({
      uid: schema.users.uuid,
      nickname: schema.profiles.nickname,
      picture: schema.profiles.profilePicture,
    })
    .from(schema.users)
    .leftJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
    .where(inArray(schema.users.uuid, uuids));
  return rows.map((r) => ({ uid: r.uid, name: r.nickname ?? r.uid, avatar: r.picture }));
}
