import type { Context } from "hono";
import { requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { forbidden, unauthorized } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { cometChatFrom } from "../../ports/cometchat.ts";
import { loadRoom, ROOM_RANK, type Room, rankFrom, roomRolesOf } from "./access.ts";
import { requireRoomAdmission } from "./admission.ts";
import type * as routes from "./cometchat.routes.ts";
import { joinRoomChat, ROOM_CHAT_MESSAGES, syncRoomChat } from "./room-chat.ts";

/** Services, and the room's moderators and up. */
async function requireSyncCaller(c: Context<AppEnv>, room: Room) {
  if (c.var.auth?.type === "service") return;
  if (!c.var.auth) throw unauthorized();
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db, clock } = c.var.deps;
  const rank = rankFrom(room, user.uuid, user.roles, await roomRolesOf(db, room.uuid, user.uuid, clock.now()));
  if (rank < ROOM_RANK.moderator) throw forbidden(ROOM_CHAT_MESSAGES.notAllowed);
}

export const syncChat: AppRouteHandler<typeof routes.syncChat> = async (c) => {
  const { db, clock, config } = c.var.deps;
  const room = await loadRoom(db, { uuid: c.req.valid("param").id });
  await requireSyncCaller(c, room);
  const chat = cometChatFrom(config.integrations);
  return c.json(await syncRoomChat(db, chat, room, c.req.valid("json").userUuids, clock.now()), 200);
};

export const joinChat: AppRouteHandler<typeof routes.joinChat> = async (c) => {
  const { db, config } = c.var.deps;
  if (!c.var.auth || c.var.auth.type === "service") throw unauthorized();
  if (c.var.auth.type === "guest") throw forbidden(ROOM_CHAT_MESSAGES.guests);
  const chat = cometChatFrom(config.integrations);
  const room = await loadRoom(db, { uuid: c.req.valid("param").id });
  const caller = await requireRoomAdmission(c, room);
  const scope = await joinRoomChat(db, chat, room, caller.uuid, caller.rank);
  return c.json({ guid: room.uuid, uid: caller.uuid, scope }, 200);
};
