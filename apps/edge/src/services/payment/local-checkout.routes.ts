import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../../lib/context.ts";
import { conflict, notFound } from "../../lib/errors.ts";
import { createRouter, errors } from "../../lib/openapi.ts";
import { PAYMENT_PREFIX, requireLocalCheckout } from "./checkout.ts";
import { applySubscription, completeCheckout, processOnce } from "./fulfilment.ts";
import { stripeClient } from "./stripe.ts";
import { subscriptionsOf } from "./subscriptions.routes.ts";

/**
 * The embedded checkout of an instance with no payment provider: pages served by the edge that complete a purchase
 * without money, through the same fulfilment as Stripe's webhook. They exist only while STRIPE_SECRET_KEY is unset.
 */
export const localCheckoutRoutes = createRouter();
const tags = ["Local test checkout"];

export const LOCAL_ONLY = "The local test checkout exists only when no payment provider is configured.";
export const CHECKOUT_NOT_FOUND = "Checkout not found.";
export const PORTAL_EXPIRED = "This portal link has expired; ask for a new one.";

const html = { content: { "text/html": { schema: z.string() } }, description: "An HTML page" };
const IdParam = z.object({ id: z.uuid().openapi({ param: { name: "id", in: "path" } }) });
const TokenParam = z.object({ token: z.uuid().openapi({ param: { name: "token", in: "path" } }) });

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

function requireLocal(c: Context<AppEnv>) {
  if (stripeClient(c.var.deps.config.payments)) throw notFound(LOCAL_ONLY);
  requireLocalCheckout(c.var.deps.config.payments);
}

async function loadCheckout(c: Context<AppEnv>, id: string) {
  requireLocal(c);
  const { db } = c.var.deps;
  const [row] = await db
    .select({ checkout: schema.paymentCheckouts, product: schema.paymentProducts })
    .from(schema.paymentCheckouts)
    .innerJoin(schema.paymentProducts, eq(schema.paymentProducts.id, schema.paymentCheckouts.productId))
    .where(eq(schema.paymentCheckouts.id, id));
  if (!row) throw notFound(CHECKOUT_NOT_FOUND);
  if (row.checkout.provider !== "local") throw conflict("This checkout is paid through a payment provider.");
  return row;
}

localCheckoutRoutes.openapi(
  createRoute({
    method: "get",
    path: "/local-checkout/{id}",
    tags,
    summary: "The local test checkout page of checkout {id} (only without STRIPE_SECRET_KEY)",
    request: { params: IdParam },
    responses: { 200: html, ...errors(400, 404, 409, 503) },
  }),
  async (c) => {
    const { checkout, product } = await loadCheckout(c, c.req.valid("param").id);
    const what =
      checkout.mode === "payment"
        ? `${checkout.tokens} tokens`
        : `a ${escapeHtml(product.interval ?? "month")}ly subscription (${escapeHtml(product.level ?? "")})`;
    const body =
      checkout.status === "open"
        ? `<p>${escapeHtml(product.name)}: ${what} for ${money(checkout.amountCents, checkout.currency)}.</p>
<form method="post"><button type="submit">Complete the test purchase (no payment)</button></form>`
        : `<p>This checkout is already ${checkout.status}.</p>`;
    return c.html(page("Checkout", body), 200);
  },
);

localCheckoutRoutes.openapi(
  createRoute({
    method: "post",
    path: "/local-checkout/{id}",
    tags,
    summary:
      "Complete checkout {id} without payment, through the same fulfilment as Stripe's webhook (only without STRIPE_SECRET_KEY)",
    request: { params: IdParam },
    responses: { 200: html, ...errors(400, 404, 409, 503) },
  }),
  async (c) => {
    const { checkout, product } = await loadCheckout(c, c.req.valid("param").id);
    const { db, clock } = c.var.deps;
    const now = clock.now();
    const { result } = await processOnce(
      db,
      { provider: "local", id: `checkout:${checkout.id}`, type: "checkout.completed" },
      now,
      (tx) => completeCheckout(tx, checkout.id, now),
    );
    // Back to the shop, as Stripe's success_url does.
    const back = `<p><a href="${escapeHtml(`${c.var.deps.config.webUrl}/shop?checkout=${checkout.id}&result=success`)}">Back to the shop</a></p>`;
    if (!result) return c.html(page("Checkout", `<p>This checkout was already ${checkout.status}.</p>${back}`), 200);
    if (checkout.mode === "subscription")
      return c.html(page("Subscribed", `<p>You are subscribed to ${escapeHtml(product.name)}.</p>${back}`), 200);
    const [account] = await db
      .select({ balance: schema.tokenAccounts.balance })
      .from(schema.tokenAccounts)
      .where(eq(schema.tokenAccounts.userUuid, checkout.userUuid));
    return c.html(
      page(
        "Purchase complete",
        `<p>${checkout.tokens} tokens were added to your account. Your balance is now ${account?.balance ?? 0} tokens.</p>${back}`,
      ),
      200,
    );
  },
);

async function portalUser(c: Context<AppEnv>, token: string) {
  requireLocal(c);
  const userUuid = await c.var.deps.cache.get(`payment:portal:${token}`);
  if (!userUuid) throw notFound(PORTAL_EXPIRED);
  return userUuid;
}

localCheckoutRoutes.openapi(
  createRoute({
    method: "get",
    path: "/local-portal/{token}",
    tags,
    summary: "The local test customer portal: the user's subscriptions, to cancel (only without STRIPE_SECRET_KEY)",
    request: { params: TokenParam },
    responses: { 200: html, ...errors(400, 404, 503) },
  }),
  async (c) => {
    const { token } = c.req.valid("param");
    const userUuid = await portalUser(c, token);
    const subs = (await subscriptionsOf(c.var.deps.db, userUuid)).filter((s) => s.provider === "local");
    const items = subs.map(
      (s) =>
        `<li>${escapeHtml(s.level ?? "subscription")}: ${escapeHtml(s.status)}${
          s.status === "canceled"
            ? ""
            : ` <form method="post" action="${PAYMENT_PREFIX}/local-portal/${token}/cancel/${s.id}" style="display:inline"><button type="submit">Cancel</button></form>`
        }</li>`,
    );
    return c.html(
      page("Your subscriptions", items.length ? `<ul>${items.join("")}</ul>` : "<p>You have no subscriptions.</p>"),
      200,
    );
  },
);

localCheckoutRoutes.openapi(
  createRoute({
    method: "post",
    path: "/local-portal/{token}/cancel/{id}",
    tags,
    summary: "Cancel local subscription {id} from the local test portal (only without STRIPE_SECRET_KEY)",
    request: { params: TokenParam.extend(IdParam.shape) },
    responses: { 200: html, ...errors(400, 404, 503) },
  }),
  async (c) => {
    const { token, id } = c.req.valid("param");
    const userUuid = await portalUser(c, token);
    const { db, clock } = c.var.deps;
    const [sub] = await db
      .select()
      .from(schema.subscriptions)
      .where(
        and(
          eq(schema.subscriptions.id, id),
          eq(schema.subscriptions.userUuid, userUuid),
          eq(schema.subscriptions.provider, "local"),
        ),
      );
    if (!sub) throw notFound("Subscription not found.");
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
    return c.html(page("Subscription cancelled", "<p>Your subscription has been cancelled.</p>"), 200);
  },
);
