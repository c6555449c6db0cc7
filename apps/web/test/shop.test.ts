/**
 * The token shop and the season ranking in the browser: bundles with their prices, a bundle bought through the
 * payment service's local test checkout (the balance goes up), a consumable sent to a room for tokens, the ranking
 * of the current season with the viewer's standing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectCount, expectText, type Stack, shot } from "./harness.ts";
import { asAdmin, asUser, type SignedUp, signedUp, startStack } from "./harness-b.ts";

let stack: Stack;
let ana: SignedUp;
beforeAll(async () => {
  stack = await startStack();
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
afterAll(async () => {
  await stack?.stop();
}, 60_000);

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

    await Promise.all([
      page.waitForURL(/\/local-checkout\//),
      page.locator("[data-testid=bundle] >> nth=0 >> [data-testid=buy-bundle]").click(),
    ]);
    await expectText(page, "p.notice", /Local test checkout/);
    await page.click("button[type=submit]");
    await expectText(page, "h1", "Purchase complete");
    await page.goto("/shop");
    await expectText(page, "[data-testid=balance]", "◆500");
    expect(errors).toEqual([]);
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
