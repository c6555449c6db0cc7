import { z } from "@hono/zod-openapi";
import { contracts, ok, UuidParam } from "../../lib/openapi.ts";
import { CheckoutSchema } from "./products.routes.ts";

const { authed } = contracts(["Local test checkout"]);

export const LocalCheckoutSchema = CheckoutSchema.extend({
  product: z.object({
    name: z.string(),
    interval: z.string().nullable().openapi({ description: "subscription: month or year" }),
    level: z.string().nullable().openapi({ description: "subscription: the level it unlocks" }),
  }),
}).openapi("LocalCheckout");

export const CompletedCheckoutSchema = z
  .object({
    checkout: CheckoutSchema,
    balance: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The buyer's token balance after the purchase (null: no token account)" }),
  })
  .openapi("CompletedCheckout");

export const localCheckout = authed("get", "/api/v1/checkouts/{id}", {
  summary:
    "The caller's own local test checkout: what it buys and for how much (only without STRIPE_SECRET_KEY; the web's checkout page)",
  request: { params: UuidParam },
  responses: ok(LocalCheckoutSchema, 400, 401, 403, 404, 409, 503),
});

export const completeLocalCheckout = authed("post", "/api/v1/checkouts/{id}/complete", {
  summary:
    "Complete the caller's own open local test checkout without payment, once, through the same fulfilment as Stripe's webhook (only without STRIPE_SECRET_KEY)",
  request: { params: UuidParam },
  responses: ok(CompletedCheckoutSchema, 400, 401, 403, 404, 409, 503),
});
