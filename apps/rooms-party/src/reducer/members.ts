/** The people in the room: who they are to the room, their connections, and their leaving (or being removed). */

import type { RoomUser } from "@booth/sdk/live/protocol";
import { MESSAGES, RoomError } from "./actions.ts";
import { djIndex, removeFromBooth } from "./booth.ts";
import { roomUser, sameUser } from "./permissions.ts";
import type { Tx } from "./tx.ts";
import { counted, NO_VOTES } from "./votes.ts";
import { dropFromWaitlist } from "./waitlist.ts";

export function requireMember(tx: Tx, userUuid: string) {
  const member = tx.member(userUuid);
  if (!member) throw new RoomError(403, MESSAGES.notInRoom);
  return member;
}

/** Recomputes role and canDj of some users (all when omitted), in allUsers and djs. */
export function refreshUserViews(tx: Tx, uuids?: string[]) {
  const only = uuids ? new Set(uuids) : null;
  const fresh = (u: RoomUser): RoomUser => {
    if (only && !only.has(u.uuid)) return u;
    const member = tx.member(u.uuid);
    if (!member) return u;
    const next = roomUser(member, tx.live.settings, tx.now);
    return sameUser(u, next) ? u : next;
  };
  const allUsers = tx.live.allUsers.map(fresh);
  const djs = tx.live.djs.map((d) => {
    const next = fresh(d);
    return next === d ? d : { ...next, nextSong: d.nextSong };
  });
  tx.setLive({
    allUsers: allUsers.every((u, i) => u === tx.live.allUsers[i]) ? tx.live.allUsers : allUsers,
    djs: djs.every((d, i) => d === tx.live.djs[i]) ? tx.live.djs : djs,
  });
}

export function disconnected(tx: Tx, userUuid: string) {
  const member = tx.member(userUuid);
  if (!member?.connected) return;
  tx.setMember({ ...member, connected: false, disconnectedAt: tx.now });
}

/** Someone leaves the room: off the stage, their votes and place gone, and the edge told. */
export function removeMember(tx: Tx, uuid: string) {
  if (!tx.member(uuid)) return;
  dropFromWaitlist(tx, uuid);
  if (djIndex(tx, uuid) !== -1) removeFromBooth(tx, uuid);
  const members = { ...tx.state.members };
  delete members[uuid];
  tx.set({ members });
  const data = tx.live.allUserData[uuid];
  tx.editUserData({ [uuid]: undefined });
  const gone = data ? counted(data.songVotes) : NO_VOTES;
  const c = tx.live.voteCounts;
  tx.setLive({
    allUsers: tx.live.allUsers.filter((u) => u.uuid !== uuid),
    grabs: data?.songVotes.grab ? tx.live.grabs - 1 : tx.live.grabs,
    voteCounts:
      gone.likes || gone.dislikes || gone.stars
        ? { likes: c.likes - gone.likes, dislikes: c.dislikes - gone.dislikes, stars: c.stars - gone.stars }
        : c,
  });
  tx.emit("userLeft");
  tx.effect({ type: "presenceLeft", userUuid: uuid });
}

export const KICKED_CLOSE_CODE = 4003;

export function kick(tx: Tx, uuid: string, reason: string) {
  tx.send({ userUuid: uuid }, { name: "kickedFromRoom", params: { roomUuid: tx.live.settings.uuid, reason } });
  tx.out.close.push({ userUuid: uuid, code: KICKED_CLOSE_CODE, reason });
  removeMember(tx, uuid);
}
