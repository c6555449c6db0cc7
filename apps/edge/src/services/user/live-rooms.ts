import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
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
