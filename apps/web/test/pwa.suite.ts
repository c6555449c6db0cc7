/**
 * The installable app (issue #22): the manifest and the service worker make it installable, a navigation without a
 * connection shows the offline page in the person's language, and Web Push end to end: a fan turns notifications on
 * in their settings, a DJ they follow starts playing, the edge sends a real encrypted push, the service worker shows
 * it, and opening it goes to the room; turning notifications off makes the edge forget the browser.
 *
 * Chromium here cannot reach a real push service (FCM), so its `PushManager.subscribe` could never answer. The fan's
 * browser gets an init script standing in for that one call: it answers a subscription whose endpoint is the local
 * push service the edge's tests use (apps/edge/src/testing/web-push.ts), with keys whose private half the test holds.
 * Everything else is real: the page's control, /push-subscription, the edge's validation and storage, the party
 * telling the edge the DJ started, the VAPID-signed aes128gcm request, and the service worker's handlers. The
 * decrypted payload is handed to the worker the way a push service's message is (CDP ServiceWorker.deliverPushMessage).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { schema } from "@booth/db";
import { LiveRoomClient } from "@booth/sdk/live";
import { eq } from "drizzle-orm";
import { type CDPSession, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localPushService, testSubscriber } from "../../edge/src/testing/web-push.ts";
import { CHROMIUM, eventually, expectText, hydrated, SCREENSHOTS, shot, suiteStack, until } from "./harness.ts";
import { signedUp } from "./harness-b.ts";

const stack = suiteStack({ songs: 4 });
let pushService: Awaited<ReturnType<typeof localPushService>>;
beforeAll(async () => {
  pushService = await localPushService();
}, 300_000);
afterAll(async () => {
  await pushService?.close();
}, 60_000);

/** The page's service worker registration once it is active: its scope and state. */
const activeWorker = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    // `ready` answers once a worker is active, which may still be activating.
    const worker = registration.active;
    if (worker && worker.state === "activating")
      await new Promise((resolve) => worker.addEventListener("statechange", resolve, { once: true }));
    return { scope: registration.scope, state: registration.active?.state, script: registration.active?.scriptURL };
  });

