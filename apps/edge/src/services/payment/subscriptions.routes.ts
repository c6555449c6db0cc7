import { PaymentProvider, SubscriptionStatus, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { contracts, created, DateTime, IsoDate, json, ok, Timestamps, UuidParam } from "../../lib/openapi.ts";
import { CheckoutSchema, ProductSchema } from "./products.routes.ts";

const { authed, route } = contracts(["Subscriptions"]);

export const SubscriptionSchema = z
  .object({
    id: z.uuid(),
    userUuid: z.uuid(),
    productId: z.uuid().nullable(),
    provider: z.enum(values(PaymentProvider)),
    status: z.enum(values(SubscriptionStatus)),
    active: z.boolean().openapi({ description: "Whether it unlocks what it sells now (active, trialing, past_due)" }),
    level: z.string().nullable(),
    region: z.string().nullable(),
    currentPeriodStart: z.string().nullable(),
    currentPeriodEnd: z.string().nullable(),
    cancelAtPeriodEnd: z.boolean(),
    canceledAt: z.string().nullable(),
    startedAt: z.string().nullable(),
    endedAt: z.string().nullable(),
    renewals: z.number().int(),
    ...Timestamps,
  })
  .openapi("Subscription");

const SubscriptionStateSchema = z
  .object({
    userUuid: z.uuid(),
    subscribed: z.boolean(),
    level: z.string().nullable().openapi({ description: "The level of the subscription in force, if any" }),
    subscription: SubscriptionSchema.nullable().openapi({
      description: "The subscription in force, else the newest one",
    }),
    subscriptions: z.array(SubscriptionSchema).openapi({ description: "All of them, newest first" }),
  })
  .openapi("SubscriptionState");

const Instant = z
  .union([DateTime, IsoDate])
  .openapi({ description: "An ISO 8601 date-time, or a date (midnight UTC)" });

export const countSubscriptions = authed("get", "/subscription/count", {
  summary:
    "How many subscriptions were in force at some time between startDate and endDate (staff). Without dates: now.",
  request: {
    query: z.object({
      startDate: Instant.optional(),
      endDate: Instant.optional(),
      region: z
        .string()
        .regex(/^[A-Za-z]{2,3}$/, "a country code (US, or an App Store storefront such as USA)")
        .optional(),
      level: z.string().trim().min(1).max(50).optional(),
    }),
  },
  responses: ok(
    z
      .object({
        count: z.number().int(),
        startDate: z.string(),
        endDate: z.string(),
        region: z.string().nullable(),
        level: z.string().nullable(),
      })
      .openapi("SubscriptionCount"),
    400,
    401,
    403,
  ),
});

export const subscriptionPlans = route("get", "/subscription/products", {
  summary: "The subscription plans for sale (anyone)",
  responses: { 200: json(z.array(ProductSchema)) },
});

export const ownSubscriptions = authed("get", "/subscription", {
  summary: "The caller's subscriptions and whether one is in force (signed in)",
  responses: ok(SubscriptionStateSchema, 401, 403),
});

export const userSubscriptions = authed("get", "/subscription/user/{id}", {
  summary: "A user's subscriptions (that user, or staff)",
  request: { params: UuidParam },
  responses: ok(SubscriptionStateSchema, 400, 401, 403, 404),
});

export const subscriptionCheckout = authed("post", "/subscription/checkout/{id}", {
  summary:
    "Start subscribing to plan {id} (signed-in users without a subscription in force): answers the URL where the subscriber pays",
  request: { params: UuidParam },
  responses: created(CheckoutSchema, 400, 401, 403, 404, 409, 429, 502, 503),
});

export const customerPortal = authed("post", "/subscription/portal", {
  summary:
    "A link to the customer portal where the caller manages or cancels their subscription (Stripe's billing portal; the local test portal when Stripe is not configured)",
  responses: ok(
    z.object({ url: z.string(), provider: z.enum(["stripe", "local"]) }).openapi("CustomerPortal"),
    401,
    403,
    404,
    502,
    503,
  ),
});
