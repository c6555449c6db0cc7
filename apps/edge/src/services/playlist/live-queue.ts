import type { AppDeps } from "../../deps.ts";
import { liveRoomsOf } from "../room/presence.ts";
import type { Crate } from "./crates.ts";

/**
 * A user's queue crate changed over REST (a song added, moved, removed, the queue shuffled or emptied, its position
 * set): every live room they are present in is told, so a room where they DJ reads their queue again at once. A DJ
 * who sat with an empty queue would otherwise hear nothing after adding a song, since the room reads the queue only
 * when a DJ sits or a song starts. Called once the change is saved; a room that cannot be told is logged and never
 * fails the change.
 */
export async function queueChanged(deps: Pick<AppDeps, "db" | "liveRooms" | "logger">, crate: Crate) {
  if (crate.kind !== "queue") return;
  const userUuid = crate.userUuid;
  try {
    const rooms = await liveRoomsOf(deps.db, userUuid);
    const results = await Promise.allSettled(
      rooms.map((roomUuid) => deps.liveRooms.notify(roomUuid, { type: "queueChanged", userUuid })),
    );
    results.forEach((r, i) => {
      if (r.status === "rejected")
        deps.logger({
          level: "warn",
          msg: "live room not told of a queue change",
          roomUuid: rooms[i],
          error: String(r.reason),
        });
    });
  } catch (err) {
    deps.logger({ level: "warn", msg: "live rooms not told of a queue change", userUuid, error: String(err) });
  }
}
