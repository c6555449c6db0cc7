import { schema } from "@booth/db";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Context } from "hono";
import { ADMINS, hasAnyRole, requireToken, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { forbidden, unauthorized } from "../../lib/errors.ts";
import { signGrant, verifyGrant } from "../../lib/tokens.ts";
import { guestIsIn } from "../room/public.ts";
import type { Upload } from "./pipeline.ts";

/**
 * Long enough to fetch the key once the playlist arrives (hls.js asks for it once per song), short enough that a
 * playlist copied elsewhere soon opens nothing.
 */
export const KEY_GRANT_TTL = 5 * 60;
const KEY_GRANT = "booth:hls-key";
/** Rooms playing one song at once, at most, that a listener's presence is looked up in. */
const ROOMS_PLAYING_LIMIT = 50;

export const HEARING_MESSAGES = {
  notNow: "You cannot hear this song now: it plays in no room you are in.",
  badGrant: "This key grant is invalid or has expired: load the song's playlist again.",
  notYourGrant: "This key grant was given to someone else.",
} as const;

const nowSeconds = (c: Context<AppEnv>) => Math.floor(c.var.deps.clock.now().getTime() / 1000);

/** The rooms whose live room reports this upload's song playing now. */
async function roomsPlaying(c: Context<AppEnv>, upload: Upload) {
  if (!upload.songId) return [];
  const rows = await c.var.deps.db
    .select({ uuid: schema.rooms.uuid })
    .from(schema.rooms)
    .where(sql`${schema.rooms.nowPlaying} ->> 'songId' = ${upload.songId}`)
    .limit(ROOMS_PLAYING_LIMIT);
  return rows.map((r) => r.uuid);
}

/**
 * The caller when they may hear this upload now, else 401/403: its uploader, an admin, a user or bot the live room
 * reports present in a room playing it, a guest the live room admitted to such a room. Live tokens are welcome: the
 * browser's player asks with one.
 */
export async function requireListener(c: Context<AppEnv>, upload: Upload): Promise<string> {
  const claims = requireToken(c, { live: true });
  if (claims.type === "service") throw forbidden(HEARING_MESSAGES.notNow);
  const rooms = async () => roomsPlaying(c, upload);
  if (claims.type === "guest") {
    for (const room of await rooms()) if (await guestIsIn(c.var.deps.cache, room, claims.sub)) return claims.sub;
    throw forbidden(HEARING_MESSAGES.notNow);
  }
  const { user } = await requireUser(c, { types: ["user", "bot"], live: true });
  if (user.uuid === upload.ownerUuid || hasAnyRole(user.roles, ADMINS)) return user.uuid;
  const playing = await rooms();
  if (playing.length > 0) {
    const [present] = await c.var.deps.db
      .select({ roomUuid: schema.roomPresence.roomUuid })
      .from(schema.roomPresence)
      .where(and(eq(schema.roomPresence.userUuid, user.uuid), inArray(schema.roomPresence.roomUuid, playing)))
      .limit(1);
    if (present) return user.uuid;
  }
  throw forbidden(HEARING_MESSAGES.notNow);
}

/** A grant to this upload's key for one listener, for a few minutes. */
export const keyGrant = (c: Context<AppEnv>, listener: string, uploadId: string) =>
  signGrant(
    c.var.deps.keys,
    { audience: KEY_GRANT, sub: listener, claims: { song: uploadId } },
    nowSeconds(c),
    KEY_GRANT_TTL,
  );

/**
 * Checks a key grant: ours, for this song, not expired. The grant is the credential (a browser's own HLS cannot send
 * headers); when a bearer token comes along too, it must name the same listener.
 */
export async function requireKeyGrant(c: Context<AppEnv>, uploadId: string, grant: string | undefined) {
  const payload = grant ? await verifyGrant(c.var.deps.keys, grant, KEY_GRANT, nowSeconds(c)) : null;
  if (!payload || payload.song !== uploadId) throw unauthorized(HEARING_MESSAGES.badGrant);
  const bearer = c.var.auth;
  if (bearer && bearer.type !== "service" && bearer.sub !== payload.sub) throw forbidden(HEARING_MESSAGES.notYourGrant);
}
