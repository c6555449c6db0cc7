import { schema } from "@booth/db";
import type { RoomRole } from "@booth/db/schema";
import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { requireToken, requireUser, type User } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { forbidden, unauthorized } from "../../lib/errors.ts";
import { ROOM_RANK, type Room, rankFrom, roomRolesOf } from "./access.ts";

export const JOIN_MESSAGES = {
  banned: errorMessage("ROOM_BANNED"),
  kicked: errorMessage("ROOM_KICKED"),
  passwordNeeded: errorMessage("ROOM_PASSWORD_NEEDED"),
  wrongPassword: errorMessage("ROOM_WRONG_PASSWORD"),
  guestsNotAllowed: errorMessage("ROOM_GUESTS_NOT_ALLOWED"),
  full: errorMessage("ROOM_FULL"),
} as const;

export const ADMISSION_MESSAGES = {
  joinFirst: errorMessage("ROOM_JOIN_FIRST"),
} as const;

/** Who the caller is in a room: a guest, or a user or bot with their roles there and their rank. */
export type Standing =
  | { guest: true; uuid: string }
  | { guest: false; uuid: string; user: User; roles: RoomRole[]; rank: number };

/**
 * The caller as entering a room sees them: service tokens refused; users and bots banned or kicked from the room
 * refused (unless they rank as its owner or above). What else a room asks (passwords, size, presence) is the caller's.
 * `live` admits live tokens: only the live room's join, which carries its socket's token, asks for it.
 */
export async function standingIn(c: Context<AppEnv>, room: Room, options: { live?: boolean } = {}): Promise<Standing> {
  const claims = requireToken(c, options);
  if (claims.type === "service") throw unauthorized();
  if (claims.type === "guest") return { guest: true, uuid: claims.sub };
  const { user } = await requireUser(c, { types: ["user", "bot"], ...options });
  const { db, clock } = c.var.deps;
  const roles = await roomRolesOf(db, room.uuid, user.uuid, clock.now());
  const rank = rankFrom(room, user.uuid, user.roles, roles);
  if (rank < ROOM_RANK.owner) {
    if (roles.includes("banned")) throw forbidden(JOIN_MESSAGES.banned);
    if (roles.includes("kicked")) throw forbidden(JOIN_MESSAGES.kicked);
  }
  return { guest: false, uuid: user.uuid, user, roles, rank };
}

export interface Admitted {
  /** The caller's uuid (a guest's too). */
  uuid: string;
  user: User | null;
  rank: number;
  roles: RoomRole[];
}

/**
 * Whether the caller may take part in a room's side channels (chat, live audio) as they would in the room itself:
 * not banned or kicked; in a private or password room, only those the room admitted (present in it, as the live room
 * reports) and its moderators. Guests: rooms they could enter without a password only.
 */
export async function requireRoomAdmission(c: Context<AppEnv>, room: Room): Promise<Admitted> {
  const standing = await standingIn(c, room);
  const closed = room.type === "PRIVATE" || !!room.passwordHash;
  if (standing.guest) {
    if (closed || room.guestPasswordHash) throw forbidden(JOIN_MESSAGES.guestsNotAllowed);
    return { uuid: standing.uuid, user: null, rank: ROOM_RANK.none, roles: [] };
  }
  const { user, roles, rank } = standing;
  if (closed && rank < ROOM_RANK.moderator) {
    const { db } = c.var.deps;
    const [present] = await db
      .select({ userUuid: schema.roomPresence.userUuid })
      .from(schema.roomPresence)
      .where(and(eq(schema.roomPresence.roomUuid, room.uuid), eq(schema.roomPresence.userUuid, user.uuid)))
      .limit(1);
    if (!present) throw forbidden(ADMISSION_MESSAGES.joinFirst);
  }
  return { uuid: user.uuid, user, rank, roles };
}
