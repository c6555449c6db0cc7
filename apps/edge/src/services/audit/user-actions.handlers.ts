import type { Context } from "hono";
import { type Caller, hasAnyRole, MODERATORS, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { HttpError, unauthorized } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./user-actions.routes.ts";
import { recentActions, UNAUTHORIZED_ACTION } from "./user-actions.ts";

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

export const userActions: AppRouteHandler<typeof routes.userActions> = async (c) => {
  const { id } = c.req.valid("param");
  const { limit } = c.req.valid("query");
  const { showModerators } = await authorize(c, id);
  return c.json(await recentActions(c.var.deps.db, id, limit, showModerators), 200);
};
