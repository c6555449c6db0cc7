import { type CryptoKey, importPKCS8, SignJWT } from "jose";
import { answered, discardBody, fetchProvider, type ProviderHttp } from "./provider-post.ts";
import type { Delivery, MobilePushSender, PushNotice } from "./push.ts";

/** The fields of a Google service account key file (JSON) that FCM needs. */
export interface ServiceAccount {
  project_id: string;
  client_email: string;
  private_key: string;
  private_key_id?: string | undefined;
  token_uri?: string | undefined;
}

export interface FcmOptions extends ProviderHttp {
  serviceAccount: ServiceAccount;
  /** Where FCM is (default https://fcm.googleapis.com; tests point it at a local fake). */
  baseUrl?: string | undefined;
  /** Google's OAuth2 token endpoint (default: the key file's `token_uri`, else https://oauth2.googleapis.com/token). */
  tokenUrl?: string | undefined;
  now?: (() => number) | undefined;
}

const SCOPE = "https://www.googleapis.com/auth/firebase.messaging";

/** Reads a service account key from its JSON text, naming what is missing. */
export function parseServiceAccount(json: string): ServiceAccount {
  let parsed: Partial<ServiceAccount>;
  try {
    parsed = JSON.parse(json) as Partial<ServiceAccount>;
  } catch {
    throw new Error("FCM_SERVICE_ACCOUNT is not JSON (expected a Google service account key file)");
  }
  for (const field of ["project_id", "client_email", "private_key"] as const)
    if (typeof parsed[field] !== "string" || !parsed[field])
      throw new Error(`FCM_SERVICE_ACCOUNT has no ${field} (expected a Google service account key file)`);
  return parsed as ServiceAccount;
}

interface FcmErrorBody {
  error?: { code?: number; message?: string; status?: string; details?: { errorCode?: string }[] };
}

/**
 * Firebase Cloud Messaging HTTP v1: the service account signs a JWT (RS256, jose), Google exchanges it for an access
 * token (kept until shortly before it expires), and each message is one `messages:send` call. Plain fetch, so it
 * runs on Node and Deno. Tokens FCM calls unregistered, malformed or of another project come back `invalid`.
 */
export function fcmPush({
  serviceAccount,
  baseUrl = "https://fcm.googleapis.com",
  tokenUrl = serviceAccount.token_uri ?? "https://oauth2.googleapis.com/token",
  now = Date.now,
  fetch = globalThis.fetch,
  timeoutMs,
}: FcmOptions): MobilePushSender {
  const sendUrl = `${baseUrl.replace(/\/+$/, "")}/v1/projects/${encodeURIComponent(serviceAccount.project_id)}/messages:send`;
  let signingKey: Promise<CryptoKey> | null = null;
  let cached: { token: string; expiresAt: number } | null = null;
  let pending: Promise<string> | null = null;

  async function exchange(): Promise<string> {
    signingKey ??= importPKCS8(serviceAccount.private_key, "RS256");
    const iat = Math.floor(now() / 1000);
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({
        alg: "RS256",
        typ: "JWT",
        ...(serviceAccount.private_key_id ? { kid: serviceAccount.private_key_id } : {}),
      })
      .setIssuer(serviceAccount.client_email)
      .setSubject(serviceAccount.client_email)
      .setAudience(tokenUrl)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 3600)
      .sign(await signingKey);
    const res = await fetchProvider(
      tokenUrl,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }),
      },
      { fetch, timeoutMs },
    );
    const body = (await res.json().catch(() => null)) as {
      access_token?: string;
      expires_in?: number;
      error?: string;
      error_description?: string;
    } | null;
    if (!res.ok || !body?.access_token)
      throw new Error(
        answered("Google's token endpoint", res.status, { detail: body?.error, aside: body?.error_description }),
      );
    const lifetime = typeof body.expires_in === "number" ? body.expires_in : 3600;
    // Renewed a minute early, so a token never expires between the check and the send.
    cached = { token: body.access_token, expiresAt: now() + Math.max(0, lifetime - 60) * 1000 };
    return body.access_token;
  }

  async function accessToken(): Promise<string> {
    if (cached && cached.expiresAt > now()) return cached.token;
    pending ??= exchange().finally(() => {
      pending = null;
    });
    return pending;
  }

  function message(token: string, notice: PushNotice) {
    const data = notice.data && Object.keys(notice.data).length ? notice.data : undefined;
    if (notice.silent)
      return {
        token,
        data,
        android: { priority: "normal" },
        apns: {
          headers: { "apns-push-type": "background", "apns-priority": "5" },
          payload: { aps: { "content-available": 1 } },
        },
      };
    return {
      token,
      notification: { title: notice.title, body: notice.body },
      data,
      android: { priority: "high" },
      apns: { payload: { aps: { sound: "default" } } },
    };
  }

  async function post(token: string, notice: PushNotice) {
    return fetchProvider(
      sendUrl,
      {
        method: "POST",
        headers: { authorization: `Bearer ${await accessToken()}`, "content-type": "application/json" },
        body: JSON.stringify({ message: message(token, notice) }),
      },
      { fetch, timeoutMs },
    );
  }

  return {
    kind: "fcm",
    async send(token, notice): Promise<Delivery> {
      let res = await post(token, notice);
      if (res.status === 401) {
        // The access token was revoked or expired early: one fresh exchange, one retry.
        await discardBody(res);
        cached = null;
        res = await post(token, notice);
      }
      if (res.ok) {
        await discardBody(res);
        return { status: "sent" };
      }
      const body = (await res.json().catch(() => null)) as FcmErrorBody | null;
      const code = body?.error?.details?.find((d) => d.errorCode)?.errorCode ?? body?.error?.status ?? "";
      const text = body?.error?.message ?? "";
      const error = answered("FCM", res.status, { code, detail: text });
      const gone =
        code === "UNREGISTERED" ||
        code === "SENDER_ID_MISMATCH" ||
        (code === "INVALID_ARGUMENT" && /registration token/i.test(text));
      return { status: gone ? "invalid" : "failed", error };
    },
  };
}
