import { schema } from "@booth/db";
import type { Schema } from "@booth/sdk";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstRow } from "../../lib/rows.ts";
import { localPushService, testSubscriber, verifyVapid } from "../../testing/web-push.ts";
import { createTestApp, expectRefusal, ok, type TestApp, type TestUser } from "../../testing.ts";
import { FANS_RECENTLY_NOTIFIED } from "./notifications.ts";
import { BAD_SUBSCRIPTION_KEYS, MAX_SUBSCRIPTIONS_PER_USER, NOT_SUBSCRIBED } from "./web-subscriptions.ts";

let t: TestApp;
let pushService: Awaited<ReturnType<typeof localPushService>>;
beforeAll(async () => {
  t = await createTestApp();
  pushService = await localPushService();
});
afterAll(async () => {
  await pushService.close();
  await t.close();
});

const S = "/api/social-service";

/** A browser of `u` subscribed to the local push service; answers its keys to read what arrives. */
async function subscribe(u: TestUser, endpoint = pushService.endpoint()) {
  const browser = testSubscriber();
  const res = await t.api(u.token).social.POST("/web-notifications/subscription", {
    body: { endpoint, expirationTime: null, keys: { p256dh: browser.p256dh, auth: browser.auth } },
  });
  expect(res.response.status).toBe(201);
  return { ...browser, endpoint, id: ok(res).id };
}
const arrivedAt = (endpoint: string) =>
  pushService.received.filter((m) => m.path === new URL(endpoint).pathname).map((m) => m.body);
const subscriptionsOf = (u: TestUser) =>
  t.db.select().from(schema.webPushSubscriptions).where(eq(schema.webPushSubscriptions.userUuid, u.user.uuid));

