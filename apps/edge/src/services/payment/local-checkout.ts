/**
 * The embedded checkout of an instance with no payment provider: the web's checkout page reads and completes a local
 * checkout through the JSON routes of checkouts.routes.ts, without money, through the same fulfilment as Stripe's
 * webhook; the local customer portal is still a page served by the edge. They exist only while STRIPE_SECRET_KEY is
 * unset.
 */
import { schema } from "@booth/db";
import { and, eq } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { conflict, forbidden, found, notFound } from "../../lib/errors.ts";
import { firstRow } from "../../lib/rows.ts";
import { checkoutView, PAYMENT_PREFIX, requireLocalCheckout } from "./checkout.ts";
import { applySubscription, completeCheckout, processOnce } from "./fulfilment.ts";
import { stripeClient } from "./stripe.ts";
import { subscriptionsOf } from "./subscriptions.ts";

export const LOCAL_ONLY = "The local test checkout exists only when no payment provider is configured.";
export const CHECKOUT_NOT_FOUND = errorMessage("CHECKOUT_NOT_FOUND");
export const NOT_YOUR_CHECKOUT = errorMessage("NOT_YOUR_CHECKOUT");
export const checkoutClosed = (status: string) => `This checkout is already ${status}.`;
export const PORTAL_EXPIRED = "This portal link has expired; ask for a new one.";

type Deps = Pick<AppDeps, "db" | "clock" | "config" | "cache">;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);

function page(title: string, body: string) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Booth</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
.notice{background:#fff3cd;border:1px solid #e0c36a;padding:.75rem 1rem;border-radius:.5rem}
button{font-size:1rem;padding:.6rem 1.2rem;border-radius:.4rem;border:0;background:#6b3fd4;color:#fff;cursor:pointer}</style>
</head><body>
<p class="notice"><strong>Local test checkout. No money is involved.</strong> This Booth instance has no payment provider
configured (STRIPE_SECRET_KEY is not set), so purchases here are completed without any payment.</p>
<h1>${escapeHtml(title)}</h1>
${body}
</body></html>`;
}

function requireLocal(config: AppDeps["config"]) {
  if (stripeClient(config.payments)) throw notFound(LOCAL_ONLY);
  requireLocalCheckout(config.payments);
}

/** The buyer's own local checkout, with its product. */
async function ownCheckout(deps: Deps, userUuid: string, id: string) {
  requireLocal(deps.config);
  const [loaded] = await deps.db
    .select({ checkout: schema.paymentCheckouts, product: schema.paymentProducts })
    .from(schema.paymentCheckouts)
    .innerJoin(schema.paymentProducts, eq(schema.paymentProducts.id, schema.paymentCheckouts.productId))
    .where(eq(schema.paymentCheckouts.id, id));
  const row = found(loaded, CHECKOUT_NOT_FOUND);
  if (row.checkout.provider !== "local") throw conflict("This checkout is paid through a payment provider.");
  if (row.checkout.userUuid !== userUuid) throw forbidden(NOT_YOUR_CHECKOUT);
  return row;
}

export interface LocalCheckoutView extends ReturnType<typeof checkoutView> {
  product: { name: string; interval: string | null; level: string | null };
}

/** The buyer's own local checkout, for the web's checkout page: what it buys and for how much. */
export async function localCheckoutOf(deps: Deps, userUuid: string, id: string): Promise<LocalCheckoutView> {
  const { checkout, product } = await ownCheckout(deps, userUuid, id);
  return {
    ...checkoutView(checkout),
    product: { name: product.name, interval: product.interval, level: product.level },
  };
}

/**
 * Completes the buyer's own local checkout once, through the same fulfilment as Stripe's webhook; answers the
 * completed checkout and the buyer's token balance. A checkout that is no longer open answers 409.
 */
export async function completeLocalCheckout(deps: Deps, userUuid: string, id: string) {
  const { checkout } = await ownCheckout(deps, userUuid, id);
  if (checkout.status !== "open") throw conflict(checkoutClosed(checkout.status));
  const { db, clock } = deps;
  const now = clock.now();
  const { result } = await processOnce(
    db,
    { provider: "local", id: `checkout:${checkout.id}`, type: "checkout.completed" },
    now,
    (tx) => completeCheckout(tx, checkout.id, now),
  );
  // Pressed twice at once: the other press completed it.
  if (!result) throw conflict(checkoutClosed("completed"));
  const [account] = await db
    .select({ balance: schema.tokenAccounts.balance })
    .from(schema.tokenAccounts)
    .where(eq(schema.tokenAccounts.userUuid, checkout.userUuid));
  return { checkout: checkoutView(result), balance: account?.balance ?? null };
}

async function portalUser(deps: Deps, token: string) {
  requireLocal(deps.config);
  const userUuid = await deps.cache.get(`payment:portal:${token}`);
  if (!userUuid) throw notFound(PORTAL_EXPIRED);
  return userUuid;
}

/** The local customer portal: the user's local subscriptions, each with its cancel button. */
export async function portalPage(deps: Deps, token: string) {
  const userUuid = await portalUser(deps, token);
  const subs = (await subscriptionsOf(deps.db, userUuid)).filter((s) => s.provider === "local");
  const items = subs.map(
    (s) =>
      `<li>${escapeHtml(s.level ?? "subscription")}: ${escapeHtml(s.status)}${
        s.status === "canceled"
          ? ""
          : ` <form method="post" action="${PAYMENT_PREFIX}/local-portal/${token}/cancel/${s.id}" style="display:inline"><button type="submit">Cancel</button></form>`
      }</li>`,
  );
  return page("Your subscriptions", items.length ? `<ul>${items.join("")}</ul>` : "<p>You have no subscriptions.</p>");
}

/** Cancels a local subscription from the portal, once; answers the page that says so. */
export async function cancelLocalSubscription(deps: Deps, token: string, id: string) {
  const userUuid = await portalUser(deps, token);
  const { db, clock } = deps;
  const row = await firstRow(
    db,
    schema.subscriptions,
    and(
      eq(schema.subscriptions.id, id),
      eq(schema.subscriptions.userUuid, userUuid),
      eq(schema.subscriptions.provider, "local"),
    ),
  );
  const sub = found(row, "Subscription not found.");
  const now = clock.now();
  await processOnce(db, { provider: "local", id: `cancel:${sub.id}`, type: "subscription.canceled" }, now, (tx) =>
    applySubscription(
      tx,
      {
        provider: "local",
        providerSubscriptionId: sub.providerSubscriptionId,
        userUuid,
        status: "canceled",
        canceledAt: now,
        eventAt: now,
      },
      now,
    ),
  );
  return page("Subscription cancelled", "<p>Your subscription has been cancelled.</p>");
}
