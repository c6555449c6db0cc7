import { schema } from "@booth/db";
import { DevicePlatform, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { and, count, eq, inArray } from "drizzle-orm";
import type { Context } from "hono";
import { rateLimit, requireService, requireUser, STAFF } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest, forbidden, HttpError, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody } from "../../lib/openapi.ts";
import { findRoom, ROOM_NOT_FOUND, ROOM_RANK, type Room, roomRank } from "../room/access.ts";
import {
  checkSize,
  claimAfter,
  claimAfterQuiet,
  cooldownOf,
  deliver,
  deliverToAllDevices,
  deliverToTokens,
  fansAudience,
  NoticeFields,
  ReachSchema,
  ReportSchema,
  reachOf,
  roomUsersAudience,
  SilentFields,
  usersAudience,
} from "./notify.ts";

export const notificationsRoutes = createRouter();

export const USER_NOT_FOUND = "User not found.";
export const DJ_NOT_FOUND = "DJ not found.";
export const NO_DEVICE = "No device is registered with these tokens.";
export const ONLY_FRIENDS = "You can only message your friends.";
export const ROOM_STAFF_ONLY = "Only the room's owner, co-owners and moderators can message its users.";

/** A DJ's fans hear about a set once: not again until the DJ has not played for this long. */
export const DJ_FANS_QUIET_SECONDS = 2 * 3600;
export const FANS_RECENTLY_NOTIFIED = "This DJ's fans were notified less than 2 hours ago.";
/** A room's users get at most one message from its staff in this time. */
export const ROOM_USERS_COOLDOWN_SECONDS = 3600;
export const ROOM_RECENTLY_NOTIFIED = "This room's users were notified less than an hour ago.";
export const NOBODY_TO_NOTIFY = "There is nobody to notify.";
export const NOWHERE_TO_NOTIFY = "None of them has a device or browser registered for notifications.";
/** How many friends one user may message in an hour. */
export const CUSTOM_MESSAGES_PER_HOUR = 20;

const Uuids = (max: number) =>
  z
    .array(z.uuid())
    .min(1)
    .max(max)
    .refine((a) => new Set(a).size === a.length, "must not repeat");
const Tokens = z.array(z.string().min(1).max(4096)).min(1).max(500);

const TokenReportSchema = ReportSchema.extend({
  unknownTokens: z.number().int().openapi({ description: "tokens no active account has registered" }),
}).openapi("PushTokenReport");

const CheckSchema = ReachSchema.extend({
  canSend: z.boolean(),
  reason: z.string().nullable().openapi({ description: "why not, when canSend is false" }),
  nextPossibleAt: z.string().nullable().openapi({ description: "when the waiting time ends, if one applies" }),
}).openapi("PushCheck");

const DjFansResultSchema = ReportSchema.extend({
  notified: z.boolean(),
  reason: z.string().nullable(),
}).openapi("DjFansNotification");

const tags = ["Notifications"];
const mobile = { mobile: true, web: false } as const;

const staff = (c: Context<AppEnv>) => requireUser(c, { roles: STAFF });

async function activeUserOr404(c: Context<AppEnv>, uuid: string, message = USER_NOT_FOUND) {
  const [row] = await c.var.deps.db
    .select({ nickname: schema.profiles.nickname, deactivatedAt: schema.users.deactivatedAt })
    .from(schema.users)
    .leftJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
    .where(eq(schema.users.uuid, uuid));
  if (!row || row.deactivatedAt) throw notFound(message);
  return { nickname: row.nickname ?? "Someone" };
}

async function roomOr404(c: Context<AppEnv>, uuid: string) {
  const room = await findRoom(c.var.deps.db, { uuid });
  if (!room) throw notFound(ROOM_NOT_FOUND);
  return room;
}

// ---- mobile notifications: to device tokens ----------------------------------------------------------------------

const TokensNotice = z.object({ tokens: Tokens, ...NoticeFields }).openapi("MobileNotificationToTokens");

async function sendToTokens(c: Context<AppEnv>, tokens: string[], notice: Parameters<typeof checkSize>[0]) {
  checkSize(notice);
  const { report, unknownTokens } = await deliverToTokens(c.var.deps, tokens, notice);
  if (report.devices === 0) throw notFound(NO_DEVICE);
  return { ...report, unknownTokens };
}

notificationsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/mobileNotification",
    tags,
    summary: "Send a notification to registered devices by push token (services, admins)",
    security: bearer,
    request: jsonBody(TokensNotice),
    responses: { 200: json(TokenReportSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const { tokens, ...notice } = c.req.valid("json");
    return c.json(await sendToTokens(c, tokens, notice), 200);
  },
);

notificationsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/mobileNotification/admin",
    tags,
    summary: "Send a notification to registered devices by push token (staff, admins)",
    security: bearer,
    request: jsonBody(TokensNotice),
    responses: { 200: json(TokenReportSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await staff(c);
    const { tokens, ...notice } = c.req.valid("json");
    return c.json(await sendToTokens(c, tokens, notice), 200);
  },
);

notificationsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/mobileNotification/silent-notification",
    tags,
    summary: "Send a silent (data only, background) notification to devices by push token (services, admins)",
    security: bearer,
    request: jsonBody(z.object({ tokens: Tokens, ...SilentFields }).openapi("SilentNotificationToTokens")),
    responses: { 200: json(TokenReportSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const { tokens, data } = c.req.valid("json");
    return c.json(await sendToTokens(c, tokens, { data, silent: true }), 200);
  },
);

// ---- mobile notifications: to users ----------------------------------------------------------------------------

const UserNotice = z.object({ userUuid: z.uuid(), ...NoticeFields }).openapi("MobileNotificationToUser");

async function sendToUser(c: Context<AppEnv>, userUuid: string, notice: Parameters<typeof checkSize>[0]) {
  checkSize(notice);
  await activeUserOr404(c, userUuid);
  const { db } = c.var.deps;
  return deliver(c.var.deps, usersAudience(db, [userUuid]), notice, mobile);
}

notificationsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/mobileNotification/user",
    tags,
    summary: "Send a notification to every device of a user (services, admins)",
    security: bearer,
    request: jsonBody(UserNotice),
    responses: { 200: json(ReportSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const { userUuid, ...notice } = c.req.valid("json");
    return c.json(await sendToUser(c, userUuid, notice), 200);
  },
);

notificationsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/mobileNotification/user/admin",
    tags,
    summary: "Send a notification to every device of a user (staff, admins)",
    security: bearer,
    request: jsonBody(UserNotice),
    responses: { 200: json(ReportSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await staff(c);
    const { userUuid, ...notice } = c.req.valid("json");
    return c.json(await sendToUser(c, userUuid, notice), 200);
  },
);

