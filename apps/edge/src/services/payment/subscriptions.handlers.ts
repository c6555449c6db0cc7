import { clientAddress, hasAnyRole, rateLimit, requireUser, STAFF } from "../../lib/auth.ts";
import { forbidden } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { callerRegion, startCheckout } from "./checkout.ts";
import { productRowView } from "./products.ts";
import type * as routes from "./subscriptions.routes.ts";
import {
  countSubscriptions as count,
  subscriptionPlans as plans,
  portalLink,
  subscribablePlan,
  subscriptionState,
  userSubscriptionState,
} from "./subscriptions.ts";

export const countSubscriptions: AppRouteHandler<typeof routes.countSubscriptions> = async (c) => {
  await requireUser(c, { roles: STAFF });
  return c.json(await count(c.var.deps.db, c.req.valid("query"), c.var.deps.clock.now()), 200);
};

export const subscriptionPlans: AppRouteHandler<typeof routes.subscriptionPlans> = async (c) =>
  c.json((await plans(c.var.deps.db)).map(productRowView), 200);

export const ownSubscriptions: AppRouteHandler<typeof routes.ownSubscriptions> = async (c) => {
  const { user } = await requireUser(c);
  return c.json(await subscriptionState(c.var.deps.db, user.uuid), 200);
};

export const userSubscriptions: AppRouteHandler<typeof routes.userSubscriptions> = async (c) => {
  const { user } = await requireUser(c);
  const { id } = c.req.valid("param");
  if (id !== user.uuid && !hasAnyRole(user.roles, STAFF)) throw forbidden();
  return c.json(await userSubscriptionState(c.var.deps.db, id), 200);
};

export const subscriptionCheckout: AppRouteHandler<typeof routes.subscriptionCheckout> = async (c) => {
  const { user } = await requireUser(c);
  const product = await subscribablePlan(c.var.deps.db, user.uuid, c.req.valid("param").id);
  await rateLimit(c, `payment-checkout:${user.uuid}`, 30, 600);
  const region = () => callerRegion(c.var.deps.geo, clientAddress(c));
  return c.json(await startCheckout(c.var.deps, user, product, "subscription", region), 201);
};

export const customerPortal: AppRouteHandler<typeof routes.customerPortal> = async (c) => {
  const { user } = await requireUser(c);
  return c.json(await portalLink(c.var.deps, user.uuid), 200);
};
