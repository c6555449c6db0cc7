import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstRow } from "../../lib/rows.ts";
import { createPaymentTestApp, createTestCa, type TestCa, tokenBalance } from "../../testing/payment.ts";
import { createTestApp, ok, type TestApp, type TestUser } from "../../testing.ts";
import { APPLE_UNCONFIGURED } from "./apple.ts";
import { OTHER_APP } from "./webhooks.ts";

// App Store Server Notifications V2, signed by a test certificate authority shaped like Apple's.
const BUNDLE = "com.booth.app";
let t: TestApp;
let ca: TestCa;
let admin: TestUser;
let tokensProductId: string;
beforeAll(async () => {
  ca = await createTestCa();
  t = await createPaymentTestApp({ appleRootCaPem: ca.rootPem, appleBundleId: BUNDLE });
  admin = await t.createUser({ roles: ["user", "admin"] });
  const product = await t.api(admin.token).payment.POST("/api/v1/products", {
    body: { name: "Bag of 300", priceCents: 299, appleProductId: "com.booth.tokens.300" },
  });
  tokensProductId = ok(product).id;
  await t
    .api(admin.token)
    .merch.POST("/api/v1/token-bundles", { body: { productId: tokensProductId, name: "300 tokens", tokens: 300 } });
  await t.api(admin.token).payment.POST("/api/v1/products", {
    body: {
      name: "Pro monthly",
      priceCents: 499,
      paymentType: "recurring",
      interval: "month",
      level: "pro",
      appleProductId: "com.booth.pro.monthly",
    },
  });
});
afterAll(() => t.close());

const P = "/api/payment-service";
const now = () => t.clock.now().getTime();

async function notification(
  signer: TestCa,
  type: string,
  transaction: Record<string, unknown>,
  extra: { subtype?: string; uuid?: string; renewal?: Record<string, unknown> } = {},
) {
  return signer.sign({
    notificationType: type,
    ...(extra.subtype ? { subtype: extra.subtype } : {}),
    notificationUUID: extra.uuid ?? crypto.randomUUID(),
    version: "2.0",
    signedDate: now(),
    data: {
      bundleId: BUNDLE,
      environment: "Sandbox",
      signedTransactionInfo: await signer.sign({ bundleId: BUNDLE, signedDate: now(), ...transaction }),
      ...(extra.renewal ? { signedRenewalInfo: await signer.sign(extra.renewal) } : {}),
    },
  });
}
// Raw: some tests send a signedPayload of the wrong type, which the typed client cannot.
const send = (signedPayload: unknown) => t.request("POST", `${P}/webhook/apple`, { body: { signedPayload } });
const balanceOf = async (userUuid: string) => (await tokenBalance(t, userUuid)) ?? 0;
const consumable = (userUuid: string, transactionId: string) => ({
  transactionId,
  originalTransactionId: transactionId,
  productId: "com.booth.tokens.300",
  type: "Consumable",
  quantity: 2,
  purchaseDate: now(),
  appAccountToken: userUuid,
  storefront: "GBR",
  price: 5980,
  currency: "GBP",
});

