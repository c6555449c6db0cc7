import type { RouteConfig } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppDeps } from "../../deps.ts";
import { rateLimit, requireService, requireUser, STAFF } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest } from "../../lib/errors.ts";
import type { AnswerOf, AppRouteHandler, BodyOf } from "../../lib/openapi.ts";
import type * as routes from "./notifications.routes.ts";
import * as notifications from "./notifications.ts";
import { checkSize, deliver, deliverToAllDevices } from "./notify.ts";

const staff = (c: Context<AppEnv>) => requireUser(c, { roles: STAFF });

/**
 * The handler of a notification route: lets in the callers `gate` admits (services or staff), then answers with the
 * report of `send` for the request's body.
 */
const sending = <R extends RouteConfig>(
  gate: (c: Context<AppEnv>) => Promise<unknown>,
  send: (deps: AppDeps, body: BodyOf<R>) => Promise<AnswerOf<R, 200>>,
) =>
  (async (c: Context<AppEnv, string, { out: { json: BodyOf<R> } }>) => {
    await gate(c);
    return c.json(await send(c.var.deps, c.req.valid("json")), 200);
  }) as unknown as AppRouteHandler<R>;

/** The caller, when they are the room's staff (the room must exist). */
async function roomSender(c: Context<AppEnv>, roomUuid: string) {
  const { user } = await requireUser(c);
  const { db, clock } = c.var.deps;
  const room = await notifications.roomSender(db, user, roomUuid, clock.now());
  return { user, room };
}

// ---- mobile notifications: to device tokens ----------------------------------------------------------------------

const tokensNotice = (deps: AppDeps, { tokens, ...notice }: BodyOf<typeof routes.toTokens>) =>
  notifications.sendToTokens(deps, tokens, notice);

export const toTokens = sending<typeof routes.toTokens>(requireService, tokensNotice);
export const toTokensByStaff = sending<typeof routes.toTokensByStaff>(staff, tokensNotice);
export const silentToTokens = sending<typeof routes.silentToTokens>(requireService, (deps, { tokens, data }) =>
  notifications.sendToTokens(deps, tokens, { data, silent: true }),
);

// ---- mobile notifications: to users ----------------------------------------------------------------------------

const userNotice = (deps: AppDeps, { userUuid, ...notice }: BodyOf<typeof routes.toUser>) =>
  notifications.sendToUser(deps, userUuid, notice);

export const toUser = sending<typeof routes.toUser>(requireService, userNotice);
export const toUserByStaff = sending<typeof routes.toUserByStaff>(staff, userNotice);
export const silentToUserByStaff = sending<typeof routes.silentToUserByStaff>(staff, (deps, { userUuid, data }) =>
  notifications.sendToUser(deps, userUuid, { data, silent: true }),
);

export const mobileCustomMessage = sending<typeof routes.mobileCustomMessage>(
  requireService,
  (deps, { senderUuid, userUuids, ...notice }) => notifications.sendFromUser(deps, senderUuid, userUuids, notice),
);

export const toAllDevices = sending<typeof routes.toAllDevices>(staff, (deps, { platform, ...notice }) => {
  checkSize(notice);
  return deliverToAllDevices(deps, notice, platform);
});

export const toRoomUsers = sending<typeof routes.toRoomUsers>(requireService, (deps, { roomUuid, ...notice }) =>
  notifications.sendToRoomUsers(deps, roomUuid, notice, deps.clock.now()),
);

// ---- DJ fans ---------------------------------------------------------------------------------------------------

export const notifyDjFans: AppRouteHandler<typeof routes.notifyDjFans> = async (c) => {
  await requireService(c);
  const { djUuid, roomUuid, song } = c.req.valid("json");
  const { deps } = c.var;
  // Only the live room says a song started: an admin's call notifies the fans and posts nothing to Discord.
  const started = song && c.var.auth?.type === "service" ? { song } : undefined;
  return c.json(await notifications.notifyDjFans(deps, djUuid, roomUuid, deps.clock.now(), started), 200);
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
