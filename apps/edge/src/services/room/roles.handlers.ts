import type { RoomRole } from "@booth/db/schema";
import type { Context } from "hono";
import { requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest, forbidden, unauthorized } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { loadRoom, ownedRoom, ROOM_RANK, type Room, rankFrom, roomRolesOf } from "./access.ts";
import { markAbsent } from "./presence.ts";
import type * as routes from "./roles.routes.ts";
import * as roles from "./roles.ts";
import { KICK_SECONDS, ROLE_MESSAGES, roleView, SANCTIONS } from "./roles.ts";
import { rolesInForce, settingsView, withoutSanctions } from "./rooms.ts";

/** The signed-in caller and their rank in the room. */
async function callerRank(c: Context<AppEnv>, room: Room) {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const now = c.var.deps.clock.now();
  return {
    user,
    rank: rankFrom(room, user.uuid, user.roles, await roomRolesOf(c.var.deps.db, room.uuid, user.uuid, now)),
  };
}

/** The caller, if they may change `role` for `userUuid` in the room. */
async function authorizeRoleChange(c: Context<AppEnv>, room: Room, userUuid: string, role: RoomRole) {
  const { user, rank } = await callerRank(c, room);
  const { db, clock } = c.var.deps;
  const target = await roles.checkRoleChange(db, room, { uuid: user.uuid, rank }, userUuid, role, clock.now());
  return { user, target };
}

export const kickUser: AppRouteHandler<typeof routes.kickUser> = async (c) => {
  const { db, clock, liveRooms } = c.var.deps;
  const body = c.req.valid("json");
  const room = await loadRoom(db, { uuid: body.roomUuid });
  const { user } = await authorizeRoleChange(c, room, body.userUuid, "kicked");
  const now = clock.now();
  const row = await roles.grantRole(db, room, {
    userUuid: body.userUuid,
    role: "kicked",
    expiration: new Date(now.getTime() + KICK_SECONDS * 1000),
    by: user.uuid,
    reason: body.reason ?? null,
    now,
  });
  await markAbsent(db, body.userUuid, room.uuid);
  await liveRooms.notify(room.uuid, { type: "kickUser", userUuid: body.userUuid });
  return c.json(roleView(row), 201);
};

export const noDancefloorUsers: AppRouteHandler<typeof routes.noDancefloorUsers> = async (c) => {
  if (c.var.auth?.type !== "service") await requireUser(c, { types: ["user", "bot"] });
  if (!c.var.auth) throw unauthorized();
  const { db, clock } = c.var.deps;
  const body = c.req.valid("json");
  const room = await loadRoom(db, { uuid: body.roomUuid });
  const ids = [...new Set(body.userUuids)];
  if (!ids.length) return c.json({ userUuids: [] }, 200);
  return c.json({ userUuids: await roles.offDancefloor(db, room.uuid, ids, clock.now()) }, 200);
};

export const roomRoles: AppRouteHandler<typeof routes.roomRoles> = async (c) => {
  const { db, clock } = c.var.deps;
  const room = await loadRoom(db, { uuid: c.req.valid("param").room });
  const inForce = (await settingsView(db, room, clock.now())).roomRoles;
  let seesAll = c.var.auth?.type === "service";
  if (!seesAll && c.var.auth && c.var.auth.type !== "guest") {
    const { rank } = await callerRank(c, room);
    seesAll = rank >= ROOM_RANK.moderator;
  }
  return c.json(seesAll ? inForce : withoutSanctions({ roomRoles: inForce }).roomRoles, 200);
};

export const userRoles: AppRouteHandler<typeof routes.userRoles> = async (c) => {
  const { db, clock } = c.var.deps;
  const { room: roomUuid, user: userUuid } = c.req.valid("param");
  const room = await loadRoom(db, { uuid: roomUuid });
  if (c.var.auth?.type !== "service") {
    const { user, rank } = await callerRank(c, room);
    if (user.uuid !== userUuid && rank < ROOM_RANK.moderator) throw forbidden(ROLE_MESSAGES.notAllowed);
  }
  const held = (await rolesInForce(db, room.uuid, clock.now())).filter((r) => r.userUuid === userUuid);
  if (room.ownerUuid === userUuid && !held.some((r) => r.role === "owner"))
    held.unshift({ userUuid, role: "owner", expirationTime: null });
  return c.json(held, 200);
};

export const grantRole: AppRouteHandler<typeof routes.grantRole> = async (c) => {
  const { db, clock, liveRooms } = c.var.deps;
  const room = await loadRoom(db, { uuid: c.req.valid("param").room });
  const body = c.req.valid("json");
  const { user } = await authorizeRoleChange(c, room, body.userUuid, body.role);
  const now = clock.now();
  const expiration = body.expirationTime ? new Date(body.expirationTime) : null;
  if (expiration && expiration <= now) throw badRequest(ROLE_MESSAGES.pastExpiration);
  const row = await roles.grantRole(db, room, {
    userUuid: body.userUuid,
    role: body.role,
    expiration,
    by: user.uuid,
    reason: body.reason ?? null,
    now,
  });
  if (body.role === "banned" || body.role === "kicked")
    await liveRooms.notify(room.uuid, { type: "kickUser", userUuid: body.userUuid });
  await liveRooms.notify(room.uuid, { type: "updateRoles" });
  return c.json(roleView(row), 201);
};

export const removeRole: AppRouteHandler<typeof routes.removeRole> = async (c) => {
  const { db, clock, liveRooms } = c.var.deps;
  const room = await loadRoom(db, { uuid: c.req.valid("param").room });
  const body = c.req.valid("json");
  const stepsDown = c.var.auth?.sub === body.userUuid && !SANCTIONS.includes(body.role) && body.role !== "owner";
  const { user } = stepsDown ? await callerRank(c, room) : await authorizeRoleChange(c, room, body.userUuid, body.role);
  await roles.removeRole(db, room, { userUuid: body.userUuid, role: body.role, by: user.uuid, now: clock.now() });
  await liveRooms.notify(room.uuid, { type: "updateRoles" });
  return c.body(null, 204);
};

export const changeOwner: AppRouteHandler<typeof routes.changeOwner> = async (c) => {
  const { user } = await requireUser(c);
  const { db, clock, liveRooms } = c.var.deps;
  const room = await ownedRoom(db, c.req.valid("param").room, user, "Only the room's owner may give it away.");
  const now = clock.now();
  const updated = await roles.changeOwner(db, room, c.req.valid("json").userUuid, user.uuid, now);
  const settings = await settingsView(db, updated, now);
  await liveRooms.notify(room.uuid, { type: "updateRoomSettings", settings });
  return c.json(settings, 200);
};
