import { RoomRole, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { contracts, created, DateTime, jsonBody, noContentOr, ok, uuidParams } from "../../lib/openapi.ts";
import { KICK_SECONDS } from "./roles.ts";
import { RoomRoleSchema } from "./rooms.ts";

const { authed, route } = contracts(["Room roles"]);

const RoomParam = uuidParams("room");
const RoleView = RoomRoleSchema.extend({ id: z.uuid(), roomUuid: z.uuid(), createdAt: z.string() }).openapi(
  "RoomUserRoleRecord",
);
export const kickUser = authed("post", "/roomUserRoles/kick-user-from-room", {
  summary: `Kick a user out of a room: their connections close and they may come back after ${KICK_SECONDS / 60} minutes (moderators and up, above the user)`,
  request: jsonBody(
    z.object({ roomUuid: z.uuid(), userUuid: z.uuid(), reason: z.string().trim().max(500).optional() }).strict(),
  ),
  responses: created(RoleView, 400, 401, 403, 404),
});

export const noDancefloorUsers = authed("post", "/roomUserRoles/no-dancefloor-users", {
  summary:
    "Of the given users, those who must not show on a room's dance floor: banned or kicked there, banned or gone from the platform (signed in; services)",
  request: jsonBody(z.object({ roomUuid: z.uuid(), userUuids: z.array(z.uuid()).max(1000) }).strict()),
  responses: ok(z.object({ userUuids: z.array(z.uuid()) }).openapi("NoDancefloorUsers"), 400, 401, 404),
});

export const roomRoles = route("get", "/roomUserRoles/{room}", {
  summary: "The roles in force in a room: owners, co-owners, moderators and DJs to anyone; sanctions to its moderators",
  request: { params: RoomParam },
  responses: ok(z.array(RoomRoleSchema).openapi("RoomRoles"), 400, 404),
});

export const userRoles = authed("get", "/roomUserRoles/{room}/{user}", {
  summary: "One user's roles in a room (the user, the room's moderators, services)",
  request: { params: uuidParams("room", "user") },
  responses: ok(z.array(RoomRoleSchema), 400, 401, 403, 404),
});

const NewRole = z
  .object({
    userUuid: z.uuid(),
    role: z.enum(values(RoomRole)),
    expirationTime: DateTime.nullable().optional(),
    reason: z.string().trim().max(500).optional(),
  })
  .strict();

export const grantRole = authed("post", "/roomUserRoles/{room}", {
  summary:
    "Give a user a room role, optionally until expirationTime: moderators ban, kick, mute (chatDisabled), bar from the booth (djDisabled) or invite to DJ; co-owners name moderators; owners co-owners",
  request: { params: RoomParam, ...jsonBody(NewRole) },
  responses: created(RoleView, 400, 401, 403, 404),
});

export const removeRole = authed("delete", "/roomUserRoles/{room}", {
  summary:
    "Take a room role away (the same ranks as giving it); anyone may step down from moderator, co-owner or DJ themselves",
  request: {
    params: RoomParam,
    ...jsonBody(z.object({ userUuid: z.uuid(), role: z.enum(values(RoomRole)) }).strict()),
  },
  responses: noContentOr(400, 401, 403, 404),
});

export const changeOwner = authed("put", "/roomUserRoles/change-owner/{room}", {
  summary: "Give the room to another user; the previous owner stays as co-owner (the owner; admins)",
  request: { params: RoomParam, ...jsonBody(z.object({ userUuid: z.uuid() }).strict()) },
  responses: ok(z.any().openapi({ description: "The room's settings" }), 400, 401, 403, 404),
});
