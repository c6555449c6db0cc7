import { type Db, schema } from "@booth/db";
import { PaymentProvider, SubscriptionStatus, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { hasAnyRole, requireUser, STAFF } from "../../lib/auth.ts";
import { badRequest, conflict, forbidden, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, UuidParam } from "../../lib/openapi.ts";
import { CheckoutSchema, PAYMENT_PREFIX, requireLocalCheckout, startCheckout } from "./checkout.ts";
import { type Subscription, UNLOCKING } from "./fulfilment.ts";
import { loadProduct, ProductSchema, productView, selectProducts } from "./products.routes.ts";
import { providerFailure, stripeClient } from "./stripe.ts";

export const subscriptionRoutes = createRouter();
const tags = ["Subscriptions"];

export const ALREADY_SUBSCRIBED = "You already have an active subscription; change it in the customer portal.";
export const NOT_RECURRING = "This product is not a subscription: buy it with POST /api/v1/products/{id}/checkout.";
export const NO_BILLING_ACCOUNT = "You have no billing account yet: subscribe first.";
/** How long a local customer-portal link works. */
export const PORTAL_TTL_SECONDS = 3600;

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
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Subscription");

const iso = (d: Date | null) => d?.toISOString() ?? null;
export const subscriptionView = (s: Subscription) => ({
  id: s.id,
  userUuid: s.userUuid,
  productId: s.productId,
  provider: s.provider,
  status: s.status,
  active: UNLOCKING.includes(s.status),
  level: s.level,
  region: s.region,
  currentPeriodStart: iso(s.currentPeriodStart),
  currentPeriodEnd: iso(s.currentPeriodEnd),
  cancelAtPeriodEnd: s.cancelAtPeriodEnd,
  canceledAt: iso(s.canceledAt),
  startedAt: iso(s.startedAt),
  endedAt: iso(s.endedAt),
  renewals: s.renewals,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});

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

export async function subscriptionsOf(db: Db, userUuid: string) {
  return db
    .select()
    .from(schema.subscriptions)
    .where(eq(schema.subscriptions.userUuid, userUuid))
    .orderBy(desc(schema.subscriptions.createdAt), desc(schema.subscriptions.id));
}

async function subscriptionState(db: Db, userUuid: string) {
  const all = await subscriptionsOf(db, userUuid);
  const current = all.find((s) => UNLOCKING.includes(s.status)) ?? null;
  return {
    userUuid,
    subscribed: !!current,
    level: current?.level ?? null,
    subscription: (current ?? all[0]) ? subscriptionView((current ?? all[0]) as Subscription) : null,
    subscriptions: all.map(subscriptionView),
  };
}

const Instant = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()])
  .openapi({ description: "An ISO 8601 date-time, or a date (midnight UTC)" });

