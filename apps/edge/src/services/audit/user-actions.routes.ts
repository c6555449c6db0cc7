import { z } from "@hono/zod-openapi";
import { contracts, ok, UuidParam } from "../../lib/openapi.ts";
import { AnalyticsEventSchema, ModerationActionSchema } from "./views.ts";

const { authed } = contracts(["User actions"]);

const UserActionsSchema = z
  .object({
    userUuid: z.uuid(),
    events: z.array(AnalyticsEventSchema).openapi({ description: "Their analytics events, newest first" }),
    moderationActions: z
      .array(ModerationActionSchema)
      .openapi({ description: "Moderation actions taken on them, newest first" }),
  })
  .openapi("UserActions");

export const userActions = authed("get", "/user-actions/{id}", {
  summary: "A user's recent actions: their analytics events and the moderation actions on them",
  description:
    "The user themselves, moderators and above, and services. Any other caller gets 401 `Unauthorized to perform " +
    "action`. A user reading their own sees who moderated them only if they are a moderator themselves.",
  request: {
    params: UuidParam,
    query: z.object({
      limit: z.coerce.number().int().min(1).max(200).default(50).openapi({ description: "Items of each list" }),
    }),
  },
  responses: ok(UserActionsSchema, 400, 401, 403),
});
