import { z } from "@hono/zod-openapi";
import { contracts, jsonBody, ok } from "../../lib/openapi.ts";

const { authed } = contracts(["Agora"]);

const AgoraRole = z.enum(["PUBLISHER", "SUBSCRIBER"]);

export const agoraToken = authed("post", "/agora/token", {
  summary: "An Agora RTC token for a room's live audio (the channel is the room's uuid)",
  request: jsonBody(
    z
      .object({
        channelName: z.uuid().openapi({ description: "The room's uuid" }),
        role: AgoraRole.default("SUBSCRIBER"),
        uid: z
          .number()
          .int()
          .min(1)
          .max(2 ** 32 - 1)
          .optional()
          .openapi({ description: "A numeric Agora uid; without it the token is for the caller's uuid as account" }),
      })
      .strict()
      .openapi("AgoraTokenRequest"),
  ),
  responses: ok(
    z
      .object({
        token: z.string(),
        appId: z.string(),
        channelName: z.string(),
        uid: z.number().int().nullable(),
        account: z.string().nullable(),
        role: AgoraRole,
        expiresAt: z.string(),
      })
      .openapi("AgoraToken"),
    400,
    401,
    403,
    404,
    409,
    429,
    503,
  ),
});