describe("App Store notifications", () => {
  it("credits a consumable once, even when the notification comes twice at the same time", async () => {
    const buyer = await t.createUser();
    const jws = await notification(ca, "ONE_TIME_CHARGE", consumable(buyer.user.uuid, "2000000111"));
    const [a, b] = await Promise.all([send(jws), send(jws)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.duplicate, b.body.duplicate].sort()).toEqual([false, true]);
    expect(await balanceOf(buyer.user.uuid)).toBe(600);
    // The same transaction in another notification: still once.
    const again = await send(await notification(ca, "ONE_TIME_CHARGE", consumable(buyer.user.uuid, "2000000111")));
    expect(again.body).toMatchObject({ duplicate: false, handled: false });
    expect(await balanceOf(buyer.user.uuid)).toBe(600);
    const purchase = await firstRow(
      t.db,
      schema.paymentCheckouts,
      eq(schema.paymentCheckouts.providerSessionId, "2000000111"),
    );
    expect(purchase).toMatchObject({ provider: "apple", status: "completed", tokens: 600, amountCents: 598 });
  });

  it("follows a subscription: subscribed, renewed, expired", async () => {
    const fan = await t.createUser();
    const sub = (over: Record<string, unknown> = {}) => ({
      transactionId: crypto.randomUUID(),
      originalTransactionId: "1000000999",
      productId: "com.booth.pro.monthly",
      type: "Auto-Renewable Subscription",
      purchaseDate: now(),
      expiresDate: now() + 30 * 86400_000,
      appAccountToken: fan.user.uuid,
      storefront: "USA",
      ...over,
    });
    const mine = async () => ok(await t.api(fan.token).payment.GET("/subscription"));
    expect((await send(await notification(ca, "SUBSCRIBED", sub(), { subtype: "INITIAL_BUY" }))).body.handled).toBe(
      true,
    );
    expect(await mine()).toMatchObject({ subscribed: true, level: "pro" });
    expect((await mine()).subscription).toMatchObject({ provider: "apple", region: "USA", renewals: 0 });

    t.clock.advance(60);
    await send(await notification(ca, "DID_RENEW", sub({ expiresDate: now() + 60 * 86400_000 })));
    expect((await mine()).subscription).toMatchObject({ status: "active", renewals: 1 });

    t.clock.advance(60);
    await send(
      await notification(ca, "DID_CHANGE_RENEWAL_STATUS", sub(), {
        subtype: "AUTO_RENEW_DISABLED",
        renewal: { autoRenewStatus: 0 },
      }),
    );
    expect((await mine()).subscription).toMatchObject({ status: "active", cancelAtPeriodEnd: true });

    t.clock.advance(60);
    await send(await notification(ca, "EXPIRED", sub(), { subtype: "VOLUNTARY" }));
    expect(await mine()).toMatchObject({ subscribed: false });
    expect((await mine()).subscription).toMatchObject({ status: "canceled", renewals: 1 });
  });

  it("refuses a chain from another authority, an expired certificate and a changed payload, changing nothing", async () => {
    const buyer = await t.createUser();
    const foreign = await createTestCa({ name: "Not Apple" });
    const forged = await send(
      await notification(foreign, "ONE_TIME_CHARGE", consumable(buyer.user.uuid, "3000000001")),
    );
    expect(forged.status).toBe(401);
    expect(forged.body.message).toBe("The certificate chain does not lead to the App Store root.");

    const expiredLeaf = await createTestCa({ leafNotAfter: new Date("2026-05-01T00:00:00Z") });
    const expiredApp = await createTestApp({
      config: { ...t.deps.config, payments: { appleRootCaPem: expiredLeaf.rootPem } },
    });
    try {
      const res = await expiredApp.request("POST", `${P}/webhook/apple`, {
        body: { signedPayload: await expiredLeaf.sign({ notificationType: "TEST", notificationUUID: "x" }) },
      });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe("A certificate of the chain has expired or is not yet valid.");
    } finally {
      await expiredApp.close();
    }

    const genuine = await notification(ca, "ONE_TIME_CHARGE", consumable(buyer.user.uuid, "3000000002"));
    const [header, payload, signature] = genuine.split(".") as [string, string, string];
    const decoded = JSON.parse(Buffer.from(payload, "base64url").toString());
    decoded.notificationUUID = "changed";
    const changed = `${header}.${Buffer.from(JSON.stringify(decoded)).toString("base64url")}.${signature}`;
    const tampered = await send(changed);
    expect(tampered.status).toBe(401);
    expect(tampered.body.message).toBe("The signed payload's signature does not verify.");

    const noChain = `${Buffer.from(JSON.stringify({ alg: "ES256" })).toString("base64url")}.${payload}.${signature}`;
    expect((await send(noChain)).status).toBe(401);
    expect((await send("not a jws")).status).toBe(401);
    expect((await send(42)).status).toBe(400);
    // Raw: a notification without its signedPayload, which the typed client cannot send.
    expect((await t.request("POST", "/api/payment-service/webhook/apple", { body: {} })).status).toBe(400);

    expect(await balanceOf(buyer.user.uuid)).toBe(0);
    expect(await t.db.$count(schema.paymentCheckouts, eq(schema.paymentCheckouts.userUuid, buyer.user.uuid))).toBe(0);
    // The genuine one still works.
    expect((await send(genuine)).body.handled).toBe(true);
    expect(await balanceOf(buyer.user.uuid)).toBe(600);
  });

  it("refuses notifications for another app, and records those it does not act on", async () => {
    const other = await ca.sign({
      notificationType: "TEST",
      notificationUUID: crypto.randomUUID(),
      signedDate: now(),
      data: { bundleId: "com.someone.else" },
    });
    const res = await send(other);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(OTHER_APP);
    const test = await send(
      await ca.sign({ notificationType: "TEST", notificationUUID: crypto.randomUUID(), data: { bundleId: BUNDLE } }),
    );
    expect(test.body).toMatchObject({ received: true, handled: false, duplicate: false });
  });

  it("answers 503 naming the setting when no root certificate is configured", async () => {
    const bare = await createTestApp();
    try {
      const res = await bare.api().payment.POST("/webhook/apple", { body: { signedPayload: "x" } });
      expect(res.response.status).toBe(503);
      expect(res.error?.message).toBe(APPLE_UNCONFIGURED);
    } finally {
      await bare.close();
    }
  });
});
