import type { Db } from "@booth/db";
import type { RouteConfig, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ADMINS, hasAnyRole, rateLimit, requireUser, STAFF, type User } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { forbidden, notFound } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { hashPassword } from "../../lib/password.ts";
import { loadRoom, ownedRoom, ROOM_RANK, type Room, requireRoomRank, roomRank } from "./access.ts";
import { activityRoom, checkGuildMember } from "./discord-activity.ts";
import type { RoomChanges } from "./room-changes.ts";
import * as changes from "./room-changes.ts";
import type * as routes from "./rooms.routes.ts";
import { ROOM_CRATE_OWNER_ONLY, roomView, settingsColumns, withoutSanctions } from "./rooms.ts";
import { loadUser } from "./users.ts";

/** Saves a change and answers the room's settings (without its sanctions to callers below its moderators). */
async function save(c: Context<AppEnv>, room: Room, set: RoomChanges, answer = { sanctions: true }) {
  const settings = await changes.saveRoomChanges(c.var.deps, room, set);
  return c.json(answer.sanctions ? settings : withoutSanctions(settings), 200);
}

type JsonOf<R extends RouteConfig> = R extends {
  request: { body: { content: { "application/json": { schema: infer S extends z.ZodType } } } };
}
  ? z.output<S>
  : never;

/**
 * The handler of a `settingsChange` route: the caller holds `rank` in the room (`/rooms/.../{id}`), and `columns`
 * turns the body into the change saved.
 */
const changeSettings = <R extends RouteConfig>(
  rank: number,
  columns: (input: JsonOf<R>, at: { db: Db; room: Room; user: User; now: Date }) => RoomChanges | Promise<RoomChanges>,
): AppRouteHandler<R> =>
  // biome-ignore lint/suspicious/noExplicitAny: the body type is generic over the route.
  (async (c: any) => {
    const { user } = await requireUser(c);
    const { db, clock } = c.var.deps;
    const room = await loadRoom(db, { uuid: c.req.valid("param").id });
    await requireRoomRank(db, room, user, clock.now(), rank);
    return save(c, room, await columns(c.req.valid("json"), { db, room, user, now: clock.now() }));
  }) as unknown as AppRouteHandler<R>;

export const createRoom: AppRouteHandler<typeof routes.createRoom> = async (c) => {
  const { user } = await requireUser(c);
  await rateLimit(c, `rooms:create:${user.uuid}`, 20, 3600);
  const { db, clock } = c.var.deps;
  const room = await changes.createRoom(db, user, c.req.valid("json"), clock.now());
  return c.json(roomView(room), 201);
};

export const changeAllSettings = changeSettings<typeof routes.changeAllSettings>(ROOM_RANK.owner, (input, at) =>
  settingsColumns(at.db, input, at.room),
);

export const changeLook = changeSettings<typeof routes.changeLook>(ROOM_RANK.coOwner, async (input, at) => {
  // The room crate is the owner's pick (of their own crates): a co-owner changes how the room plays, not that.
  if (input.roomCrateId !== undefined && (await roomRank(at.db, at.room, at.user, at.now)) < ROOM_RANK.owner)
    throw forbidden(ROOM_CRATE_OWNER_ONLY);
  return settingsColumns(at.db, input, at.room);
});

export const deleteRoom: AppRouteHandler<typeof routes.deleteRoom> = async (c) => {
  const { user } = await requireUser(c);
  const { db, liveRooms } = c.var.deps;
  const room = await ownedRoom(db, c.req.valid("param").id, user, "Only the room's owner may delete it.");
  await changes.deleteRoom(db, room);
  await liveRooms.notify(room.uuid, { type: "resetRoom" });
  return c.body(null, 204);
};

export const changeDjType = changeSettings<typeof routes.changeDjType>(ROOM_RANK.coOwner, (b) => ({
  djType: b.djType,
}));
export const changeDjSeats = changeSettings<typeof routes.changeDjSeats>(ROOM_RANK.coOwner, (b) => ({
  numberOfDjs: b.numberOfDjs,
}));
export const changeLiveAudio = changeSettings<typeof routes.changeLiveAudio>(ROOM_RANK.owner, (b) => ({
  liveAudio: b.liveAudio,
}));

export const changeLiveState: AppRouteHandler<typeof routes.changeLiveState> = async (c) => {
  const body = c.req.valid("json");
  const { db, clock } = c.var.deps;
  if (c.var.auth?.type !== "service") {
    const { user } = await requireUser(c);
    if (body.nowPlaying !== undefined || body.numberOfActiveDjs !== undefined || body.messagesReceived !== undefined)
      throw forbidden("Only the live room reports what is playing.");
    const room = await loadRoom(db, { uuid: c.req.valid("param").id });
    await requireRoomRank(db, room, user, clock.now(), ROOM_RANK.coOwner);
    return save(c, room, { isLive: body.isLive });
  }
  const room = await loadRoom(db, { uuid: c.req.valid("param").id });
  // The live room told us; it needs no echo.
  return c.json(await changes.reportLiveState(db, room, body, clock.now()), 200);
};

export const promoteRoom: AppRouteHandler<typeof routes.promoteRoom> = async (c) => {
  const { user } = await requireUser(c);
  if (!user.capabilities.includes("promoteRoom") && !hasAnyRole(user.roles, STAFF))
    throw forbidden("Promoting rooms needs the promoteRoom capability.");
  const body = c.req.valid("json");
  const { db, clock } = c.var.deps;
  const room = await loadRoom(db, { uuid: c.req.valid("param").id });
  return save(
    c,
    room,
    { promoted: body.promoted, promotedProviders: body.promoted ? (body.providers ?? []) : [] },
    // Every caller but a promoter (the promoteRoom capability) is among the room's moderators.
    { sanctions: (await roomRank(db, room, user, clock.now())) >= ROOM_RANK.moderator },
  );
};

