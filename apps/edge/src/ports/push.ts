import { type Db, schema } from "@booth/db";
import type { DevicePlatform } from "@booth/db/schema";
import type { Delivery, PushNotice } from "./push-notice.ts";
import type { WebPushSender, WebPushSubscription } from "./web-push.ts";

export type { Delivery, DeliveryStatus, PushNotice } from "./push-notice.ts";

/** One provider of mobile pushes (FCM, APNs), addressed by the device's push token. */
export interface MobilePushSender {
  readonly kind: "fcm" | "apns";
  send(token: string, notice: PushNotice): Promise<Delivery>;
  close?(): Promise<void>;
}

export interface PushDevice {
  token: string;
  platform: DevicePlatform;
  userUuid: string;
}

/** The push port: mobile devices through FCM or APNs (or the outbox), browsers through Web Push. */
export interface Push {
  /** e.g. `fcm+apns`, `fcm`, `outbox`: which mobile providers are configured. */
  readonly kind: string;
  toDevice(device: PushDevice, notice: PushNotice): Promise<Delivery>;
  toBrowser(subscription: WebPushSubscription & { userUuid: string }, notice: PushNotice): Promise<Delivery>;
  /** The VAPID public key browsers subscribe with, and which push services subscriptions may point at. */
  readonly web: Pick<WebPushSender, "publicKey" | "check">;
  close(): Promise<void>;
}

type Channel = (typeof schema.pushMessages.$inferInsert)["channel"];

/**
 * Android and web devices go through FCM, iOS devices through APNs; a platform whose provider is not configured keeps
 * its messages in `push_messages` (status `queued`, channel `outbox`), where tests and the CLI read them. Every
 * delivery, sent or not, leaves a row there.
 */
export function createPush(
  db: Db,
  providers: { fcm?: MobilePushSender | undefined; apns?: MobilePushSender | undefined; web: WebPushSender },
): Push {
  const { fcm, apns, web } = providers;
  const record = async (channel: Channel, userUuid: string, target: string, notice: PushNotice, result: Delivery) => {
    await db.insert(schema.pushMessages).values({
      channel,
      userUuid,
      target,
      title: notice.title ?? null,
      body: notice.body ?? null,
      data: notice.data ?? null,
      silent: !!notice.silent,
      status: result.status === "invalid" ? "failed" : result.status,
      error: result.error ?? (result.status === "invalid" ? "invalid" : null),
    });
    return result;
  };
  const guarded = async (send: () => Promise<Delivery>): Promise<Delivery> => {
    try {
      return await send();
    } catch (err) {
      return { status: "failed", error: err instanceof Error ? err.message : String(err) };
    }
  };
  return {
    kind: [fcm?.kind, apns?.kind].filter(Boolean).join("+") || "outbox",
    async toDevice(device, notice) {
      const provider = device.platform === "ios" ? apns : fcm;
      if (!provider) return record("outbox", device.userUuid, device.token, notice, { status: "queued" });
      const result = await guarded(() => provider.send(device.token, notice));
      return record(provider.kind, device.userUuid, device.token, notice, result);
    },
    async toBrowser(subscription, notice) {
      const result = await guarded(() => web.send(subscription, notice));
      return record("web", subscription.userUuid, subscription.endpoint, notice, result);
    },
    web,
    async close() {
      await Promise.all([fcm?.close?.(), apns?.close?.()]);
    },
  };
}

/** No mobile provider: every mobile push is kept in the outbox. Web Push needs no account, so it is always real. */
export const outboxPush = (db: Db, web: WebPushSender): Push => createPush(db, { web });
