import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { startCheckout, tokenBalance, tokenBundleProduct } from "../../testing/payment.ts";
import { ok, openTestApp, statusOf, type TestUser } from "../../testing.ts";
import { NO_BUNDLE, NO_PAYMENTS, NOT_FOR_SALE } from "./checkout.ts";
import { CHECKOUT_NOT_FOUND, checkoutClosed, NOT_YOUR_CHECKOUT } from "./local-checkout.ts";
import { NOT_ONE_TIME, PRODUCT_IN_USE } from "./products.ts";

// Products, and their checkout on an instance without Stripe: the local test checkout (the web's page over JSON routes).
let admin: TestUser;
const t = openTestApp();
beforeAll(async () => (admin = await t.createUser({ roles: ["user", "admin"] })));

async function product(body: Record<string, unknown> = {}) {
  const res = await t
    .api(admin.token)
    .payment.POST("/api/v1/products", { body: { name: "Small bag of tokens", priceCents: 499, ...body } });
  expect(res.response.status).toBe(201);
  return ok(res) as { id: string; name: string };
}
/** A one-time product with the merch bundle it sells. */
const bundleProduct = (tokens: number, priceCents = 499) => tokenBundleProduct(t, admin.token, tokens, priceCents);
const balanceOf = (userUuid: string) => tokenBalance(t, userUuid);

describe("products", () => {
  it("admins create, change and delete products; others may not", async () => {
    const made = await product({ description: "Starter", currency: "EUR" });
    expect(made).toMatchObject({
      paymentType: "one_time",
      currency: "eur",
      priceCents: 499,
      active: true,
      tokens: null,
    });
    const user = await t.createUser();
    const body = { name: "x", priceCents: 100 };
    expect((await t.api().payment.POST("/api/v1/products", { body })).response.status).toBe(401);
    expect((await t.api(user.token).payment.POST("/api/v1/products", { body })).response.status).toBe(403);

    const patched = await t.api(admin.token).payment.PATCH("/api/v1/products/{id}", {
      params: { path: { id: made.id } },
      body: { priceCents: 599, name: "Starter bag" },
    });
    expect(patched.response.status).toBe(200);
    expect(patched.data).toMatchObject({ priceCents: 599, name: "Starter bag" });
    expect(
      (
        await t
          .api(user.token)
          .payment.PATCH("/api/v1/products/{id}", { params: { path: { id: made.id } }, body: { priceCents: 1 } })
      ).response.status,
    ).toBe(403);
    expect(
      (
        await t
          .api()
          .payment.PATCH("/api/v1/products/{id}", { params: { path: { id: made.id } }, body: { priceCents: 1 } })
      ).response.status,
    ).toBe(401);

    const remove = (token?: string) =>
      statusOf(t.api(token).payment.DELETE("/api/v1/products/{id}", { params: { path: { id: made.id } } }));
    expect(await remove(user.token)).toBe(403);
    expect(await remove()).toBe(401);
    expect(await remove(admin.token)).toBe(204);
    expect(await statusOf(t.api().payment.GET("/api/v1/products/{id}", { params: { path: { id: made.id } } }))).toBe(
      404,
    );
    expect(await remove(admin.token)).toBe(404);
  });

  it("refuses bad products with a message per field, and changes nothing", async () => {
    const before = await t.db.$count(schema.paymentProducts);
    const bad = await t
      .api(admin.token)
      .payment.POST("/api/v1/products", { body: { name: "", priceCents: 0, currency: "dollars" } });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.message).toEqual(
      expect.arrayContaining([expect.stringMatching(/^name:/), expect.stringMatching(/^priceCents:/)]),
    );
    const noInterval = await t
      .api(admin.token)
      .payment.POST("/api/v1/products", { body: { name: "Pro", priceCents: 999, paymentType: "recurring" } });
    expect(noInterval.response.status).toBe(400);
    expect(noInterval.error?.message).toContain("interval: a recurring product needs its interval (month or year)");
    const oneTimeLevel = await t
      .api(admin.token)
      .payment.POST("/api/v1/products", { body: { name: "Bag", priceCents: 999, level: "pro" } });
    expect(oneTimeLevel.response.status).toBe(400);
    expect(await t.db.$count(schema.paymentProducts)).toBe(before);

    const p = await product();
    const badPatch = await t
      .api(admin.token)
      .payment.PATCH("/api/v1/products/{id}", { params: { path: { id: p.id } }, body: { priceCents: -5 } });
    expect(badPatch.response.status).toBe(400);
    expect(
      (await t.api().payment.GET("/api/v1/products/{id}", { params: { path: { id: p.id } } })).data?.priceCents,
    ).toBe(499);
    expect(
      (await t.api().payment.GET("/api/v1/products/{id}", { params: { path: { id: "not-a-uuid" } } })).response.status,
    ).toBe(400);
    const appleA = await product({ appleProductId: "com.booth.tokens.small" });
    const dup = await t.api(admin.token).payment.POST("/api/v1/products", {
      body: { name: "Again", priceCents: 100, appleProductId: "com.booth.tokens.small" },
    });
    expect(dup.response.status).toBe(409);
    expect(appleA.id).toBeTruthy();
  });

  it("lists products for sale with the tokens their bundle credits; retired ones only to admins", async () => {
    const sold = await bundleProduct(250, 199);
    const retired = await bundleProduct(90, 99);
    await t
      .api(admin.token)
      .payment.PATCH("/api/v1/products/{id}", { params: { path: { id: retired.id } }, body: { active: false } });
    const ids = `${sold.id},${retired.id}`;
    const anyone = await t.api().payment.GET("/api/v1/products", { params: { query: { id: ids } } });
    expect(anyone.response.status).toBe(200);
    expect(anyone.data?.map((p) => [p.id, p.tokens])).toEqual([[sold.id, 250]]);
    const admins = await t.api(admin.token).payment.GET("/api/v1/products", { params: { query: { id: ids } } });
    expect(admins.data?.map((p) => p.id)).toEqual([retired.id, sold.id]);
    const paged = await t
      .api(admin.token)
      .payment.GET("/api/v1/products", { params: { query: { id: ids, offset: 1 } } });
    expect(paged.data?.map((p) => p.id)).toEqual([sold.id]);
    expect((await t.api().payment.GET("/api/v1/products", { params: { query: { id: "nope" } } })).response.status).toBe(
      400,
    );
    expect((await t.api().payment.GET("/api/v1/products", { params: { query: { limit: 0 } } })).response.status).toBe(
      400,
    );
    expect(
      (await t.api().payment.GET("/api/v1/products/{id}", { params: { path: { id: retired.id } } })).data,
    ).toMatchObject({
      active: false,
      tokens: 90,
    });
  });
});

