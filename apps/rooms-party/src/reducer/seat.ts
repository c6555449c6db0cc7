/** A DJ seat taken: by addDj (booth.ts) or, in turn, from the waitlist (waitlist.ts). */
import type { LiveSong } from "@booth/sdk/live/protocol";
import { roomUser } from "./permissions.ts";
import type { Member } from "./state.ts";
import type { Tx } from "./tx.ts";

/**
 * Seats a member at the end of the booth: with a song of their own, that song plays first; without, their queue crate
 * decides and is loaded. The idle rule counts from now. The caller has checked they may sit and decides what plays.
 */
export function seat(tx: Tx, member: Member, song: LiveSong | null) {
  const view = tx.live.allUsers.find((u) => u.uuid === member.uuid) ?? roomUser(member, tx.live.settings, tx.now);
  tx.setLive({ djs: [...tx.live.djs, { ...view, nextSong: song }] });
  tx.setMeta(member.uuid, {
    songsPlayed: 0,
    queue: [],
    followsQueue: song === null,
    removeAfterSong: false,
    activeAt: tx.now,
  });
  if (song === null) tx.effect({ type: "loadQueue", userUuid: member.uuid });
  tx.emit("addedDj");
}
