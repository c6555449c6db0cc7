import { type Db, schema, type Tx } from "@booth/db";
import type { PaymentProvider, SubscriptionStatus } from "@booth/db/schema";
import { and, eq, inArray } from "drizzle-orm";
import { uniqueOr } from "../../lib/db-errors.ts";
import { HttpError } from "../../lib/errors.ts";
import { firstRow, returnedRow } from "../../lib/rows.ts";
import { credit, openTokenAccount, setSubscriberAvatars } from "../merch/public.ts";

/** The statuses in which a subscription gives what it sells (subscriber-only avatars, its level). */
export const UNLOCKING: SubscriptionStatus[] = ["active", "trialing", "past_due"];

export type Checkout = typeof schema.paymentCheckouts.$inferSelect;
export type Subscription = typeof schema.subscriptions.$inferSelect;

export interface Processed<T> {
  /** The event had been processed before: nothing was done this time. */
  duplicate: boolean;
  result: T | null;
}

/**
 * Applies an event at most once. Its row (provider, event id) is inserted first, in the transaction that applies the
 * effects: a concurrent delivery of the same event waits on that row and then finds it (Postgres), or runs after the
 * first one (PGlite, one connection); if the effects fail, the row goes with them and a redelivery tries again.
 */
export async function processOnce<T>(
  db: Db,
  event: { provider: PaymentProvider; id: string; type: string },
  now: Date,
  apply: (tx: Tx) => Promise<T | null>,
): Promise<Processed<T>> {
  // Another event about the same purchase committed first (a unique violation); a redelivery will find it done.
  return uniqueOr(
    () =>
      db.transaction(async (tx) => {
        const [fresh] = await tx
          .insert(schema.paymentWebhookEvents)
          .values({ provider: event.provider, eventId: event.id, type: event.type, handled: false, receivedAt: now })
          .onConflictDoNothing()
          .returning({ eventId: schema.paymentWebhookEvents.eventId });
        if (!fresh) return { duplicate: true, result: null };
        const result = await apply(tx);
        if (result !== null)
          await tx
            .update(schema.paymentWebhookEvents)
            .set({ handled: true })
            .where(
              and(
                eq(schema.paymentWebhookEvents.provider, event.provider),
                eq(schema.paymentWebhookEvents.eventId, event.id),
              ),
            );
        return { duplicate: false, result };
      }),
    () => new HttpError(409, "This purchase is being processed; try again."),
  );
}

/**
 * Completes an open checkout, once: a payment credits its tokens to the buyer through the ledger; a local
 * subscription checkout starts the subscription. Null when the checkout was not open (done before, or expired).
 */
export async function completeCheckout(tx: Tx, checkoutId: string, now: Date): Promise<Checkout | null> {
  const [checkout] = await tx
    .update(schema.paymentCheckouts)
    .set({ status: "completed", completedAt: now })
    .where(and(eq(schema.paymentCheckouts.id, checkoutId), eq(schema.paymentCheckouts.status, "open")))
    .returning();
  if (!checkout) return null;
  const product = await firstRow(tx, schema.paymentProducts, eq(schema.paymentProducts.id, checkout.productId));
  if (!product) throw new Error("checkout without its product");
  if (checkout.mode === "payment") {
    const { id: accountId } = await openTokenAccount(tx, checkout.userUuid, now);
    const { transaction } = await credit(
      tx,
      {
        accountId,
        amount: checkout.tokens ?? 0,
        reason: `Purchase: ${product.name}`,
        referenceType: "payment_checkout",
        referenceId: checkout.id,
        idempotencyKey: `payment_checkout:${checkout.id}`,
      },
      now,
    );
    const [done] = await tx
      .update(schema.paymentCheckouts)
      .set({ tokenTransactionId: transaction.id })
      .where(eq(schema.paymentCheckouts.id, checkout.id))
      .returning();
    return done ?? checkout;
  }
  // Stripe subscriptions start with their own customer.subscription.created event; only local ones start here.
  if (checkout.provider === "local") {
    const end = new Date(now);
    if (product.interval === "year") end.setUTCFullYear(end.getUTCFullYear() + 1);
    else end.setUTCMonth(end.getUTCMonth() + 1);
    await applySubscription(
      tx,
      {
        provider: "local",
        providerSubscriptionId: `local_${checkout.id}`,
        userUuid: checkout.userUuid,
        productId: product.id,
        status: "active",
        region: checkout.region,
        currentPeriodStart: now,
        currentPeriodEnd: end,
        eventAt: now,
      },
      now,
    );
  }
  return checkout;
}

