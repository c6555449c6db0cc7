import { type Db, schema } from "@booth/db";
import { z } from "@hono/zod-openapi";
import {
  and,
  asc,
  count,
  countDistinct,
  eq,
  exists,
  gt,
  inArray,
  isNull,
  lt,
  ne,
  not,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { badRequest } from "../../lib/errors.ts";
import { firstRow } from "../../lib/rows.ts";
import type { Delivery, PushNotice } from "../../ports/push.ts";
import { roomRolesWhere } from "../room/public.ts";

// ---- what a notification may carry -----------------------------------------------------------------------------

/** Title, body and data together stay under what FCM, APNs and Web Push all carry (4 KB), with room for envelopes. */
export const MAX_NOTICE_BYTES = 3072;
export const NOTICE_TOO_LARGE = `The notification is too large: at most ${MAX_NOTICE_BYTES} bytes of title, body and data.`;
const RESERVED = /^(aps|from|notification|message_type|collapse_key|google.*|gcm.*)$/i;

export const DataSchema = z
  .record(
    z
      .string()
      .regex(
        /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/,
        "keys are 1 to 64 letters, digits, '_', '.' or '-', starting with a letter",
      ),
    z.string().max(1024),
  )
  .refine((d) => Object.keys(d).length <= 30, "at most 30 keys")
  .refine(
    (d) => !Object.keys(d).some((k) => RESERVED.test(k)),
    "aps, from, notification, message_type, collapse_key, google* and gcm* are reserved",
  )
  .openapi({ description: "String values for the app (FCM data, APNs custom keys, the Web Push payload's data)." });

export const NoticeFields = {
  title: z.string().trim().min(1).max(200),
  body: z.string().trim().min(1).max(2000),
  data: DataSchema.optional(),
};
export const SilentFields = { data: DataSchema.refine((d) => Object.keys(d).length > 0, "at least one key") };

export function checkSize(notice: PushNotice) {
  const size = new TextEncoder().encode(
    JSON.stringify([notice.title ?? "", notice.body ?? "", notice.data ?? {}]),
  ).length;
  if (size > MAX_NOTICE_BYTES) throw badRequest(NOTICE_TOO_LARGE);
  return notice;
}

// ---- who receives ----------------------------------------------------------------------------------------------

/** A query answering one column of user uuids: the recipients. */
export type Audience = SQLWrapper;

const userActive = (uuid: SQLWrapper): SQL =>
  sql`(select 1 from ${schema.users} where ${schema.users.uuid} = ${uuid} and ${schema.users.deactivatedAt} is null)`;
const active = (uuid: SQLWrapper) => exists(userActive(uuid));

/** Neither `a` nor the user in `column` has blocked the other. */
export function notBlockedWith(a: string, column: SQLWrapper): SQL {
  return not(
    exists(
      sql`(select 1 from ${schema.blockedUsers} where (${schema.blockedUsers.blockerUuid} = ${a} and ${schema.blockedUsers.blockedUuid} = ${column}) or (${schema.blockedUsers.blockerUuid} = ${column} and ${schema.blockedUsers.blockedUuid} = ${a}))`,
    ),
  );
}

/** Active accounts among `uuids`, other than `sender` and not blocked with them when a sender is named. */
export function usersAudience(db: Db, uuids: string[], sender?: string) {
  return db
    .select({ uuid: schema.users.uuid })
    .from(schema.users)
    .where(
      and(
        inArray(schema.users.uuid, uuids.length ? uuids : ["00000000-0000-0000-0000-000000000000"]),
        isNull(schema.users.deactivatedAt),
        sender ? ne(schema.users.uuid, sender) : undefined,
        sender ? notBlockedWith(sender, schema.users.uuid) : undefined,
      ),
    );
}

/** The DJ's fans with an active account, not blocked either way, and (given a room) not already listening in it. */
export function fansAudience(db: Db, djUuid: string, roomUuid?: string) {
  return db
    .select({ uuid: schema.djFans.fanUuid })
    .from(schema.djFans)
    .where(
      and(
        eq(schema.djFans.djUuid, djUuid),
        active(schema.djFans.fanUuid),
        notBlockedWith(djUuid, schema.djFans.fanUuid),
        roomUuid ? not(exists(presentIn(roomUuid, schema.djFans.fanUuid))) : undefined,
      ),
    );
}

const presentIn = (roomUuid: string, column: SQLWrapper) =>
  sql`(select 1 from ${schema.roomPresence} where ${schema.roomPresence.roomUuid} = ${roomUuid} and ${schema.roomPresence.userUuid} = ${column})`;

/**
 * A room's users: those who saved it as a favourite, with an active account, not banned from it, not in it right now
 * (they already hear it) and, given a sender, not the sender nor blocked with them.
 */
export function roomUsersAudience(db: Db, roomUuid: string, now: Date, sender?: string) {
  const user = schema.roomFavorites.userUuid;
  return db
    .select({ uuid: user })
    .from(schema.roomFavorites)
    .where(
      and(
        eq(schema.roomFavorites.roomUuid, roomUuid),
        active(user),
        not(exists(presentIn(roomUuid, user))),
        not(
          exists(
            db
              .select({ one: schema.roomUserRoles.id })
              .from(schema.roomUserRoles)
              .where(roomRolesWhere(roomUuid, now, { user, roles: ["banned"] })),
          ),
        ),
        sender ? ne(user, sender) : undefined,
        sender ? notBlockedWith(sender, user) : undefined,
      ),
    );
}

// ---- reach and delivery ----------------------------------------------------------------------------------------

export interface Channels {
  mobile: boolean;
  web: boolean;
}
export const BOTH: Channels = { mobile: true, web: true };

export const ReachSchema = z
  .object({
    users: z.number().int().openapi({ description: "recipients" }),
    devices: z.number().int().openapi({ description: "their registered mobile devices" }),
    webSubscriptions: z.number().int().openapi({ description: "their browsers subscribed to Web Push" }),
  })
  .openapi("PushReach");
export type Reach = z.infer<typeof ReachSchema>;

export const ReportSchema = ReachSchema.extend({
  sent: z.number().int().openapi({ description: "taken by FCM, APNs or a push service" }),
  queued: z.number().int().openapi({ description: "kept in the outbox: no provider configured for the platform" }),
  failed: z.number().int(),
  removed: z
    .number()
    .int()
    .openapi({ description: "devices and subscriptions forgotten: the provider says they are gone" }),
}).openapi("PushReport");
export type Report = z.infer<typeof ReportSchema>;

/** How many recipients, devices and browsers an audience has. */
export async function reachOf(db: Db, audience: Audience, channels: Channels = BOTH): Promise<Reach> {
  const [[users], [devices], [subscriptions]] = await Promise.all([
    db.select({ n: count() }).from(schema.users).where(inArray(schema.users.uuid, audience)),
    channels.mobile
      ? db.select({ n: count() }).from(schema.devices).where(inArray(schema.devices.userUuid, audience))
      : [{ n: 0 }],
    channels.web
      ? db
          .select({ n: countDistinct(schema.webPushSubscriptions.endpoint) })
          .from(schema.webPushSubscriptions)
          .where(inArray(schema.webPushSubscriptions.userUuid, audience))
      : [{ n: 0 }],
  ]);
  return { users: users?.n ?? 0, devices: devices?.n ?? 0, webSubscriptions: subscriptions?.n ?? 0 };
}

/** Runs `work` over `items`, `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
}

const CONCURRENCY = 8;
/** Devices are read and sent in pages, so a broadcast never holds every device in memory. */
const PAGE = 500;

const emptyReport = (): Report => ({
  users: 0,
  devices: 0,
  webSubscriptions: 0,
  sent: 0,
  queued: 0,
  failed: 0,
  removed: 0,
});

function tally(report: Report, result: Delivery) {
  if (result.status === "sent") report.sent++;
  else if (result.status === "queued") report.queued++;
  else report.failed++;
  if (result.status === "invalid") report.removed++;
}

/** Sends to a set of device rows (already chosen); devices the provider calls gone are forgotten. */
async function toDevices(
  deps: AppDeps,
  devices: (typeof schema.devices.$inferSelect)[],
  notice: PushNotice,
  report: Report,
) {
  report.devices += devices.length;
  await pool(devices, CONCURRENCY, async (device) => {
    const result = await deps.push.toDevice(device, notice);
    tally(report, result);
    if (result.status === "invalid") await deps.db.delete(schema.devices).where(eq(schema.devices.id, device.id));
  });
}

/**
 * Sends a notification to everyone in `audience`: each mobile device through its provider, each subscribed browser
 * through Web Push. Tokens and subscriptions the provider calls gone are deleted. Answers what happened.
 */
export async function deliver(deps: AppDeps, audience: Audience, notice: PushNotice, channels: Channels = BOTH) {
  const { db } = deps;
  const report = emptyReport();
  const [users] = await db.select({ n: count() }).from(schema.users).where(inArray(schema.users.uuid, audience));
  report.users = users?.n ?? 0;
  if (channels.mobile) {
    let after: string | null = null;
    for (;;) {
      const page: (typeof schema.devices.$inferSelect)[] = await db
        .select()
        .from(schema.devices)
        .where(and(inArray(schema.devices.userUuid, audience), after ? gt(schema.devices.id, after) : undefined))
        .orderBy(asc(schema.devices.id))
        .limit(PAGE);
      await toDevices(deps, page, notice, report);
      if (page.length < PAGE) break;
      after = page.at(-1)?.id ?? null;
    }
  }
  if (channels.web) {
    const subscriptions = await db
      .select()
      .from(schema.webPushSubscriptions)
      .where(inArray(schema.webPushSubscriptions.userUuid, audience));
    report.webSubscriptions = subscriptions.length;
    await pool(subscriptions, CONCURRENCY, async (s) => {
      const result = await deps.push.toBrowser(s, notice);
      tally(report, result);
      if (result.status === "invalid")
        await db.delete(schema.webPushSubscriptions).where(eq(schema.webPushSubscriptions.id, s.id));
    });
  }
  return report;
}

/** Sends to every registered device (optionally of one platform), page by page. */
export async function deliverToAllDevices(deps: AppDeps, notice: PushNotice, platform?: "ios" | "android" | "web") {
  const report = emptyReport();
  const users = new Set<string>();
  let after: string | null = null;
  for (;;) {
    const page: (typeof schema.devices.$inferSelect)[] = await deps.db
      .select()
      .from(schema.devices)
      .where(
        and(
          platform ? eq(schema.devices.platform, platform) : undefined,
          after ? gt(schema.devices.id, after) : undefined,
          active(schema.devices.userUuid),
        ),
      )
      .orderBy(asc(schema.devices.id))
      .limit(PAGE);
    for (const d of page) users.add(d.userUuid);
    await toDevices(deps, page, notice, report);
    if (page.length < PAGE) break;
    after = page.at(-1)?.id ?? null;
  }
  report.users = users.size;
  return report;
}

/** Sends to the registered devices with these push tokens; answers the report and how many tokens were unknown. */
export async function deliverToTokens(deps: AppDeps, tokens: string[], notice: PushNotice) {
  const unique = [...new Set(tokens)];
  const devices = await deps.db
    .select()
    .from(schema.devices)
    .where(and(inArray(schema.devices.token, unique), active(schema.devices.userUuid)));
  const report = emptyReport();
  report.users = new Set(devices.map((d) => d.userUuid)).size;
  await toDevices(deps, devices, notice, report);
  return { report, unknownTokens: unique.length - devices.length };
}

// ---- not too often ---------------------------------------------------------------------------------------------

/**
 * Sliding window: claims a send unless the key was seen within `quietSeconds`; always records it as seen. So a DJ who
 * keeps playing (or leaves and comes back within the window) notifies once; one who was away longer notifies again.
 * Atomic: of two concurrent calls, one claims.
 */
export async function claimAfterQuiet(db: Db, key: string, now: Date, quietSeconds: number) {
  const cutoff = new Date(now.getTime() - quietSeconds * 1000);
  if (await claimWhere(db, key, now, lt(schema.pushCooldowns.seenAt, cutoff))) return true;
  await db
    .update(schema.pushCooldowns)
    .set({ seenAt: now })
    .where(and(eq(schema.pushCooldowns.key, key), lt(schema.pushCooldowns.seenAt, now)));
  return false;
}

/** Fixed window: claims a send unless one was claimed within `seconds`. Atomic. */
export async function claimAfter(db: Db, key: string, now: Date, seconds: number) {
  const cutoff = new Date(now.getTime() - seconds * 1000);
  return claimWhere(db, key, now, lt(schema.pushCooldowns.sentAt, cutoff));
}

/** Records the key seen and sent `now`, when it is new or its row is `stale`: whether this call claimed the send. */
async function claimWhere(db: Db, key: string, now: Date, stale: SQL) {
  const claimed = await db
    .insert(schema.pushCooldowns)
    .values({ key, seenAt: now, sentAt: now })
    .onConflictDoUpdate({ target: schema.pushCooldowns.key, set: { seenAt: now, sentAt: now }, setWhere: stale })
    .returning({ key: schema.pushCooldowns.key });
  return claimed.length > 0;
}

export async function cooldownOf(db: Db, key: string) {
  return firstRow(db, schema.pushCooldowns, eq(schema.pushCooldowns.key, key));
}
