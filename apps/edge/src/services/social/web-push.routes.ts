import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, desc, eq, notInArray } from "drizzle-orm";
import { requireService, requireUser } from "../../lib/auth.ts";
import { badRequest } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody } from "../../lib/openapi.ts";
import { validSubscriptionKeys } from "../../ports/web-push.ts";
import { checkSize, deliver, NoticeFields, ReportSchema, usersAudience } from "./notify.ts";

export const webPushRoutes = createRouter();
const tags = ["Web push"];

export const BAD_SUBSCRIPTION_KEYS =
  "The subscription keys are not valid: p256dh must be a P-256 public key and auth 16 bytes, both base64url.";
/** Browsers a user keeps subscribed; registering one more forgets the oldest. */
export const MAX_SUBSCRIPTIONS_PER_USER = 20;

const SubscriptionSchema = z
  .object({ id: z.uuid(), endpoint: z.string(), createdAt: z.string() })
  .openapi("WebPushSubscription");

webPushRoutes.openapi(
  createRoute({
    method: "get",
    path: "/web-notifications/public-key",
    tags,
    summary: "The VAPID public key a browser subscribes with (`applicationServerKey`; anyone)",
    responses: { 200: json(z.object({ publicKey: z.string() }).openapi("VapidPublicKey")) },
  }),
  (c) => c.json({ publicKey: c.var.deps.push.web.publicKey }, 200),
);

webPushRoutes.openapi(
  createRoute({
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
          expirationTime: z.number().nullable().optional(),
          keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
        })
        .openapi("PushSubscriptionJSON"),
    ),
    responses: { 201: json(SubscriptionSchema, "Created"), ...errors(400, 401) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { endpoint, keys } = c.req.valid("json");
    const { db, push, clock } = c.var.deps;
    const refused = push.web.check(endpoint);
    if (refused) throw badRequest([`endpoint: ${refused}`]);
    if (!(await validSubscriptionKeys(keys.p256dh, keys.auth))) throw badRequest([`keys: ${BAD_SUBSCRIPTION_KEYS}`]);
    const now = clock.now();
    const row = await db.transaction(async (tx) => {
      const [saved] = await tx
        .insert(schema.webPushSubscriptions)
        .values({ userUuid: user.uuid, endpoint, p256dh: keys.p256dh, auth: keys.auth, createdAt: now })
        .onConflictDoUpdate({
          target: schema.webPushSubscriptions.endpoint,
          set: { userUuid: user.uuid, p256dh: keys.p256dh, auth: keys.auth, createdAt: now },
        })
        .returning();
      const keep = tx
        .select({ id: schema.webPushSubscriptions.id })
        .from(schema.webPushSubscriptions)
        .where(eq(schema.webPushSubscriptions.userUuid, user.uuid))
        .orderBy(desc(schema.webPushSubscriptions.createdAt), desc(schema.webPushSubscriptions.id))
        .limit(MAX_SUBSCRIPTIONS_PER_USER);
      await tx
        .delete(schema.webPushSubscriptions)
        .where(
          and(eq(schema.webPushSubscriptions.userUuid, user.uuid), notInArray(schema.webPushSubscriptions.id, keep)),
        );
      return saved;
    });
    if (!row) throw new Error("subscription upsert returned nothing");
    return c.json({ id: row.id, endpoint: row.endpoint, createdAt: row.createdAt.toISOString() }, 201);
  },
);

webPushRoutes.openapi(
  createRoute({
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
  }),
  async (c) => {
    await requireService(c);
    const { userUuids, ...notice } = c.req.valid("json");
    checkSize(notice);
    const { deps } = c.var;
    return c.json(await deliver(deps, usersAudience(deps.db, userUuids), notice, { mobile: false, web: true }), 200);
  },
);
