import { createServer as createHttp } from "node:http";
import { createServer as createHttp2, type ServerHttp2Stream } from "node:http2";
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import webpush from "web-push";
import { createPush } from "../../ports/push.ts";
import { apnsPush } from "../../ports/push-apns.ts";
import { fcmPush } from "../../ports/push-fcm.ts";
import { webPushSender } from "../../ports/web-push.ts";
import { pemKeyPair } from "../../testing/keys.ts";
import { listenLocally, requestText } from "../../testing/local-server.ts";
import { createTestApp, type TestApp } from "../../testing.ts";

// The routes with real FCM and APNs adapters, against local fakes that call some tokens gone.
const fcmSent: string[] = [];
const apnsSent: string[] = [];
const fcm = createHttp(async (req, res) => {
  const body = await requestText(req);
  res.setHeader("content-type", "application/json");
  if (req.url === "/token") return res.end(JSON.stringify({ access_token: "ya29.fake", expires_in: 3600 }));
  const token = (JSON.parse(body) as { message: { token: string } }).message.token;
  if (token.startsWith("gone")) {
    res.statusCode = 404;
    return res.end(
      JSON.stringify({
        error: { code: 404, status: "NOT_FOUND", details: [{ errorCode: "UNREGISTERED" }] },
      }),
    );
  }
  if (token.startsWith("busy")) {
    res.statusCode = 503;
    return res.end(JSON.stringify({ error: { code: 503, status: "UNAVAILABLE" } }));
  }
  fcmSent.push(token);
  res.end(JSON.stringify({ name: "projects/p/messages/1" }));
});
const apns = createHttp2();
apns.on("stream", (stream: ServerHttp2Stream, headers) => {
  stream.resume();
  stream.on("end", () => {
    const token = String(headers[":path"]).split("/").pop() ?? "";
    if (token.startsWith("gone")) {
      stream.respond({ ":status": 410 });
      return stream.end(JSON.stringify({ reason: "Unregistered", timestamp: Date.now() }));
    }
    apnsSent.push(token);
    stream.respond({ ":status": 200 });
    stream.end();
  });
});

let t: TestApp;
let closePush: () => Promise<void>;
beforeAll(async () => {
  const [fcmUrl, apnsUrl] = [await listenLocally(fcm), await listenLocally(apns)];
  const rsa = await pemKeyPair("RS256");
  const ec = await pemKeyPair("ES256");
  t = await createTestApp();
  const push = createPush(t.db, {
    fcm: fcmPush({
      serviceAccount: { project_id: "p", client_email: "e@p.iam", private_key: rsa.privatePem },
      baseUrl: fcmUrl,
      tokenUrl: `${fcmUrl}/token`,
    }),
    apns: apnsPush({
      key: ec.privatePem,
      keyId: "K",
      teamId: "T",
      topic: "fm.booth",
      baseUrl: apnsUrl,
    }),
    web: webPushSender({ vapid: webpush.generateVAPIDKeys(), subject: "mailto:t@booth.local" }),
  });
  t.deps.push = push;
  closePush = () => push.close();
});
afterAll(async () => {
  await closePush();
  await t.close();
  await Promise.all([fcm, apns].map((s) => new Promise((r) => s.close(r))));
});

describe("notifications through FCM and APNs", () => {
  it("sends Android and web devices through FCM, iOS through APNs, and forgets tokens the provider calls gone", async () => {
    const u = await t.createUser();
    const register = (token: string, platform: "android" | "ios" | "web") =>
      t.api(u.token).social.POST("/devices", { body: { token, deviceId: token, platform } });
    for (const [token, platform] of [
      ["pixel-1", "android"],
      ["browser-1", "web"],
      ["iphone-1", "ios"],
      ["gone-android", "android"],
      ["gone-iphone", "ios"],
      ["busy-android", "android"],
    ] as const)
      expect((await register(token, platform)).response.status).toBe(201);
    expect(t.deps.push.kind).toBe("fcm+apns");

    const res = await t.api(await t.serviceToken()).social.POST("/mobileNotification/user", {
      body: { userUuid: u.user.uuid, title: "Hello", body: "World" },
    });
    expect(res.response.status).toBe(200);
    expect(res.data).toEqual({ users: 1, devices: 6, webSubscriptions: 0, sent: 3, queued: 0, failed: 3, removed: 2 });
    expect(fcmSent.sort()).toEqual(["browser-1", "pixel-1"]);
    expect(apnsSent).toEqual(["iphone-1"]);
    const left = await t.db.select().from(schema.devices).where(eq(schema.devices.userUuid, u.user.uuid));
    expect(left.map((d) => d.token).sort()).toEqual(["browser-1", "busy-android", "iphone-1", "pixel-1"]);
    const log = await t.db.select().from(schema.pushMessages).where(eq(schema.pushMessages.userUuid, u.user.uuid));
    expect(
      log
        .filter((m) => m.status === "sent")
        .map((m) => m.channel)
        .sort(),
    ).toEqual(["apns", "fcm", "fcm"]);
    expect(log.find((m) => m.target === "busy-android")).toMatchObject({ status: "failed", channel: "fcm" });
    expect(log.find((m) => m.target === "gone-iphone")?.error).toBe("APNs answered 410 Unregistered");
  });
});
