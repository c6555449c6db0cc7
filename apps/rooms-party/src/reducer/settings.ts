/** The edge's settings reaching the room: roles, sanctions and seats, applied to the people already in it. */
import type { RoomSettings } from "@booth/sdk/live/protocol";
import { MESSAGES } from "./actions.ts";
import { djIndex, removeFromBooth } from "./booth.ts";
import { kick, refreshUserViews } from "./members.ts";
import { canDj, rolesInForce, sanctionsSeenBy, splitSettings } from "./permissions.ts";
import { roomCrateSettingChanged } from "./room-crate.ts";
import type { Tx } from "./tx.ts";
import { fillSeats } from "./waitlist.ts";

/**
 * The edge's settings replace the room's: views refresh, changed sanctions reach those who see them, and whoever may
 * no longer stay or DJ leaves.
 */
export function applySettings(tx: Tx, fromEdge: RoomSettings) {
  const { settings, sanctions } = splitSettings(fromEdge);
  const seenBefore = new Map(
    Object.keys(tx.state.members).map((uuid) => [uuid, JSON.stringify(sanctionsSeenBy(tx.state, uuid, tx.now))]),
  );
  tx.set({ sanctions });
  tx.setLive({ settings });
  refreshUserViews(tx);
  tx.emit("updatedRoomSettings");
  // Sanctions change in private: only those who see a change hear of it.
  for (const [uuid, before] of seenBefore) {
    const seen = sanctionsSeenBy(tx.state, uuid, tx.now);
    if (JSON.stringify(seen) !== before)
      tx.send({ userUuid: uuid }, { name: "updatedSanctions", params: { sanctions: seen } });
  }
  const rules = tx.rules;
  // Bans and kicks given over REST reach the people already in the room.
  for (const uuid of Object.keys(tx.state.members)) {
    const roles = rolesInForce(rules, uuid, tx.now);
    if (roles.includes("banned") || roles.includes("kicked")) kick(tx, uuid, MESSAGES.kicked);
  }
  // DJs who may no longer DJ step down (the public canDj does not show a djDisabled); fewer seats send the last DJs
  // back to the floor.
  for (const dj of [...tx.live.djs]) {
    const member = tx.member(dj.uuid);
    if ((!member || !canDj(member, rules, tx.now)) && djIndex(tx, dj.uuid) !== -1) removeFromBooth(tx, dj.uuid);
  }
  while (tx.live.djs.length > settings.numberOfDjs) {
    const last = tx.live.djs[tx.live.djs.length - 1];
    if (!last) break;
    removeFromBooth(tx, last.uuid);
  }
  // More seats, a waitlist turned off, someone waiting who may no longer DJ: the waitlist follows.
  fillSeats(tx);
  // Another room crate (or none): read afresh, it plays once nothing else does (a song of the old one plays out).
  roomCrateSettingChanged(tx);
}