describe("checkout without Stripe: the local test checkout", () => {
  it("answers the web's checkout page, whose Pay completes the buyer's checkout once and credits the tokens", async () => {
    const p = await bundleProduct(500);
    const buyer = await t.createUser();
    const started = await startCheckout(t, buyer.token, p.id);
    expect(started.response.status).toBe(201);
    expect(started.data).toMatchObject({ provider: "local", status: "open", tokens: 500, amountCents: 499 });
    expect(started.data?.url).toBe(`${t.deps.config.webUrl}/checkout/${ok(started).id}`);
    const byId = { params: { path: { id: ok(started).id } } };

    const shown = await t
      .api(buyer.token)
      .payment.GET("/api/v1/checkouts/{id}", { params: { path: { id: ok(started).id } } });
    expect(shown.response.status).toBe(200);
    expect(shown.data).toMatchObject({
      id: ok(started).id,
      status: "open",
      tokens: 500,
      amountCents: 499,
      currency: "usd",
      product: { name: "500 tokens" },
    });
    expect(await balanceOf(buyer.user.uuid)).toBeNull();

    // Somebody else's checkout: neither shown nor completed; nobody signed in: 401.
    const stranger = await t.createUser();
    const asStranger = t.api(stranger.token).payment;
    for (const theirs of [
      await asStranger.GET("/api/v1/checkouts/{id}", byId),
      await asStranger.POST("/api/v1/checkouts/{id}/complete", byId),
    ]) {
      expect(theirs.response.status).toBe(403);
      expect(theirs.error?.message).toBe(NOT_YOUR_CHECKOUT);
    }
    expect((await t.api().payment.GET("/api/v1/checkouts/{id}", byId)).response.status).toBe(401);
    expect((await t.api().payment.POST("/api/v1/checkouts/{id}/complete", byId)).response.status).toBe(401);
    expect(await balanceOf(buyer.user.uuid)).toBeNull();
    expect(await balanceOf(stranger.user.uuid)).toBeNull();

    // Pay pressed twice at once: one purchase, one credit; the other press is told it is done.
    const complete = () => t.api(buyer.token).payment.POST("/api/v1/checkouts/{id}/complete", byId);
    const [a, b] = await Promise.all([complete(), complete()]);
    expect([a.response.status, b.response.status].sort()).toEqual([200, 409]);
    const paid = a.response.status === 200 ? a : b;
    expect(paid.data).toMatchObject({ checkout: { id: ok(started).id, status: "completed" }, balance: 500 });
    expect(await balanceOf(buyer.user.uuid)).toBe(500);
    const again = await t
      .api(buyer.token)
      .payment.POST("/api/v1/checkouts/{id}/complete", { params: { path: { id: ok(started).id } } });
    expect(again.response.status).toBe(409);
    expect(again.error?.message).toBe(checkoutClosed("completed"));
    expect(await balanceOf(buyer.user.uuid)).toBe(500);
    const self = await t.api(buyer.token).merch.GET("/api/v1/token-accounts/self");
    expect(self.data?.balance).toBe(500);
    const credits = await t.db
      .select()
      .from(schema.tokenTransactions)
      .where(eq(schema.tokenTransactions.referenceId, ok(started).id));
    expect(credits).toHaveLength(1);
    expect(
      (await t.api(buyer.token).payment.GET("/api/v1/checkouts/{id}", { params: { path: { id: ok(started).id } } }))
        .data?.status,
    ).toBe("completed");

    // A bought product is retired, not deleted.
    const del = await t.api(admin.token).payment.DELETE("/api/v1/products/{id}", { params: { path: { id: p.id } } });
    expect(del.response.status).toBe(409);
    expect(del.error?.message).toBe(PRODUCT_IN_USE);
  });

  it("refuses checkouts that cannot sell anything, and callers who are not signed in", async () => {
    const noBundle = await product();
    const buyer = await t.createUser();
    const r1 = await startCheckout(t, buyer.token, noBundle.id);
    expect(r1.response.status).toBe(409);
    expect(r1.error?.message).toBe(NO_BUNDLE);
    const plan = await product({ paymentType: "recurring", interval: "month", level: "pro" });
    const r2 = await startCheckout(t, buyer.token, plan.id);
    expect(r2.response.status).toBe(409);
    expect(r2.error?.message).toBe(NOT_ONE_TIME);
    const retired = await bundleProduct(10);
    await t
      .api(admin.token)
      .payment.PATCH("/api/v1/products/{id}", { params: { path: { id: retired.id } }, body: { active: false } });
    const r3 = await startCheckout(t, buyer.token, retired.id);
    expect(r3.response.status).toBe(409);
    expect(r3.error?.message).toBe(NOT_FOR_SALE);
    expect((await startCheckout(t, undefined, retired.id)).response.status).toBe(401);
    const missing = crypto.randomUUID();
    expect((await startCheckout(t, buyer.token, missing)).response.status).toBe(404);
    expect((await startCheckout(t, buyer.token, "x")).response.status).toBe(400);
    expect(await t.db.$count(schema.paymentCheckouts, eq(schema.paymentCheckouts.userUuid, buyer.user.uuid))).toBe(0);
    const unknown = await t
      .api(buyer.token)
      .payment.POST("/api/v1/checkouts/{id}/complete", { params: { path: { id: crypto.randomUUID() } } });
    expect(unknown.response.status).toBe(404);
    expect(unknown.error?.message).toBe(CHECKOUT_NOT_FOUND);
    expect(
      (await t.api(buyer.token).payment.GET("/api/v1/checkouts/{id}", { params: { path: { id: "nope" } } })).response
        .status,
    ).toBe(400);
  });
});

