import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { cascadeRef, createdAt, id, timestamps } from "./columns.ts";
import {
  BillingInterval,
  CheckoutMode,
  CheckoutStatus,
  PaymentProvider,
  PaymentType,
  SubscriptionStatus,
  values,
} from "./enums.ts";
import { users } from "./user.ts";

/** What the payment service sells: token bundles (one_time) and subscription plans (recurring). */
export const paymentProducts = pgTable(
  "payment_products",
  {
    id: id(),
    name: text().notNull(),
    description: text(),
    paymentType: text({ enum: values(PaymentType) })
      .notNull()
      .default("one_time"),
    /** The price in the currency's smallest unit (cents). */
    priceCents: integer().notNull(),
    currency: text().notNull().default("usd"),
    /** recurring only: how often it renews, and the subscription level it gives. */
    interval: text({ enum: values(BillingInterval) }),
    level: text(),
    /** A Price configured in the Stripe dashboard; without it checkout sends the price inline. */
    stripePriceId: text(),
    /** The App Store product id that sells the same thing in the app. */
    appleProductId: text().unique(),
    active: boolean().notNull().default(true),
    ...timestamps(),
  },
  (t) => [check("payment_products_price_positive", sql`${t.priceCents} > 0`)],
);

/** A checkout: what a user set out to buy, at which price and for how many tokens, until it is completed once. */
export const paymentCheckouts = pgTable(
  "payment_checkouts",
  {
    id: id(),
    userUuid: cascadeRef(() => users.uuid),
    productId: uuid()
      .notNull()
      .references(() => paymentProducts.id, { onDelete: "restrict" }),
    mode: text({ enum: values(CheckoutMode) }).notNull(),
    provider: text({ enum: values(PaymentProvider) }).notNull(),
    /** Stripe's checkout session id; the App Store's transaction id. */
    providerSessionId: text(),
    status: text({ enum: values(CheckoutStatus) })
      .notNull()
      .default("open"),
    /** Tokens the purchase credits (payment mode), fixed when the checkout starts. */
    tokens: integer(),
    amountCents: integer().notNull(),
    currency: text().notNull(),
    region: text(),
    url: text(),
    /** The ledger's credit, once completed. */
    tokenTransactionId: uuid(),
    createdAt: createdAt(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex("payment_checkouts_provider_session_key")
      .on(t.provider, t.providerSessionId)
      .where(sql`${t.providerSessionId} is not null`),
    index("payment_checkouts_user_idx").on(t.userUuid, t.createdAt),
    index("payment_checkouts_product_idx").on(t.productId),
  ],
);

/** A user's customer record at a provider (Stripe's `cus_...`), for checkouts and the billing portal. */
export const paymentCustomers = pgTable(
  "payment_customers",
  {
    provider: text({ enum: values(PaymentProvider) }).notNull(),
    userUuid: cascadeRef(() => users.uuid),
    customerId: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.userUuid] }),
    uniqueIndex("payment_customers_customer_key").on(t.provider, t.customerId),
  ],
);

export const subscriptions = pgTable(
  "subscriptions",
  {
    id: id(),
    userUuid: cascadeRef(() => users.uuid),
    productId: uuid().references(() => paymentProducts.id, { onDelete: "restrict" }),
    provider: text({ enum: values(PaymentProvider) }).notNull(),
    /** Stripe's `sub_...`; the App Store's original transaction id. */
    providerSubscriptionId: text().notNull(),
    providerCustomerId: text(),
    status: text({ enum: values(SubscriptionStatus) }).notNull(),
    level: text(),
    region: text(),
    currentPeriodStart: timestamp({ withTimezone: true }),
    currentPeriodEnd: timestamp({ withTimezone: true }),
    cancelAtPeriodEnd: boolean().notNull().default(false),
    canceledAt: timestamp({ withTimezone: true }),
    /** When it first unlocked, and when it stopped (null while it unlocks). */
    startedAt: timestamp({ withTimezone: true }),
    endedAt: timestamp({ withTimezone: true }),
    renewals: integer().notNull().default(0),
    /** The provider's time of the newest event applied: an older event delivered late changes nothing. */
    lastEventAt: timestamp({ withTimezone: true }).notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("subscriptions_provider_key").on(t.provider, t.providerSubscriptionId),
    index("subscriptions_user_idx").on(t.userUuid),
    index("subscriptions_started_idx").on(t.startedAt),
  ],
);

/** Webhook events already processed; the row is written in the transaction that applies the event's effects. */
export const paymentWebhookEvents = pgTable(
  "payment_webhook_events",
  {
    provider: text({ enum: values(PaymentProvider) }).notNull(),
    eventId: text().notNull(),
    type: text().notNull(),
    handled: boolean().notNull(),
    receivedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);
