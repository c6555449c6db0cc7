import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./local-checkout.routes.ts";
import { cancelLocalSubscription, portalPage as portalHtml } from "./local-checkout.ts";

export const portalPage: AppRouteHandler<typeof routes.portalPage> = async (c) =>
  c.html(await portalHtml(c.var.deps, c.req.valid("param").token), 200);

export const cancelSubscription: AppRouteHandler<typeof routes.cancelSubscription> = async (c) => {
  const { token, id } = c.req.valid("param");
  return c.html(await cancelLocalSubscription(c.var.deps, token, id), 200);
};