/** Width and height of a PNG, from its IHDR chunk. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

describe("installable", { timeout: 240_000 }, () => {
  it("has a valid manifest and an active service worker, with nothing in the way of installing", async () => {
    // Chromium installs nothing from an incognito profile, which every test context is: this test has a profile of
    // its own on disk, in a browser of its own.
    const profile = await mkdtemp(join(tmpdir(), "booth-pwa-profile-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
      baseURL: stack.webUrl,
    });
    const errors: string[] = [];
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
      page.on("console", (m) => m.type() === "error" && errors.push(`console: ${m.text()}`));
      await page.goto("/");
      expect(await page.locator('link[rel="manifest"]').getAttribute("href")).toBe("/manifest.webmanifest");

      const manifestAnswer = await page.request.get("/manifest.webmanifest");
      expect(manifestAnswer.headers()["content-type"]).toBe("application/manifest+json");
      const manifest = await manifestAnswer.json();
      expect(manifest).toMatchObject({ name: "Booth", start_url: "/", scope: "/", display: "standalone" });
      expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
      for (const icon of manifest.icons.filter((i: { type: string }) => i.type === "image/png")) {
        const file = await page.request.get(icon.src);
        expect(file.headers()["content-type"]).toBe("image/png");
        const { width, height } = pngSize(await file.body());
        expect(`${width}x${height}`).toBe(icon.sizes);
      }
      const sizes = manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`);
      expect(sizes).toEqual(expect.arrayContaining(["192x192 any", "512x512 any", "512x512 maskable"]));

      // The worker: served from the root (scope: the whole app), as JavaScript, checked again at every visit.
      const script = await page.request.get("/sw.js");
      expect(script.headers()["content-type"]).toMatch(/^text\/javascript/);
      expect(script.headers()["cache-control"]).toBe("no-cache");
      expect(await activeWorker(page)).toEqual({
        scope: `${stack.webUrl}/`,
        state: "activated",
        script: `${stack.webUrl}/sw.js`,
      });
      await eventually(async () => expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true));

      // What Chromium itself says: the manifest parses without errors and nothing prevents installing.
      const cdp = await context.newCDPSession(page);
      const appManifest = (await cdp.send("Page.getAppManifest")) as { url: string; errors: unknown[] };
      expect(appManifest.url).toBe(`${stack.webUrl}/manifest.webmanifest`);
      expect(appManifest.errors).toEqual([]);
      await eventually(async () => {
        const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
        expect(installabilityErrors).toEqual([]);
      }, 15_000);
    } finally {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }
    expect(errors).toEqual([]);
  });

  it("shows the offline page, in the person's language, when a page cannot load, and the page again once online", async () => {
    const { page, context, errors } = await stack.person();
    await page.goto("/");
    await hydrated(page);
    await activeWorker(page);
    await eventually(async () => expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true));

    await context.setOffline(true);
    await page.goto("/ranking");
    await expectText(page, "[data-testid=offline-page] h1", "You're offline");
    expect(await page.getAttribute("html", "lang")).toBe("en");
    expect(new URL(page.url()).pathname).toBe("/ranking");
    await shot(page, "offline"); // and offline-phone.png

    // Back online, "Try again" loads the page that failed.
    await context.setOffline(false);
    await Promise.all([page.waitForLoadState("load"), page.click("text=Try again")]);
    await page.waitForSelector("[data-testid=offline-page]", { state: "detached" });
    expect(new URL(page.url()).pathname).toBe("/ranking");

    // Someone who chose Spanish gets it in Spanish.
    await page.goto("/?lang=es");
    // The Spanish texts are a chunk of their own, fetched once the page runs: offline before it arrives, the page
    // would hydrate in English over the server's Spanish.
    await hydrated(page);
    await context.setOffline(true);
    await page.goto("/shop");
    await expectText(page, "[data-testid=offline-page] h1", "Sin conexión");
    expect(await page.getAttribute("html", "lang")).toBe("es");
    await context.setOffline(false);

    // The page itself: a whole document without scripts, under a policy that lets nothing else load; asking for a
    // language does not change the one the person chose.
    const offline = await page.request.get("/offline?lang=en");
    expect(offline.headers()["content-security-policy"]).toMatch(/^default-src 'none'; style-src 'sha256-[^']+';/);
    expect(offline.headers()["set-cookie"]).toBeUndefined();
    const html = await offline.text();
    expect(html).toMatch(/^<!doctype html><html lang="en">/);
    expect(html).not.toContain("<script");
    // Offline, the browser reports what could not load (the page that failed, requests of the page left): expected.
    expect(errors.filter((e) => !e.includes("net::ERR_INTERNET_DISCONNECTED"))).toEqual([]);
  });
});

/** A subscription of the local push service, standing in for the one Chromium cannot get here (see the top). */
async function fakePushSubscription(page: Page) {
  const browser = testSubscriber();
  const endpoint = pushService.endpoint();
  await page.context().addInitScript(
    (fake: { endpoint: string; p256dh: string; auth: string }) => {
      const KEPT = "booth-test-push-subscription";
      const subscription = () => ({
        endpoint: fake.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true },
        getKey: () => null,
        toJSON: () => ({
          endpoint: fake.endpoint,
          expirationTime: null,
          keys: { p256dh: fake.p256dh, auth: fake.auth },
        }),
        unsubscribe: async () => {
          localStorage.removeItem(KEPT);
          return true;
        },
      });
      PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
        const key = options?.applicationServerKey;
        localStorage.setItem(KEPT, JSON.stringify({ applicationServerKey: typeof key === "string" ? key : null }));
        return subscription() as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () =>
        (localStorage.getItem(KEPT) ? subscription() : null) as unknown as PushSubscription | null;
    },
    { endpoint, p256dh: browser.p256dh, auth: browser.auth },
  );
  return { ...browser, endpoint };
}

/** The id Chromium gives the page's service worker registration (for ServiceWorker.deliverPushMessage). */
/**
 * Presses the notifications control on /profile/edit, which subscribes (POST) or unsubscribes (DELETE) this browser
 * through the web: what the web answered.
 */
async function pressPushToggle(page: Page, method: "POST" | "DELETE") {
  const answered = page.waitForResponse(
    (r) => r.request().method() === method && r.url().endsWith("/push-subscription"),
  );
  await page.click("[data-testid=push-toggle]");
  return (await answered).status();
}

