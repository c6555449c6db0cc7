import { z } from "@hono/zod-openapi";
import { contracts, jsonBody, ok } from "../../lib/openapi.ts";

/**
 * Chat through CometChat: each Booth user is a CometChat user (uid = user uuid, name = nickname); people without an
 * account read as one shared "ghost" user.
 */

const { authed } = contracts(["CometChat"]);

const ChatToken = z
  .object({ authToken: z.string(), uid: z.string(), appId: z.string(), region: z.string().nullable() })
  .openapi("CometChatToken");

export const userToken = authed("get", "/comet-chat/user-token", {
  summary: "A CometChat auth token for the caller (their CometChat user is created on first use)",
  responses: ok(ChatToken, 401, 403, 429, 502, 503),
});

export const ghostToken = authed("get", "/comet-chat/ghost-token", {
  summary: "The shared read-only CometChat user's token, for guests (any token)",
  responses: ok(ChatToken, 401, 429, 502, 503),
});

export const createUsers = authed("post", "/comet-chat/create-users", {
  summary: "Create the CometChat users of Booth accounts (service)",
  request: jsonBody(
    z
      .object({ userUuids: z.array(z.uuid()).min(1).max(100) })
      .strict()
      .openapi("CometChatCreateUsers"),
  ),
  responses: ok(
    z
      .object({ created: z.array(z.uuid()), existing: z.array(z.uuid()), notFound: z.array(z.uuid()) })
      .openapi("CometChatUsersCreated"),
    400,
    401,
    403,
    502,
    503,
  ),
});
