import { readFileSync } from "node:fs";
import type { Db } from "@booth/db";
import type { EdgeSettings } from "../config.ts";
import { createPush, type MobilePushSender, type Push } from "./push.ts";
import { apnsPush } from "./push-apns.ts";
import { fcmPush, parseServiceAccount } from "./push-fcm.ts";
import { loadVapidKeys, webPushSender } from "./web-push.ts";

/** The settings of pushes (config.ts, which requires APNS_KEY_ID, APNS_TEAM_ID and APNS_TOPIC with an APNs key). */
export type PushSettings = Pick<
  EdgeSettings,
  | "FCM_SERVICE_ACCOUNT"
  | "FCM_SERVICE_ACCOUNT_PATH"
  | "FCM_BASE_URL"
  | "FCM_TOKEN_URL"
  | "APNS_KEY"
  | "APNS_KEY_PATH"
  | "APNS_KEY_ID"
  | "APNS_TEAM_ID"
  | "APNS_TOPIC"
  | "APNS_BASE_URL"
  | "VAPID_PUBLIC_KEY"
  | "VAPID_PRIVATE_KEY"
  | "VAPID_SUBJECT"
  | "ADMIN_EMAIL"
  | "WEB_PUSH_HOSTS"
>;

/** PEM keys pasted into one-line environment variables keep their newlines as `\n`. */
const pem = (value: string) => value.replace(/\\n/g, "\n");

/** FCM when FCM_SERVICE_ACCOUNT (the key file's JSON) or FCM_SERVICE_ACCOUNT_PATH is set. */
export function fcmFrom(settings: PushSettings): MobilePushSender | undefined {
  const { FCM_SERVICE_ACCOUNT_PATH: path } = settings;
  const json = settings.FCM_SERVICE_ACCOUNT ?? (path ? readFileSync(path, "utf8") : "");
  if (!json) return undefined;
  const serviceAccount = parseServiceAccount(json);
  return fcmPush({
    serviceAccount: { ...serviceAccount, private_key: pem(serviceAccount.private_key) },
    baseUrl: settings.FCM_BASE_URL,
    tokenUrl: settings.FCM_TOKEN_URL,
  });
}

/** APNs when APNS_KEY (the .p8 PEM) or APNS_KEY_PATH is set (APNS_KEY_ID, APNS_TEAM_ID and APNS_TOPIC with it). */
export function apnsFrom(settings: PushSettings): MobilePushSender | undefined {
  const { APNS_KEY_PATH: path } = settings;
  const key = settings.APNS_KEY ?? (path ? readFileSync(path, "utf8") : "");
  if (!key) return undefined;
  return apnsPush({
    key: pem(key),
    keyId: settings.APNS_KEY_ID ?? "",
    teamId: settings.APNS_TEAM_ID ?? "",
    topic: settings.APNS_TOPIC ?? "",
    baseUrl: settings.APNS_BASE_URL,
  });
}

/** The push port from the settings: configured mobile providers, the outbox for the others, Web Push always. */
export async function pushFrom(settings: PushSettings, db: Db, dataDir: string): Promise<Push> {
  const vapid = await loadVapidKeys({
    publicKey: settings.VAPID_PUBLIC_KEY,
    privateKey: settings.VAPID_PRIVATE_KEY,
    dataDir,
  });
  const { ADMIN_EMAIL: admin } = settings;
  const web = webPushSender({
    vapid,
    subject: settings.VAPID_SUBJECT ?? (admin ? `mailto:${admin}` : "mailto:admin@booth.local"),
    extraHosts: settings.WEB_PUSH_HOSTS.map((h) => h.toLowerCase()),
  });
  return createPush(db, { fcm: fcmFrom(settings), apns: apnsFrom(settings), web });
}
