import type { Context } from "hono";
import { rateLimit, requireService, requireUser, STAFF } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./notifications.routes.ts";
import * as notifications from "./notifications.ts";
import { checkSize, deliver, deliverToAllDevices } from "./notify.ts";

const staff = (c: Context<AppEnv>) => requireUser(c, { roles: STAFF });

/** The caller, when they are the room's staff (the room must exist). */
async function roomSender(c: Context<AppEnv>, roomUuid: string) {
  const { user } = await requireUser(c);
  const { db, clock } = c.var.deps;
  const room = await notifications.roomSender(db, user, roomUuid, clock.now());
  return { user, room };
}

// ---- mobile notifications: to device tokens ----------------------------------------------------------------------

export const toTokens: AppRouteHandler<typeof routes.toTokens> = async (c) => {
  await requireService(c);
  const { tokens, ...notice } = c.req.valid("json");
  return c.json(await notifications.sendToTokens(c.var.deps, tokens, notice), 200);
};

export const toTokensByStaff: AppRouteHandler<typeof routes.toTokensByStaff> = async (c) => {
  await staff(c);
  const { tokens, ...notice } = c.req.valid("json");
  return c.json(await notifications.sendToTokens(c.var.deps, tokens, notice), 200);
};

export const silentToTokens: AppRouteHandler<typeof routes.silentToTokens> = async (c) => {
  await requireService(c);
  const { tokens, data } = c.req.valid("json");
  return c.json(await notifications.sendToTokens(c.var.deps, tokens, { data, silent: true }), 200);
};

// ---- mobile notifications: to users ----------------------------------------------------------------------------

export const toUser: AppRouteHandler<typeof routes.toUser> = async (c) => {
  await requireService(c);
  const { userUuid, ...notice } = c.req.valid("json");
  return c.json(await notifications.sendToUser(c.var.deps, userUuid, notice), 200);
};

export const toUserByStaff: AppRouteHandler<typeof routes.toUserByStaff> = async (c) => {
  await staff(c);
  const { userUuid, ...notice } = c.req.valid("json");
  return c.json(await notifications.sendToUser(c.var.deps, userUuid, notice), 200);
};

export const silentToUserByStaff: AppRouteHandler<typeof routes.silentToUserByStaff> = async (c) => {
  await staff(c);
  const { userUuid, data } = c.req.valid("json");
  return c.json(await notifications.sendToUser(c.var.deps, userUuid, { data, silent: true }), 200);
};

export const mobileCustomMessage: AppRouteHandler<typeof routes.mobileCustomMessage> = async (c) => {
  await requireService(c);
  const { senderUuid, userUuids, ...notice } = c.req.valid("json");
  return c.json(await notifications.sendFromUser(c.var.deps, senderUuid, userUuids, notice), 200);
};

export const toAllDevices: AppRouteHandler<typeof routes.toAllDevices> = async (c) => {
  await staff(c);
  const { platform, ...notice } = c.req.valid("json");
  checkSize(notice);
  return c.json(await deliverToAllDevices(c.var.deps, notice, platform), 200);
};

export const toRoomUsers: AppRouteHandler<typeof routes.toRoomUsers> = async (c) => {
  await requireService(c);
  const { roomUuid, ...notice } = c.req.valid("json");
  const { deps } = c.var;
  return c.json(await notifications.sendToRoomUsers(deps, roomUuid, notice, deps.clock.now()), 200);
};

// ---- DJ fans ---------------------------------------------------------------------------------------------------

export const notifyDjFans: AppRouteHandler<typeof routes.notifyDjFans> = async (c) => {
  await requireService(c);
  const { djUuid, roomUuid } = c.req.valid("json");
  const { deps } = c.var;
  return c.json(await notifications.notifyDjFans(deps, djUuid, roomUuid, deps.clock.now()), 200);
};

export const djFansCheck: AppRouteHandler<typeof routes.djFansCheck> = async (c) => {
  const query = c.req.valid("query");
  let djUuid = query.djUuid;
  if (c.var.auth?.type === "service") {
    if (!djUuid) throw badRequest(["djUuid: Required"]);
  } else {
    const { user } = await requireUser(c);
    djUuid ??= user.uuid;
    if (djUuid !== user.uuid) await requireService(c);
  }
  const { db, clock } = c.var.deps;
  return c.json(await notifications.djFansCheck(db, djUuid, query.roomUuid, clock.now()), 200);
};

// ---- messages from people --------------------------------------------------------------------------------------

export const messageFriends: AppRouteHandler<typeof routes.messageFriends> = async (c) => {
  const { user } = await requireUser(c);
  const { userUuids, message } = c.req.valid("json");
  const { audience, notice } = await notifications.friendsMessage(c.var.deps.db, user.uuid, userUuids, message);
  await rateLimit(c, `custom-message:${user.uuid}`, notifications.CUSTOM_MESSAGES_PER_HOUR, 3600);
  return c.json(await deliver(c.var.deps, audience, notice), 200);
};

export const messageFromRoom: AppRouteHandler<typeof routes.messageFromRoom> = async (c) => {
  const { roomUuid, message } = c.req.valid("json");
  const { user, room } = await roomSender(c, roomUuid);
  const { deps } = c.var;
  return c.json(await notifications.messageFromRoom(deps, user.uuid, room, message, deps.clock.now()), 200);
};

export const roomUsersCheck: AppRouteHandler<typeof routes.roomUsersCheck> = async (c) => {
  const { roomUuid } = c.req.valid("query");
  const { db, clock } = c.var.deps;
  let sender: string | undefined;
  if (c.var.auth?.type === "service") await notifications.roomOr404(db, roomUuid);
  else sender = (await roomSender(c, roomUuid)).user.uuid;
  return c.json(await notifications.roomUsersCheck(db, roomUuid, sender, clock.now()), 200);
};
