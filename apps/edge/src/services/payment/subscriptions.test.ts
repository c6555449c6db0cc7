import { beforeAll, describe, expect, it } from "vitest";
import { ok, openTestApp, type TestUser } from "../../testing.ts";
import { PORTAL_EXPIRED } from "./local-checkout.ts";

// Subscriptions on an instance without Stripe: the local test checkout starts them, the local test portal ends them.
let admin: TestUser;
const t = openTestApp();
beforeAll(async () => (admin = await t.createUser({ roles: ["user", "admin"] })));

const P = "/api/payment-service";
const pathOf = (url: string) => new URL(url).pathname;

describe("local subscriptions", () => {
  it("subscribes through the local checkout, unlocks subscriber avatars, and cancels in the local portal", async () => {
    await t
      .api(admin.token)
      .merch.POST("/avatars", { body: { slug: "vip-cat", name: "VIP cat", avatarStatus: "SUBSCRIBER_ONLY" } });
    await t
      .api(admin.token)
      .merch.POST("/avatars", { body: { slug: "gift-cat", name: "Gift cat", avatarStatus: "SUBSCRIBER_ONLY" } });
    const plan = await t.api(admin.token).payment.POST("/api/v1/products", {
      body: { name: "Booth Pro", priceCents: 499, paymentType: "recurring", interval: "month", level: "pro" },
    });
    expect((await t.api().payment.GET("/subscription/products")).data?.map((p) => p.id)).toEqual([ok(plan).id]);
    const fan = await t.createUser();
    // An avatar given by hand stays when the subscription ends.
    await t.api(admin.token).merch.POST("/avatar-assignment/{slug}", {
      params: { path: { slug: "gift-cat" } },
      body: { userUuid: fan.user.uuid, assignmentType: "MANUAL" },
    });
    const allowed = async (slug: string) =>
      ok(await t.api().merch.GET("/avatars/{slug}/{uuid}", { params: { path: { slug, uuid: fan.user.uuid } } }))
        .allowed as boolean;

    const started = await t
      .api(fan.token)
      .payment.POST("/subscription/checkout/{id}", { params: { path: { id: ok(plan).id } } });
    expect(started.response.status).toBe(201);
    expect(started.data).toMatchObject({ provider: "local", mode: "subscription" });
    expect(started.data?.url).toBe(`${t.deps.config.webUrl}/checkout/${ok(started).id}`);
    const shown = await t
      .api(fan.token)
      .payment.GET("/api/v1/checkouts/{id}", { params: { path: { id: ok(started).id } } });
    expect(shown.data).toMatchObject({ mode: "subscription", product: { interval: "month", level: "pro" } });
    const done = await t
      .api(fan.token)
      .payment.POST("/api/v1/checkouts/{id}/complete", { params: { path: { id: ok(started).id } } });
    expect(done.response.status).toBe(200);
    expect(done.data?.checkout.status).toBe("completed");

    const state = ok(await t.api(fan.token).payment.GET("/subscription"));
    expect(state).toMatchObject({ subscribed: true, level: "pro" });
    expect(state.subscription).toMatchObject({ provider: "local", status: "active" });
    expect(await allowed("vip-cat")).toBe(true);
    expect(
      (await t.api(fan.token).payment.POST("/subscription/checkout/{id}", { params: { path: { id: ok(plan).id } } }))
        .response.status,
    ).toBe(409);

    const portal = await t.api(fan.token).payment.POST("/subscription/portal");
    expect(portal.data?.provider).toBe("local");
    const listing = await (await t.app.request(pathOf(ok(portal).url))).text();
    expect(listing).toContain("pro: active");
    const cancelPath = listing.match(/action="([^"]+)"/)?.[1] ?? "";
    expect(cancelPath).toContain("/cancel/");
    expect((await t.app.request(cancelPath, { method: "POST" })).status).toBe(200);

    const after = ok(await t.api(fan.token).payment.GET("/subscription"));
    expect(after).toMatchObject({ subscribed: false });
    expect(after.subscription?.status).toBe("canceled");
    expect(await allowed("vip-cat")).toBe(false);
    expect(await allowed("gift-cat")).toBe(true);

    // Another user's portal link cannot cancel this user's subscription; unknown links are refused.
    const other = await t.createUser();
    const theirs = ok(await t.api(other.token).payment.POST("/subscription/portal")).url;
    const foreign = await t.app.request(`${pathOf(theirs)}/cancel/${state.subscription?.id}`, { method: "POST" });
    expect(foreign.status).toBe(404);
    const unknown = await t.app.request(`${P}/local-portal/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toBe(PORTAL_EXPIRED);
  });
});
