import { z } from "@hono/zod-openapi";
import { contracts, jsonBody, ok, UuidParam } from "../../lib/openapi.ts";

/** A room's chat group at CometChat: see room-chat.ts. */
const { authed } = contracts(["Room roles"]);

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

export const syncChat = authed("post", "/roomUserRoles/cometchat/sync/{id}", {
  summary:
    "Bring the room's CometChat group in line with its roles: scopes, bans, kicks; adds the people in the room (and any named)",
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
  responses: ok(SyncResult, 400, 401, 403, 404, 502, 503),
});

export const joinChat = authed("post", "/roomUserRoles/cometchat/join/{id}", {
  summary: "Put the caller in the room's CometChat group, with the scope their room role gives",
  request: { params: UuidParam },
  responses: ok(
    z
      .object({ guid: z.string(), uid: z.string(), scope: z.enum(["admin", "moderator", "participant"]) })
      .openapi("RoomChatMembership"),
    400,
    401,
    403,
    404,
    502,
    503,
  ),
});
