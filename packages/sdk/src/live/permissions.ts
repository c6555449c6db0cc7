/**
 * Who may do what in a live room, as pure functions: the one source of the room's permissions. The room (its
 * reducer) enforces them, the edge ranks callers with `roomRank`, and the web shows what they allow. Nothing here
 * reads a clock: every rule that depends on time takes `now` (epoch milliseconds).
 */
import { DjType, type RoomRoleName } from "./enums.ts";
import type { TokenRole } from "./protocol.ts";

/** A role held in a room: who, which, and until when (an ISO time; null: until taken back). */
export interface RoleGrant {
  userUuid: string;
  role: RoomRoleName;
  expirationTime: string | null;
}

/** What the permissions read of a room: its roles, its owner, and who may DJ. */
export interface RoomRules {
  roomRoles: readonly RoleGrant[];
  /** The room's owner: they own it whatever its roles say. */
  ownerUuid?: unknown;
  djType?: DjType;
}

/** A person in a room: their account, and their platform roles (superUser, admin, staff, globalModerator...). */
export interface RoomPerson {
  uuid: string;
  globalRoles: readonly string[];
}

/** What decides whether someone may take a seat in the booth. */
export interface DjCandidate extends RoomPerson {
  tokenRole: TokenRole;
  verified: boolean;
  badges: readonly string[];
}

/** The platform's roles that moderate every room, strongest first. */
export const PLATFORM_MODERATORS = ["superUser", "admin", "staff", "globalModerator"] as const;
/** The platform roles' ranks (the edge's ROLE_RANK), for those above every room role. */
const PLATFORM_RANK: Record<string, number> = { superUser: 6, admin: 5, staff: 4, globalModerator: 3 };
/** The badges of a pro plan (djType PRO_PLAN_OWNER). */
export const PRO_BADGES: readonly string[] = ["PLATINUM", "DOUBLE_PLATINUM"];
/** The room roles that moderate the room, strongest first. */
export const ROOM_MODERATOR_ROLES = ["owner", "coOwner", "moderator"] as const;
export type RoomModeratorRole = (typeof ROOM_MODERATOR_ROLES)[number];

/**
 * Who may change what in a room: owner > coOwner > moderator > everyone else, and the platform's global
 * moderators, staff and admins above every room role. Global ranks start above the owner's.
 */
export const ROOM_RANK = { none: 0, moderator: 1, coOwner: 2, owner: 3 } as const;

/** Whether a role holds at `now`: it has no expiration, or expires later. */
export const roleInForce = (grant: Pick<RoleGrant, "expirationTime">, now: number) =>
  grant.expirationTime === null || Date.parse(grant.expirationTime) > now;

/** The roles a user holds in the room at `now`. */
export function rolesInForce(rules: Pick<RoomRules, "roomRoles">, userUuid: string, now: number): RoomRoleName[] {
  return rules.roomRoles.filter((r) => r.userUuid === userUuid && roleInForce(r, now)).map((r) => r.role);
}

const isOwner = (rules: Pick<RoomRules, "ownerUuid">, userUuid: string, roles: readonly RoomRoleName[]) =>
  rules.ownerUuid === userUuid || roles.includes("owner");

/**
 * A user's rank in a room (see ROOM_RANK), from their platform roles and the room roles they hold in force: a
 * global moderator outranks any owner.
 */
export function roomRank(
  room: Pick<RoomRules, "ownerUuid">,
  userUuid: string,
  globalRoles: readonly string[],
  roles: readonly RoomRoleName[],
): number {
  const global = Math.max(0, ...globalRoles.map((r) => PLATFORM_RANK[r] ?? 0));
  if (global > 0) return ROOM_RANK.owner + global;
  if (isOwner(room, userUuid, roles)) return ROOM_RANK.owner;
  if (roles.includes("coOwner")) return ROOM_RANK.coOwner;
  if (roles.includes("moderator")) return ROOM_RANK.moderator;
  return ROOM_RANK.none;
}

/** Who moderates the room: its owner, co-owners and moderators (roles in force), and the platform's moderators. */
export function isRoomModerator(person: RoomPerson, rules: RoomRules, now: number): boolean {
  return roomRank(rules, person.uuid, person.globalRoles, rolesInForce(rules, person.uuid, now)) >= ROOM_RANK.moderator;
}

/** The strongest room role a user holds in force that moderates the room (the owner's whatever the roles say). */
export function roomModeratorRole(rules: RoomRules, userUuid: string, now: number): RoomModeratorRole | null {
  const roles = rolesInForce(rules, userUuid, now);
  if (isOwner(rules, userUuid, roles)) return "owner";
  return ROOM_MODERATOR_ROLES.find((r) => roles.includes(r)) ?? null;
}

/** The strongest of a person's platform role and room role, as the room shows it (`RoomUser.highestRole`). */
export function highestRole(person: RoomPerson, rules: RoomRules, now: number): string | undefined {
  for (const r of PLATFORM_MODERATORS) if (person.globalRoles.includes(r)) return r;
  const role = roomModeratorRole(rules, person.uuid, now);
  if (role) return role;
  return rolesInForce(rules, person.uuid, now).includes("dj") ? "dj" : undefined;
}

/**
 * Whether someone may take a seat in the booth: never a guest, nor anyone banned or djDisabled; always the room's
 * moderators; everyone else as the room's djType says.
 */
export function canDj(person: DjCandidate, rules: RoomRules, now: number): boolean {
  if (person.tokenRole === "guest") return false;
  const roles = rolesInForce(rules, person.uuid, now);
  if (roles.includes("banned") || roles.includes("djDisabled")) return false;
  if (isRoomModerator(person, rules, now)) return true;
  switch (rules.djType) {
    case DjType.EVERYONE:
      return true;
    case DjType.INVITE_ONLY:
      return roles.includes("dj");
    case DjType.VERIFIED_ONLY:
      return person.verified;
    case DjType.PRO_PLAN_OWNER:
      return person.badges.some((b) => PRO_BADGES.includes(b));
    default:
      return false;
  }
}

/** Who may remove a DJ from the booth: the DJ themself, or a moderator. */
export const mayRemoveDj = (caller: RoomPerson, djUuid: string, rules: RoomRules, now: number) =>
  djUuid === caller.uuid || isRoomModerator(caller, rules, now);

/** Who may skip the song playing: its DJ, or a moderator. */
export const maySkip = (caller: RoomPerson, playingDjUuid: string, rules: RoomRules, now: number) =>
  playingDjUuid === caller.uuid || isRoomModerator(caller, rules, now);

/** Who may delete a chat message: its author, or a moderator. */
export const mayDeleteChat = (caller: RoomPerson, authorUuid: string, rules: RoomRules, now: number) =>
  authorUuid === caller.uuid || isRoomModerator(caller, rules, now);
