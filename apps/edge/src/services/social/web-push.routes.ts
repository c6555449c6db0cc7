import { z } from "@hono/zod-openapi";
import { contracts, created, json, jsonBody, noContentOr, ok } from "../../lib/openapi.ts";
import { NoticeFields, ReportSchema } from "./notify.ts";

const { authed, route } = contracts(["Web push"]);

const SubscriptionSchema = z
  .object({ id: z.uuid(), endpoint: z.string(), createdAt: z.string() })
  .openapi("WebPushSubscription");

export const publicKey = route("get", "/web-notifications/public-key", {
  summary: "The VAPID public key a browser subscribes with (`applicationServerKey`; anyone)",
  responses: { 200: json(z.object({ publicKey: z.string() }).openapi("VapidPublicKey")) },
});

export const subscribe = authed("post", "/web-notifications/subscription", {
  summary:
    "Register the caller's browser for Web Push: the JSON of its PushSubscription (an endpoint moving to another account moves with it)",
  request: jsonBody(
    z
      .object({
        endpoint: z.string().min(1).max(2048),
        // Milliseconds since 1970 (the browser's PushSubscription), within what a date can hold.
        expirationTime: z.number().min(0).max(8.64e15).nullable().optional(),
        keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
      })
      .openapi("PushSubscriptionJSON"),
  ),
  responses: created(SubscriptionSchema, 400, 401),
});

export const unsubscribe = authed("delete", "/web-notifications/subscription", {
  summary:
    "Forget one of the caller's browsers (not in the spec: a person who turns notifications off; 404 when that endpoint is not theirs)",
  request: jsonBody(
    z
      .object({ endpoint: z.string().min(1).max(2048) })
      .strict()
      .openapi("PushUnsubscription"),
  ),
  responses: noContentOr(400, 401, 404),
});

export const pushToUsers = authed("post", "/web-notifications/push-notification", {
  summary: "Send a notification to every subscribed browser of some users (services, admins)",
  request: jsonBody(
    z
      .object({
        userUuids: z
          .array(z.uuid())
          .min(1)
          .max(500)
          .refine((a) => new Set(a).size === a.length, "must not repeat"),
        ...NoticeFields,
      })
      .openapi("WebPushNotification"),
  ),
  responses: ok(ReportSchema, 400, 401, 403),
});
