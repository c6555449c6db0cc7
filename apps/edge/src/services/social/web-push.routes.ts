import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, noContent } from "../../lib/openapi.ts";
import { NoticeFields, ReportSchema } from "./notify.ts";

const tags = ["Web push"];

const SubscriptionSchema = z
  .object({ id: z.uuid(), endpoint: z.string(), createdAt: z.string() })
  .openapi("WebPushSubscription");

export const publicKey = createRoute({
  method: "get",
  path: "/web-notifications/public-key",
  tags,
  summary: "The VAPID public key a browser subscribes with (`applicationServerKey`; anyone)",
  responses: { 200: json(z.object({ publicKey: z.string() }).openapi("VapidPublicKey")) },
});

export const subscribe = createRoute({
  method: "post",
  path: "/web-notifications/subscription",
  tags,
  summary:
    "Register the caller's browser for Web Push: the JSON of its PushSubscription (an endpoint moving to another account moves with it)",
  security: bearer,
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
  responses: { 201: json(SubscriptionSchema, "Created"), ...errors(400, 401) },
});

export const unsubscribe = createRoute({
  method: "delete",
  path: "/web-notifications/subscription",
  tags,
  summary:
    "Forget one of the caller's browsers (not in the spec: a person who turns notifications off; 404 when that endpoint is not theirs)",
  security: bearer,
  request: jsonBody(
    z
      .object({ endpoint: z.string().min(1).max(2048) })
      .strict()
      .openapi("PushUnsubscription"),
  ),
  responses: { ...noContent, ...errors(400, 401, 404) },
});

export const pushToUsers = createRoute({
  method: "post",
  path: "/web-notifications/push-notification",
  tags,
  summary: "Send a notification to every subscribed browser of some users (services, admins)",
  security: bearer,
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
  responses: { 200: json(ReportSchema), ...errors(400, 401, 403) },
});
