/** What every push channel (FCM, APNs, Web Push) is given and answers. */

/** What a notification says. A silent one carries only `data` and wakes the app without showing anything. */
export interface PushNotice {
  title?: string | undefined;
  body?: string | undefined;
  /** String values only: FCM's `data` and APNs custom keys alike take strings. */
  data?: Record<string, string> | undefined;
  silent?: boolean | undefined;
}

/**
 * How one delivery went: `sent` (the provider took it), `queued` (no provider: kept in the outbox), `invalid` (the
 * provider says the token or subscription is gone: forget it), `failed` (anything else: kept, tried next time).
 */
export type DeliveryStatus = "sent" | "queued" | "invalid" | "failed";
export interface Delivery {
  status: DeliveryStatus;
  error?: string | undefined;
}
