/** Time passing (songs ending, grace periods and roles running out) and the room starting over. */

import { roleInForce } from "@booth/sdk/live/permissions";
import type { RoomSettings } from "@booth/sdk/live/protocol";
import { djIndex, endSongAndRotate, removeFromBooth } from "./booth.ts";
import { removeMember } from "./members.ts";
import { retryRoomCrate } from "./room-crate.ts";
import { applySettings } from "./settings.ts";
import { idleDue, idleRule, initialState } from "./state.ts";
import type { Tx } from "./tx.ts";

export function tick(tx: Tx) {
  const now = tx.now;
  // Expired roles clear themselves (chatDisabled, djDisabled, kicked...).
  const rules = tx.rules;
  const inForce = rules.roomRoles.filter((r) => roleInForce(r, now));
  if (inForce.length !== rules.roomRoles.length) applySettings(tx, { ...rules, roomRoles: inForce });
  for (const m of Object.values(tx.state.members))
    if (!m.connected && m.disconnectedAt !== null && m.disconnectedAt + tx.config.graceMs <= now)
      removeMember(tx, m.uuid);
  const playing = tx.live.nowPlaying;
  if (playing && playing.endTime <= now) endSongAndRotate(tx);
  idleDjs(tx);
  retryRoomCrate(tx);
}

/** Seated DJs who did nothing for the room's idle time: warned first (to them alone), then off the booth. */
function idleDjs(tx: Tx) {
  const rule = idleRule(tx.state, tx.config);
  if (!rule) return;
  for (const [uuid, meta] of Object.entries(tx.state.djMeta)) {
    const due = idleDue(tx.state, uuid, meta, tx.config);
    if (due === null || due > tx.now || meta.activeAt === undefined) continue;
    if (!meta.idleWarned) {
      tx.setMeta(uuid, { ...meta, idleWarned: true });
      tx.send({ userUuid: uuid }, { name: "idleWarning", params: { removeAt: meta.activeAt + rule.idleMs } });
    } else if (djIndex(tx, uuid) !== -1) removeFromBooth(tx, uuid);
  }
}

export function reset(tx: Tx, settings: RoomSettings) {
  for (const uuid of Object.keys(tx.state.members)) tx.effect({ type: "presenceLeft", userUuid: uuid });
  if (tx.state.playing) tx.effect({ type: "reportLiveState", nowPlaying: null, numberOfActiveDjs: 0 });
  const fresh = initialState(settings);
  tx.send("all", { name: "roomReset", params: { roomUuid: settings.uuid } });
  tx.out.closeAll = true;
  // The seq carries on, so no client mistakes the new room's patches for the old one's.
  tx.state = { ...fresh, seq: tx.state.seq };
  tx.rebase();
}
