import { requireService, requireUser } from "../../lib/auth.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { checkSize, deliver, usersAudience } from "./notify.ts";
import type * as routes from "./web-push.routes.ts";
import {
  subscribe as subscribeBrowser,
  subscriptionView,
  unsubscribe as unsubscribeBrowser,
} from "./web-subscriptions.ts";

export const publicKey: AppRouteHandler<typeof routes.publicKey> = (c) =>
  c.json({ publicKey: c.var.deps.push.web.publicKey }, 200);

export const subscribe: AppRouteHandler<typeof routes.subscribe> = async (c) => {
  const { user } = await requireUser(c);
  const { endpoint, keys } = c.req.valid("json");
  const { deps } = c.var;
  const row = await subscribeBrowser(deps, user.uuid, { endpoint, keys }, deps.clock.now());
  return c.json(subscriptionView(row), 201);
};

export const unsubscribe: AppRouteHandler<typeof routes.unsubscribe> = async (c) => {
  const { user } = await requireUser(c);
  await unsubscribeBrowser(c.var.deps.db, user.uuid, c.req.valid("json").endpoint);
  return c.body(null, 204);
};

export const pushToUsers: AppRouteHandler<typeof routes.pushToUsers> = async (c) => {
  await requireService(c);
  const { userUuids, ...notice } = c.req.valid("json");
  checkSize(notice);
  const { deps } = c.var;
  return c.json(await deliver(deps, usersAudience(deps.db, userUuids), notice, { mobile: false, web: true }), 200);
};
