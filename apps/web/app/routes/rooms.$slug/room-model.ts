import type { LiveState, RoomUser } from "@booth/sdk/live";

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

const PLATFORM_MODERATORS = ["globalModerator", "staff", "admin", "superUser"];
const ROOM_MODERATORS = ["owner", "coOwner", "moderator"];

/** Who may moderate: the room's owner, co-owners and moderators, and the platform's moderators and up. */
export function canModerate(state: LiveState | null, viewer: { uuid: string; roles: string[] } | null) {
  if (!viewer || !state) return false;
  if (viewer.roles.some((r) => PLATFORM_MODERATORS.includes(r))) return true;
  return state.settings.roomRoles.some((r) => r.userUuid === viewer.uuid && ROOM_MODERATORS.includes(r.role));
}

export const roleOf = (state: LiveState | null, uuid: string) =>
  state?.settings.roomRoles.find((r) => r.userUuid === uuid && ROOM_MODERATORS.includes(r.role))?.role ?? null;

export const isGuest = (u: RoomUser) => u.tokenRole === "guest";
