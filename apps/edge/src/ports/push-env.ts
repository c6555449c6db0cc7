import { readFileSync } from "node:fs";
import type { Db } from "@booth/db";
import { createPush, type MobilePushSender, type Push } from "./push.ts";
import { apnsPush } from "./push-apns.ts";
import { fcmPush, parseServiceAccount } from "./push-fcm.ts";
import { loadVapidKeys, webPushSender } from "./web-push.ts";

type Env = Record<string, string | undefined>;

/** PEM keys pasted into one-line environment variables keep their newlines as `\n`. */
const pem = (value: string) => value.replace(/\\n/g, "\n");

/** FCM when FCM_SERVICE_ACCOUNT (the key file's JSON) or FCM_SERVICE_ACCOUNT_PATH is set. */
export function fcmFromEnv(env: Env): MobilePushSender | undefined {
  const json =
    env.FCM_SERVICE_ACCOUNT ?? (env.FCM_SERVICE_ACCOUNT_PATH ? readFileSync(env.FCM_SERVICE_ACCOUNT_PATH, "utf8") : "");
  if (!json) return undefined;
  const serviceAccount = parseServiceAccount(json);
  return fcmPush({
    serviceAccount: { ...serviceAccount, private_key: pem(serviceAccount.private_key) },
    baseUrl: env.FCM_BASE_URL,
    tokenUrl: env.FCM_TOKEN_URL,
  });
}

/** APNs when APNS_KEY (the .p8 PEM) or APNS_KEY_PATH is set; APNS_KEY_ID, APNS_TEAM_ID and APNS_TOPIC then required. */
export function apnsFromEnv(env: Env): MobilePushSender | undefined {
  const key = env.APNS_KEY ?? (env.APNS_KEY_PATH ? readFileSync(env.APNS_KEY_PATH, "utf8") : "");
  if (!key) return undefined;
  for (const name of ["APNS_KEY_ID", "APNS_TEAM_ID", "APNS_TOPIC"] as const)
    if (!env[name]) throw new Error(`${name} is required when APNS_KEY or APNS_KEY_PATH is set`);
  return apnsPush({
    key: pem(key),
    keyId: env.APNS_KEY_ID ?? "",
    teamId: env.APNS_TEAM_ID ?? "",
    topic: env.APNS_TOPIC ?? "",
    baseUrl: env.APNS_BASE_URL,
  });
}

/** The push port from the environment: configured mobile providers, the outbox for the others, Web Push always. */
export async function pushFromEnv(env: Env, db: Db, dataDir: string): Promise<Push> {
  const vapid = await loadVapidKeys({
    publicKey: env.VAPID_PUBLIC_KEY,
    privateKey: env.VAPID_PRIVATE_KEY,
    dataDir,
  });
  const web = webPushSender({
    vapid,
    subject: env.VAPID_SUBJECT ?? (env.ADMIN_EMAIL ? `mailto:${env.ADMIN_EMAIL}` : "mailto:admin@booth.local"),
    extraHosts: (env.WEB_PUSH_HOSTS ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  });
  return createPush(db, { fcm: fcmFromEnv(env), apns: apnsFromEnv(env), web });
}
