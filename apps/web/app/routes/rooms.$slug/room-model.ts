import type { LiveState, RoomUser } from "@booth/sdk/live";
import { isRoomModerator, roomModeratorRole } from "@booth/sdk/live/permissions";

export interface Person {
  uuid: string;
  nickname: string;
  color: string;
  avatarId: string;
}

/** A person as the room knows them (their profile in allUserData). */
export function personOf(state: LiveState | null, uuid: string): Person {
  const profile = (state?.allUserData[uuid]?.userProfile ?? {}) as Partial<Person>;
  return {
    uuid,
    nickname: profile.nickname || "Guest",
    color: profile.color || "#6b7280",
    avatarId: profile.avatarId || "",
  };
}

export function namesOf(state: LiveState | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [uuid, data] of Object.entries(state?.allUserData ?? {})) {
    const nickname = (data.userProfile as { nickname?: string }).nickname;
    if (nickname) out[uuid] = nickname;
  }
  return out;
}

/**
 * Who may moderate: the room's owner, co-owners and moderators (roles in force), and the platform's moderators and
 * up. The room's own rule (`@booth/sdk/live`), so the web offers what the room allows.
 */
export function canModerate(state: LiveState | null, viewer: { uuid: string; roles: string[] } | null) {
  if (!viewer || !state) return false;
  return isRoomModerator({ uuid: viewer.uuid, globalRoles: viewer.roles }, state.settings, Date.now());
}

/** The role someone holds in force among the room's staff (owner, coOwner, moderator), to show beside their name. */
export const roleOf = (state: LiveState | null, uuid: string) =>
  state ? roomModeratorRole(state.settings, uuid, Date.now()) : null;

export const isGuest = (u: RoomUser) => u.tokenRole === "guest";
