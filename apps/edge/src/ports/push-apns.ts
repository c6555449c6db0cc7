import { type ClientHttp2Session, connect, constants } from "node:http2";
import { type CryptoKey, importPKCS8, SignJWT } from "jose";
import { answered } from "./provider-post.ts";
import type { Delivery, MobilePushSender, PushNotice } from "./push.ts";

export interface ApnsOptions {
  /** The `.p8` signing key from Apple's developer portal (PEM, PKCS#8, P-256). */
  key: string;
  keyId: string;
  teamId: string;
  /** The app's bundle id. */
  topic: string;
  /** https://api.push.apple.com (production), https://api.sandbox.push.apple.com (development builds), or a fake. */
  baseUrl?: string | undefined;
  timeoutMs?: number | undefined;
  now?: (() => number) | undefined;
}

/** Apple asks that a provider token be reused for at least 20 minutes and refuses it after 60. */
const TOKEN_REUSE_MS = 50 * 60 * 1000;
/** Reasons meaning the device token will never work again (for this app): its device row is forgotten. */
const GONE = new Set(["BadDeviceToken", "Unregistered", "DeviceTokenNotForTopic"]);

/**
 * Apple Push Notification service over HTTP/2 (node:http2), authenticated with an ES256 provider token signed by
 * jose. One connection is kept and reopened when Apple closes it; it does not keep the process alive when idle.
 */
export function apnsPush({
  key,
  keyId,
  teamId,
  topic,
  baseUrl = "https://api.push.apple.com",
  timeoutMs = 10_000,
  now = Date.now,
}: ApnsOptions): MobilePushSender & { close(): Promise<void> } {
  let signingKey: Promise<CryptoKey> | null = null;
  let providerToken: { jwt: string; issuedAt: number } | null = null;
  let current: ClientHttp2Session | null = null;
  let inflight = 0;

  async function token() {
    if (providerToken && now() - providerToken.issuedAt < TOKEN_REUSE_MS) return providerToken.jwt;
    signingKey ??= importPKCS8(key, "ES256");
    const issuedAt = now();
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: "ES256", kid: keyId })
      .setIssuer(teamId)
      .setIssuedAt(Math.floor(issuedAt / 1000))
      .sign(await signingKey);
    providerToken = { jwt, issuedAt };
    return jwt;
  }

  function session() {
    if (current && !current.closed && !current.destroyed) return current;
    const s = connect(baseUrl);
    const forget = () => {
      if (current === s) current = null;
    };
    s.on("error", forget);
    s.on("goaway", forget);
    s.on("close", forget);
    s.unref();
    current = s;
    return s;
  }

  function request(path: string, headers: Record<string, string>, body: string) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const s = session();
      inflight++;
      s.ref();
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        inflight--;
        if (inflight === 0) current?.unref();
        fn();
      };
      let status = 0;
      let text = "";
      const req = s.request({ ":method": "POST", ":path": path, ...headers });
      req.setEncoding("utf8");
      req.setTimeout(timeoutMs, () => {
        req.close(constants.NGHTTP2_CANCEL);
        settle(() => reject(new Error("APNs did not answer in time")));
      });
      req.on("response", (h) => {
        status = Number(h[":status"] ?? 0);
      });
      req.on("data", (chunk: string) => {
        text += chunk;
      });
      req.on("end", () => settle(() => resolve({ status, body: text })));
      req.on("error", (err) => settle(() => reject(new Error(`APNs connection failed: ${err.message}`))));
      req.on("close", () => settle(() => reject(new Error("APNs closed the connection"))));
      req.end(body);
    });
  }

  function payload(notice: PushNotice) {
    const data = notice.data ?? {};
    if (notice.silent) return { ...data, aps: { "content-available": 1 } };
    return { ...data, aps: { alert: { title: notice.title, body: notice.body }, sound: "default" } };
  }

  async function post(deviceToken: string, notice: PushNotice) {
    return request(
      `/3/device/${encodeURIComponent(deviceToken)}`,
      {
        authorization: `bearer ${await token()}`,
        "apns-topic": topic,
        "apns-push-type": notice.silent ? "background" : "alert",
        "apns-priority": notice.silent ? "5" : "10",
        "content-type": "application/json",
      },
      JSON.stringify(payload(notice)),
    );
  }

  const reasonOf = (body: string) => {
    try {
      return String((JSON.parse(body) as { reason?: unknown }).reason ?? "");
    } catch {
      return "";
    }
  };

  return {
    kind: "apns",
    async send(deviceToken, notice): Promise<Delivery> {
      let res = await post(deviceToken, notice);
      if (res.status === 403 && reasonOf(res.body) === "ExpiredProviderToken") {
        providerToken = null;
        res = await post(deviceToken, notice);
      }
      if (res.status === 200) return { status: "sent" };
      const reason = reasonOf(res.body);
      const error = answered("APNs", res.status, { code: reason });
      return { status: res.status === 410 || GONE.has(reason) ? "invalid" : "failed", error };
    },
    async close() {
      const s = current;
      current = null;
      if (s && !s.closed) await new Promise<void>((r) => s.close(() => r()));
    },
  };
}
