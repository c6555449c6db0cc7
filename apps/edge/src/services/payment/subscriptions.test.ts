import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing.ts";
import { PORTAL_EXPIRED } from "./local-checkout.ts";

// Subscriptions on an instance without Stripe: the local test checkout starts them, the local test portal ends them.
let t: TestApp;
let admin: Awaited<ReturnType<TestApp["createUser"]>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ roles: ["user", "admin"] });
});
afterAll(() => t.close());

const P = "/api/payment-service";
const M = "/api/merch-service";
const pathOf = (url: string) => new URL(url).pathname;

describe("local subscriptions", () => {
  it("subscribes through the local checkout, unlocks subscriber avatars, and cancels in the local portal", async () => {
    await t.request("POST", `${M}/avatars`, {
      token: admin.token,
      body: { slug: "vip-cat", name: "VIP cat", avatarStatus: "SUBSCRIBER_ONLY" },
    });
    await t.request("POST", `${M}/avatars`, {
      token: admin.token,
      body: { slug: "gift-cat", name: "Gift cat", avatarStatus: "SUBSCRIBER_ONLY" },
    });
    const plan = await t.request("POST", `${P}/api/v1/products`, {
      token: admin.token,
      body: { name: "Booth Pro", priceCents: 499, paymentType: "recurring", interval: "month", level: "pro" },
    });
    expect((await t.request("GET", `${P}/subscription/products`)).body.map((p: { id: string }) => p.id)).toEqual([
      plan.body.id,
    ]);
    const fan = await t.createUser();
    // An avatar given by hand stays when the subscription ends.
    await t.request("POST", `${M}/avatar-assignment/gift-cat`, {
      token: admin.token,
      body: { userUuid: fan.user.uuid, assignmentType: "MANUAL" },
    });
    const allowed = async (slug: string) =>
      (await t.request("GET", `${M}/avatars/${slug}/${fan.user.uuid}`)).body.allowed as boolean;

    const started = await t.request("POST", `${P}/subscription/checkout/${plan.body.id}`, { token: fan.token });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ provider: "local", mode: "subscription" });
    expect(started.body.url).toBe(`${t.deps.config.webUrl}/checkout/${started.body.id}`);
    const shown = await t.request("GET", `${P}/api/v1/checkouts/${started.body.id}`, { token: fan.token });
    expect(shown.body).toMatchObject({ mode: "subscription", product: { interval: "month", level: "pro" } });
    const done = await t.request("POST", `${P}/api/v1/checkouts/${started.body.id}/complete`, { token: fan.token });
    expect(done.status).toBe(200);
    expect(done.body.checkout.status).toBe("completed");

    const state = (await t.request("GET", `${P}/subscription`, { token: fan.token })).body;
    expect(state).toMatchObject({ subscribed: true, level: "pro" });
    expect(state.subscription).toMatchObject({ provider: "local", status: "active" });
    expect(await allowed("vip-cat")).toBe(true);
    expect((await t.request("POST", `${P}/subscription/checkout/${plan.body.id}`, { token: fan.token })).status).toBe(
      409,
    );

    const portal = await t.request("POST", `${P}/subscription/portal`, { token: fan.token });
    expect(portal.body.provider).toBe("local");
    const listing = await (await t.app.request(pathOf(portal.body.url))).text();
    expect(listing).toContain("pro: active");
    const cancelPath = listing.match(/action="([^"]+)"/)?.[1] ?? "";
    expect(cancelPath).toContain("/cancel/");
    expect((await t.app.request(cancelPath, { method: "POST" })).status).toBe(200);

    const after = (await t.request("GET", `${P}/subscription`, { token: fan.token })).body;
    expect(after).toMatchObject({ subscribed: false });
    expect(after.subscription.status).toBe("canceled");
    expect(await allowed("vip-cat")).toBe(false);
    expect(await allowed("gift-cat")).toBe(true);

    // Another user's portal link cannot cancel this user's subscription; unknown links are refused.
    const other = await t.createUser();
    const theirs = (await t.request("POST", `${P}/subscription/portal`, { token: other.token })).body.url;
    const foreign = await t.app.request(`${pathOf(theirs)}/cancel/${state.subscription.id}`, { method: "POST" });
    expect(foreign.status).toBe(404);
    const unknown = await t.app.request(`${P}/local-portal/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toBe(PORTAL_EXPIRED);
  });
});
