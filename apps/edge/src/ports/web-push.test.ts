import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import webpush from "web-push";
import { localPushService, testSubscriber, verifyVapid } from "../testing/web-push.ts";
import { loadVapidKeys, validSubscriptionKeys, webPushSender } from "./web-push.ts";

let service: Awaited<ReturnType<typeof localPushService>>;
beforeAll(async () => {
  service = await localPushService();
});
afterAll(() => service.close());

const vapid = webpush.generateVAPIDKeys();
const sender = () =>
  webPushSender({ vapid, subject: "mailto:ops@booth.example", extraHosts: ["127.0.0.1"], ttlSeconds: 3600 });

describe("Web Push sender", () => {
  it("delivers an aes128gcm payload that only the subscriber's keys decrypt, signed with VAPID", async () => {
    const browser = testSubscriber();
    const endpoint = service.endpoint();
    const result = await sender().send(
      { endpoint, p256dh: browser.p256dh, auth: browser.auth },
      { title: "DJ Ada is playing", body: "Come listen in Rooftop", data: { roomUuid: "r1" } },
    );
    expect(result).toEqual({ status: "sent" });
    const message = service.received.at(-1);
    expect(message?.path).toBe(new URL(endpoint).pathname);
    expect(message?.headers["content-encoding"]).toBe("aes128gcm");
    expect(message?.headers.ttl).toBe("3600");
    expect(message?.headers.urgency).toBe("high");
    expect(message?.body.includes(Buffer.from("DJ Ada"))).toBe(false);
    expect(JSON.parse(browser.decrypt(message?.body ?? Buffer.alloc(0)))).toEqual({
      title: "DJ Ada is playing",
      body: "Come listen in Rooftop",
      data: { roomUuid: "r1" },
      silent: false,
    });
    const { claims, publicKey } = await verifyVapid(message?.headers.authorization, service.origin);
    expect(publicKey).toBe(vapid.publicKey);
    expect(claims.sub).toBe("mailto:ops@booth.example");
    // Another browser's keys cannot read it.
    expect(() => testSubscriber().decrypt(message?.body ?? Buffer.alloc(0))).toThrow();
  });

  it("reports a subscription the push service no longer knows (404, 410) as invalid, other refusals as failed", async () => {
    const browser = testSubscriber();
    const keys = { p256dh: browser.p256dh, auth: browser.auth };
    const goneEndpoint = service.endpoint();
    service.gone.add(new URL(goneEndpoint).pathname);
    expect((await sender().send({ endpoint: goneEndpoint, ...keys }, { title: "t", body: "b" })).status).toBe(
      "invalid",
    );
    expect(
      (await sender().send({ endpoint: `${service.origin}/missing/x`, ...keys }, { title: "t", body: "b" })).status,
    ).toBe("invalid");
    const down = await sender()
      .send({ endpoint: "http://127.0.0.1:9/push/x", ...keys }, { title: "t", body: "b" })
      .catch((err: Error) => err);
    expect(down).toBeInstanceOf(Error);
  });

  it("talks only to browsers' push services, and to plain http only on hosts configured for it", () => {
    const s = sender();
    expect(s.check("https://fcm.googleapis.com/fcm/send/abc:def")).toBeNull();
    expect(s.check("https://updates.push.services.mozilla.com/wpush/v2/gAAA")).toBeNull();
    expect(s.check("https://web.push.apple.com/QGuQ")).toBeNull();
    expect(s.check("https://db5p.notify.windows.com/w/?token=x")).toBeNull();
    expect(s.check(`${service.origin}/push/1`)).toBeNull();
    expect(s.check("http://fcm.googleapis.com/fcm/send/abc")).toBe("The subscription endpoint must be an https URL.");
    expect(s.check("https://169.254.169.254/latest")).toBe("Push service 169.254.169.254 is not supported.");
    expect(s.check("https://evil.example/push.apple.com")).toBe("Push service evil.example is not supported.");
    expect(s.check("https://user:pw@fcm.googleapis.com/x")).toBe(
      "The subscription endpoint must not carry credentials.",
    );
    expect(s.check("not a url")).toBe("The subscription endpoint is not a URL.");
    const strict = webPushSender({ vapid, subject: "mailto:ops@booth.example" });
    expect(strict.check(`${service.origin}/push/1`)).toBe("The subscription endpoint must be an https URL.");
  });

  it("accepts only real P-256 subscription keys", async () => {
    const browser = testSubscriber();
    expect(await validSubscriptionKeys(browser.p256dh, browser.auth)).toBe(true);
    expect(await validSubscriptionKeys(browser.p256dh.slice(0, -4), browser.auth)).toBe(false);
    expect(await validSubscriptionKeys(browser.p256dh, "c2hvcnQ")).toBe(false);
    const offCurve = Buffer.alloc(65, 7);
    offCurve[0] = 4;
    expect(await validSubscriptionKeys(offCurve.toString("base64url"), browser.auth)).toBe(false);
    expect(await validSubscriptionKeys("not base64!", browser.auth)).toBe(false);
  });
});

describe("VAPID keys", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "booth-vapid-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("are generated once and kept in DATA_DIR, readable by the owner only", async () => {
    const first = await loadVapidKeys({ dataDir: dir });
    const again = await loadVapidKeys({ dataDir: dir });
    expect(again).toEqual(first);
    expect(Buffer.from(first.publicKey, "base64url")).toHaveLength(65);
    const file = join(dir, "web-push-vapid.json");
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual(first);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("come from the environment when set, both halves together", async () => {
    expect(await loadVapidKeys({ ...vapid, dataDir: dir })).toEqual(vapid);
    await expect(loadVapidKeys({ publicKey: vapid.publicKey, dataDir: dir })).rejects.toThrow(
      "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together",
    );
  });
});
