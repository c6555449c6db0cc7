/** Time passing (songs ending, grace periods and roles running out) and the room starting over. */

import { roleInForce } from "@booth/sdk/live/permissions";
import type { RoomSettings } from "@booth/sdk/live/protocol";
import { endSongAndRotate } from "./booth.ts";
import { removeMember } from "./members.ts";
import { applySettings } from "./settings.ts";
import { initialState } from "./state.ts";
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
