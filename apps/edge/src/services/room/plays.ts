import { type Db, schema } from "@booth/db";
import { desc, eq, gte, sql } from "drizzle-orm";
import { jsonPick } from "../../lib/json-rows.ts";
import { pageWhere } from "../../lib/pages.ts";
import { returnedRow } from "../../lib/rows.ts";

/** The songs played in rooms, as the live room records them when a song ends. */
export type Play = typeof schema.roomPlays.$inferSelect;
export const playView = (p: Play) => jsonPick(p, "id", "roomUuid", "djUuid", "song", "voteCounts", "playedAt");

export async function recordPlay(db: Db, values: typeof schema.roomPlays.$inferInsert) {
  return returnedRow("play insert", db.insert(schema.roomPlays).values(values).returning());
}

/** A room's plays, the latest first, with their total. */
export async function playsOf(db: Db, roomUuid: string, limit: number, offset: number) {
  const where = eq(schema.roomPlays.roomUuid, roomUuid);
  const plays = db
    .select()
    .from(schema.roomPlays)
    .where(where)
    .orderBy(desc(schema.roomPlays.playedAt), desc(schema.roomPlays.id));
  const { rows, total } = await pageWhere(db, schema.roomPlays, where, plays, { limit, offset });
  return { data: rows, total };
}

/** Seconds of music played and songs, in one room or (without `roomUuid`) all, optionally since a time. */
export async function playedTotals(db: Db, filter: { roomUuid?: string; since?: Date }) {
  const [row] = await db
    .select({
      seconds: sql<number>`coalesce(sum(${schema.roomPlays.durationSeconds}), 0)::int`,
      songs: sql<number>`count(*)::int`,
    })
    .from(schema.roomPlays)
    .where(
      filter.roomUuid
        ? eq(schema.roomPlays.roomUuid, filter.roomUuid)
        : filter.since
          ? gte(schema.roomPlays.playedAt, filter.since)
          : undefined,
    );
  return { playedSeconds: row?.seconds ?? 0, songs: row?.songs ?? 0 };
}
