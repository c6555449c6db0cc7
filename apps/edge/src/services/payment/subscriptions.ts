import { type Db, schema } from "@booth/db";
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { badRequest, conflict, found, USER_NOT_FOUND } from "../../lib/errors.ts";
import { isoOrNull } from "../../lib/json-rows.ts";
import { knownStripeCustomer, PAYMENT_PREFIX, requireLocalCheckout } from "./checkout.ts";
import { type Subscription, UNLOCKING } from "./fulfilment.ts";
import { loadProduct, selectProducts } from "./products.ts";
import { askStripe, stripeClient } from "./stripe.ts";

export const ALREADY_SUBSCRIBED = "You already have an active subscription; change it in the customer portal.";
export const NOT_RECURRING = "This product is not a subscription: buy it with POST /api/v1/products/{id}/checkout.";
export const NO_BILLING_ACCOUNT = "You have no billing account yet: subscribe first.";
/** How long a local customer-portal link works. */
export const PORTAL_TTL_SECONDS = 3600;

export const subscriptionView = (s: Subscription) => ({
  id: s.id,
  userUuid: s.userUuid,
  productId: s.productId,
  provider: s.provider,
  status: s.status,
  active: UNLOCKING.includes(s.status),
  level: s.level,
  region: s.region,
  currentPeriodStart: isoOrNull(s.currentPeriodStart),
  currentPeriodEnd: isoOrNull(s.currentPeriodEnd),
  cancelAtPeriodEnd: s.cancelAtPeriodEnd,
  canceledAt: isoOrNull(s.canceledAt),
  startedAt: isoOrNull(s.startedAt),
  endedAt: isoOrNull(s.endedAt),
  renewals: s.renewals,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});

/** A user's subscriptions, newest first. */
export async function subscriptionsOf(db: Db, userUuid: string) {
  return db
    .select()
    .from(schema.subscriptions)
    .where(eq(schema.subscriptions.userUuid, userUuid))
    .orderBy(desc(schema.subscriptions.createdAt), desc(schema.subscriptions.id));
}

/** A user's subscriptions and the one in force (else the newest). */
export async function subscriptionState(db: Db, userUuid: string) {
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

/** Another user's subscription state (a 404 for an unknown user). */
export async function userSubscriptionState(db: Db, userUuid: string) {
  const [target] = await db
    .select({ uuid: schema.users.uuid })
    .from(schema.users)
    .where(eq(schema.users.uuid, userUuid));
  found(target, USER_NOT_FOUND);
  return subscriptionState(db, userUuid);
}

export interface CountQuery {
  startDate?: string | undefined;
  endDate?: string | undefined;
  region?: string | undefined;
  level?: string | undefined;
}

/** How many subscriptions were in force at some time between startDate and endDate (both now by default). */
export async function countSubscriptions(db: Db, q: CountQuery, now: Date) {
  const to = q.endDate ? new Date(q.endDate) : now;
  const from = q.startDate ? new Date(q.startDate) : to;
  if (from > to) throw badRequest(["startDate: must not be after endDate"]);
  const region = q.region?.toUpperCase() ?? null;
  const count = await db.$count(
    schema.subscriptions,
    and(
      isNotNull(schema.subscriptions.startedAt),
      lte(schema.subscriptions.startedAt, to),
      or(isNull(schema.subscriptions.endedAt), gt(schema.subscriptions.endedAt, from)),
      region ? eq(sql`upper(${schema.subscriptions.region})`, region) : undefined,
      q.level ? eq(schema.subscriptions.level, q.level) : undefined,
    ),
  );
  return { count, startDate: from.toISOString(), endDate: to.toISOString(), region, level: q.level ?? null };
}

/** The subscription plans for sale, cheapest first. */
export const subscriptionPlans = (db: Db) =>
  selectProducts(db)
    .where(and(eq(schema.paymentProducts.paymentType, "recurring"), eq(schema.paymentProducts.active, true)))
    .orderBy(asc(schema.paymentProducts.priceCents), asc(schema.paymentProducts.id));

/** The plan a user may start subscribing to: recurring, and they have no subscription in force (404, 409). */
export async function subscribablePlan(db: Db, userUuid: string, productId: string) {
  const { product } = await loadProduct(db, productId);
  if (product.paymentType !== "recurring") throw conflict(NOT_RECURRING);
  const [inForce] = await db
    .select({ id: schema.subscriptions.id })
    .from(schema.subscriptions)
    .where(and(eq(schema.subscriptions.userUuid, userUuid), inArray(schema.subscriptions.status, UNLOCKING)))
    .limit(1);
  if (inForce) throw conflict(ALREADY_SUBSCRIBED);
  return product;
}

/** A link to the customer portal: Stripe's billing portal, or the local test portal when Stripe is not configured. */
export async function portalLink(deps: Pick<AppDeps, "db" | "config" | "cache">, userUuid: string) {
  const { db, config, cache } = deps;
  const stripe = stripeClient(config.payments);
  if (!stripe) {
    requireLocalCheckout(config.payments);
    const token = crypto.randomUUID();
    await cache.set(`payment:portal:${token}`, userUuid, PORTAL_TTL_SECONDS);
    return { url: `${config.publicUrl}${PAYMENT_PREFIX}/local-portal/${token}`, provider: "local" as const };
  }
  const customer = found(await knownStripeCustomer(db, userUuid), NO_BILLING_ACCOUNT);
  const session = await askStripe(
    stripe.billingPortal.sessions.create({ customer, return_url: `${config.webUrl}/shop` }),
  );
  return { url: session.url, provider: "stripe" as const };
}
