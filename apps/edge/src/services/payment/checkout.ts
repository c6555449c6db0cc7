import { type Db, schema } from "@booth/db";
import type { CheckoutMode } from "@booth/db/schema";
import { and, eq } from "drizzle-orm";
import type { AppDeps, PaymentConfig } from "../../deps.ts";
import type { User } from "../../lib/auth.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { conflict, unavailable } from "../../lib/errors.ts";
import { isoOrNull } from "../../lib/json-rows.ts";
import { returnedRow } from "../../lib/rows.ts";
import { GeoUnavailableError, ipScope, parseIp } from "../../ports/geo.ts";
import type { Checkout } from "./fulfilment.ts";
import { askStripe, providerFailure, stripeClient } from "./stripe.ts";

export const PAYMENT_PREFIX = "/api/payment-service";
export const NO_BUNDLE = errorMessage("NO_TOKEN_BUNDLE");
export const NOT_FOR_SALE = errorMessage("NOT_FOR_SALE");
export const NO_PAYMENTS =
  "Payments are not configured: set STRIPE_SECRET_KEY, or LOCAL_CHECKOUT=true for the local test checkout (no money is taken).";

/** Without Stripe, the local test checkout, unless this instance refuses it (production without LOCAL_CHECKOUT=true). */
export function requireLocalCheckout(config: PaymentConfig | undefined) {
  if (config?.localCheckout === false) throw unavailable(NO_PAYMENTS);
}

export type Product = typeof schema.paymentProducts.$inferSelect;

export const checkoutView = (c: Checkout) => ({
  id: c.id,
  productId: c.productId,
  mode: c.mode,
  provider: c.provider,
  status: c.status,
  url: c.url,
  tokens: c.tokens,
  amountCents: c.amountCents,
  currency: c.currency,
  createdAt: c.createdAt.toISOString(),
  completedAt: isoOrNull(c.completedAt),
});

/** The caller's country (ISO alpha-2) from their public address, when the geolocation database knows it. */
export async function callerRegion(geo: AppDeps["geo"], address: string): Promise<string | null> {
  const ip = parseIp(address);
  if (!ip || ipScope(ip) !== "public") return null;
  try {
    return (await geo.lookup(ip))?.country ?? null;
  } catch (err) {
    if (err instanceof GeoUnavailableError) return null;
    throw err;
  }
}

/** The user's Stripe customer id, if they have had one. */
export async function knownStripeCustomer(db: Db, userUuid: string) {
  const [row] = await db
    .select({ customerId: schema.paymentCustomers.customerId })
    .from(schema.paymentCustomers)
    .where(and(eq(schema.paymentCustomers.provider, "stripe"), eq(schema.paymentCustomers.userUuid, userUuid)));
  return row?.customerId;
}

/** The user's Stripe customer, created at Stripe on their first checkout. */
async function stripeCustomer(db: Db, stripe: NonNullable<ReturnType<typeof stripeClient>>, user: User, now: Date) {
  const known = await knownStripeCustomer(db, user.uuid);
  if (known) return known;
  const customer = await askStripe(
    stripe.customers.create({ ...(user.email ? { email: user.email } : {}), metadata: { userUuid: user.uuid } }),
  );
  await db
    .insert(schema.paymentCustomers)
    .values({ provider: "stripe", userUuid: user.uuid, customerId: customer.id, createdAt: now })
    .onConflictDoNothing();
  // Two first checkouts at once: the customer stored first is the one kept.
  return (await knownStripeCustomer(db, user.uuid)) ?? customer.id;
}

/** The web app's page of a local test checkout (the page reads and completes it through checkouts.routes.ts). */
export const localCheckoutUrl = (config: AppDeps["config"], id: string) => `${config.webUrl}/checkout/${id}`;

/**
 * Starts a checkout of `product` for `user`: the row that fixes price and tokens first, then (with Stripe) the Stripe
 * checkout session that points back to it through client_reference_id, so its webhook finds it. `region` looks up
 * the buyer's country when the row is written. The caller has counted the attempt against the buyer's limit first.
 */
export async function startCheckout(
  deps: Pick<AppDeps, "db" | "clock" | "config">,
  user: User,
  product: Product,
  mode: CheckoutMode,
  region: () => Promise<string | null>,
) {
  const { db, clock, config } = deps;
  if (!product.active) throw conflict(NOT_FOR_SALE);
  let tokens: number | null = null;
  if (mode === "payment") {
    const [bundle] = await db
      .select({ tokens: schema.tokenBundles.tokens })
      .from(schema.tokenBundles)
      .where(eq(schema.tokenBundles.productId, product.id));
    if (!bundle) throw conflict(NO_BUNDLE);
    tokens = bundle.tokens;
  }
  const stripe = stripeClient(config.payments);
  if (!stripe) requireLocalCheckout(config.payments);
  const now = clock.now();
  const row = await returnedRow(
    "checkout insert",
    db
      .insert(schema.paymentCheckouts)
      .values({
        userUuid: user.uuid,
        productId: product.id,
        mode,
        provider: stripe ? "stripe" : "local",
        tokens,
        amountCents: product.priceCents,
        currency: product.currency,
        region: await region(),
        createdAt: now,
      })
      .returning(),
  );

  let update: { url: string; providerSessionId?: string };
  if (!stripe) update = { url: localCheckoutUrl(config, row.id) };
  else {
    try {
      const customer = await stripeCustomer(db, stripe, user, now);
      const back = `${config.webUrl}/shop?checkout=${row.id}`;
      const metadata = { checkoutId: row.id, userUuid: user.uuid, productId: product.id, region: row.region ?? "" };
      const session = await askStripe(
        stripe.checkout.sessions.create({
          mode,
          customer,
          client_reference_id: row.id,
          metadata,
          line_items: [
            product.stripePriceId
              ? { price: product.stripePriceId, quantity: 1 }
              : {
                  quantity: 1,
                  price_data: {
                    currency: product.currency,
                    unit_amount: product.priceCents,
                    product_data: { name: product.name },
                    ...(mode === "subscription" ? { recurring: { interval: product.interval ?? "month" } } : {}),
                  },
                },
          ],
          ...(mode === "subscription" ? { subscription_data: { metadata } } : {}),
          success_url: `${back}&result=success`,
          cancel_url: `${back}&result=cancelled`,
        }),
      );
      if (!session.url) throw providerFailure(new Error("Stripe gave no checkout URL"));
      update = { url: session.url, providerSessionId: session.id };
    } catch (err) {
      await db.delete(schema.paymentCheckouts).where(eq(schema.paymentCheckouts.id, row.id));
      throw err;
    }
  }
  const [started] = await db
    .update(schema.paymentCheckouts)
    .set(update)
    .where(eq(schema.paymentCheckouts.id, row.id))
    .returning();
  return checkoutView(started ?? row);
}
