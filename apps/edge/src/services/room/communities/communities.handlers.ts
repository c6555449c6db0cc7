import type { Context } from "hono";
import { requireUser, type User } from "../../../lib/auth.ts";
import type { AppEnv } from "../../../lib/context.ts";
import { forbidden, notFound } from "../../../lib/errors.ts";
import type { AppRouteHandler } from "../../../lib/openapi.ts";
import { roomViews } from "../rooms.ts";
import type * as routes from "./communities.routes.ts";
import {
  COMMUNITY_MESSAGES,
  communityView,
  isCommunityAdmin,
  loadCommunity,
  loadRoomByKey,
  reloadCommunity,
} from "./community.ts";
import * as communityRooms from "./community-rooms.ts";
import { communitiesOf, communitiesWithRoom } from "./listing.ts";
import * as membership from "./membership.ts";

/** The signed-in caller when there is one (user or bot token); reads stay open to everyone else. */
async function callerIfAny(c: Context<AppEnv>): Promise<User | null> {
  const type = c.var.auth?.type;
  if (type !== "user" && type !== "bot") return null;
  return (await requireUser(c, { types: ["user", "bot"] })).user;
}

export const userCommunities: AppRouteHandler<typeof routes.userCommunities> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { limit, offset } = c.req.valid("query");
  const { rows, total } = await communitiesOf(c.var.deps.db, user.uuid, limit, offset);
  return c.json({ data: rows.map(communityView), total }, 200);
};

export const roomCommunities: AppRouteHandler<typeof routes.roomCommunities> = async (c) => {
  const user = await callerIfAny(c);
  const { db } = c.var.deps;
  const room = await loadRoomByKey(db, c.req.valid("param").roomId);
  return c.json((await communitiesWithRoom(db, room, user)).map(communityView), 200);
};

export const getCommunity: AppRouteHandler<typeof routes.getCommunity> = async (c) => {
  const user = await callerIfAny(c);
  return c.json(communityView(await loadCommunity(c.var.deps.db, c.req.valid("param").id, user)), 200);
};

export const members: AppRouteHandler<typeof routes.members> = async (c) => {
  const user = await callerIfAny(c);
  const { db } = c.var.deps;
  const community = await loadCommunity(db, c.req.valid("param").id, user);
  const { limit, offset } = c.req.valid("query");
  return c.json(
    { data: await membership.membersOf(db, community.id, limit, offset), total: community.memberCount },
    200,
  );
};

export const join: AppRouteHandler<typeof routes.join> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db, clock } = c.var.deps;
  const community = await loadCommunity(db, c.req.valid("param").id, user);
  // A private community is seen only by its members and admins: members are in already, admins may add themselves.
  await membership.join(db, community.id, user.uuid, clock.now());
  return c.json(communityView(await reloadCommunity(db, community.id, user)), 200);
};

export const leave: AppRouteHandler<typeof routes.leave> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db } = c.var.deps;
  const community = await loadCommunity(db, c.req.valid("param").id, user);
  await membership.leave(db, community.id, user.uuid);
  return c.body(null, 204);
};

export const addMany: AppRouteHandler<typeof routes.addMany> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db, clock } = c.var.deps;
  const community = await loadCommunity(db, c.req.valid("param").id, user);
  const change = await membership.checkChange(db, community, user, c.req.valid("json"), true, clock.now());
  await membership.addAll(db, community.id, change, clock.now());
  return c.json(communityView(await reloadCommunity(db, community.id, user)), 200);
};

export const removeMany: AppRouteHandler<typeof routes.removeMany> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db, clock } = c.var.deps;
  const community = await loadCommunity(db, c.req.valid("param").id, user);
  const change = await membership.checkChange(db, community, user, c.req.valid("json"), false, clock.now());
  await membership.removeAll(db, community.id, change);
  return c.json(communityView(await reloadCommunity(db, community.id, user)), 200);
};

export const addMember: AppRouteHandler<typeof routes.addMember> = async (c) => {
  const { user } = await requireUser(c);
  const { id, userId } = c.req.valid("param");
  const { db, clock } = c.var.deps;
  const community = await loadCommunity(db, id, user);
  if (!isCommunityAdmin(community, user)) throw forbidden(COMMUNITY_MESSAGES.notAdmin);
  return c.json(await membership.addMember(db, community.id, userId, clock.now()), 200);
};

export const removeMember: AppRouteHandler<typeof routes.removeMember> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { id, userId } = c.req.valid("param");
  const { db } = c.var.deps;
  const community = await loadCommunity(db, id, user);
  if (userId !== user.uuid && !isCommunityAdmin(community, user)) throw forbidden(COMMUNITY_MESSAGES.notAdmin);
  if (!(await membership.leave(db, community.id, userId))) throw notFound(COMMUNITY_MESSAGES.userNotMember);
  return c.body(null, 204);
};

export const rooms: AppRouteHandler<typeof routes.rooms> = async (c) => {
  const user = await callerIfAny(c);
  const { db, clock } = c.var.deps;
  const community = await loadCommunity(db, c.req.valid("param").id, user);
  const { limit, offset } = c.req.valid("query");
  const page = await communityRooms.communityRoomPage(db, community.id, user, clock.now(), limit, offset);
  return c.json({ data: await roomViews(c, page.rows), total: page.total }, 200);
};

async function addRoomTo(c: Context<AppEnv>, key: { id: string; roomId: string }) {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db, clock } = c.var.deps;
  const community = await loadCommunity(db, key.id, user);
  const room = await loadRoomByKey(db, key.roomId);
  const { entry, created } = await communityRooms.addRoom(db, community, room, user, clock.now());
  return created ? c.json(entry, 201) : c.json(entry, 200);
}

async function removeRoomFrom(c: Context<AppEnv>, key: { id: string; roomId: string }) {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db, clock } = c.var.deps;
  const community = await loadCommunity(db, key.id, user);
  const room = await loadRoomByKey(db, key.roomId);
  await communityRooms.removeRoom(db, community, room, user, clock.now());
  return c.body(null, 204);
}

export const addRoom: AppRouteHandler<typeof routes.addRoom> = (c) => addRoomTo(c, c.req.valid("param"));
export const removeRoom: AppRouteHandler<typeof routes.removeRoom> = (c) => removeRoomFrom(c, c.req.valid("param"));
export const addRoomShort: AppRouteHandler<typeof routes.addRoomShort> = (c) => addRoomTo(c, c.req.valid("param"));
export const removeRoomShort: AppRouteHandler<typeof routes.removeRoomShort> = (c) =>
  removeRoomFrom(c, c.req.valid("param"));