describe("the local test checkout on a production instance", () => {
  it("answers 503 naming the settings unless LOCAL_CHECKOUT=true, and gives nothing away", async () => {
    const p = await bundleProduct(300);
    const plan = await product({ paymentType: "recurring", interval: "month", level: "pro" });
    const buyer = await t.createUser();
    // A checkout opened before the instance went to production must not complete either.
    const opened = await startCheckout(t, buyer.token, p.id);
    expect(opened.response.status).toBe(201);
    const before = await t.db.$count(schema.paymentCheckouts, eq(schema.paymentCheckouts.userUuid, buyer.user.uuid));

    const saved = t.deps.config.payments;
    t.deps.config.payments = { localCheckout: false };
    try {
      const api = t.api(buyer.token).payment;
      const opening = { params: { path: { id: ok(opened).id } } };
      const refused = [
        await api.POST("/api/v1/products/{id}/checkout", { params: { path: { id: p.id } } }),
        await api.POST("/subscription/checkout/{id}", { params: { path: { id: plan.id } } }),
        await api.POST("/subscription/portal"),
        await api.GET("/api/v1/checkouts/{id}", opening),
        await api.POST("/api/v1/checkouts/{id}/complete", opening),
      ];
      for (const res of refused) {
        expect(res.response.status).toBe(503);
        expect(res.error?.message).toBe(NO_PAYMENTS);
      }
      expect(await balanceOf(buyer.user.uuid)).toBeNull();
      expect(await t.db.$count(schema.paymentCheckouts, eq(schema.paymentCheckouts.userUuid, buyer.user.uuid))).toBe(
        before,
      );

      t.deps.config.payments = { localCheckout: true };
      const completed = await t
        .api(buyer.token)
        .payment.POST("/api/v1/checkouts/{id}/complete", { params: { path: { id: ok(opened).id } } });
      expect(completed.response.status).toBe(200);
      expect(await balanceOf(buyer.user.uuid)).toBe(300);
    } finally {
      t.deps.config.payments = saved;
    }
  });
});
