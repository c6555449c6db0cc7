import type { Context } from "hono";
import { rateLimit, requireServiceOrRole, requireToken, requireUser, STAFF } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { forbidden } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import * as analytics from "./analytics.ts";
import { EventStream, SOCKET_EVENT_NAMES, streamOf, USER_EVENT_NAMES } from "./event-names.ts";
import type * as routes from "./events.routes.ts";
import { eventView } from "./views.ts";

/** Staff, or a service (the live rooms and monitors check the pipeline). */
const requireStaffOrService = (c: Context<AppEnv>) => requireServiceOrRole(c, STAFF);

export const recordEvent: AppRouteHandler<typeof routes.recordEvent> = async (c) => {
  // Browsers report listening with their live token.
  const claims = requireToken(c, { live: true });
  const input = c.req.valid("json");
  let userUuid: string | null;
  if (claims.type === "service") {
    userUuid = input.userUuid ?? null;
  } else {
    // Accounts are checked (a revoked or banned one is refused); a guest token stands for itself.
    if (claims.type !== "guest") await requireUser(c, { types: ["user", "bot"], live: true });
    if (streamOf(input.topic) === EventStream.socket) throw forbidden(analytics.SOCKET_EVENTS_ONLY_FROM_SERVICES);
    if (input.userUuid && input.userUuid !== claims.sub) throw forbidden(analytics.OWN_EVENTS_ONLY);
    userUuid = claims.sub;
  }
  await rateLimit(c, `kinesis:${claims.sub}`, analytics.POST_LIMIT, 60);
  const { db, clock } = c.var.deps;
  const row = await analytics.recordEvent(db, { name: input.topic, userUuid, data: input.data ?? null }, clock.now());
  return c.json(eventView(row), 201);
};

export const socketEventNames: AppRouteHandler<typeof routes.socketEventNames> = async (c) => {
  await requireStaffOrService(c);
  return c.json([...SOCKET_EVENT_NAMES], 200);
};

export const userEventNames: AppRouteHandler<typeof routes.userEventNames> = async (c) => {
  await requireStaffOrService(c);
  return c.json([...USER_EVENT_NAMES], 200);
};

export const lastEvent: AppRouteHandler<typeof routes.lastEvent> = async (c) => {
  await requireStaffOrService(c);
  const { name } = c.req.valid("param");
  return c.json(eventView(await analytics.lastEvent(c.var.deps.db, name)), 200);
};
