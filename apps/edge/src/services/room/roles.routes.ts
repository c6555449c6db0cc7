import { RoomRole, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { bearer, DateTime, errors, json, jsonBody, noContent } from "../../lib/openapi.ts";
import { KICK_SECONDS } from "./roles.ts";
import { RoomRoleSchema } from "./rooms.ts";

const tags = ["Room roles"];

const RoomParam = z.object({ room: z.uuid().openapi({ param: { name: "room", in: "path" } }) });
const RoleView = RoomRoleSchema.extend({ id: z.uuid(), roomUuid: z.uuid(), createdAt: z.string() }).openapi(
  "RoomUserRoleRecord",
);
export const kickUser = createRoute({
  method: "post",
  path: "/roomUserRoles/kick-user-from-room",
  tags,
  summary: `Kick a user out of a room: their connections close and they may come back after ${KICK_SECONDS / 60} minutes (moderators and up, above the user)`,
  security: bearer,
  request: jsonBody(
    z.object({ roomUuid: z.uuid(), userUuid: z.uuid(), reason: z.string().trim().max(500).optional() }).strict(),
  ),
  responses: { 201: json(RoleView, "Created"), ...errors(400, 401, 403, 404) },
});

export const noDancefloorUsers = createRoute({
  method: "post",
  path: "/roomUserRoles/no-dancefloor-users",
  tags,
  summary:
    "Of the given users, those who must not show on a room's dance floor: banned or kicked there, banned or gone from the platform (signed in; services)",
  security: bearer,
  request: jsonBody(z.object({ roomUuid: z.uuid(), userUuids: z.array(z.uuid()).max(1000) }).strict()),
  responses: {
    200: json(z.object({ userUuids: z.array(z.uuid()) }).openapi("NoDancefloorUsers")),
    ...errors(400, 401, 404),
  },
});

export const roomRoles = createRoute({
  method: "get",
  path: "/roomUserRoles/{room}",
  tags,
  summary: "The roles in force in a room: owners, co-owners, moderators and DJs to anyone; sanctions to its moderators",
  request: { params: RoomParam },
  responses: { 200: json(z.array(RoomRoleSchema).openapi("RoomRoles")), ...errors(400, 404) },
});

export const userRoles = createRoute({
  method: "get",
  path: "/roomUserRoles/{room}/{user}",
  tags,
  summary: "One user's roles in a room (the user, the room's moderators, services)",
  security: bearer,
  request: { params: RoomParam.extend({ user: z.uuid().openapi({ param: { name: "user", in: "path" } }) }) },
  responses: { 200: json(z.array(RoomRoleSchema)), ...errors(400, 401, 403, 404) },
});

const NewRole = z
  .object({
    userUuid: z.uuid(),
    role: z.enum(values(RoomRole)),
    expirationTime: DateTime.nullable().optional(),
    reason: z.string().trim().max(500).optional(),
  })
  .strict();

export const grantRole = createRoute({
  method: "post",
  path: "/roomUserRoles/{room}",
  tags,
  summary:
    "Give a user a room role, optionally until expirationTime: moderators ban, kick, mute (chatDisabled), bar from the booth (djDisabled) or invite to DJ; co-owners name moderators; owners co-owners",
  security: bearer,
  request: { params: RoomParam, ...jsonBody(NewRole) },
  responses: { 201: json(RoleView, "Created"), ...errors(400, 401, 403, 404) },
});

export const removeRole = createRoute({
  method: "delete",
  path: "/roomUserRoles/{room}",
  tags,
  summary:
    "Take a room role away (the same ranks as giving it); anyone may step down from moderator, co-owner or DJ themselves",
  security: bearer,
  request: {
    params: RoomParam,
    ...jsonBody(z.object({ userUuid: z.uuid(), role: z.enum(values(RoomRole)) }).strict()),
  },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});

export const changeOwner = createRoute({
  method: "put",
  path: "/roomUserRoles/change-owner/{room}",
  tags,
  summary: "Give the room to another user; the previous owner stays as co-owner (the owner; admins)",
  security: bearer,
  request: { params: RoomParam, ...jsonBody(z.object({ userUuid: z.uuid() }).strict()) },
  responses: { 200: json(z.any().openapi({ description: "The room's settings" })), ...errors(400, 401, 403, 404) },
});
