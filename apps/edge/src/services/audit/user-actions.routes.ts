import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { desc, eq } from "drizzle-orm";
import type { Context } from "hono";
import { type Caller, hasAnyRole, MODERATORS, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { HttpError, unauthorized } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, UuidParam } from "../../lib/openapi.ts";
import { AnalyticsEventSchema, eventView, ModerationActionSchema, moderationActionView } from "./views.ts";

export const userActionRoutes = createRouter();

/** The spec's label for a 401 on this call, to the letter. */
export const UNAUTHORIZED_ACTION = "Unauthorized to perform action";

const UserActionsSchema = z
  .object({
    userUuid: z.uuid(),
    events: z.array(AnalyticsEventSchema).openapi({ description: "Their analytics events, newest first" }),
    moderationActions: z
      .array(ModerationActionSchema)
      .openapi({ description: "Moderation actions taken on them, newest first" }),
  })
  .openapi("UserActions");

/**
 * Who may read: a service, moderators and above, or the user themselves. Answers whether the caller may see who took
 * each moderation action (everyone but a user reading their own who is not a moderator).
 */
async function authorize(c: Context<AppEnv>, userUuid: string): Promise<{ showModerators: boolean }> {
  if (c.var.auth?.type === "service") return { showModerators: true };
  let caller: Caller;
  try {
    caller = await requireUser(c, { types: ["user", "bot"] });
  } catch (err) {
    if (err instanceof HttpError && err.status === 401) throw unauthorized(UNAUTHORIZED_ACTION);
    throw err;
  }
  if (hasAnyRole(caller.user.roles, MODERATORS)) return { showModerators: true };
  if (caller.user.uuid === userUuid) return { showModerators: false };
  throw unauthorized(UNAUTHORIZED_ACTION);
}

userActionRoutes.openapi(
  createRoute({
    method: "get",
    path: "/user-actions/{id}",
    tags: ["User actions"],
    summary: "A user's recent actions: their analytics events and the moderation actions on them",
    description:
      "The user themselves, moderators and above, and services. Any other caller gets 401 `Unauthorized to perform " +
      "action`. A user reading their own sees who moderated them only if they are a moderator themselves.",
    security: bearer,
    request: {
      params: UuidParam,
      query: z.object({
        limit: z.coerce.number().int().min(1).max(200).default(50).openapi({ description: "Items of each list" }),
      }),
    },
    responses: { 200: json(UserActionsSchema), ...errors(400, 401, 403) },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const { limit } = c.req.valid("query");
    const { showModerators } = await authorize(c, id);
    const { db } = c.var.deps;
    const [events, actions] = await Promise.all([
      db
        .select()
        .from(schema.analyticsEvents)
        .where(eq(schema.analyticsEvents.userUuid, id))
        .orderBy(desc(schema.analyticsEvents.createdAt), desc(schema.analyticsEvents.id))
        .limit(limit),
      db
        .select()
        .from(schema.moderationActions)
        .where(eq(schema.moderationActions.targetUuid, id))
        .orderBy(desc(schema.moderationActions.createdAt), desc(schema.moderationActions.id))
        .limit(limit),
    ]);
    return c.json(
      {
        userUuid: id,
        events: events.map(eventView),
        moderationActions: actions.map((row) => ({
          ...moderationActionView(row),
          moderatorUuid: showModerators ? row.moderatorUuid : null,
        })),
      },
      200,
    );
  },
);