describe("web push", () => {
  it("publishes the VAPID public key browsers subscribe with", async () => {
    const res = await t.api().social.GET("/web-notifications/public-key");
    expect(res.response.status).toBe(200);
    expect(res.data?.publicKey).toBe(t.deps.push.web.publicKey);
    expect(Buffer.from(ok(res).publicKey, "base64url")).toHaveLength(65);
  });

  it("delivers to a subscribed browser a payload only it can decrypt, signed with the published key", async () => {
    const u = await t.createUser();
    const browser = await subscribe(u);
    const res = await t.api(await t.serviceToken()).social.POST("/web-notifications/push-notification", {
      body: { userUuids: [u.user.uuid], title: "New follower", body: "Ada follows you", data: { url: "/profile" } },
    });
    expect(res.response.status).toBe(200);
    expect(res.data).toEqual({ users: 1, devices: 0, webSubscriptions: 1, sent: 1, queued: 0, failed: 0, removed: 0 });
    const [body] = arrivedAt(browser.endpoint);
    expect(JSON.parse(browser.decrypt(body ?? Buffer.alloc(0)))).toEqual({
      title: "New follower",
      body: "Ada follows you",
      data: { url: "/profile" },
      silent: false,
    });
    const message = pushService.received.find((m) => m.path === new URL(browser.endpoint).pathname);
    const { publicKey } = await verifyVapid(message?.headers.authorization, pushService.origin);
    expect(publicKey).toBe((await t.api().social.GET("/web-notifications/public-key")).data?.publicKey);
    const kept = await firstRow(t.db, schema.pushMessages, eq(schema.pushMessages.target, browser.endpoint));
    expect(kept).toMatchObject({ channel: "web", status: "sent", title: "New follower" });
  });

  it("forgets a subscription the push service says is gone (410, 404)", async () => {
    const u = await t.createUser();
    const gone = await subscribe(u);
    pushService.gone.add(new URL(gone.endpoint).pathname);
    const missing = await subscribe(u, `${pushService.origin}/missing/${crypto.randomUUID()}`);
    const alive = await subscribe(u);
    const send = async () =>
      t.api(await t.serviceToken()).social.POST("/web-notifications/push-notification", {
        body: { userUuids: [u.user.uuid], title: "t", body: "b" },
      });
    expect((await send()).data).toMatchObject({ webSubscriptions: 3, sent: 1, failed: 2, removed: 2 });
    expect((await subscriptionsOf(u)).map((s) => s.endpoint)).toEqual([alive.endpoint]);
    expect((await send()).data).toMatchObject({ webSubscriptions: 1, sent: 1, removed: 0 });
    expect(missing.endpoint).toContain("/missing/");
  });

  it("moves an endpoint to the account that registers it, and keeps a user's newest browsers", async () => {
    const [a, b] = [await t.createUser(), await t.createUser()];
    const shared = await subscribe(a);
    await subscribe(b, shared.endpoint);
    expect(await subscriptionsOf(a)).toEqual([]);
    expect((await subscriptionsOf(b)).map((s) => s.endpoint)).toEqual([shared.endpoint]);
    for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_USER; i++) {
      t.clock.advance(1);
      await subscribe(b);
    }
    const kept = await subscriptionsOf(b);
    expect(kept).toHaveLength(MAX_SUBSCRIPTIONS_PER_USER);
    expect(kept.map((s) => s.endpoint)).not.toContain(shared.endpoint);
  });

  it("refuses endpoints outside browsers' push services, bad keys, and callers without an account", async () => {
    const u = await t.createUser();
    const browser = testSubscriber();
    const keys = { p256dh: browser.p256dh, auth: browser.auth };
    const post = (body: Schema<"social", "PushSubscriptionJSON">, token: string | null = u.token) =>
      t.api(token).social.POST("/web-notifications/subscription", { body });
    const internal = await post({ endpoint: "https://10.0.0.5/admin", keys });
    expectRefusal(internal, 400, ["endpoint: Push service 10.0.0.5 is not supported."]);
    expect((await post({ endpoint: "http://fcm.googleapis.com/fcm/send/x", keys })).response.status).toBe(400);
    const badKeys = await post({ endpoint: pushService.endpoint(), keys: { p256dh: "AAAA", auth: browser.auth } });
    expectRefusal(badKeys, 400, [`keys: ${BAD_SUBSCRIPTION_KEYS}`]);
    // Without keys: only an untyped request can leave them out.
    const noKeys = { token: u.token, body: { endpoint: pushService.endpoint() } };
    expect((await t.request("POST", `${S}/web-notifications/subscription`, noKeys)).status).toBe(400);
    expect((await post({ endpoint: pushService.endpoint(), keys }, null)).response.status).toBe(401);
    expect((await post({ endpoint: pushService.endpoint(), keys }, await t.serviceToken())).response.status).toBe(401);
    expect(await subscriptionsOf(u)).toEqual([]);
    // A real browser endpoint is accepted as is.
    expect((await post({ endpoint: "https://fcm.googleapis.com/fcm/send/abc:APA91b", keys })).response.status).toBe(
      201,
    );
  });

  it("forgets a browser its owner unsubscribes, which then hears nothing more", async () => {
    const [u, other] = [await t.createUser(), await t.createUser()];
    const kept = await subscribe(u);
    const leaving = await subscribe(u);
    const remove = (endpoint: string, token: string | null = u.token) =>
      t.api(token).social.DELETE("/web-notifications/subscription", { body: { endpoint } });
    // Someone else's browser, or one nobody registered: the same 404, nothing forgotten.
    const notTheirs = await remove(leaving.endpoint, other.token);
    expectRefusal(notTheirs, 404, NOT_SUBSCRIBED);
    expect((await remove(pushService.endpoint())).response.status).toBe(404);
    expect((await remove(leaving.endpoint, null)).response.status).toBe(401);
    expect((await remove(leaving.endpoint, await t.serviceToken())).response.status).toBe(401);
    const noEndpoint = await t.request("DELETE", `${S}/web-notifications/subscription`, { token: u.token, body: {} });
    expect(noEndpoint.status).toBe(400);
    expect((await subscriptionsOf(u)).map((s) => s.endpoint).sort()).toEqual([kept.endpoint, leaving.endpoint].sort());

    expect((await remove(leaving.endpoint)).response.status).toBe(204);
    expect((await subscriptionsOf(u)).map((s) => s.endpoint)).toEqual([kept.endpoint]);
    expect((await remove(leaving.endpoint)).response.status).toBe(404);
    const sent = await t.api(await t.serviceToken()).social.POST("/web-notifications/push-notification", {
      body: { userUuids: [u.user.uuid], title: "Still here?", body: "b" },
    });
    expect(sent.data).toMatchObject({ webSubscriptions: 1, sent: 1 });
    expect(arrivedAt(leaving.endpoint)).toHaveLength(0);
    expect(arrivedAt(kept.endpoint)).toHaveLength(1);
  });

  it("sends only for services and admins, and refuses bad input", async () => {
    const [u, admin] = [await t.createUser(), await t.createUser({ roles: ["user", "admin"] })];
    const body = { userUuids: [u.user.uuid], title: "t", body: "b" };
    const post = (token: string | null, b: Schema<"social", "WebPushNotification"> = body) =>
      t.api(token).social.POST("/web-notifications/push-notification", { body: b });
    expect((await post(u.token)).response.status).toBe(403);
    expect((await post(null)).response.status).toBe(401);
    expect((await post(admin.token)).response.status).toBe(200);
    expect((await post(admin.token, { ...body, userUuids: [] })).response.status).toBe(400);
    expect((await post(admin.token, { ...body, userUuids: ["x"] })).response.status).toBe(400);
    // Without a body: only an untyped request can leave it out.
    const noBody = { token: admin.token, body: { userUuids: [u.user.uuid], title: "t" } };
    expect((await t.request("POST", `${S}/web-notifications/push-notification`, noBody)).status).toBe(400);
  });
});

describe("DJ fans in their browsers", () => {
  it("a fan's subscribed browser hears that the DJ started playing", async () => {
    const dj = await t.createUser({ nickname: "DJ Web" });
    const fan = await t.createUser();
    ok(await t.api(fan.token).social.POST("/dj-fans", { body: { djUuid: dj.user.uuid } }));
    const browser = await subscribe(fan);
    const call = async () =>
      t.api(await t.serviceToken()).social.POST("/notifications/dj-fans", { body: { djUuid: dj.user.uuid } });
    expect((await call()).data).toMatchObject({ notified: true, webSubscriptions: 1, sent: 1 });
    const [body] = arrivedAt(browser.endpoint);
    expect(JSON.parse(browser.decrypt(body ?? Buffer.alloc(0)))).toMatchObject({
      title: "DJ Web is playing",
      data: { type: "djPlaying", djUuid: dj.user.uuid },
    });
    expect((await call()).data).toMatchObject({ notified: false, reason: FANS_RECENTLY_NOTIFIED });
    expect(arrivedAt(browser.endpoint)).toHaveLength(1);
  });
});
