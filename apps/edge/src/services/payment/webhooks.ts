import { schema, type Tx } from "@booth/db";
import { SubscriptionStatus, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { AppDeps, Logger } from "../../deps.ts";
import { badRequest, unauthorized, unavailable } from "../../lib/errors.ts";
import { firstRow } from "../../lib/rows.ts";
import { APPLE_UNCONFIGURED, AppleSignatureError, verifyAppleJws } from "./apple.ts";
import { applySubscription, completeCheckout, processOnce, type SubscriptionChange } from "./fulfilment.ts";
import { type VerifiedStripeEvent, verifyStripeEvent } from "./stripe.ts";

export const OTHER_APP = "This notification is for another app.";

const Uuid = z.uuid();
const asUuid = (value: unknown) => (Uuid.safeParse(value).success ? (value as string) : null);
const fromSeconds = (s: number | null | undefined) => (typeof s === "number" ? new Date(s * 1000) : null);
const fromMillis = (ms: number | null | undefined) => (typeof ms === "number" ? new Date(ms) : undefined);
const idOf = (v: string | { id: string } | null | undefined) => (typeof v === "string" ? v : (v?.id ?? null));
const Expandable = z.union([z.string(), z.object({ id: z.string() })]);
const Metadata = z.record(z.string(), z.string()).nullish();

const StripeSession = z.object({
  id: z.string(),
  client_reference_id: z.string().nullish(),
  metadata: Metadata,
  payment_status: z.string().nullish(),
});
const StripeSubscription = z.object({
  id: z.string(),
  customer: Expandable,
  status: z.enum(values(SubscriptionStatus)),
  metadata: Metadata,
  cancel_at_period_end: z.boolean().nullish(),
  canceled_at: z.number().nullish(),
  start_date: z.number().nullish(),
  // Before API version 2025-03-31 the period was on the subscription; since, it is on each item.
  current_period_start: z.number().nullish(),
  current_period_end: z.number().nullish(),
  items: z
    .object({
      data: z.array(
        z.object({
          current_period_start: z.number().nullish(),
          current_period_end: z.number().nullish(),
          price: z.object({ id: z.string() }).nullish(),
        }),
      ),
    })
    .nullish(),
});

async function userExists(tx: Tx, uuid: string | null) {
  if (!uuid) return false;
  const [row] = await tx.select({ uuid: schema.users.uuid }).from(schema.users).where(eq(schema.users.uuid, uuid));
  return !!row;
}

const CHECKOUT_EVENTS = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.expired",
  "checkout.session.async_payment_failed",
];
const SUBSCRIPTION_EVENTS = [
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "customer.subscription.paused",
  "customer.subscription.resumed",
];

/** Applies one verified Stripe event; null when it is not one that changes anything here. */
async function applyStripeEvent(tx: Tx, event: VerifiedStripeEvent, now: Date, log: Logger): Promise<true | null> {
  if (CHECKOUT_EVENTS.includes(event.type)) return stripeCheckoutEvent(tx, event, now, log);
  if (SUBSCRIPTION_EVENTS.includes(event.type)) return stripeSubscriptionEvent(tx, event, now, log);
  return null;
}

/** A checkout session completed (the purchase is fulfilled), its delayed payment succeeded, or it expired or failed. */
async function stripeCheckoutEvent(tx: Tx, event: VerifiedStripeEvent, now: Date, log: Logger): Promise<true | null> {
  const object = event.data?.object;
  const parsed = StripeSession.safeParse(object);
  if (!parsed.success) throw badRequest("The event's checkout session cannot be read.");
  const session = parsed.data;
  const checkoutId = asUuid(session.client_reference_id) ?? asUuid(session.metadata?.checkoutId);
  const [checkout] = checkoutId
    ? await tx
        .select()
        .from(schema.paymentCheckouts)
        .where(and(eq(schema.paymentCheckouts.id, checkoutId), eq(schema.paymentCheckouts.provider, "stripe")))
    : [];
  if (!checkout || (checkout.providerSessionId && checkout.providerSessionId !== session.id)) {
    log({ level: "warn", msg: "stripe checkout event for an unknown checkout", eventId: event.id });
    return null;
  }
  if (event.type === "checkout.session.expired" || event.type === "checkout.session.async_payment_failed") {
    const expired = await tx
      .update(schema.paymentCheckouts)
      .set({ status: "expired" })
      .where(and(eq(schema.paymentCheckouts.id, checkout.id), eq(schema.paymentCheckouts.status, "open")))
      .returning();
    return expired.length ? true : null;
  }
  // Delayed payment methods complete the session unpaid; their money is confirmed by async_payment_succeeded.
  if (event.type === "checkout.session.completed" && session.payment_status === "unpaid") return null;
  return (await completeCheckout(tx, checkout.id, now)) ? true : null;
}

