import type { Context } from "hono";
import { rateLimit, requireService, requireUser, STAFF } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest, forbidden, notFound } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { verifyPassword } from "../../lib/password.ts";
import { profilesOf } from "../user/public.ts";
import { loadRoom, ROOM_RANK, type Room, rankFrom, roomKey, roomRolesOf } from "./access.ts";
import { JOIN_MESSAGES, standingIn } from "./admission.ts";
import { guestJoined, guestLeft } from "./guest-presence.ts";
import { playedTotals, playsOf, playView, recordPlay as savePlay } from "./plays.ts";
import { markAbsent, markPresent, othersPresent, presentUuids } from "./presence.ts";
import { roomCrateSongs } from "./room-crate.ts";
import { recordVisit } from "./room-lists.ts";
import type * as routes from "./room-live.routes.ts";
import { settingsView, withoutSanctions } from "./rooms.ts";
import { loadUser } from "./users.ts";

async function checkPassword(c: Context<AppEnv>, room: Room, hash: string, given: string | undefined, who: string) {
  if (!given) throw forbidden(JOIN_MESSAGES.passwordNeeded);
  // Guessing is slow: a few tries per caller and room per ten minutes.
  await rateLimit(c, `room-password:${room.uuid}:${who}`, 10, 600);
  if (!(await verifyPassword(given, hash))) throw forbidden(JOIN_MESSAGES.wrongPassword);
}

export const joinRoom: AppRouteHandler<typeof routes.joinRoom> = async (c) => {
  const { db, clock } = c.var.deps;
  const now = clock.now();
  const room = await loadRoom(db, roomKey(c.req.valid("param").slug));
  const body = c.req.valid("json");
  // The live room calls this with its socket's own token, a live one for browsers.
  const standing = await standingIn(c, room, { live: true });
  if (standing.guest) {
    if (room.guestPasswordHash) await checkPassword(c, room, room.guestPasswordHash, body.guestPassword, standing.uuid);
    else if (room.passwordHash || room.type === "PRIVATE") throw forbidden(JOIN_MESSAGES.guestsNotAllowed);
    await guestJoined(c.var.deps.cache, room.uuid, standing.uuid);
    return c.json(withoutSanctions(await settingsView(db, room, now)), 200);
  }
  const { user, rank } = standing;
  if (room.passwordHash && rank < ROOM_RANK.coOwner)
    await checkPassword(c, room, room.passwordHash, body.password, user.uuid);
  if (rank < ROOM_RANK.moderator && (await othersPresent(db, room.uuid, user.uuid)) >= room.roomSize)
    throw forbidden(JOIN_MESSAGES.full);
  await recordVisit(db, user.uuid, room.uuid, now);
  // Sanctions are the moderators' to see, as GET /roomUserRoles answers them; the live room reads them as a service.
  const settings = await settingsView(db, room, now);
  return c.json(rank >= ROOM_RANK.moderator ? settings : withoutSanctions(settings), 200);
};

export const userEntered: AppRouteHandler<typeof routes.userEntered> = async (c) => {
  await requireService(c);
  const { db, clock } = c.var.deps;
  const room = await loadRoom(db, { uuid: c.req.valid("json").roomUuid });
  const user = await loadUser(db, c.req.valid("param").user);
  await markPresent(db, room.uuid, user.uuid, clock.now());
  return c.body(null, 204);
};

export const userLeft: AppRouteHandler<typeof routes.userLeft> = async (c) => {
  await requireService(c);
  const { roomUuid } = c.req.valid("query");
  const userUuid = c.req.valid("param").user;
  if (roomUuid) await guestLeft(c.var.deps.cache, roomUuid, userUuid);
  await markAbsent(c.var.deps.db, userUuid, roomUuid);
  return c.body(null, 204);
};

export const roomUsers: AppRouteHandler<typeof routes.roomUsers> = async (c) => {
  const { db } = c.var.deps;
  const room = await loadRoom(db, roomKey(c.req.valid("param").room));
  const uuids = await presentUuids(db, room.uuid);
  if (room.type === "PRIVATE" && c.var.auth?.type !== "service") {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    if (!uuids.includes(user.uuid) && rankFrom(room, user.uuid, user.roles, []) < ROOM_RANK.owner)
      throw forbidden("Only the people in this private room see who is in it.");
  }
  return c.json(await profilesOf(db, uuids), 200);
};

export const roomUserUuids: AppRouteHandler<typeof routes.roomUserUuids> = async (c) => {
  await requireService(c);
  const { db } = c.var.deps;
  const room = await loadRoom(db, roomKey(c.req.valid("param").room));
  return c.json({ roomUuid: room.uuid, userUuids: await presentUuids(db, room.uuid) }, 200);
};

export const roomState: AppRouteHandler<typeof routes.roomState> = async (c) => {
  const { db, clock, liveRooms } = c.var.deps;
  const room = await loadRoom(db, { uuid: c.req.valid("param").id });
  if (room.type === "PRIVATE" && c.var.auth?.type !== "service") {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const rank = rankFrom(room, user.uuid, user.roles, await roomRolesOf(db, room.uuid, user.uuid, clock.now()));
    if (rank < ROOM_RANK.moderator) throw forbidden("Only this room's moderators see its state.");
  }
  const state = await liveRooms.state(room.uuid);
  if (state === null) throw notFound("This room is not live: nobody is in it.");
  return c.json({ roomUuid: room.uuid, state: state as Record<string, unknown> }, 200);
};

export const recordPlay: AppRouteHandler<typeof routes.recordPlay> = async (c) => {
  await requireService(c);
  const { db, clock } = c.var.deps;
  const room = await loadRoom(db, roomKey(c.req.valid("param").slug));
  const body = c.req.valid("json");
  if (JSON.stringify(body.song).length > 20_000) throw badRequest("song: too large to record");
  const play = await savePlay(db, {
    roomUuid: room.uuid,
    djUuid: body.djUuid ?? null,
    song: body.song,
    voteCounts: body.voteCounts,
    durationSeconds: Math.round(body.song.duration),
    playedAt: body.playedAt ? new Date(body.playedAt) : clock.now(),
  });
  return c.json(playView(play), 201);
};

export const recentPlays: AppRouteHandler<typeof routes.recentPlays> = async (c) => {
  const { db } = c.var.deps;
  const room = await loadRoom(db, roomKey(c.req.valid("param").slug));
  const { limit, offset } = c.req.valid("query");
  const page = await playsOf(db, room.uuid, limit, offset);
  return c.json({ data: page.data.map(playView), total: page.total }, 200);
};

export const playedTime: AppRouteHandler<typeof routes.playedTime> = async (c) => {
  const { db } = c.var.deps;
  const room = await loadRoom(db, { uuid: c.req.valid("param").id });
  return c.json({ roomUuid: room.uuid, ...(await playedTotals(db, { roomUuid: room.uuid })) }, 200);
};

export const playedSeconds: AppRouteHandler<typeof routes.playedSeconds> = async (c) => {
  await requireUser(c, { roles: STAFF });
  const { since } = c.req.valid("query");
  return c.json(await playedTotals(c.var.deps.db, { since: since ? new Date(since) : undefined }), 200);
};

export const roomCrate: AppRouteHandler<typeof routes.roomCrate> = async (c) => {
  await requireService(c);
  const { db } = c.var.deps;
  const room = await loadRoom(db, { uuid: c.req.valid("param").id });
  const { from, limit } = c.req.valid("query");
  return c.json(await roomCrateSongs(db, room, from, limit, c.var.deps.config.brand), 200);
};
