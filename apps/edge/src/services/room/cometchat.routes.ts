import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, UuidParam } from "../../lib/openapi.ts";

/** A room's chat group at CometChat: see room-chat.ts. */
const tags = ["Room roles"];

const SyncResult = z
  .object({
    guid: z.string(),
    admins: z.number().int(),
    moderators: z.number().int(),
    participants: z.number().int(),
    added: z.number().int(),
    scopesChanged: z.number().int(),
    removed: z.number().int(),
    banned: z.number().int(),
    unbanned: z.number().int(),
  })
  .openapi("RoomChatSync");

export const syncChat = createRoute({
  method: "post",
  path: "/roomUserRoles/cometchat/sync/{id}",
  tags,
  summary:
    "Bring the room's CometChat group in line with its roles: scopes, bans, kicks; adds the people in the room (and any named)",
  security: bearer,
  request: {
    params: UuidParam,
    ...jsonBody(
      z
        .object({
          userUuids: z
            .array(z.uuid())
            .max(500)
            .default([])
            .openapi({ description: "More members to add as participants (besides the room's roles and presence)" }),
        })
        .strict()
        .openapi("RoomChatSyncInput"),
    ),
  },
  responses: { 200: json(SyncResult), ...errors(400, 401, 403, 404, 502, 503) },
});

export const joinChat = createRoute({
  method: "post",
  path: "/roomUserRoles/cometchat/join/{id}",
  tags,
  summary: "Put the caller in the room's CometChat group, with the scope their room role gives",
  security: bearer,
  request: { params: UuidParam },
  responses: {
    200: json(
      z
        .object({ guid: z.string(), uid: z.string(), scope: z.enum(["admin", "moderator", "participant"]) })
        .openapi("RoomChatMembership"),
    ),
    ...errors(400, 401, 403, 404, 502, 503),
  },
});
