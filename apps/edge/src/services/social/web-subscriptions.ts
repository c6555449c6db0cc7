import { schema } from "@booth/db";
import { and, desc, eq, notInArray } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { badRequest, notFound } from "../../lib/errors.ts";
import { jsonPick } from "../../lib/json-rows.ts";
import { returnedRow } from "../../lib/rows.ts";
import { validSubscriptionKeys } from "../../ports/web-push.ts";

export const NOT_SUBSCRIBED = "This browser is not subscribed to your notifications.";
export const BAD_SUBSCRIPTION_KEYS =
  "The subscription keys are not valid: p256dh must be a P-256 public key and auth 16 bytes, both base64url.";
/** Browsers a user keeps subscribed; registering one more forgets the oldest. */
export const MAX_SUBSCRIPTIONS_PER_USER = 20;

type Subscription = typeof schema.webPushSubscriptions.$inferSelect;
export const subscriptionView = (row: Subscription) => jsonPick(row, "id", "endpoint", "createdAt");

/**
 * Registers a user's browser for Web Push (an endpoint registered by another account moves to this one), keeping
 * their newest MAX_SUBSCRIPTIONS_PER_USER.
 */
export async function subscribe(
  deps: Pick<AppDeps, "db" | "push">,
  userUuid: string,
  input: { endpoint: string; keys: { p256dh: string; auth: string } },
  now: Date,
) {
  const { endpoint, keys } = input;
  const refused = deps.push.web.check(endpoint);
  if (refused) throw badRequest([`endpoint: ${refused}`]);
  if (!(await validSubscriptionKeys(keys.p256dh, keys.auth))) throw badRequest([`keys: ${BAD_SUBSCRIPTION_KEYS}`]);
  const row = await deps.db.transaction(async (tx) => {
    const saved = await returnedRow(
      "subscription upsert",
      tx
        .insert(schema.webPushSubscriptions)
        .values({ userUuid, endpoint, p256dh: keys.p256dh, auth: keys.auth, createdAt: now })
        .onConflictDoUpdate({
          target: schema.webPushSubscriptions.endpoint,
          set: { userUuid, p256dh: keys.p256dh, auth: keys.auth, createdAt: now },
        })
        .returning(),
    );
    const keep = tx
      .select({ id: schema.webPushSubscriptions.id })
      .from(schema.webPushSubscriptions)
      .where(eq(schema.webPushSubscriptions.userUuid, userUuid))
      .orderBy(desc(schema.webPushSubscriptions.createdAt), desc(schema.webPushSubscriptions.id))
      .limit(MAX_SUBSCRIPTIONS_PER_USER);
    await tx
      .delete(schema.webPushSubscriptions)
      .where(and(eq(schema.webPushSubscriptions.userUuid, userUuid), notInArray(schema.webPushSubscriptions.id, keep)));
    return saved;
  });
  return row;
}

/**
 * Forgets a user's browser. Only their own: an endpoint registered to someone else answers the same 404 as an unknown
 * one, so nobody learns whose browser an endpoint is.
 */
export async function unsubscribe(db: AppDeps["db"], userUuid: string, endpoint: string) {
  const gone = await db
    .delete(schema.webPushSubscriptions)
    .where(and(eq(schema.webPushSubscriptions.userUuid, userUuid), eq(schema.webPushSubscriptions.endpoint, endpoint)))
    .returning({ id: schema.webPushSubscriptions.id });
  if (!gone.length) throw notFound(NOT_SUBSCRIBED);
}
