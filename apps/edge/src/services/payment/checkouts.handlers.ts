import { requireUser } from "../../lib/auth.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./checkouts.routes.ts";
import { completeLocalCheckout as complete, localCheckoutOf } from "./local-checkout.ts";

export const localCheckout: AppRouteHandler<typeof routes.localCheckout> = async (c) => {
  const { user } = await requireUser(c);
  return c.json(await localCheckoutOf(c.var.deps, user.uuid, c.req.valid("param").id), 200);
};

export const completeLocalCheckout: AppRouteHandler<typeof routes.completeLocalCheckout> = async (c) => {
  const { user } = await requireUser(c);
  return c.json(await complete(c.var.deps, user.uuid, c.req.valid("param").id), 200);
};
