import { createServer, type ServerResponse } from "node:http";
import { type CryptoKey, jwtVerify } from "jose";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pemKeyPair } from "../testing/keys.ts";
import { listenForTests, requestText } from "../testing/local-server.ts";
import { fcmPush, parseServiceAccount } from "./push-fcm.ts";

// A fake of Google's token endpoint and of FCM's messages:send, on one local port.
let publicKey: CryptoKey;
let privatePem = "";
let baseUrl = "";
let exchanges = 0;
let issued: string[] = [];
const sends: { auth: string; path: string; message: Record<string, unknown> }[] = [];
/** What the send endpoint answers next (default 200); consumed in order. */
let answers: { status: number; body: unknown }[] = [];

const reply = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

const server = createServer(async (req, res) => {
  const body = await requestText(req);
  if (req.url === "/token") {
    const form = new URLSearchParams(body);
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer")
      return reply(res, 400, { error: "unsupported_grant_type" });
    try {
      const { payload, protectedHeader } = await jwtVerify(form.get("assertion") ?? "", publicKey, {
        audience: `${baseUrl}/token`,
        issuer: "booth@project.iam.gserviceaccount.com",
      });
      if (payload.scope !== "https://www.googleapis.com/auth/firebase.messaging" || protectedHeader.kid !== "key-1")
        return reply(res, 400, { error: "invalid_scope" });
    } catch {
      return reply(res, 400, { error: "invalid_grant", error_description: "Invalid JWT Signature." });
    }
    exchanges++;
    const token = `ya29.token-${exchanges}`;
    issued.push(token);
    return reply(res, 200, { access_token: token, expires_in: 3599, token_type: "Bearer" });
  }
  const auth = req.headers.authorization ?? "";
  if (!issued.includes(auth.replace(/^Bearer /, "")))
    return reply(res, 401, { error: { code: 401, status: "UNAUTHENTICATED" } });
  sends.push({
    auth,
    path: req.url ?? "",
    message: (JSON.parse(body) as { message: Record<string, unknown> }).message,
  });
  const next = answers.shift() ?? { status: 200, body: { name: "projects/booth-app/messages/1" } };
  reply(res, next.status, next.body);
});

listenForTests(server, (url) => (baseUrl = url));
beforeAll(async () => ({ publicKey, privatePem } = await pemKeyPair("RS256")));
beforeEach(() => {
  sends.length = 0;
  answers = [];
});

const account = () => ({
  project_id: "booth-app",
  client_email: "booth@project.iam.gserviceaccount.com",
  private_key: privatePem,
  private_key_id: "key-1",
  token_uri: "https://oauth2.googleapis.com/token",
});
const fcm = (now?: () => number) =>
  fcmPush({ serviceAccount: account(), baseUrl, tokenUrl: `${baseUrl}/token`, ...(now ? { now } : {}) });

const fcmError = (code: number, status: string, errorCode: string, message: string) => ({
  status: code,
  body: {
    error: {
      code,
      message,
      status,
      details: [{ "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", errorCode }],
    },
  },
});

describe("FCM HTTP v1 adapter", () => {
  it("signs a service-account JWT, exchanges it once and sends notifications with the access token", async () => {
    const before = exchanges;
    const push = fcm();
    expect(
      await push.send("device-a", { title: "DJ Ada is playing", body: "Come listen", data: { roomUuid: "r1" } }),
    ).toEqual({ status: "sent" });
    expect(await push.send("device-b", { title: "t", body: "b" })).toEqual({ status: "sent" });
    expect(exchanges - before).toBe(1);
    const [first, second] = sends;
    expect(first?.path).toBe("/v1/projects/booth-app/messages:send");
    expect(first?.auth).toBe(second?.auth);
    expect(first?.message).toMatchObject({
      token: "device-a",
      notification: { title: "DJ Ada is playing", body: "Come listen" },
      data: { roomUuid: "r1" },
      android: { priority: "high" },
    });
  });

  it("sends silent messages as data only, background for iOS", async () => {
    await fcm().send("device-c", { silent: true, data: { sync: "crates" } });
    expect(sends[0]?.message.notification).toBeUndefined();
    expect(sends[0]?.message).toMatchObject({
      data: { sync: "crates" },
      apns: { headers: { "apns-push-type": "background" }, payload: { aps: { "content-available": 1 } } },
    });
  });

  it("renews the access token when it is about to expire", async () => {
    // The fake checks the assertion's expiry against the real time: start almost an hour back.
    let clock = Date.now() - 3500 * 1000;
    const push = fcm(() => clock);
    const before = exchanges;
    await push.send("d", { title: "t", body: "b" });
    clock += 3000 * 1000;
    await push.send("d", { title: "t", body: "b" });
    expect(exchanges - before).toBe(1);
    clock += 600 * 1000;
    await push.send("d", { title: "t", body: "b" });
    expect(exchanges - before).toBe(2);
  });

  it("exchanges again and retries once when FCM refuses the access token", async () => {
    const push = fcm();
    await push.send("d", { title: "t", body: "b" });
    issued = [];
    const before = exchanges;
    expect(await push.send("d", { title: "t", body: "b" })).toEqual({ status: "sent" });
    expect(exchanges - before).toBe(1);
  });

  it("reports unregistered, malformed and foreign tokens as invalid, other errors as failed", async () => {
    const push = fcm();
    answers = [
      fcmError(404, "NOT_FOUND", "UNREGISTERED", "Requested entity was not found."),
      fcmError(
        400,
        "INVALID_ARGUMENT",
        "INVALID_ARGUMENT",
        "The registration token is not a valid FCM registration token",
      ),
      fcmError(403, "PERMISSION_DENIED", "SENDER_ID_MISMATCH", "SenderId mismatch"),
      fcmError(400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", "Invalid JSON payload received."),
      fcmError(429, "RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED", "Quota exceeded."),
      { status: 503, body: "" },
    ];
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await push.send(`t${i}`, { title: "t", body: "b" }));
    expect(results.map((r) => r.status)).toEqual(["invalid", "invalid", "invalid", "failed", "failed", "failed"]);
    expect(results[0]?.error).toBe("FCM answered 404 UNREGISTERED: Requested entity was not found.");
    expect(results[4]?.error).toMatch(/429 QUOTA_EXCEEDED/);
  });

  it("throws naming Google's answer when the key is refused", async () => {
    const other = await pemKeyPair("RS256");
    const push = fcmPush({
      serviceAccount: { ...account(), private_key: other.privatePem },
      baseUrl,
      tokenUrl: `${baseUrl}/token`,
    });
    await expect(push.send("d", { title: "t", body: "b" })).rejects.toThrow(
      "Google's token endpoint answered 400: invalid_grant (Invalid JWT Signature.)",
    );
  });

  it("reads a service account key file and names a missing field", () => {
    expect(parseServiceAccount(JSON.stringify(account())).project_id).toBe("booth-app");
    expect(() => parseServiceAccount("{")).toThrow(/not JSON/);
    expect(() => parseServiceAccount(JSON.stringify({ ...account(), client_email: "" }))).toThrow(/no client_email/);
  });
});