/** A Stripe subscription started, changed or ended: the subscription here follows it. */
async function stripeSubscriptionEvent(
  tx: Tx,
  event: VerifiedStripeEvent,
  now: Date,
  log: Logger,
): Promise<true | null> {
  const object = event.data?.object;
  const parsed = StripeSubscription.safeParse(object);
  if (!parsed.success) throw badRequest("The event's subscription cannot be read.");
  const sub = parsed.data;
  const customerId = idOf(sub.customer);
  let userUuid = asUuid(sub.metadata?.userUuid);
  if (!(await userExists(tx, userUuid))) {
    const [customer] = customerId
      ? await tx
          .select({ userUuid: schema.paymentCustomers.userUuid })
          .from(schema.paymentCustomers)
          .where(
            and(eq(schema.paymentCustomers.provider, "stripe"), eq(schema.paymentCustomers.customerId, customerId)),
          )
      : [];
    userUuid = customer?.userUuid ?? null;
  }
  if (!userUuid) {
    log({ level: "warn", msg: "stripe subscription event for an unknown customer", eventId: event.id });
    return null;
  }
  const item = sub.items?.data[0];
  let productId = asUuid(sub.metadata?.productId);
  const priceId = item?.price?.id;
  const [product] = productId
    ? await tx
        .select({ id: schema.paymentProducts.id })
        .from(schema.paymentProducts)
        .where(eq(schema.paymentProducts.id, productId))
    : priceId
      ? await tx
          .select({ id: schema.paymentProducts.id })
          .from(schema.paymentProducts)
          .where(eq(schema.paymentProducts.stripePriceId, priceId))
      : [];
  productId = product?.id ?? null;
  const change: SubscriptionChange = {
    provider: "stripe",
    providerSubscriptionId: sub.id,
    userUuid,
    productId,
    providerCustomerId: customerId,
    status: event.type === "customer.subscription.deleted" ? "canceled" : sub.status,
    region: sub.metadata?.region || null,
    currentPeriodStart: fromSeconds(sub.current_period_start ?? item?.current_period_start),
    currentPeriodEnd: fromSeconds(sub.current_period_end ?? item?.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end ?? false,
    canceledAt: fromSeconds(sub.canceled_at),
    startedAt: fromSeconds(sub.start_date),
    eventAt: new Date(event.created * 1000),
  };
  await applySubscription(tx, change, now);
  return true;
}

// ---- App Store Server Notifications V2

const AppleNotification = z.object({
  notificationType: z.string().min(1).max(100),
  subtype: z.string().max(100).nullish(),
  notificationUUID: z.string().min(1).max(200),
  signedDate: z.number().nullish(),
  data: z
    .object({
      bundleId: z.string().nullish(),
      environment: z.string().nullish(),
      signedTransactionInfo: z.string().max(100_000).nullish(),
      signedRenewalInfo: z.string().max(100_000).nullish(),
    })
    .nullish(),
});
const AppleTransaction = z.object({
  transactionId: z.string().min(1).max(200),
  originalTransactionId: z.string().min(1).max(200),
  productId: z.string().min(1).max(200),
  bundleId: z.string().nullish(),
  type: z.string(),
  purchaseDate: z.number().nullish(),
  expiresDate: z.number().nullish(),
  quantity: z.number().int().min(1).max(1000).nullish(),
  appAccountToken: z.string().nullish(),
  storefront: z.string().max(10).nullish(),
  price: z.number().nullish(),
  currency: z.string().max(10).nullish(),
});
const AppleRenewal = z.object({ autoRenewStatus: z.number().nullish() });
type AppleNotification = z.infer<typeof AppleNotification>;
type AppleTransaction = z.infer<typeof AppleTransaction>;

/** What each App Store notification does to a subscription's status (undefined: leaves it as it is). */
const APPLE_STATUS: Record<string, SubscriptionStatus | undefined> = {
  SUBSCRIBED: "active",
  DID_RENEW: "active",
  OFFER_REDEEMED: "active",
  RENEWAL_EXTENDED: "active",
  DID_FAIL_TO_RENEW: "past_due",
  EXPIRED: "canceled",
  GRACE_PERIOD_EXPIRED: "canceled",
  REVOKE: "canceled",
  REFUND: "canceled",
};

async function applyAppleNotification(
  tx: Tx,
  n: AppleNotification,
  txn: AppleTransaction | null,
  autoRenew: boolean | undefined,
  now: Date,
  log: Logger,
): Promise<true | null> {
  if (!txn) return null;
  const userUuid = asUuid(txn.appAccountToken);
  if (!(await userExists(tx, userUuid)) || !userUuid) {
    log({ level: "warn", msg: "app store notification without a known appAccountToken", id: n.notificationUUID });
    return null;
  }
  const product = await firstRow(tx, schema.paymentProducts, eq(schema.paymentProducts.appleProductId, txn.productId));
  if (!product) {
    log({ level: "warn", msg: "app store notification for an unknown product", productId: txn.productId });
    return null;
  }
  if (txn.type === "Consumable" && n.notificationType === "ONE_TIME_CHARGE") {
    if (product.paymentType !== "one_time") return null;
    const [bundle] = await tx
      .select({ tokens: schema.tokenBundles.tokens })
      .from(schema.tokenBundles)
      .where(eq(schema.tokenBundles.productId, product.id));
    if (!bundle) return null;
    const quantity = txn.quantity ?? 1;
    // The transaction id is unique per provider: the same purchase reported twice is credited once.
    const [checkout] = await tx
      .insert(schema.paymentCheckouts)
      .values({
        userUuid,
        productId: product.id,
        mode: "payment",
        provider: "apple",
        providerSessionId: txn.transactionId,
        tokens: bundle.tokens * quantity,
        // Apple reports prices in thousandths of the currency unit.
        amountCents: typeof txn.price === "number" ? Math.round(txn.price / 10) : product.priceCents * quantity,
        currency: txn.currency?.toLowerCase() ?? product.currency,
        region: txn.storefront ?? null,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!checkout) return null;
    return (await completeCheckout(tx, checkout.id, now)) ? true : null;
  }
  if (txn.type === "Auto-Renewable Subscription") {
    if (product.paymentType !== "recurring") return null;
    await applySubscription(
      tx,
      {
        provider: "apple",
        providerSubscriptionId: txn.originalTransactionId,
        userUuid,
        productId: product.id,
        status: APPLE_STATUS[n.notificationType],
        region: txn.storefront ?? null,
        currentPeriodStart: fromMillis(txn.purchaseDate),
        currentPeriodEnd: fromMillis(txn.expiresDate),
        cancelAtPeriodEnd:
          n.notificationType === "DID_CHANGE_RENEWAL_STATUS"
            ? n.subtype === "AUTO_RENEW_DISABLED"
            : autoRenew === undefined
              ? undefined
              : !autoRenew,
        canceledAt: APPLE_STATUS[n.notificationType] === "canceled" ? now : undefined,
        eventAt: fromMillis(n.signedDate) ?? now,
      },
      now,
    );
    return true;
  }
  return null;
}

async function verifiedPart<T extends z.ZodType>(jws: string, rootPem: string, now: Date, shape: T) {
  const parsed = shape.safeParse(await verifyAppleJws(jws, rootPem, now));
  if (!parsed.success) throw badRequest("The notification's signed data cannot be read.");
  return parsed.data as z.infer<T>;
}

/** Verifies a Stripe event over its raw body and applies it once; answers what was done. */
export async function receiveStripeEvent(
  deps: Pick<AppDeps, "db" | "clock" | "config" | "logger">,
  raw: string,
  signature: string,
) {
  const { db, clock, config, logger } = deps;
  const now = clock.now();
  const event = await verifyStripeEvent(config.payments, raw, signature, now);
  if (typeof event.id !== "string" || typeof event.type !== "string" || typeof event.created !== "number")
    throw badRequest("The webhook body is not a Stripe event.");
  const { duplicate, result } = await processOnce(
    db,
    { provider: "stripe", id: event.id, type: event.type },
    now,
    (tx) => applyStripeEvent(tx, event, now, logger),
  );
  return { received: true as const, eventId: event.id, duplicate, handled: result === true };
}

/**
 * Verifies an App Store notification (its signedPayload and the signed transaction and renewal infos inside, up to the
 * configured root) and applies it once; answers what was done.
 */
export async function receiveAppleNotification(
  deps: Pick<AppDeps, "db" | "clock" | "config" | "logger">,
  signedPayload: string,
) {
  const { db, clock, config, logger } = deps;
  const rootPem = config.payments?.appleRootCaPem;
  if (!rootPem) throw unavailable(APPLE_UNCONFIGURED);
  const now = clock.now();
  try {
    const n = await verifiedPart(signedPayload, rootPem, now, AppleNotification);
    const bundleId = config.payments?.appleBundleId;
    if (bundleId && n.data?.bundleId && n.data.bundleId !== bundleId) throw badRequest(OTHER_APP);
    const txnJws = n.data?.signedTransactionInfo;
    const renewalJws = n.data?.signedRenewalInfo;
    const txn = txnJws ? await verifiedPart(txnJws, rootPem, now, AppleTransaction) : null;
    if (bundleId && txn?.bundleId && txn.bundleId !== bundleId) throw badRequest(OTHER_APP);
    const renewal = renewalJws ? await verifiedPart(renewalJws, rootPem, now, AppleRenewal) : null;
    const autoRenew = typeof renewal?.autoRenewStatus === "number" ? renewal.autoRenewStatus === 1 : undefined;
    const type = n.subtype ? `${n.notificationType}/${n.subtype}` : n.notificationType;
    const { duplicate, result } = await processOnce(
      db,
      { provider: "apple", id: n.notificationUUID, type },
      now,
      (tx) => applyAppleNotification(tx, n, txn, autoRenew, now, logger),
    );
    return { received: true as const, eventId: n.notificationUUID, duplicate, handled: result === true };
  } catch (err) {
    if (err instanceof AppleSignatureError) throw unauthorized(err.message);
    throw err;
  }
}
