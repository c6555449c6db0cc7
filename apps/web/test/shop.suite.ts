/**
 * The token shop and the season ranking in the browser: bundles with their prices, a bundle bought through the
 * web's local test checkout page (the balance goes up), a consumable sent to a room for tokens, the ranking
 * of the current season with the viewer's standing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { expectCount, expectText, shot, suiteStack } from "./harness.ts";
import { asAdmin, asUser, type SignedUp, signedUp } from "./harness-b.ts";

const stack = suiteStack();
let ana: SignedUp;
beforeAll(async () => {
  const admin = await asAdmin(stack);
  for (const [name, cents, tokens] of [
    ["Starter pack", 499, 500],
    ["Party pack", 1299, 1500],
    ["Festival crate", 2999, 4000],
  ] as const) {
    const product = await admin("POST", "/api/payment-service/api/v1/products", {
      name,
      priceCents: cents,
      currency: "usd",
    });
    await admin("POST", "/api/merch-service/api/v1/token-bundles", { productId: product.id, name, tokens });
  }
  await admin("POST", "/api/merch-service/api/v1/consumables", {
    name: "Confetti",
    description: "A burst of colour over the dance floor.",
    tokenCost: 50,
  });
  await admin("POST", "/api/merch-service/api/v1/consumables", {
    name: "Spotlight",
    description: "Put the DJ in the light for a song.",
    tokenCost: 200,
    displayType: "cover",
  });
  const now = Date.now();
  await admin("POST", "/api/merch-service/points/season", {
    name: "Spring Season",
    start: new Date(now - 7 * 86_400_000).toISOString(),
    end: new Date(now + 30 * 86_400_000).toISOString(),
  });
  ana = await signedUp(stack, "Ana");
  const service = await stack.t.serviceToken();
  const points = async (userUuid: string, n: number) => {
    const res = await stack.t.request("POST", "/api/merch-service/points/service", {
      token: service,
      body: { userUuid, points: n },
    });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  };
  for (const [nickname, n] of [
    ["Marta", 420],
    ["Deejay K", 310],
    ["Lou", 120],
  ] as const) {
    const u = await stack.t.createUser({ nickname });
    await points(u.user.uuid, n);
  }
  await points(ana.uuid, 180);
}, 300_000);

describe("shop", { timeout: 180_000 }, () => {
  it("buys a token bundle through the local checkout and the balance goes up", async () => {
    const { page, errors } = ana;
    await page.goto("/shop");
    await expectText(page, "h1", "Token shop");
    await expectCount(page, "[data-testid=bundle]", 3);
    await expectText(page, "[data-testid=bundle] >> nth=0", /500 tokens.*\$4\.99/);
    // Her token account was opened by her first visit: nothing to press before buying.
    await expectText(page, "[data-testid=balance]", "◆0");
    await expectCount(page, "[data-testid=open-account]", 0);
    await shot(page, "shop");

    // The test checkout is a page of the web app, marked as a test payment, showing what is bought.
    await Promise.all([
      page.waitForURL(/\/checkout\/[0-9a-f-]{36}$/),
      page.locator("[data-testid=bundle] >> nth=0 >> [data-testid=buy-bundle]").click(),
    ]);
    expect(new URL(page.url()).origin).toBe(stack.webUrl);
    const checkoutUrl = page.url();
    await expectText(page, "[data-testid=test-payment]", /^Test payment: no money moves\./);
    await expectText(page, "[data-testid=checkout-product]", "Starter pack");
    await expectText(page, "[data-testid=checkout-what]", "500 tokens");
    await expectText(page, "[data-testid=checkout-price]", "$4.99");
    await shot(page, "checkout");

    // Cancel goes back to the shop with nothing bought.
    await Promise.all([
      page.waitForURL(/\/shop\?checkout=.*result=cancelled/),
      page.click("[data-testid=cancel-checkout]"),
    ]);
    await expectText(page, "[data-testid=checkout-result]", "The checkout was cancelled; nothing was charged.");
    await expectText(page, "[data-testid=balance]", "◆0");

    // Somebody else's checkout shows them the edge's refusal and no Pay button.
    const bea = await signedUp(stack, "Bea");
    await bea.page.goto(checkoutUrl);
    await expectText(bea.page, "[data-testid=checkout-error]", "This checkout belongs to someone else.");
    await expectCount(bea.page, "[data-testid=pay]", 0);

    // Pay lands on the shop with the new balance.
    await page.goto(checkoutUrl);
    await Promise.all([page.waitForURL(/\/shop\?checkout=.*result=success/), page.click("[data-testid=pay]")]);
    await expectText(page, "[data-testid=balance]", "◆500");
    await expectText(page, "[data-testid=checkout-result]", /^Thank you!/);
    // Paid once: the checkout page says so, with nothing left to press.
    await page.goto(checkoutUrl);
    await expectText(page, "[data-testid=checkout-closed]", "This checkout is already completed.");
    await expectCount(page, "[data-testid=pay]", 0);
    expect(errors).toEqual([]);
    expect(bea.errors).toEqual([]);
  });

  it("sends a consumable to a room for tokens", async () => {
    const { page, errors } = ana;
    const call = await asUser(stack, ana.uuid);
    const room = await call("POST", "/api/room-service/rooms/infrastructure", { name: "Ana's Lounge" });
    expect(room.status).toBe(201);
    await call("POST", "/api/room-service/rooms/recent", { roomUuid: room.body.uuid });
    // Someone is listening in the room: the purchase shows in their chat.
    const watcher = await stack.person();
    await watcher.page.goto(`/rooms/${room.body.slug}`);
    await watcher.page.waitForSelector("[data-testid=room][data-connection=live]");
    await page.goto("/shop");
    const confetti = page.locator("[data-testid=consumable]", { hasText: "Confetti" });
    await expectText(page, "[data-testid=consumable] >> nth=0 >> select option", "Ana's Lounge");
    await confetti.locator("button[type=submit]").click();
    await expectText(page, "[data-testid=consumable]:has-text('Confetti') .alert", /Sent!/);
    await expectText(page, "[data-testid=balance]", "◆450");
    await shot(page, "shop-balance");
    await expectText(watcher.page, "[data-testid=chat-consumable]", /sent Confetti to the room/);
    await shot(watcher.page, "room-consumable");
    expect(errors).toEqual([]);
    expect(watcher.errors).toEqual([]);
  });

  it("shows the season ranking with the viewer's standing", async () => {
    const { page, errors } = ana;
    await page.goto("/ranking");
    await expectText(page, "h1", "Season ranking");
    await expectText(page, "[data-testid=season-name]", /^Spring Season/);
    await expectCount(page, "[data-testid=ranking-row]", 4);
    expect(await page.locator("[data-testid=ranking-row] a").allTextContents()).toEqual([
      "MMarta",
      "DKDeejay K",
      "AAna",
      "LLou",
    ]);
    await expectText(page, "[data-testid=my-standing] strong", "#3");
    await shot(page, "ranking");
    expect(errors).toEqual([]);
  });
});
