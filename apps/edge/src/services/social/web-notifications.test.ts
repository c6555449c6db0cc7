import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localPushService, testSubscriber, verifyVapid } from "../../testing/web-push.ts";
import { createTestApp, type TestApp } from "../../testing.ts";
import { FANS_RECENTLY_NOTIFIED } from "./notifications.ts";
import { BAD_SUBSCRIPTION_KEYS, MAX_SUBSCRIPTIONS_PER_USER } from "./web-subscriptions.ts";

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
type User = Awaited<ReturnType<TestApp["createUser"]>>;

/** A browser of `u` subscribed to the local push service; answers its keys to read what arrives. */
async function subscribe(u: User, endpoint = pushService.endpoint()) {
  const browser = testSubscriber();
  const res = await t.request("POST", `${S}/web-notifications/subscription`, {
    token: u.token,
    body: { endpoint, expirationTime: null, keys: { p256dh: browser.p256dh, auth: browser.auth } },
  });
  expect(res.status).toBe(201);
  return { ...browser, endpoint, id: res.body.id as string };
}
const arrivedAt = (endpoint: string) =>
  pushService.received.filter((m) => m.path === new URL(endpoint).pathname).map((m) => m.body);
const subscriptionsOf = (u: User) =>
  t.db.select().from(schema.webPushSubscriptions).where(eq(schema.webPushSubscriptions.userUuid, u.user.uuid));

describe("web push", () => {
  it("publishes the VAPID public key browsers subscribe with", async () => {
    const res = await t.request("GET", `${S}/web-notifications/public-key`);
    expect(res.status).toBe(200);
    expect(res.body.publicKey).toBe(t.deps.push.web.publicKey);
    expect(Buffer.from(res.body.publicKey, "base64url")).toHaveLength(65);
  });

  it("delivers to a subscribed browser a payload only it can decrypt, signed with the published key", async () => {
    const u = await t.createUser();
    const browser = await subscribe(u);
    const res = await t.request("POST", `${S}/web-notifications/push-notification`, {
      token: await t.serviceToken(),
      body: { userUuids: [u.user.uuid], title: "New follower", body: "Ada follows you", data: { url: "/profile" } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ users: 1, devices: 0, webSubscriptions: 1, sent: 1, queued: 0, failed: 0, removed: 0 });
    const [body] = arrivedAt(browser.endpoint);
    expect(JSON.parse(browser.decrypt(body ?? Buffer.alloc(0)))).toEqual({
      title: "New follower",
      body: "Ada follows you",
      data: { url: "/profile" },
      silent: false,
    });
    const message = pushService.received.find((m) => m.path === new URL(browser.endpoint).pathname);
    const { publicKey } = await verifyVapid(message?.headers.authorization, pushService.origin);
    expect(publicKey).toBe((await t.request("GET", `${S}/web-notifications/public-key`)).body.publicKey);
    const [kept] = await t.db
      .select()
      .from(schema.pushMessages)
      .where(eq(schema.pushMessages.target, browser.endpoint));
    expect(kept).toMatchObject({ channel: "web", status: "sent", title: "New follower" });
  });

  it("forgets a subscription the push service says is gone (410, 404)", async () => {
    const u = await t.createUser();
    const gone = await subscribe(u);
    pushService.gone.add(new URL(gone.endpoint).pathname);
    const missing = await subscribe(u, `${pushService.origin}/missing/${crypto.randomUUID()}`);
    const alive = await subscribe(u);
    const send = async () =>
      t.request("POST", `${S}/web-notifications/push-notification`, {
        token: await t.serviceToken(),
        body: { userUuids: [u.user.uuid], title: "t", body: "b" },
      });
    expect((await send()).body).toMatchObject({ webSubscriptions: 3, sent: 1, failed: 2, removed: 2 });
    expect((await subscriptionsOf(u)).map((s) => s.endpoint)).toEqual([alive.endpoint]);
    expect((await send()).body).toMatchObject({ webSubscriptions: 1, sent: 1, removed: 0 });
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
    const post = (body: unknown, token: string | null = u.token) =>
      t.request("POST", `${S}/web-notifications/subscription`, { token, body });
    const internal = await post({ endpoint: "https://10.0.0.5/admin", keys });
    expect(internal.status).toBe(400);
    expect(internal.body.message).toEqual(["endpoint: Push service 10.0.0.5 is not supported."]);
    expect((await post({ endpoint: "http://fcm.googleapis.com/fcm/send/x", keys })).status).toBe(400);
    const badKeys = await post({ endpoint: pushService.endpoint(), keys: { p256dh: "AAAA", auth: browser.auth } });
    expect(badKeys.status).toBe(400);
    expect(badKeys.body.message).toEqual([`keys: ${BAD_SUBSCRIPTION_KEYS}`]);
    expect((await post({ endpoint: pushService.endpoint() })).status).toBe(400);
    expect((await post({ endpoint: pushService.endpoint(), keys }, null)).status).toBe(401);
    expect((await post({ endpoint: pushService.endpoint(), keys }, await t.serviceToken())).status).toBe(401);
    expect(await subscriptionsOf(u)).toEqual([]);
    // A real browser endpoint is accepted as is.
    expect((await post({ endpoint: "https://fcm.googleapis.com/fcm/send/abc:APA91b", keys })).status).toBe(201);
  });

  it("sends only for services and admins, and refuses bad input", async () => {
    const [u, admin] = [await t.createUser(), await t.createUser({ roles: ["user", "admin"] })];
    const body = { userUuids: [u.user.uuid], title: "t", body: "b" };
    const post = (token: string | null, b: unknown = body) =>
      t.request("POST", `${S}/web-notifications/push-notification`, { token, body: b });
    expect((await post(u.token)).status).toBe(403);
    expect((await post(null)).status).toBe(401);
    expect((await post(admin.token)).status).toBe(200);
    expect((await post(admin.token, { ...body, userUuids: [] })).status).toBe(400);
    expect((await post(admin.token, { ...body, userUuids: ["x"] })).status).toBe(400);
    expect((await post(admin.token, { userUuids: [u.user.uuid], title: "t" })).status).toBe(400);
  });
});

describe("DJ fans in their browsers", () => {
  it("a fan's subscribed browser hears that the DJ started playing", async () => {
    const dj = await t.createUser({ nickname: "DJ Web" });
    const fan = await t.createUser();
    await t.request("POST", `${S}/dj-fans`, { token: fan.token, body: { djUuid: dj.user.uuid } });
    const browser = await subscribe(fan);
    const call = async () =>
      t.request("POST", `${S}/notifications/dj-fans`, {
        token: await t.serviceToken(),
        body: { djUuid: dj.user.uuid },
      });
    expect((await call()).body).toMatchObject({ notified: true, webSubscriptions: 1, sent: 1 });
    const [body] = arrivedAt(browser.endpoint);
    expect(JSON.parse(browser.decrypt(body ?? Buffer.alloc(0)))).toMatchObject({
      title: "DJ Web is playing",
      data: { type: "djPlaying", djUuid: dj.user.uuid },
    });
    expect((await call()).body).toMatchObject({ notified: false, reason: FANS_RECENTLY_NOTIFIED });
    expect(arrivedAt(browser.endpoint)).toHaveLength(1);
  });
});