notificationsRoutes.openapi(
  createRoute({
    method: "post",
    // Spelled so in the product's API.
    path: "/mobileNotification/user/admin/silent-nofitication",
    tags,
    summary: "Send a silent (data only) notification to every device of a user (staff, admins)",
    security: bearer,
    request: jsonBody(z.object({ userUuid: z.uuid(), ...SilentFields }).openapi("SilentNotificationToUser")),
    responses: { 200: json(ReportSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await staff(c);
    const { userUuid, data } = c.req.valid("json");
    return c.json(await sendToUser(c, userUuid, { data, silent: true }), 200);
  },
);

notificationsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/mobileNotification/custom-message",
    tags,
    summary:
      "Send a message from a user to other users' devices, leaving out anyone blocked either way (services, admins)",
    security: bearer,
    request: jsonBody(
      z.object({ senderUuid: z.uuid(), userUuids: Uuids(500), ...NoticeFields }).openapi("MobileCustomMessage"),
    ),
    responses: { 200: json(ReportSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const { senderUuid, userUuids, ...notice } = c.req.valid("json");
    const withSender = { ...notice, data: { ...notice.data, type: notice.data?.type ?? "customMessage", senderUuid } };
    checkSize(withSender);
    await activeUserOr404(c, senderUuid);
    const audience = usersAudience(c.var.deps.db, userUuids, senderUuid);
    return c.json(await deliver(c.var.deps, audience, withSender, mobile), 200);
  },
);

notificationsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/mobileNotification/all-devices",
    tags,
    summary: "Send a notification to every registered device, or every device of one platform (staff, admins)",
    security: bearer,
    request: jsonBody(
      z.object({ ...NoticeFields, platform: z.enum(values(DevicePlatform)).optional() }).openapi("MobileBroadcast"),
    ),
    responses: { 200: json(ReportSchema), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await staff(c);
    const { platform, ...notice } = c.req.valid("json");
    checkSize(notice);
    return c.json(await deliverToAllDevices(c.var.deps, notice, platform), 200);
  },
);

notificationsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/mobileNotification/room-users",
    tags,
    summary:
      "Send a notification to a room's users: those who saved it as a favourite, are not in it now and are not banned from it (services, admins)",
    security: bearer,
    request: jsonBody(z.object({ roomUuid: z.uuid(), ...NoticeFields }).openapi("MobileNotificationToRoomUsers")),
    responses: { 200: json(ReportSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const { roomUuid, ...notice } = c.req.valid("json");
    const room = await roomOr404(c, roomUuid);
    const data = { ...notice.data, type: notice.data?.type ?? "room", roomUuid: room.uuid, roomSlug: room.slug };
    const full = checkSize({ ...notice, data });
    const { db, clock } = c.var.deps;
    return c.json(await deliver(c.var.deps, roomUsersAudience(db, room.uuid, clock.now()), full, mobile), 200);
  },
);

// ---- DJ fans ---------------------------------------------------------------------------------------------------

const djKey = (djUuid: string) => `dj:${djUuid}`;

notificationsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/notifications/dj-fans",
    tags,
    summary:
      "Tell a DJ's fans (devices and browsers) that the DJ started playing; called by the live room at each song, it notifies once per set (services, admins)",
    security: bearer,
    request: jsonBody(
      z.object({ djUuid: z.uuid(), roomUuid: z.uuid().optional() }).openapi("DjFansNotificationRequest"),
    ),
    responses: { 200: json(DjFansResultSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const { djUuid, roomUuid } = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const dj = await activeUserOr404(c, djUuid, DJ_NOT_FOUND);
    const room: Room | null = roomUuid ? await roomOr404(c, roomUuid) : null;
    const nobody = { users: 0, devices: 0, webSubscriptions: 0, sent: 0, queued: 0, failed: 0, removed: 0 };
    if (!(await claimAfterQuiet(db, djKey(djUuid), clock.now(), DJ_FANS_QUIET_SECONDS)))
      return c.json({ notified: false, reason: FANS_RECENTLY_NOTIFIED, ...nobody }, 200);
    const notice = {
      title: `${dj.nickname} is playing`,
      body: room ? `${dj.nickname} is on the decks in ${room.name}. Come and listen!` : `${dj.nickname} started a set.`,
      data: { type: "djPlaying", djUuid, ...(room ? { roomUuid: room.uuid, roomSlug: room.slug } : {}) },
    };
    const report = await deliver(c.var.deps, fansAudience(db, djUuid, room?.uuid), notice);
    return c.json({ notified: true, reason: null, ...report }, 200);
  },
);

notificationsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/dj-fans-notification",
    tags,
    summary:
      "Whether a DJ's fans can be notified now, and how many would be reached (the DJ themselves; services and admins for any DJ)",
    security: bearer,
    request: {
      query: z.object({
        djUuid: z.uuid().optional().openapi({ description: "default: the caller" }),
        roomUuid: z.uuid().optional().openapi({ description: "fans already in this room are not counted" }),
      }),
    },
    responses: { 200: json(CheckSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const query = c.req.valid("query");
    let djUuid = query.djUuid;
    if (c.var.auth?.type === "service") {
      if (!djUuid) throw badRequest(["djUuid: Required"]);
    } else {
      const { user } = await requireUser(c);
      djUuid ??= user.uuid;
      if (djUuid !== user.uuid) await requireService(c);
    }
    const { db, clock } = c.var.deps;
    await activeUserOr404(c, djUuid, DJ_NOT_FOUND);
    if (query.roomUuid) await roomOr404(c, query.roomUuid);
    const reach = await reachOf(db, fansAudience(db, djUuid, query.roomUuid));
    const seen = await cooldownOf(db, djKey(djUuid));
    const quietEnds = seen ? new Date(seen.seenAt.getTime() + DJ_FANS_QUIET_SECONDS * 1000) : null;
    const waiting = quietEnds && quietEnds > clock.now() ? quietEnds : null;
    return c.json(check(reach, waiting, FANS_RECENTLY_NOTIFIED), 200);
  },
);

function check(reach: z.infer<typeof ReachSchema>, waitingUntil: Date | null, waitingReason: string) {
  const reason = waitingUntil
    ? waitingReason
    : reach.users === 0
      ? NOBODY_TO_NOTIFY
      : reach.devices + reach.webSubscriptions === 0
        ? NOWHERE_TO_NOTIFY
        : null;
  return { ...reach, canSend: reason === null, reason, nextPossibleAt: waitingUntil?.toISOString() ?? null };
}

// ---- messages from people --------------------------------------------------------------------------------------

notificationsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/notifications/custom-message",
    tags,
    summary: `Send a message to some of one's friends, on their devices and browsers (signed in; ${CUSTOM_MESSAGES_PER_HOUR} an hour)`,
    security: bearer,
    request: jsonBody(
      z.object({ userUuids: Uuids(50), message: z.string().trim().min(1).max(500) }).openapi("CustomMessageToFriends"),
    ),
    responses: { 200: json(ReportSchema), ...errors(400, 401, 403, 429) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { userUuids, message } = c.req.valid("json");
    const { db } = c.var.deps;
    const [friends] = await db
      .select({ n: count() })
      .from(schema.friends)
      .where(and(eq(schema.friends.userUuid, user.uuid), inArray(schema.friends.friendUuid, userUuids)));
    if ((friends?.n ?? 0) !== userUuids.length) throw forbidden(ONLY_FRIENDS);
    const audience = usersAudience(db, userUuids, user.uuid);
    const [reachable] = await db.select({ n: count() }).from(schema.users).where(inArray(schema.users.uuid, audience));
    // A block or a deactivation since the friendship leaves someone out: refused as a whole, nothing sent.
    if ((reachable?.n ?? 0) !== userUuids.length) throw forbidden(ONLY_FRIENDS);
    const sender = await activeUserOr404(c, user.uuid);
    const notice = checkSize({
      title: sender.nickname,
      body: message,
      data: { type: "customMessage", senderUuid: user.uuid },
    });
    await rateLimit(c, `custom-message:${user.uuid}`, CUSTOM_MESSAGES_PER_HOUR, 3600);
    return c.json(await deliver(c.var.deps, audience, notice), 200);
  },
);

/** The room's staff (owner, co-owners, moderators, and the platform's moderators and above) may message its users. */
async function roomSender(c: Context<AppEnv>, roomUuid: string) {
  const { user } = await requireUser(c);
  const room = await roomOr404(c, roomUuid);
  const { db, clock } = c.var.deps;
  if ((await roomRank(db, room, user, clock.now())) < ROOM_RANK.moderator) throw forbidden(ROOM_STAFF_ONLY);
  return { user, room };
}

const roomKey = (roomUuid: string) => `room:${roomUuid}`;

notificationsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/notifications/custom-message-from-room",
    tags,
    summary:
      "Send a message from a room to its users (favourites not in it now, not banned), once an hour (the room's owner, co-owners, moderators)",
    security: bearer,
    request: jsonBody(
      z.object({ roomUuid: z.uuid(), message: z.string().trim().min(1).max(500) }).openapi("CustomMessageFromRoom"),
    ),
    responses: { 200: json(ReportSchema), ...errors(400, 401, 403, 404, 429) },
  }),
  async (c) => {
    const { roomUuid, message } = c.req.valid("json");
    const { user, room } = await roomSender(c, roomUuid);
    const { db, clock } = c.var.deps;
    const notice = checkSize({
      title: room.name,
      body: message,
      data: { type: "roomMessage", roomUuid: room.uuid, roomSlug: room.slug, senderUuid: user.uuid },
    });
    const audience = roomUsersAudience(db, room.uuid, clock.now(), user.uuid);
    const reach = await reachOf(db, audience);
    // Nobody to tell: nothing sent, and the hour is not used up.
    if (reach.users === 0) return c.json({ ...reach, sent: 0, queued: 0, failed: 0, removed: 0 }, 200);
    if (!(await claimAfter(db, roomKey(room.uuid), clock.now(), ROOM_USERS_COOLDOWN_SECONDS)))
      throw new HttpError(429, ROOM_RECENTLY_NOTIFIED);
    return c.json(await deliver(c.var.deps, audience, notice), 200);
  },
);

notificationsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/room-users-notification",
    tags,
    summary:
      "Whether the room's users can be messaged now, and how many would be reached (the room's staff, services, admins)",
    security: bearer,
    request: { query: z.object({ roomUuid: z.uuid() }) },
    responses: { 200: json(CheckSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { roomUuid } = c.req.valid("query");
    const { db, clock } = c.var.deps;
    let sender: string | undefined;
    if (c.var.auth?.type === "service") await roomOr404(c, roomUuid);
    else sender = (await roomSender(c, roomUuid)).user.uuid;
    const reach = await reachOf(db, roomUsersAudience(db, roomUuid, clock.now(), sender));
    const last = await cooldownOf(db, roomKey(roomUuid));
    const ends = last ? new Date(last.sentAt.getTime() + ROOM_USERS_COOLDOWN_SECONDS * 1000) : null;
    return c.json(check(reach, ends && ends > clock.now() ? ends : null, ROOM_RECENTLY_NOTIFIED), 200);
  },
);
