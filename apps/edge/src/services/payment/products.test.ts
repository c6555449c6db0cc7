import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing.ts";
import { NO_BUNDLE, NO_PAYMENTS, NOT_FOR_SALE } from "./checkout.ts";
import { CHECKOUT_NOT_FOUND, checkoutClosed, NOT_YOUR_CHECKOUT } from "./local-checkout.ts";
import { NOT_ONE_TIME, PRODUCT_IN_USE } from "./products.ts";

// Products, and their checkout on an instance without Stripe: the local test checkout (the web's page over JSON routes).
let t: TestApp;
let admin: Awaited<ReturnType<TestApp["createUser"]>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ roles: ["user", "admin"] });
});
afterAll(() => t.close());

const P = "/api/payment-service";
const M = "/api/merch-service";

async function product(body: Record<string, unknown> = {}) {
  const res = await t.request("POST", `${P}/api/v1/products`, {
    token: admin.token,
    body: { name: "Small bag of tokens", priceCents: 499, ...body },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string };
}
/** A one-time product with the merch bundle it sells. */
async function bundleProduct(tokens: number, priceCents = 499) {
  const p = await product({ name: `${tokens} tokens`, priceCents });
  const bundle = await t.request("POST", `${M}/api/v1/token-bundles`, {
    token: admin.token,
    body: { productId: p.id, name: `${tokens} tokens`, tokens },
  });
  expect(bundle.status).toBe(201);
  return p;
}
async function balanceOf(userUuid: string) {
  const [row] = await t.db.select().from(schema.tokenAccounts).where(eq(schema.tokenAccounts.userUuid, userUuid));
  return row?.balance ?? null;
}

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
    expect((await t.request("POST", `${P}/api/v1/products`, { body })).status).toBe(401);
    expect((await t.request("POST", `${P}/api/v1/products`, { token: user.token, body })).status).toBe(403);

    const patched = await t.request("PATCH", `${P}/api/v1/products/${made.id}`, {
      token: admin.token,
      body: { priceCents: 599, name: "Starter bag" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ priceCents: 599, name: "Starter bag" });
    expect(
      (await t.request("PATCH", `${P}/api/v1/products/${made.id}`, { token: user.token, body: { priceCents: 1 } }))
        .status,
    ).toBe(403);
    expect((await t.request("PATCH", `${P}/api/v1/products/${made.id}`, { body: { priceCents: 1 } })).status).toBe(401);

    expect((await t.request("DELETE", `${P}/api/v1/products/${made.id}`, { token: user.token })).status).toBe(403);
    expect((await t.request("DELETE", `${P}/api/v1/products/${made.id}`)).status).toBe(401);
    expect((await t.request("DELETE", `${P}/api/v1/products/${made.id}`, { token: admin.token })).status).toBe(204);
    expect((await t.request("GET", `${P}/api/v1/products/${made.id}`)).status).toBe(404);
    expect((await t.request("DELETE", `${P}/api/v1/products/${made.id}`, { token: admin.token })).status).toBe(404);
  });

  it("refuses bad products with a message per field, and changes nothing", async () => {
    const before = await t.db.$count(schema.paymentProducts);
    const bad = await t.request("POST", `${P}/api/v1/products`, {
      token: admin.token,
      body: { name: "", priceCents: 0, currency: "dollars" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(
      expect.arrayContaining([expect.stringMatching(/^name:/), expect.stringMatching(/^priceCents:/)]),
    );
    const noInterval = await t.request("POST", `${P}/api/v1/products`, {
      token: admin.token,
      body: { name: "Pro", priceCents: 999, paymentType: "recurring" },
    });
    expect(noInterval.status).toBe(400);
    expect(noInterval.body.message).toContain("interval: a recurring product needs its interval (month or year)");
    const oneTimeLevel = await t.request("POST", `${P}/api/v1/products`, {
      token: admin.token,
      body: { name: "Bag", priceCents: 999, level: "pro" },
    });
    expect(oneTimeLevel.status).toBe(400);
    expect(await t.db.$count(schema.paymentProducts)).toBe(before);

    const p = await product();
    const badPatch = await t.request("PATCH", `${P}/api/v1/products/${p.id}`, {
      token: admin.token,
      body: { priceCents: -5 },
    });
    expect(badPatch.status).toBe(400);
    expect((await t.request("GET", `${P}/api/v1/products/${p.id}`)).body.priceCents).toBe(499);
    expect((await t.request("GET", `${P}/api/v1/products/not-a-uuid`)).status).toBe(400);
    const appleA = await product({ appleProductId: "com.booth.tokens.small" });
    const dup = await t.request("POST", `${P}/api/v1/products`, {
      token: admin.token,
      body: { name: "Again", priceCents: 100, appleProductId: "com.booth.tokens.small" },
    });
    expect(dup.status).toBe(409);
    expect(appleA.id).toBeTruthy();
  });

  it("lists products for sale with the tokens their bundle credits; retired ones only to admins", async () => {
    const sold = await bundleProduct(250, 199);
    const retired = await bundleProduct(90, 99);
    await t.request("PATCH", `${P}/api/v1/products/${retired.id}`, { token: admin.token, body: { active: false } });
    const ids = `${sold.id},${retired.id}`;
    const anyone = await t.request("GET", `${P}/api/v1/products`, { query: { id: ids } });
    expect(anyone.status).toBe(200);
    expect(anyone.body.map((p: { id: string; tokens: number }) => [p.id, p.tokens])).toEqual([[sold.id, 250]]);
    const admins = await t.request("GET", `${P}/api/v1/products`, { token: admin.token, query: { id: ids } });
    expect(admins.body.map((p: { id: string }) => p.id)).toEqual([retired.id, sold.id]);
    const paged = await t.request("GET", `${P}/api/v1/products`, { token: admin.token, query: { id: ids, offset: 1 } });
    expect(paged.body.map((p: { id: string }) => p.id)).toEqual([sold.id]);
    expect((await t.request("GET", `${P}/api/v1/products`, { query: { id: "nope" } })).status).toBe(400);
    expect((await t.request("GET", `${P}/api/v1/products`, { query: { limit: 0 } })).status).toBe(400);
    expect((await t.request("GET", `${P}/api/v1/products/${retired.id}`)).body).toMatchObject({
      active: false,
      tokens: 90,
    });
  });
});

describe("checkout without Stripe: the local test checkout", () => {
  it("answers the web's checkout page, whose Pay completes the buyer's checkout once and credits the tokens", async () => {
    const p = await bundleProduct(500);
    const buyer = await t.createUser();
    const started = await t.request("POST", `${P}/api/v1/products/${p.id}/checkout`, { token: buyer.token });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ provider: "local", status: "open", tokens: 500, amountCents: 499 });
    expect(started.body.url).toBe(`${t.deps.config.webUrl}/checkout/${started.body.id}`);
    const path = `${P}/api/v1/checkouts/${started.body.id}`;

    const shown = await t.request("GET", path, { token: buyer.token });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      id: started.body.id,
      status: "open",
      tokens: 500,
      amountCents: 499,
      currency: "usd",
      product: { name: "500 tokens" },
    });
    expect(await balanceOf(buyer.user.uuid)).toBeNull();

    // Somebody else's checkout: neither shown nor completed; nobody signed in: 401.
    const stranger = await t.createUser();
    for (const [method, url] of [
      ["GET", path],
      ["POST", `${path}/complete`],
    ] as const) {
      const theirs = await t.request(method, url, { token: stranger.token });
      expect(theirs.status).toBe(403);
      expect(theirs.body.message).toBe(NOT_YOUR_CHECKOUT);
      expect((await t.request(method, url)).status).toBe(401);
    }
    expect(await balanceOf(buyer.user.uuid)).toBeNull();
    expect(await balanceOf(stranger.user.uuid)).toBeNull();

    // Pay pressed twice at once: one purchase, one credit; the other press is told it is done.
    const [a, b] = await Promise.all([
      t.request("POST", `${path}/complete`, { token: buyer.token }),
      t.request("POST", `${path}/complete`, { token: buyer.token }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const ok = a.status === 200 ? a : b;
    expect(ok.body).toMatchObject({ checkout: { id: started.body.id, status: "completed" }, balance: 500 });
    expect(await balanceOf(buyer.user.uuid)).toBe(500);
    const again = await t.request("POST", `${path}/complete`, { token: buyer.token });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(checkoutClosed("completed"));
    expect(await balanceOf(buyer.user.uuid)).toBe(500);
    const self = await t.request("GET", `${M}/api/v1/token-accounts/self`, { token: buyer.token });
    expect(self.body.balance).toBe(500);
    const credits = await t.db
      .select()
      .from(schema.tokenTransactions)
      .where(eq(schema.tokenTransactions.referenceId, started.body.id));
    expect(credits).toHaveLength(1);
    expect((await t.request("GET", path, { token: buyer.token })).body.status).toBe("completed");

    // A bought product is retired, not deleted.
    const del = await t.request("DELETE", `${P}/api/v1/products/${p.id}`, { token: admin.token });
    expect(del.status).toBe(409);
    expect(del.body.message).toBe(PRODUCT_IN_USE);
  });

  it("refuses checkouts that cannot sell anything, and callers who are not signed in", async () => {
    const noBundle = await product();
    const buyer = await t.createUser();
    const r1 = await t.request("POST", `${P}/api/v1/products/${noBundle.id}/checkout`, { token: buyer.token });
    expect(r1.status).toBe(409);
    expect(r1.body.message).toBe(NO_BUNDLE);
    const plan = await product({ paymentType: "recurring", interval: "month", level: "pro" });
    const r2 = await t.request("POST", `${P}/api/v1/products/${plan.id}/checkout`, { token: buyer.token });
    expect(r2.status).toBe(409);
    expect(r2.body.message).toBe(NOT_ONE_TIME);
    const retired = await bundleProduct(10);
    await t.request("PATCH", `${P}/api/v1/products/${retired.id}`, { token: admin.token, body: { active: false } });
    const r3 = await t.request("POST", `${P}/api/v1/products/${retired.id}/checkout`, { token: buyer.token });
    expect(r3.status).toBe(409);
    expect(r3.body.message).toBe(NOT_FOR_SALE);
    expect((await t.request("POST", `${P}/api/v1/products/${retired.id}/checkout`)).status).toBe(401);
    const missing = crypto.randomUUID();
    expect((await t.request("POST", `${P}/api/v1/products/${missing}/checkout`, { token: buyer.token })).status).toBe(
      404,
    );
    expect((await t.request("POST", `${P}/api/v1/products/x/checkout`, { token: buyer.token })).status).toBe(400);
    expect(await t.db.$count(schema.paymentCheckouts, eq(schema.paymentCheckouts.userUuid, buyer.user.uuid))).toBe(0);
    const unknown = await t.request("POST", `${P}/api/v1/checkouts/${crypto.randomUUID()}/complete`, {
      token: buyer.token,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(CHECKOUT_NOT_FOUND);
    expect((await t.request("GET", `${P}/api/v1/checkouts/nope`, { token: buyer.token })).status).toBe(400);
  });
});

describe("the local test checkout on a production instance", () => {
  it("answers 503 naming the settings unless LOCAL_CHECKOUT=true, and gives nothing away", async () => {
    const p = await bundleProduct(300);
    const plan = await product({ paymentType: "recurring", interval: "month", level: "pro" });
    const buyer = await t.createUser();
    // A checkout opened before the instance went to production must not complete either.
    const opened = await t.request("POST", `${P}/api/v1/products/${p.id}/checkout`, { token: buyer.token });
    expect(opened.status).toBe(201);
    const before = await t.db.$count(schema.paymentCheckouts, eq(schema.paymentCheckouts.userUuid, buyer.user.uuid));

    const saved = t.deps.config.payments;
    t.deps.config.payments = { localCheckout: false };
    try {
      const refused = [
        await t.request("POST", `${P}/api/v1/products/${p.id}/checkout`, { token: buyer.token }),
        await t.request("POST", `${P}/subscription/checkout/${plan.id}`, { token: buyer.token }),
        await t.request("POST", `${P}/subscription/portal`, { token: buyer.token }),
        await t.request("GET", `${P}/api/v1/checkouts/${opened.body.id}`, { token: buyer.token }),
        await t.request("POST", `${P}/api/v1/checkouts/${opened.body.id}/complete`, { token: buyer.token }),
      ];
      for (const res of refused) {
        expect(res.status).toBe(503);
        expect(res.body.message).toBe(NO_PAYMENTS);
      }
      expect(await balanceOf(buyer.user.uuid)).toBeNull();
      expect(await t.db.$count(schema.paymentCheckouts, eq(schema.paymentCheckouts.userUuid, buyer.user.uuid))).toBe(
        before,
      );

      t.deps.config.payments = { localCheckout: true };
      const completed = await t.request("POST", `${P}/api/v1/checkouts/${opened.body.id}/complete`, {
        token: buyer.token,
      });
      expect(completed.status).toBe(200);
      expect(await balanceOf(buyer.user.uuid)).toBe(300);
    } finally {
      t.deps.config.payments = saved;
    }
  });
});
