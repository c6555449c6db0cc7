import { schema } from "@booth/db";
import { and, count, eq, ne } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";

/** How many people other than `userUuid` the live room reports in a room. */
export async function othersPresent(db: AppDeps["db"], roomUuid: string, userUuid: string) {
  const [others] = await db
    .select({ n: count() })
    .from(schema.roomPresence)
    .where(and(eq(schema.roomPresence.roomUuid, roomUuid), ne(schema.roomPresence.userUuid, userUuid)));
  return others?.n ?? 0;
}

/** The live room reports a user in a room. */
export async function markPresent(db: AppDeps["db"], roomUuid: string, userUuid: string, now: Date) {
  await db.insert(schema.roomPresence).values({ roomUuid, userUuid, joinedAt: now }).onConflictDoNothing();
}

/** The live room reports a user gone from a room, or from every room without `roomUuid`. */
export async function markAbsent(db: AppDeps["db"], userUuid: string, roomUuid?: string) {
  await db
    .delete(schema.roomPresence)
    .where(
      and(
        eq(schema.roomPresence.userUuid, userUuid),
        roomUuid ? eq(schema.roomPresence.roomUuid, roomUuid) : undefined,
      ),
    );
}

/** The uuids of the people in a room, the earliest arrived first. */
export async function presentUuids(db: AppDeps["db"], roomUuid: string) {
  const rows = await db
    .select({ userUuid: schema.roomPresence.userUuid })
    .from(schema.roomPresence)
    .where(eq(schema.roomPresence.roomUuid, roomUuid))
    .orderBy(schema.roomPresence.joinedAt)
    .limit(10_000);
  return rows.map((r) => r.userUuid);
}
