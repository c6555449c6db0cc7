import { schema } from "@booth/db";
import { and, count, eq, ne } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import type { LiveRoomEvent } from "../../ports/live-rooms.ts";

/** Why a user's live sessions end, in the words their room shows them. */
export const LIVE_KICK_REASONS = {
  ban: "Your account was banned.",
  temporaryBan: "Your account was suspended.",
  kick: "You were signed out of Booth.",
  deactivation: "Your account was deactivated.",
} as const;

/**
 * Ends a user's presence in every live room it is in: each room sends them `kickedFromRoom` and closes their sockets.
 * Called once the change that disables them is saved, so their rejoin meets it.
 */
export const kickFromLiveRooms = (deps: LiveRoomsDeps, userUuid: string, reason: string) =>
  tellLiveRoomsOf(deps, userUuid, { type: "kickUser", userUuid, reason });

type LiveRoomsDeps = Pick<AppDeps, "db" | "liveRooms" | "logger">;

/**
 * Tells every live room a user is present in about a change made over REST that concerns them; answers those rooms.
 * A room that cannot be told is logged and never undoes the change.
 */
export async function tellLiveRoomsOf(deps: LiveRoomsDeps, userUuid: string, event: LiveRoomEvent) {
  const rooms = await liveRoomsOf(deps.db, userUuid);
  const results = await Promise.allSettled(rooms.map((roomUuid) => deps.liveRooms.notify(roomUuid, event)));
  results.forEach((r, i) => {
    if (r.status === "rejected")
      deps.logger({
        level: "warn",
        msg: "live room not told",
        event: event.type,
        userUuid,
        roomUuid: rooms[i],
        error: String(r.reason),
      });
  });
  return rooms;
}

/** The live rooms a user is present in, as the rooms report it (`PATCH /rooms/user/{user}`). */
export async function liveRoomsOf(db: AppDeps["db"], userUuid: string) {
  const rows = await db
    .select({ roomUuid: schema.roomPresence.roomUuid })
    .from(schema.roomPresence)
    .where(eq(schema.roomPresence.userUuid, userUuid));
  return [...new Set(rows.map((r) => r.roomUuid))];
}

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