async function registrationIdOf(cdp: CDPSession, scope: string) {
  const seen: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on("ServiceWorker.workerRegistrationUpdated", (event) => seen.push(...event.registrations));
  await cdp.send("ServiceWorker.enable");
  const found = await until(() => seen.find((r) => r.scopeURL === scope && !r.isDeleted), "the registration", 10_000);
  return found!.registrationId;
}

const notificationsOf = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      icon: n.icon,
      data: n.data as unknown,
    }));
  });

async function controlShot(page: Page, name: string) {
  await page.locator("[data-testid=push-opt-in]").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

describe("notifications", { timeout: 240_000 }, () => {
  it("a fan who turns them on hears of a followed DJ starting to play, opens the room, and turns them off", async () => {
    const dj = await stack.t.createUser({ nickname: "DJ Nova" });
    const room = await stack.t.request("POST", "/api/room-service/rooms/infrastructure", {
      token: dj.token,
      body: { type: "PUBLIC", name: "Night Shift" },
    });
    expect(room.status).toBe(201);
    const [song] = await stack.t.db.select().from(schema.songs).limit(1);
    await stack.t.request("POST", "/api/playlist-service/crate/special/queue/songs", {
      token: dj.token,
      body: { songIds: [song!.id] },
    });

    const fan = await signedUp(stack, "Night Owl");
    const followed = await stack.t.request("POST", "/api/social-service/dj-fans", {
      token: await stack.t.tokenFor(fan.uuid),
      body: { djUuid: dj.user.uuid },
    });
    expect(followed.status).toBe(201);
    await fan.context.grantPermissions(["notifications"]);
    const browser = await fakePushSubscription(fan.page);

    // The control on the person's settings page: off, then on.
    await fan.page.goto("/profile/edit");
    await expectText(fan.page, "[data-testid=push-status]", "Notifications are off in this browser.");
    expect(await pressPushToggle(fan.page, "POST")).toBe(201);
    await expectText(fan.page, "[data-testid=push-status]", "Notifications are on in this browser.");
    await expectText(fan.page, "[data-testid=push-toggle]", "Turn off notifications");
    // It subscribed with the edge's VAPID key, and the edge holds this browser for the fan.
    const asked = await fan.page.evaluate(() => localStorage.getItem("booth-test-push-subscription"));
    expect(JSON.parse(asked ?? "{}")).toEqual({ applicationServerKey: stack.t.deps.push.web.publicKey });
    const held = () =>
      stack.t.db.select().from(schema.webPushSubscriptions).where(eq(schema.webPushSubscriptions.userUuid, fan.uuid));
    expect((await held()).map((s) => [s.endpoint, s.p256dh, s.auth])).toEqual([
      [browser.endpoint, browser.p256dh, browser.auth],
    ]);
    await controlShot(fan.page, "push-optin");
    await fan.page.setViewportSize({ width: 390, height: 844 });
    await controlShot(fan.page, "push-optin-phone");
    await fan.page.setViewportSize({ width: 1280, height: 860 });

    // The DJ takes a seat and starts playing: the party tells the edge, the edge pushes to the fan's browser.
    const client = new LiveRoomClient({ url: stack.partyUrl, roomUuid: room.body.uuid, token: dj.token });
    await client.connect();
    await client.addDj();
    const path = new URL(browser.endpoint).pathname;
    const message = await until(
      () => pushService.received.find((m) => m.path === path),
      "the push to the fan's browser",
      20_000,
    );
    expect(message!.headers["content-encoding"]).toBe("aes128gcm");
    const payload = browser.decrypt(message!.body);
    expect(JSON.parse(payload)).toMatchObject({
      title: "DJ Nova is playing",
      data: { type: "djPlaying", roomSlug: "night-shift" },
    });

    // The push reaches the service worker as a push service would deliver it; the worker shows the notification.
    const cdp = await fan.context.newCDPSession(fan.page);
    const registrationId = await registrationIdOf(cdp, `${stack.webUrl}/`);
    await cdp.send("ServiceWorker.deliverPushMessage", { origin: stack.webUrl, registrationId, data: payload });
    let shown: Awaited<ReturnType<typeof notificationsOf>> = [];
    await eventually(async () => {
      shown = await notificationsOf(fan.page);
      expect(shown).toHaveLength(1);
    });
    expect(shown[0]).toEqual({
      title: "DJ Nova is playing",
      body: "DJ Nova is on the decks in Night Shift. Come and listen!",
      icon: `${stack.webUrl}/icons/icon-192.png`,
      data: { path: "/rooms/night-shift" },
    });

    // Opening it (the worker's notificationclick, as a click would fire it) takes the fan's window to the room.
    const worker = fan.context.serviceWorkers().find((w) => w.url() === `${stack.webUrl}/sw.js`);
    expect(worker).toBeTruthy();
    await Promise.all([
      fan.page.waitForURL(`${stack.webUrl}/rooms/night-shift`),
      worker!.evaluate(async () => {
        const scope = self as unknown as {
          registration: { getNotifications(): Promise<Notification[]> };
          NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
        };
        const [notification] = await scope.registration.getNotifications();
        if (!notification) throw new Error("no notification to open");
        const event = new scope.NotificationEvent("notificationclick", { notification });
        // Only a browser's own (trusted) event may extend its lifetime; this one hands its promise back instead.
        let opened: Promise<unknown> = Promise.resolve();
        Object.defineProperty(event, "waitUntil", { value: (p: Promise<unknown>) => (opened = p) });
        self.dispatchEvent(event);
        await opened;
      }),
    ]);
    await expectText(fan.page, "[data-testid=track-name]", song!.trackName, 20_000);
    await eventually(async () => expect(await notificationsOf(fan.page)).toEqual([]));

    // Turning notifications off: the browser unsubscribes and the edge no longer holds it.
    await fan.page.goto("/profile/edit");
    await expectText(fan.page, "[data-testid=push-status]", "Notifications are on in this browser.");
    expect(await pressPushToggle(fan.page, "DELETE")).toBe(204);
    await expectText(fan.page, "[data-testid=push-status]", "Notifications are off in this browser.");
    expect(await held()).toEqual([]);
    expect(await fan.page.evaluate(() => localStorage.getItem("booth-test-push-subscription"))).toBeNull();
    client.close();
    expect(fan.errors).toEqual([]);
  });

  it("passes on only a signed-in person's JSON subscription, and the edge's refusals", async () => {
    const visitor = await stack.person();
    await visitor.page.goto("/");
    const keys = testSubscriber();
    const subscription = { endpoint: pushService.endpoint(), keys: { p256dh: keys.p256dh, auth: keys.auth } };
    const anonymous = await visitor.page.request.post("/push-subscription", { data: subscription });
    expect(anonymous.status()).toBe(401);
    expect(await anonymous.json()).toEqual({ message: "Sign in to get notifications." });
    expect((await visitor.page.request.get("/push-subscription")).status()).toBe(200);

    const person = await signedUp(stack, "Careful Tester");
    const post = (data: unknown, headers?: Record<string, string>) =>
      person.page.request.post("/push-subscription", { data: data as string, ...(headers ? { headers } : {}) });
    const form = await post("endpoint=x", { "content-type": "application/x-www-form-urlencoded" });
    expect(form.status()).toBe(415);
    const elsewhere = await post({ ...subscription, endpoint: "https://10.0.0.5/admin" });
    expect(elsewhere.status()).toBe(400);
    expect(await elsewhere.json()).toEqual({ message: "Endpoint: Push service 10.0.0.5 is not supported." });
    const notTheirs = await person.page.request.delete("/push-subscription", {
      data: { endpoint: pushService.endpoint() },
    });
    expect(notTheirs.status()).toBe(404);
    const noEndpoint = await person.page.request.delete("/push-subscription", { data: {} });
    expect(noEndpoint.status()).toBe(400);
    expect(await noEndpoint.json()).toEqual({ message: "endpoint: Required" });
    expect((await person.page.request.put("/push-subscription", { data: subscription })).status()).toBe(405);
    const held = await stack.t.db
      .select()
      .from(schema.webPushSubscriptions)
      .where(eq(schema.webPushSubscriptions.userUuid, person.uuid));
    expect(held).toEqual([]);
  });
});