subscriptionRoutes.openapi(
  createRoute({
    method: "get",
    path: "/subscription/count",
    tags,
    summary:
      "How many subscriptions were in force at some time between startDate and endDate (staff). Without dates: now.",
    security: bearer,
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
    responses: {
      200: json(
        z
          .object({
            count: z.number().int(),
            startDate: z.string(),
            endDate: z.string(),
            region: z.string().nullable(),
            level: z.string().nullable(),
          })
          .openapi("SubscriptionCount"),
      ),
      ...errors(400, 401, 403),
    },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const q = c.req.valid("query");
    const now = c.var.deps.clock.now();
    const to = q.endDate ? new Date(q.endDate) : now;
    const from = q.startDate ? new Date(q.startDate) : to;
    if (from > to) throw badRequest(["startDate: must not be after endDate"]);
    const region = q.region?.toUpperCase() ?? null;
    const count = await c.var.deps.db.$count(
      schema.subscriptions,
      and(
        isNotNull(schema.subscriptions.startedAt),
        lte(schema.subscriptions.startedAt, to),
        or(isNull(schema.subscriptions.endedAt), gt(schema.subscriptions.endedAt, from)),
        region ? eq(sql`upper(${schema.subscriptions.region})`, region) : undefined,
        q.level ? eq(schema.subscriptions.level, q.level) : undefined,
      ),
    );
    return c.json(
      { count, startDate: from.toISOString(), endDate: to.toISOString(), region, level: q.level ?? null },
      200,
    );
  },
);

subscriptionRoutes.openapi(
  createRoute({
    method: "get",
    path: "/subscription/products",
    tags,
    summary: "The subscription plans for sale (anyone)",
    responses: { 200: json(z.array(ProductSchema)) },
  }),
  async (c) => {
    const rows = await selectProducts(c.var.deps.db)
      .where(and(eq(schema.paymentProducts.paymentType, "recurring"), eq(schema.paymentProducts.active, true)))
      .orderBy(asc(schema.paymentProducts.priceCents), asc(schema.paymentProducts.id));
    return c.json(
      rows.map((r) => productView(r.product, r.tokens)),
      200,
    );
  },
);

subscriptionRoutes.openapi(
  createRoute({
    method: "get",
    path: "/subscription",
    tags,
    summary: "The caller's subscriptions and whether one is in force (signed in)",
    security: bearer,
    responses: { 200: json(SubscriptionStateSchema), ...errors(401, 403) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    return c.json(await subscriptionState(c.var.deps.db, user.uuid), 200);
  },
);

subscriptionRoutes.openapi(
  createRoute({
    method: "get",
    path: "/subscription/user/{id}",
    tags,
    summary: "A user's subscriptions (that user, or staff)",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(SubscriptionStateSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { id } = c.req.valid("param");
    if (id !== user.uuid && !hasAnyRole(user.roles, STAFF)) throw forbidden();
    const { db } = c.var.deps;
    const [target] = await db.select({ uuid: schema.users.uuid }).from(schema.users).where(eq(schema.users.uuid, id));
    if (!target) throw notFound("User not found.");
    return c.json(await subscriptionState(db, id), 200);
  },
);

subscriptionRoutes.openapi(
  createRoute({
    method: "post",
    path: "/subscription/checkout/{id}",
    tags,
    summary:
      "Start subscribing to plan {id} (signed-in users without a subscription in force): answers the URL where the subscriber pays",
    security: bearer,
    request: { params: UuidParam },
    responses: { 201: json(CheckoutSchema, "Created"), ...errors(400, 401, 403, 404, 409, 429, 502, 503) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db } = c.var.deps;
    const { product } = await loadProduct(db, c.req.valid("param").id);
    if (product.paymentType !== "recurring") throw conflict(NOT_RECURRING);
    const [inForce] = await db
      .select({ id: schema.subscriptions.id })
      .from(schema.subscriptions)
      .where(and(eq(schema.subscriptions.userUuid, user.uuid), inArray(schema.subscriptions.status, UNLOCKING)))
      .limit(1);
    if (inForce) throw conflict(ALREADY_SUBSCRIBED);
    return c.json(await startCheckout(c, user, product, "subscription"), 201);
  },
);

subscriptionRoutes.openapi(
  createRoute({
    method: "post",
    path: "/subscription/portal",
    tags,
    summary:
      "A link to the customer portal where the caller manages or cancels their subscription (Stripe's billing portal; the local test portal when Stripe is not configured)",
    security: bearer,
    responses: {
      200: json(z.object({ url: z.string(), provider: z.enum(["stripe", "local"]) }).openapi("CustomerPortal")),
      ...errors(401, 403, 404, 502, 503),
    },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db, config, cache } = c.var.deps;
    const stripe = stripeClient(config.payments);
    if (!stripe) {
      requireLocalCheckout(config.payments);
      const token = crypto.randomUUID();
      await cache.set(`payment:portal:${token}`, user.uuid, PORTAL_TTL_SECONDS);
      return c.json(
        { url: `${config.publicUrl}${PAYMENT_PREFIX}/local-portal/${token}`, provider: "local" as const },
        200,
      );
    }
    const [customer] = await db
      .select({ customerId: schema.paymentCustomers.customerId })
      .from(schema.paymentCustomers)
      .where(and(eq(schema.paymentCustomers.provider, "stripe"), eq(schema.paymentCustomers.userUuid, user.uuid)));
    if (!customer) throw notFound(NO_BILLING_ACCOUNT);
    const session = await stripe.billingPortal.sessions
      .create({ customer: customer.customerId, return_url: `${config.webUrl}/shop` })
      .catch((err) => {
        throw providerFailure(err);
      });
    return c.json({ url: session.url, provider: "stripe" as const }, 200);
  },
);
