/** Someone joins (or comes back within their grace period), and what joining answers them. */

import type { RoomSettings } from "@booth/sdk/live/protocol";
import { MESSAGES, RoomError } from "./actions.ts";
import { refreshUserViews } from "./members.ts";
import { rolesInForce, roomUser, sanctionsSeenBy, splitSettings } from "./permissions.ts";
import { rereadIfSilent } from "./room-crate.ts";
import { applySettings } from "./settings.ts";
import type { JoiningUser, Member, RoomState } from "./state.ts";
import type { Tx } from "./tx.ts";

/** A stable spot on the floor for each user. */
export function positionOf(uuid: string) {
  const hex = uuid.replace(/[^0-9a-f]/gi, "").padEnd(8, "0");
  return { x: Number.parseInt(hex.slice(0, 4), 16) % 100, y: Number.parseInt(hex.slice(4, 8), 16) % 100 };
}

/** Admits someone the edge let in: a new member, or one back within their grace period (same place, same seat). */
export function join(tx: Tx, user: JoiningUser, fromEdge: RoomSettings) {
  const { settings, sanctions } = splitSettings(fromEdge);
  if (
    JSON.stringify(settings) !== JSON.stringify(tx.live.settings) ||
    JSON.stringify(sanctions) !== JSON.stringify(tx.state.sanctions)
  )
    applySettings(tx, fromEdge);
  if (rolesInForce(tx.rules, user.uuid, tx.now).includes("banned")) throw new RoomError(403, MESSAGES.banned);
  const existing = tx.member(user.uuid);
  const member: Member = {
    uuid: user.uuid,
    tokenRole: user.tokenRole,
    globalRoles: user.globalRoles,
    badges: user.badges,
    verified: user.verified,
    connected: true,
    disconnectedAt: null,
    joinedAt: existing?.joinedAt ?? tx.now,
    chatTimes: existing?.chatTimes ?? [],
  };
  tx.setMember(member);
  const view = roomUser(member, tx.live.settings, tx.now);
  if (!existing) {
    tx.setLive({ allUsers: [...tx.live.allUsers, view] });
    tx.editUserData({ [user.uuid]: { userProfile: user.profile, position: positionOf(user.uuid), songVotes: {} } });
    tx.emit("userJoined");
    tx.effect({ type: "presenceJoined", userUuid: user.uuid });
    rereadIfSilent(tx);
    return;
  }
  // Back within the grace period: the same place, the same seat; only what changed about them is sent.
  refreshUserViews(tx, [user.uuid]);
  const data = tx.live.allUserData[user.uuid];
  if (data && JSON.stringify(data.userProfile) !== JSON.stringify(user.profile))
    tx.editUserData({ [user.uuid]: { ...data, userProfile: user.profile } });
  tx.emit("updatedUserData");
}

/** What `joinRoom` answers: the full state at its seq, the chat so far, and the sanctions the joiner may see. */
export function joinView(state: RoomState, now: number, viewerUuid?: string) {
  return {
    roomUuid: state.live.settings.uuid,
    state: state.live,
    seq: state.seq,
    serverTime: now,
    chatMessages: state.chat,
    sanctions: viewerUuid ? sanctionsSeenBy(state, viewerUuid, now) : [],
  };
}
