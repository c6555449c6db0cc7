import { createServer, type Http2Server, type ServerHttp2Stream } from "node:http2";
import { type CryptoKey, decodeProtectedHeader, jwtVerify } from "jose";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pemKeyPair } from "../testing/keys.ts";
import { listenForTests, requestText } from "../testing/local-server.ts";
import { apnsPush } from "./push-apns.ts";

// A fake APNs: HTTP/2 without TLS (prior knowledge), checking the provider token like Apple does.
let publicKey: CryptoKey;
let privatePem = "";
let baseUrl = "";
const received: { path: string; headers: Record<string, string>; body: Record<string, unknown>; kid: string }[] = [];
let answers: { status: number; reason?: string }[] = [];
let sessions = 0;
let revoked: string[] = [];

const server: Http2Server = createServer();
server.on("session", () => {
  sessions++;
});
server.on("stream", async (stream: ServerHttp2Stream, headers) => {
  const body = await requestText(stream);
  const answer = (status: number, reason?: string) => {
    stream.respond({ ":status": status, "apns-id": crypto.randomUUID() });
    stream.end(reason ? JSON.stringify({ reason }) : undefined);
  };
  const jwt = String(headers.authorization ?? "").replace(/^bearer /, "");
  try {
    const { payload } = await jwtVerify(jwt, publicKey, { algorithms: ["ES256"], issuer: "TEAM123456" });
    if (!payload.iat) return answer(403, "MissingProviderToken");
  } catch {
    return answer(403, "InvalidProviderToken");
  }
  if (revoked.includes(jwt)) return answer(403, "ExpiredProviderToken");
  received.push({
    path: String(headers[":path"]),
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])),
    body: JSON.parse(body) as Record<string, unknown>,
    kid: String(decodeProtectedHeader(jwt).kid),
  });
  const next = answers.shift() ?? { status: 200 };
  answer(next.status, next.reason);
});

listenForTests(server, (url) => (baseUrl = url));
beforeAll(async () => ({ publicKey, privatePem } = await pemKeyPair("ES256")));
beforeEach(() => {
  received.length = 0;
  answers = [];
});

const apns = (options: { now?: () => number; url?: string } = {}) =>
  apnsPush({
    key: privatePem,
    keyId: "KEY1234567",
    teamId: "TEAM123456",
    topic: "fm.booth.app",
    baseUrl: options.url ?? baseUrl,
    timeoutMs: 2000,
    ...(options.now ? { now: options.now } : {}),
  });

describe("APNs HTTP/2 adapter", () => {
  it("sends alerts over one HTTP/2 connection with an ES256 provider token", async () => {
    const push = apns();
    const before = sessions;
    expect(
      await push.send("a1b2c3", { title: "DJ Ada is playing", body: "Come listen", data: { roomUuid: "r1" } }),
    ).toEqual({ status: "sent" });
    expect(await push.send("d4e5f6", { title: "t", body: "b" })).toEqual({ status: "sent" });
    expect(sessions - before).toBe(1);
    const [first] = received;
    expect(first?.path).toBe("/3/device/a1b2c3");
    expect(first?.kid).toBe("KEY1234567");
    expect(first?.headers).toMatchObject({
      "apns-topic": "fm.booth.app",
      "apns-push-type": "alert",
      "apns-priority": "10",
    });
    expect(first?.body).toEqual({
      roomUuid: "r1",
      aps: { alert: { title: "DJ Ada is playing", body: "Come listen" }, sound: "default" },
    });
    await push.close();
  });

  it("sends silent notifications as background pushes", async () => {
    const push = apns();
    await push.send("a1", { silent: true, data: { sync: "crates" } });
    expect(received[0]?.headers).toMatchObject({ "apns-push-type": "background", "apns-priority": "5" });
    expect(received[0]?.body).toEqual({ sync: "crates", aps: { "content-available": 1 } });
    await push.close();
  });

  it("reuses the provider token for 50 minutes, and signs a new one when Apple calls it expired", async () => {
    let clock = Date.now();
    const push = apns({ now: () => clock });
    await push.send("a", { title: "t", body: "b" });
    clock += 40 * 60 * 1000;
    await push.send("a", { title: "t", body: "b" });
    const [one, two] = received.map((r) => r.headers.authorization);
    expect(two).toBe(one);
    clock += 15 * 60 * 1000;
    await push.send("a", { title: "t", body: "b" });
    const three = received[2]?.headers.authorization;
    expect(three).not.toBe(one);
    revoked = [String(three).replace(/^bearer /, "")];
    clock += 1000;
    expect(await push.send("a", { title: "t", body: "b" })).toEqual({ status: "sent" });
    revoked = [];
    await push.close();
  });

  it("reports tokens Apple rejects for good as invalid, and other refusals as failed", async () => {
    const push = apns();
    answers = [
      { status: 400, reason: "BadDeviceToken" },
      { status: 410, reason: "Unregistered" },
      { status: 400, reason: "DeviceTokenNotForTopic" },
      { status: 429, reason: "TooManyRequests" },
      { status: 500, reason: "InternalServerError" },
    ];
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await push.send(`t${i}`, { title: "t", body: "b" }));
    expect(results.map((r) => r.status)).toEqual(["invalid", "invalid", "invalid", "failed", "failed"]);
    expect(results[3]?.error).toBe("APNs answered 429 TooManyRequests");
    await push.close();
  });

  it("reconnects after the connection is closed, and fails cleanly when nothing listens", async () => {
    const push = apns();
    await push.send("a", { title: "t", body: "b" });
    await push.close();
    expect(await push.send("a", { title: "t", body: "b" })).toEqual({ status: "sent" });
    await push.close();
    const nowhere = apns({ url: "http://127.0.0.1:9" });
    await expect(nowhere.send("a", { title: "t", body: "b" })).rejects.toThrow(/APNs/);
    await nowhere.close();
  });
});
