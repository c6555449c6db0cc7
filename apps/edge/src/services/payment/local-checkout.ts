/**
 * The embedded checkout of an instance with no payment provider: pages served by the edge that complete a purchase
 * without money, through the same fulfilment as Stripe's webhook. They exist only while STRIPE_SECRET_KEY is unset.
 */
import { schema } from "@booth/db";
import { and, eq } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { conflict, found, notFound } from "../../lib/errors.ts";
import { PAYMENT_PREFIX, requireLocalCheckout } from "./checkout.ts";
import { applySubscription, completeCheckout, processOnce } from "./fulfilment.ts";
import { stripeClient } from "./stripe.ts";
import { subscriptionsOf } from "./subscriptions.ts";

export const LOCAL_ONLY = "The local test checkout exists only when no payment provider is configured.";
export const CHECKOUT_NOT_FOUND = "Checkout not found.";
export const PORTAL_EXPIRED = "This portal link has expired; ask for a new one.";

type Deps = Pick<AppDeps, "db" | "clock" | "config" | "cache">;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);
const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;

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

async function loadCheckout(deps: Deps, id: string) {
  requireLocal(deps.config);
  const [loaded] = await deps.db
    .select({ checkout: schema.paymentCheckouts, product: schema.paymentProducts })
    .from(schema.paymentCheckouts)
    .innerJoin(schema.paymentProducts, eq(schema.paymentProducts.id, schema.paymentCheckouts.productId))
    .where(eq(schema.paymentCheckouts.id, id));
  const row = found(loaded, CHECKOUT_NOT_FOUND);
  if (row.checkout.provider !== "local") throw conflict("This checkout is paid through a payment provider.");
  return row;
}

/** The page of a local checkout: what it buys, and the button that completes it. */
export async function checkoutPage(deps: Deps, id: string) {
  const { checkout, product } = await loadCheckout(deps, id);
  const what =
    checkout.mode === "payment"
      ? `${checkout.tokens} tokens`
      : `a ${escapeHtml(product.interval ?? "month")}ly subscription (${escapeHtml(product.level ?? "")})`;
  const body =
    checkout.status === "open"
      ? `<p>${escapeHtml(product.name)}: ${what} for ${money(checkout.amountCents, checkout.currency)}.</p>
<form method="post"><button type="submit">Complete the test purchase (no payment)</button></form>`
      : `<p>This checkout is already ${checkout.status}.</p>`;
  return page("Checkout", body);
}

/** Completes a local checkout once, through the same fulfilment as Stripe's webhook; answers the page that says so. */
export async function completeLocalCheckout(deps: Deps, id: string) {
  const { checkout, product } = await loadCheckout(deps, id);
  const { db, clock } = deps;
  const now = clock.now();
  const { result } = await processOnce(
    db,
    { provider: "local", id: `checkout:${checkout.id}`, type: "checkout.completed" },
    now,
    (tx) => completeCheckout(tx, checkout.id, now),
  );
  // Back to the shop, as Stripe's success_url does.
  const back = `<p><a href="${escapeHtml(`${deps.config.webUrl}/shop?checkout=${checkout.id}&result=success`)}">Back to the shop</a></p>`;
  if (!result) return page("Checkout", `<p>This checkout was already ${checkout.status}.</p>${back}`);
  if (checkout.mode === "subscription")
    return page("Subscribed", `<p>You are subscribed to ${escapeHtml(product.name)}.</p>${back}`);
  const [account] = await db
    .select({ balance: schema.tokenAccounts.balance })
    .from(schema.tokenAccounts)
    .where(eq(schema.tokenAccounts.userUuid, checkout.userUuid));
  return page(
    "Purchase complete",
    `<p>${checkout.tokens} tokens were added to your account. Your balance is now ${account?.balance ?? 0} tokens.</p>${back}`,
  );
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
  const [row] = await db
    .select()
    .from(schema.subscriptions)
    .where(
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
