import { schema } from "@booth/db";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstRow } from "../../lib/rows.ts";
import {
  createPaymentTestApp,
  signedStripeEvent,
  startCheckout,
  startFakeStripe,
  tokenBalance,
  tokenBundleProduct,
} from "../../testing/payment.ts";
import { createTestApp, ok, statusOf, type TestApp, type TestUser } from "../../testing.ts";
import { LOCAL_ONLY } from "./local-checkout.ts";
import { SIGNATURE_INVALID, SIGNATURE_TOO_OLD, STRIPE_WEBHOOK_UNCONFIGURED } from "./stripe.ts";
import { ALREADY_SUBSCRIBED, NO_BILLING_ACCOUNT } from "./subscriptions.ts";

// The Stripe path end to end against a local fake of Stripe's API: checkout, then the signed webhooks that complete it.
const SECRET = "whsec_test_booth";
let t: TestApp;
let fake: Awaited<ReturnType<typeof startFakeStripe>>;
let admin: TestUser;
let staff: TestUser;
beforeAll(async () => {
  fake = await startFakeStripe();
  t = await createPaymentTestApp({
    stripeSecretKey: "sk_test_booth",
    stripeWebhookSecret: SECRET,
    stripeApiUrl: fake.url,
  });
  admin = await t.createUser({ roles: ["user", "admin"] });
  staff = await t.createUser({ roles: ["user", "staff"] });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const P = "/api/payment-service";
const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);
let eventCounter = 0;

async function deliver(type: string, object: Record<string, unknown>, options: { id?: string; created?: number } = {}) {
  const event = await signedStripeEvent(SECRET, {
    id: options.id ?? `evt_test_${++eventCounter}`,
    type,
    created: options.created ?? nowSeconds(),
    object,
  });
  return post(event.payload, event.signature);
}
/** `session`'s checkout.session.completed event `id`, signed (with `secret`) when it was `created`. */
const completedEvent = (
  id: string,
  session: Record<string, unknown>,
  { secret = SECRET, created = nowSeconds() }: { secret?: string; created?: number } = {},
) => signedStripeEvent(secret, { id, type: "checkout.session.completed", created, object: session });
// Raw: the signature covers the exact bytes of the body, which the typed client would serialise itself.
const post = (payload: string, signature: string) =>
  t.request("POST", `${P}/webhook/stripe`, {
    body: payload,
    headers: { "content-type": "application/json", "stripe-signature": signature },
  });

const tokenProduct = (tokens: number) => tokenBundleProduct(t, admin.token, tokens, 999);
const balanceOf = async (userUuid: string) => (await tokenBalance(t, userUuid)) ?? 0;
async function checkoutFor(tokens: number) {
  const p = await tokenProduct(tokens);
  const buyer = await t.createUser();
  const started = await startCheckout(t, buyer.token, p.id);
  expect(started.response.status).toBe(201);
  const row = await firstRow(t.db, schema.paymentCheckouts, eq(schema.paymentCheckouts.id, ok(started).id));
  const session = {
    id: row?.providerSessionId,
    object: "checkout.session",
    client_reference_id: ok(started).id,
    payment_status: "paid",
    status: "complete",
  };
  return { buyer, started: ok(started), session };
}

describe("token purchase through Stripe", () => {
  it("starts a Stripe checkout session for the buyer's Stripe customer", async () => {
    const p = await tokenProduct(1200);
    const buyer = await t.createUser();
    const res = await startCheckout(t, buyer.token, p.id);
    expect(res.response.status).toBe(201);
    expect(res.data).toMatchObject({ provider: "stripe", status: "open", tokens: 1200, amountCents: 999 });
    expect(res.data?.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const customer = fake.requests.find((r) => r.path === "/v1/customers");
    expect(customer?.auth).toBe("Bearer sk_test_booth");
    expect(customer?.params.get("metadata[userUuid]")).toBe(buyer.user.uuid);
    const session = fake.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1);
    expect(session?.params.get("mode")).toBe("payment");
    expect(session?.params.get("client_reference_id")).toBe(ok(res).id);
    expect(session?.params.get("line_items[0][price_data][unit_amount]")).toBe("999");
    // The second checkout reuses the customer.
    await startCheckout(t, buyer.token, p.id);
    expect(fake.requests.filter((r) => r.path === "/v1/customers")).toHaveLength(1);
    // The local test checkout does not exist while Stripe is configured.
    const byId = { params: { path: { id: ok(res).id } } };
    for (const refused of [
      await t.api(buyer.token).payment.GET("/api/v1/checkouts/{id}", byId),
      await t.api(buyer.token).payment.POST("/api/v1/checkouts/{id}/complete", byId),
    ]) {
      expect(refused.response.status).toBe(404);
      expect(refused.error?.message).toBe(LOCAL_ONLY);
    }
  });

  it("answers 502 when Stripe refuses, leaving no checkout behind", async () => {
    const p = await tokenProduct(10);
    const buyer = await t.createUser();
    await startCheckout(t, buyer.token, p.id); // creates the customer
    fake.state.failNext = true;
    const res = await startCheckout(t, buyer.token, p.id);
    expect(res.response.status).toBe(502);
    expect(res.error?.message).toContain("declined by the fake");
    expect(await t.db.$count(schema.paymentCheckouts, eq(schema.paymentCheckouts.userUuid, buyer.user.uuid))).toBe(1);
  });

  it("credits the tokens once when the completed-checkout event is delivered twice at the same time", async () => {
    const { buyer, started, session } = await checkoutFor(700);
    const event = await completedEvent("evt_concurrent_1", session);
    const [a, b] = await Promise.all([post(event.payload, event.signature), post(event.payload, event.signature)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.duplicate, b.body.duplicate].sort()).toEqual([false, true]);
    expect(await balanceOf(buyer.user.uuid)).toBe(700);
    // Redelivered later, and the same session reported by another event: still once.
    expect((await post(event.payload, event.signature)).body).toMatchObject({ duplicate: true, handled: false });
    expect((await deliver("checkout.session.async_payment_succeeded", session)).body).toMatchObject({
      duplicate: false,
      handled: false,
    });
    expect(await balanceOf(buyer.user.uuid)).toBe(700);
    const row = await firstRow(t.db, schema.paymentCheckouts, eq(schema.paymentCheckouts.id, started.id));
    expect(row?.status).toBe("completed");
    const self = await t.api(buyer.token).merch.GET("/api/v1/token-accounts/self");
    expect(self.data?.balance).toBe(700);
  });

  it("waits for delayed payments: an unpaid completed session credits nothing until the payment succeeds", async () => {
    const { buyer, session } = await checkoutFor(40);
    expect((await deliver("checkout.session.completed", { ...session, payment_status: "unpaid" })).body.handled).toBe(
      false,
    );
    expect(await balanceOf(buyer.user.uuid)).toBe(0);
    expect((await deliver("checkout.session.async_payment_succeeded", session)).body.handled).toBe(true);
    expect(await balanceOf(buyer.user.uuid)).toBe(40);
  });

  it("refuses a bad signature, an old timestamp and a changed body, changing nothing", async () => {
    const { buyer, started, session } = await checkoutFor(300);
    const good = await completedEvent("evt_tamper_1", session);
    const forged = await completedEvent("evt_tamper_1", session, { secret: "whsec_someone_else" });
    const badSignature = await post(forged.payload, forged.signature);
    expect(badSignature.status).toBe(401);
    expect(badSignature.body.message).toBe(SIGNATURE_INVALID);

    const old = await completedEvent("evt_tamper_1", session, { created: nowSeconds() - 600 });
    const tooOld = await post(old.payload, old.signature);
    expect(tooOld.status).toBe(401);
    expect(tooOld.body.message).toBe(SIGNATURE_TOO_OLD);

    const changed = good.payload.replace(`"id": "evt_tamper_1"`, `"id": "evt_tamper_2"`);
    expect(changed).not.toBe(good.payload);
    const changedBody = await post(changed, good.signature);
    expect(changedBody.status).toBe(401);
    // Whitespace counts too: the signature covers the exact bytes.
    expect((await post(JSON.stringify(JSON.parse(good.payload)), good.signature)).status).toBe(401);

    // Raw: an event without its Stripe-Signature header, which the typed client cannot send.
    const noHeader = await t.request("POST", `${P}/webhook/stripe`, { body: JSON.parse(good.payload) });
    expect(noHeader.status).toBe(400);
    expect((await post("not json", good.signature)).status).toBe(401);

    expect(await balanceOf(buyer.user.uuid)).toBe(0);
    expect(
      await t.db.$count(schema.paymentWebhookEvents, eq(schema.paymentWebhookEvents.eventId, "evt_tamper_1")),
    ).toBe(0);
    const row = await firstRow(t.db, schema.paymentCheckouts, eq(schema.paymentCheckouts.id, started.id));
    expect(row?.status).toBe("open");
    // The genuine one still works afterwards.
    expect((await post(good.payload, good.signature)).status).toBe(200);
    expect(await balanceOf(buyer.user.uuid)).toBe(300);
  });

  it("records events it does not act on, and ignores sessions it did not start", async () => {
    const res = await deliver("invoice.paid", { id: "in_1", object: "invoice" });
    expect(res.body).toMatchObject({ received: true, handled: false, duplicate: false });
    const stranger = await deliver("checkout.session.completed", {
      id: "cs_elsewhere",
      client_reference_id: crypto.randomUUID(),
      payment_status: "paid",
    });
    expect(stranger.body.handled).toBe(false);
    const junk = await deliver("customer.subscription.updated", { id: "sub_x", status: "bogus" });
    expect(junk.status).toBe(400);
  });

  it("expires a checkout whose session expired", async () => {
    const { buyer, started, session } = await checkoutFor(5);
    expect((await deliver("checkout.session.expired", { ...session, status: "expired" })).body.handled).toBe(true);
    expect((await deliver("checkout.session.completed", session)).body.handled).toBe(false);
    const row = await firstRow(t.db, schema.paymentCheckouts, eq(schema.paymentCheckouts.id, started.id));
    expect(row?.status).toBe("expired");
    expect(await balanceOf(buyer.user.uuid)).toBe(0);
  });
});

describe("subscriptions through Stripe", () => {
  it("a subscription created, renewed and cancelled through webhooks shows in /subscription and in the count", async () => {
    const avatar = await t
      .api(admin.token)
      .merch.POST("/avatars", { body: { slug: "gold-fox", name: "Gold fox", avatarStatus: "SUBSCRIBER_ONLY" } });
    expect(avatar.response.status).toBe(201);
    const plan = await t.api(admin.token).payment.POST("/api/v1/products", {
      body: { name: "Booth Pro", priceCents: 499, paymentType: "recurring", interval: "month", level: "pro" },
    });
    const listed = await t.api().payment.GET("/subscription/products");
    expect(listed.data?.map((p) => p.id)).toContain(ok(plan).id);

    const fan = await t.createUser();
    const started = await t
      .api(fan.token)
      .payment.POST("/subscription/checkout/{id}", { params: { path: { id: ok(plan).id } } });
    expect(started.response.status).toBe(201);
    expect(started.data).toMatchObject({ mode: "subscription", provider: "stripe", tokens: null });
    const sent = fake.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1);
    expect(sent?.params.get("mode")).toBe("subscription");
    expect(sent?.params.get("line_items[0][price_data][recurring][interval]")).toBe("month");
    expect(sent?.params.get("subscription_data[metadata][userUuid]")).toBe(fan.user.uuid);
    const customer = sent?.params.get("customer");

    const t0 = nowSeconds();
    const month = 30 * 86400;
    const sub = (over: Record<string, unknown>) => ({
      id: "sub_fan_1",
      object: "subscription",
      customer,
      status: "active",
      cancel_at_period_end: false,
      canceled_at: null,
      start_date: t0,
      metadata: { userUuid: fan.user.uuid, productId: ok(plan).id, region: "GB" },
      items: { data: [{ current_period_start: t0, current_period_end: t0 + month, price: { id: "price_x" } }] },
      ...over,
    });
    const mine = async () => ok(await t.api(fan.token).payment.GET("/subscription"));
    const count = async (query: Record<string, string> = {}) =>
      ok(await t.api(staff.token).payment.GET("/subscription/count", { params: { query } })).count;
    const worn = async () =>
      ok(
        await t
          .api()
          .merch.GET("/avatars/{slug}/{uuid}", { params: { path: { slug: "gold-fox", uuid: fan.user.uuid } } }),
      ).allowed as boolean;

    expect(await mine()).toMatchObject({ subscribed: false, subscription: null, subscriptions: [] });
    expect(await worn()).toBe(false);
    const before = await count();

    expect((await deliver("customer.subscription.created", sub({}))).body.handled).toBe(true);
    const created = await mine();
    expect(created).toMatchObject({ subscribed: true, level: "pro" });
    expect(created.subscription).toMatchObject({ status: "active", active: true, renewals: 0, region: "GB" });
    expect(await worn()).toBe(true);
    expect(await count()).toBe(before + 1);
    expect(await count({ level: "pro", region: "gb" })).toBeGreaterThanOrEqual(1);
    expect(await count({ level: "nobody" })).toBe(0);

    // The renewal: a new period (the clock moves on a little; the periods are Stripe's).
    t.clock.advance(100);
    const renewedSub = sub({
      items: {
        data: [{ current_period_start: t0 + month, current_period_end: t0 + 2 * month, price: { id: "price_x" } }],
      },
    });
    expect((await deliver("customer.subscription.updated", renewedSub)).body.handled).toBe(true);
    const renewed = (await mine()).subscription;
    expect(renewed).toMatchObject({ status: "active", renewals: 1 });
    expect(renewed?.currentPeriodEnd).toBe(new Date((t0 + 2 * month) * 1000).toISOString());

    // A late, older event changes nothing.
    await deliver("customer.subscription.updated", sub({ status: "past_due" }), { created: t0 + 50 });
    expect((await mine()).subscription?.status).toBe("active");

    // The cancellation.
    t.clock.advance(100);
    const cancelledAt = nowSeconds();
    const deleted = await deliver(
      "customer.subscription.deleted",
      sub({ status: "canceled", canceled_at: cancelledAt, ended_at: cancelledAt }),
    );
    expect(deleted.body.handled).toBe(true);
    const ended = await mine();
    expect(ended).toMatchObject({ subscribed: false, level: null });
    expect(ended.subscription).toMatchObject({ status: "canceled", active: false, renewals: 1 });
    expect(ended.subscription?.endedAt).toBe(t.clock.now().toISOString());
    expect(await worn()).toBe(false);
    expect(await count()).toBe(before);
    // It still counts for the time it was in force.
    const during = await count({
      startDate: new Date((t0 + 10) * 1000).toISOString(),
      endDate: new Date((t0 + 20) * 1000).toISOString(),
      level: "pro",
    });
    expect(during).toBe(1);

    // Staff and the user see it by user id; others may not.
    const byUser = await t
      .api(staff.token)
      .payment.GET("/subscription/user/{id}", { params: { path: { id: fan.user.uuid } } });
    expect(byUser.data?.subscriptions).toHaveLength(1);
    expect(
      (await t.api(fan.token).payment.GET("/subscription/user/{id}", { params: { path: { id: fan.user.uuid } } }))
        .response.status,
    ).toBe(200);
  });

  it("keeps a subscriber from subscribing twice, and links the billing portal", async () => {
    const plan = await t.api(admin.token).payment.POST("/api/v1/products", {
      body: { name: "Booth Plus", priceCents: 299, paymentType: "recurring", interval: "year", level: "plus" },
    });
    const fan = await t.createUser();
    const noAccount = await t.api(fan.token).payment.POST("/subscription/portal");
    expect(noAccount.response.status).toBe(404);
    expect(noAccount.error?.message).toBe(NO_BILLING_ACCOUNT);
    await t.api(fan.token).payment.POST("/subscription/checkout/{id}", { params: { path: { id: ok(plan).id } } });
    const customer = await firstRow(
      t.db,
      schema.paymentCustomers,
      and(eq(schema.paymentCustomers.userUuid, fan.user.uuid), eq(schema.paymentCustomers.provider, "stripe")),
    );
    await deliver("customer.subscription.created", {
      id: "sub_plus_1",
      customer: customer?.customerId,
      status: "active",
      metadata: {},
      items: { data: [{ current_period_end: nowSeconds() + 86400, price: { id: "price_unknown" } }] },
    });
    const state = ok(await t.api(fan.token).payment.GET("/subscription"));
    expect(state.subscribed).toBe(true);
    const again = await t
      .api(fan.token)
      .payment.POST("/subscription/checkout/{id}", { params: { path: { id: ok(plan).id } } });
    expect(again.response.status).toBe(409);
    expect(again.error?.message).toBe(ALREADY_SUBSCRIBED);
    const portal = await t.api(fan.token).payment.POST("/subscription/portal");
    expect(portal.response.status).toBe(200);
    expect(portal.data).toMatchObject({ provider: "stripe", url: expect.stringMatching(/^https:\/\/billing\.stripe/) });
    expect(fake.requests.at(-1)?.params.get("customer")).toBe(customer?.customerId);
  });

  it("guards the subscription routes", async () => {
    const user = await t.createUser();
    const other = await t.createUser();
    const oneTime = await tokenProduct(1);
    const at = (id: string) => ({ params: { path: { id } } });
    const count = (query: { startDate?: string; endDate?: string }) => ({ params: { query } });
    const backwards = count({ startDate: "2026-07-01", endDate: "2026-06-01" });
    const cases: [call: () => Promise<{ response: Response }>, status: number][] = [
      [() => t.api().payment.GET("/subscription"), 401],
      [() => t.api().payment.GET("/subscription/count"), 401],
      [() => t.api(user.token).payment.GET("/subscription/count"), 403],
      [() => t.api(staff.token).payment.GET("/subscription/count", backwards), 400],
      [() => t.api(staff.token).payment.GET("/subscription/count", count({ startDate: "yesterday" })), 400],
      [() => t.api(user.token).payment.GET("/subscription/user/{id}", at(other.user.uuid)), 403],
      [() => t.api().payment.GET("/subscription/user/{id}", at(other.user.uuid)), 401],
      [() => t.api(staff.token).payment.GET("/subscription/user/{id}", at("nope")), 400],
      [() => t.api(staff.token).payment.GET("/subscription/user/{id}", at(crypto.randomUUID())), 404],
      [() => t.api().payment.POST("/subscription/portal"), 401],
      [() => t.api().payment.POST("/subscription/checkout/{id}", at(crypto.randomUUID())), 401],
      [() => t.api(user.token).payment.POST("/subscription/checkout/{id}", at(crypto.randomUUID())), 404],
      [() => t.api(user.token).payment.POST("/subscription/checkout/{id}", at(oneTime.id)), 409],
    ];
    for (const [call, status] of cases) expect(await statusOf(call()), call.toString()).toBe(status);
  });

  it("answers 503 naming the setting when the webhook secret is not configured", async () => {
    const bare = await createTestApp();
    try {
      const res = await bare.request("POST", `${P}/webhook/stripe`, {
        body: "{}",
        headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=abc" },
      });
      expect(res.status).toBe(503);
      expect(res.body.message).toBe(STRIPE_WEBHOOK_UNCONFIGURED);
    } finally {
      await bare.close();
    }
  });
});
