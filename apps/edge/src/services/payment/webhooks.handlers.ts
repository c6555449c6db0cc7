import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./webhooks.routes.ts";
import { receiveAppleNotification, receiveStripeEvent } from "./webhooks.ts";

export const stripeWebhook: AppRouteHandler<typeof routes.stripeWebhook> = async (c) => {
  const raw = await c.req.text();
  return c.json(await receiveStripeEvent(c.var.deps, raw, c.req.valid("header")["stripe-signature"]), 200);
};

export const appleWebhook: AppRouteHandler<typeof routes.appleWebhook> = async (c) =>
  c.json(await receiveAppleNotification(c.var.deps, c.req.valid("json").signedPayload), 200);
