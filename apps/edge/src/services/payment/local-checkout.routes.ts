import { createRoute, z } from "@hono/zod-openapi";
import { errors } from "../../lib/openapi.ts";

const tags = ["Local test checkout"];

const html = { content: { "text/html": { schema: z.string() } }, description: "An HTML page" };
const IdParam = z.object({ id: z.uuid().openapi({ param: { name: "id", in: "path" } }) });
const TokenParam = z.object({ token: z.uuid().openapi({ param: { name: "token", in: "path" } }) });

export const checkoutPage = createRoute({
  method: "get",
  path: "/local-checkout/{id}",
  tags,
  summary: "The local test checkout page of checkout {id} (only without STRIPE_SECRET_KEY)",
  request: { params: IdParam },
  responses: { 200: html, ...errors(400, 404, 409, 503) },
});

export const completeCheckout = createRoute({
  method: "post",
  path: "/local-checkout/{id}",
  tags,
  summary:
    "Complete checkout {id} without payment, through the same fulfilment as Stripe's webhook (only without STRIPE_SECRET_KEY)",
  request: { params: IdParam },
  responses: { 200: html, ...errors(400, 404, 409, 503) },
});

export const portalPage = createRoute({
  method: "get",
  path: "/local-portal/{token}",
  tags,
  summary: "The local test customer portal: the user's subscriptions, to cancel (only without STRIPE_SECRET_KEY)",
  request: { params: TokenParam },
  responses: { 200: html, ...errors(400, 404, 503) },
});

export const cancelSubscription = createRoute({
  method: "post",
  path: "/local-portal/{token}/cancel/{id}",
  tags,
  summary: "Cancel local subscription {id} from the local test portal (only without STRIPE_SECRET_KEY)",
  request: { params: TokenParam.extend(IdParam.shape) },
  responses: { 200: html, ...errors(400, 404, 503) },
});