export const pinMessages = changeSettings<typeof routes.pinMessages>(ROOM_RANK.moderator, (b, at) => ({
  pinnedMessages: changes.pinnedMessages(at.room, b.pinnedMessages, at.user.uuid, at.now),
}));

export const changeExternalUrl = changeSettings<typeof routes.changeExternalUrl>(ROOM_RANK.coOwner, (b) => ({
  externalUrl: b.externalUrl,
}));

export const uploadPoster: AppRouteHandler<typeof routes.uploadPoster> = async (c) => {
  const { user } = await requireUser(c);
  const { db, clock } = c.var.deps;
  const room = await loadRoom(db, { uuid: c.req.valid("param").id });
  await requireRoomRank(db, room, user, clock.now(), ROOM_RANK.coOwner);
  const posterUrl = await changes.storePoster(c.var.deps, room, user.uuid, c.req.valid("form").file, clock.now());
  return save(c, room, { posterUrl });
};

export const deletePoster: AppRouteHandler<typeof routes.deletePoster> = async (c) => {
  const { user } = await requireUser(c);
  const { db, clock } = c.var.deps;
  const room = await loadRoom(db, { uuid: c.req.valid("param").id });
  await requireRoomRank(db, room, user, clock.now(), ROOM_RANK.coOwner);
  if (!room.posterUrl) throw notFound("This room has no poster.");
  await changes.removePoster(c.var.deps, room);
  return save(c, room, { posterUrl: null });
};

export const clearChat: AppRouteHandler<typeof routes.clearChat> = async (c) => {
  const { user } = await requireUser(c);
  const { db, clock, liveRooms } = c.var.deps;
  const room = await loadRoom(db, { uuid: c.req.valid("param").id });
  await requireRoomRank(db, room, user, clock.now(), ROOM_RANK.moderator);
  await changes.clearConversation(db, room, clock.now());
  await liveRooms.notify(room.uuid, { type: "clearChat" });
  return c.body(null, 204);
};

export const resetRoom: AppRouteHandler<typeof routes.resetRoom> = async (c) => {
  const { user } = await requireUser(c);
  const { db, clock, liveRooms } = c.var.deps;
  const room = await loadRoom(db, { uuid: c.req.valid("param").id });
  await requireRoomRank(db, room, user, clock.now(), ROOM_RANK.owner, "Only the room's owner may reset it.");
  await liveRooms.notify(room.uuid, { type: "resetRoom" });
  return c.body(null, 204);
};

export const adminChange: AppRouteHandler<typeof routes.adminChange> = async (c) => {
  await requireUser(c, { roles: STAFF });
  const { db } = c.var.deps;
  const room = await loadRoom(db, { uuid: c.req.valid("param").id });
  const { promoted, ownerUuid, ...settings } = c.req.valid("json");
  const set = await settingsColumns(db, settings, { uuid: room.uuid, ownerUuid: ownerUuid ?? room.ownerUuid });
  if (promoted !== undefined) set.promoted = promoted;
  if (ownerUuid !== undefined) set.ownerUuid = (await loadUser(db, ownerUuid)).uuid;
  return save(c, room, set);
};

export const setGuestPassword: AppRouteHandler<typeof routes.setGuestPassword> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const body = c.req.valid("json");
  const room = await loadRoom(c.var.deps.db, { uuid: body.roomUuid });
  return save(c, room, { guestPasswordHash: await hashPassword(body.guestPassword) });
};

export const removeGuestPassword: AppRouteHandler<typeof routes.removeGuestPassword> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const room = await loadRoom(c.var.deps.db, { uuid: c.req.valid("json").roomUuid });
  if (!room.guestPasswordHash) throw notFound("This room has no guest password.");
  return save(c, room, { guestPasswordHash: null });
};

export const attachDiscord: AppRouteHandler<typeof routes.attachDiscord> = async (c) => {
  const { user } = await requireUser(c);
  const { db, clock } = c.var.deps;
  const { guild } = c.req.valid("param");
  const body = c.req.valid("json");
  if (body.roomUuid) {
    const room = await loadRoom(db, { uuid: body.roomUuid });
    await requireRoomRank(db, room, user, clock.now(), ROOM_RANK.coOwner);
    return save(c, room, { discordGuildId: guild });
  }
  const room = await changes.createGuildRoom(db, user, guild, body.name ?? "", clock.now());
  return c.json(roomView(room), 201);
};

/** The Activity's room of a guild's voice channel (decided now by the first to start the Activity there). */
export const discordActivityRoom: AppRouteHandler<typeof routes.discordActivityRoom> = async (c) => {
  const { user } = await requireUser(c);
  const { db, clock, config } = c.var.deps;
  const { guild } = c.req.valid("param");
  const { channelId, accessToken, name } = c.req.valid("json");
  await rateLimit(c, `discord-activity:${user.uuid}`, 60, 15 * 60);
  await checkGuildMember(db, config.integrations, user, guild, accessToken);
  const at = { guild, channel: channelId, name: name ?? `Discord ${channelId.slice(-6)}` };
  const { room, opened } = await activityRoom(db, user, at, clock.now());
  return c.json({ ...roomView(room), opened }, 200);
};