export interface SubscriptionChange {
  provider: PaymentProvider;
  providerSubscriptionId: string;
  userUuid: string;
  productId?: string | null | undefined;
  providerCustomerId?: string | null | undefined;
  /** Undefined keeps the current status (a new subscription starts active). */
  status?: SubscriptionStatus | undefined;
  region?: string | null | undefined;
  currentPeriodStart?: Date | null | undefined;
  currentPeriodEnd?: Date | null | undefined;
  cancelAtPeriodEnd?: boolean | undefined;
  canceledAt?: Date | null | undefined;
  startedAt?: Date | null | undefined;
  /** The provider's time for the event: an event older than the last one applied changes nothing. */
  eventAt: Date;
}

/**
 * Creates or updates a subscription from a provider's event and then gives or takes back what it unlocks. Work for one
 * user is serialised on the user's row, so two events about their subscriptions never interleave.
 */
export async function applySubscription(tx: Tx, change: SubscriptionChange, now: Date) {
  await tx
    .select({ uuid: schema.users.uuid })
    .from(schema.users)
    .where(eq(schema.users.uuid, change.userUuid))
    .for("no key update");
  const [existing] = await tx
    .select()
    .from(schema.subscriptions)
    .where(
      and(
        eq(schema.subscriptions.provider, change.provider),
        eq(schema.subscriptions.providerSubscriptionId, change.providerSubscriptionId),
      ),
    )
    .for("update");
  if (existing && existing.lastEventAt > change.eventAt) return existing;

  const productId = change.productId ?? existing?.productId ?? null;
  const [product] = productId
    ? await tx.select().from(schema.paymentProducts).where(eq(schema.paymentProducts.id, productId))
    : [];
  const status = change.status ?? existing?.status ?? "active";
  const unlocks = UNLOCKING.includes(status);
  const periodEnd =
    change.currentPeriodEnd === undefined ? (existing?.currentPeriodEnd ?? null) : change.currentPeriodEnd;
  const renewed =
    !!existing?.currentPeriodEnd && !!periodEnd && unlocks && periodEnd.getTime() > existing.currentPeriodEnd.getTime();
  const startedAt = existing?.startedAt ?? (unlocks ? (change.startedAt ?? now) : null);
  const fields = {
    userUuid: existing?.userUuid ?? change.userUuid,
    productId,
    providerCustomerId: change.providerCustomerId ?? existing?.providerCustomerId ?? null,
    status,
    level: product?.level ?? existing?.level ?? null,
    region: change.region ?? existing?.region ?? null,
    currentPeriodStart:
      change.currentPeriodStart === undefined ? (existing?.currentPeriodStart ?? null) : change.currentPeriodStart,
    currentPeriodEnd: periodEnd,
    cancelAtPeriodEnd: change.cancelAtPeriodEnd ?? existing?.cancelAtPeriodEnd ?? false,
    canceledAt: change.canceledAt === undefined ? (existing?.canceledAt ?? null) : change.canceledAt,
    startedAt,
    endedAt: unlocks ? null : (existing?.endedAt ?? (startedAt ? change.eventAt : null)),
    renewals: (existing?.renewals ?? 0) + (renewed ? 1 : 0),
    lastEventAt: change.eventAt,
    updatedAt: now,
  };
  const row = await returnedRow(
    "subscription write",
    existing
      ? tx.update(schema.subscriptions).set(fields).where(eq(schema.subscriptions.id, existing.id)).returning()
      : tx
          .insert(schema.subscriptions)
          .values({
            ...fields,
            provider: change.provider,
            providerSubscriptionId: change.providerSubscriptionId,
            createdAt: now,
          })
          .returning(),
  );
  await syncSubscriberAvatars(tx, row.userUuid, now);
  return row;
}

/**
 * Subscriber-only avatars are worn through assignments (the merch service's rule): a subscriber holds every
 * SUBSCRIBER_ONLY avatar as a PURCHASED assignment; when their last unlocking subscription ends, those go. Assignments
 * given by hand (MANUAL) are left alone.
 */
export async function syncSubscriberAvatars(tx: Tx, userUuid: string, now: Date) {
  const [subscribed] = await tx
    .select({ id: schema.subscriptions.id })
    .from(schema.subscriptions)
    .where(and(eq(schema.subscriptions.userUuid, userUuid), inArray(schema.subscriptions.status, UNLOCKING)))
    .limit(1);
  await setSubscriberAvatars(tx, userUuid, !!subscribed, now);
}
