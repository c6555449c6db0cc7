import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import webpush from "web-push";
import { answered, discardBody, fetchProvider, type ProviderHttp } from "./provider-post.ts";
import type { Delivery, PushNotice } from "./push-notice.ts";

/** A browser's push subscription, as `PushSubscription.toJSON()` gives it (keys base64url). */
export interface WebPushSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface WebPushSender {
  /** The VAPID public key (base64url, uncompressed P-256 point): a browser's `applicationServerKey`. */
  readonly publicKey: string;
  /** Why a subscription endpoint is refused (a push service this server does not talk to), or null. */
  check(endpoint: string): string | null;
  send(subscription: WebPushSubscription, notice: PushNotice): Promise<Delivery>;
}

/**
 * The push services browsers use: Chrome and Edge (FCM), Firefox (Mozilla autopush), Safari (Apple), legacy Edge
 * (WNS). Endpoints elsewhere are refused, so a subscription cannot make the server post to an arbitrary address.
 */
export const KNOWN_PUSH_SERVICES = [
  "fcm.googleapis.com",
  "android.googleapis.com",
  "updates.push.services.mozilla.com",
  "*.push.services.mozilla.com",
  "web.push.apple.com",
  "*.push.apple.com",
  "*.notify.windows.com",
];

const hostMatches = (host: string, pattern: string) =>
  pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) : host === pattern;

const VAPID_FILE = "web-push-vapid.json";

/**
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY win; else the pair kept in DATA_DIR; else a new pair written there (a new
 * pair would orphan every browser subscription, so it is made once).
 */
export async function loadVapidKeys(options: {
  publicKey?: string | undefined;
  privateKey?: string | undefined;
  dataDir?: string | undefined;
}): Promise<VapidKeys> {
  if (options.publicKey || options.privateKey) {
    if (!options.publicKey || !options.privateKey)
      throw new Error("VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together");
    return { publicKey: options.publicKey, privateKey: options.privateKey };
  }
  if (!options.dataDir) return webpush.generateVAPIDKeys();
  const file = join(options.dataDir, VAPID_FILE);
  try {
    const kept = JSON.parse(await readFile(file, "utf8")) as VapidKeys;
    if (kept.publicKey && kept.privateKey) return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const keys = webpush.generateVAPIDKeys();
  await mkdir(options.dataDir, { recursive: true });
  await writeFile(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

export interface WebPushOptions extends ProviderHttp {
  vapid: VapidKeys;
  /** A `mailto:` or `https:` URL the push services may contact about this sender. */
  subject: string;
  /**
   * Push service hosts allowed besides the known ones (`*.example.com` matches subdomains). Only these may be
   * reached over plain http (a local push service in tests and development).
   */
  extraHosts?: string[] | undefined;
  /** Seconds a push service keeps a message for an offline browser. */
  ttlSeconds?: number | undefined;
}

/**
 * Web Push (RFC 8030) with VAPID (RFC 8292) and the aes128gcm payload encryption of RFC 8291: the `web-push` library
 * builds the signed, encrypted request; plain fetch sends it, so it runs on Node and Deno and reaches any endpoint
 * the policy allows. A 404 or 410 from the push service means the subscription is gone.
 */
export function webPushSender({
  vapid,
  subject,
  extraHosts = [],
  ttlSeconds = 24 * 3600,
  fetch = globalThis.fetch,
  timeoutMs,
}: WebPushOptions): WebPushSender {
  const allowed = [...KNOWN_PUSH_SERVICES, ...extraHosts];
  return {
    publicKey: vapid.publicKey,
    check(endpoint) {
      let url: URL;
      try {
        url = new URL(endpoint);
      } catch {
        return "The subscription endpoint is not a URL.";
      }
      const host = url.hostname.toLowerCase();
      if (url.protocol === "http:" && extraHosts.some((p) => hostMatches(host, p))) return null;
      if (url.protocol !== "https:") return "The subscription endpoint must be an https URL.";
      if (url.username || url.password) return "The subscription endpoint must not carry credentials.";
      if (!allowed.some((p) => hostMatches(host, p))) return `Push service ${host} is not supported.`;
      return null;
    },
    async send(subscription, notice) {
      const payload = JSON.stringify({
        title: notice.title ?? null,
        body: notice.body ?? null,
        data: notice.data ?? {},
        silent: !!notice.silent,
      });
      const details = webpush.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        payload,
        {
          vapidDetails: { subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
          TTL: ttlSeconds,
          urgency: notice.silent ? "low" : "high",
        },
      );
      const headers = Object.fromEntries(Object.entries(details.headers).map(([k, v]) => [k, String(v)]));
      // fetch sets the length itself.
      delete headers["Content-Length"];
      const res = await fetchProvider(
        details.endpoint,
        { method: "POST", headers, body: details.body ? new Uint8Array(details.body) : null, redirect: "error" },
        { fetch, timeoutMs },
      );
      if (res.ok) {
        await discardBody(res);
        return { status: "sent" };
      }
      const detail = (await res.text().catch(() => "")).slice(0, 200);
      const error = answered("push service", res.status, { detail });
      return { status: res.status === 404 || res.status === 410 ? "invalid" : "failed", error };
    },
  };
}

/** Whether `p256dh` is an uncompressed P-256 point and `auth` a 16-byte secret, both base64url (what browsers give). */
export async function validSubscriptionKeys(p256dh: string, auth: string) {
  const b64url = /^[A-Za-z0-9_-]+={0,2}$/;
  if (!b64url.test(p256dh) || !b64url.test(auth)) return false;
  const point = Buffer.from(p256dh, "base64url");
  if (point.length !== 65 || point[0] !== 4 || Buffer.from(auth, "base64url").length !== 16) return false;
  try {
    await crypto.subtle.importKey("raw", point, { name: "ECDH", namedCurve: "P-256" }, false, []);
    return true;
  } catch {
    return false;
  }
}
