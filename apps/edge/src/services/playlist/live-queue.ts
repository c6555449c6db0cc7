import type { AppDeps } from "../../deps.ts";
import { tellLiveRoomsOf } from "../user/public.ts";
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
  try {
    await tellLiveRoomsOf(deps, crate.userUuid, { type: "queueChanged", userUuid: crate.userUuid });
  } catch (err) {
    deps.logger({
      level: "warn",
      msg: "live rooms not told of a queue change",
      userUuid: crate.userUuid,
      error: String(err),
    });
  }
}
