import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody } from "../../lib/openapi.ts";

/**
 * Chat through CometChat: each Booth user is a CometChat user (uid = user uuid, name = nickname); people without an
 * account read as one shared "ghost" user.
 */

const tags = ["CometChat"];

const ChatToken = z
  .object({ authToken: z.string(), uid: z.string(), appId: z.string(), region: z.string().nullable() })
  .openapi("CometChatToken");

export const userToken = createRoute({
  method: "get",
  path: "/comet-chat/user-token",
  tags,
  summary: "A CometChat auth token for the caller (their CometChat user is created on first use)",
  security: bearer,
  responses: { 200: json(ChatToken), ...errors(401, 403, 429, 502, 503) },
});

export const ghostToken = createRoute({
  method: "get",
  path: "/comet-chat/ghost-token",
  tags,
  summary: "The shared read-only CometChat user's token, for guests (any token)",
  security: bearer,
  responses: { 200: json(ChatToken), ...errors(401, 429, 502, 503) },
});

export const createUsers = createRoute({
  method: "post",
  path: "/comet-chat/create-users",
  tags,
  summary: "Create the CometChat users of Booth accounts (service)",
  security: bearer,
  request: jsonBody(
    z
      .object({ userUuids: z.array(z.uuid()).min(1).max(100) })
      .strict()
      .openapi("CometChatCreateUsers"),
  ),
  responses: {
    200: json(
      z
        .object({ created: z.array(z.uuid()), existing: z.array(z.uuid()), notFound: z.array(z.uuid()) })
        .openapi("CometChatUsersCreated"),
    ),
    ...errors(400, 401, 403, 502, 503),
  },
});
