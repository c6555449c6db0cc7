/**
 * The room's permissions, read from the shared module (`@booth/sdk/live/permissions`, which the edge and the web read
 * too), and how they shape what the room shows: each user's view, and the settings split from their sanctions.
 */
import { canDj, highestRole, isRoomModerator } from "@booth/sdk/live/permissions";
import type { RoomRole, RoomSettings, RoomUser } from "@booth/sdk/live/protocol";
import type { Member, RoomState } from "./state.ts";

export { canDj, mayDeleteChat, mayRemoveDj, maySkip, rolesInForce } from "@booth/sdk/live/permissions";
export { liveSettings, roomRules, splitSettings } from "./rules.ts";

/** Whether a member moderates the room (its staff, or the platform's moderators). */
export const isModerator = (member: Member, settings: RoomSettings, now: number) =>
  isRoomModerator(member, settings, now);

/** A member as everyone in the room sees them: their strongest role, and whether they may DJ (sanctions unseen). */
export function roomUser(member: Member, settings: RoomSettings, now: number): RoomUser {
  const role = highestRole(member, settings, now);
  return {
    uuid: member.uuid,
    tokenRole: member.tokenRole,
    ...(role ? { highestRole: role } : {}),
    canDj: canDj(member, settings, now),
  };
}

export const sameUser = (a: RoomUser, b: RoomUser) =>
  a.uuid === b.uuid && a.tokenRole === b.tokenRole && a.highestRole === b.highestRole && a.canDj === b.canDj;

/** The sanctions one person sees: every one for the room's moderators, their own for anyone else. */
export function sanctionsSeenBy(state: RoomState, userUuid: string, now: number): RoomRole[] {
  const member = state.members[userUuid];
  if (member && isModerator(member, state.live.settings, now)) return state.sanctions;
  return state.sanctions.filter((r) => r.userUuid === userUuid);
}
