import { DevicePlatform, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody } from "../../lib/openapi.ts";
import { CUSTOM_MESSAGES_PER_HOUR } from "./notifications.ts";
import { NoticeFields, ReachSchema, ReportSchema, SilentFields } from "./notify.ts";

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

// ---- mobile notifications: to device tokens ----------------------------------------------------------------------

const TokensNotice = z.object({ tokens: Tokens, ...NoticeFields }).openapi("MobileNotificationToTokens");

export const toTokens = createRoute({
  method: "post",
  path: "/mobileNotification",
  tags,
  summary: "Send a notification to registered devices by push token (services, admins)",
  security: bearer,
  request: jsonBody(TokensNotice),
  responses: { 200: json(TokenReportSchema), ...errors(400, 401, 403, 404) },
});

export const toTokensByStaff = createRoute({
  method: "post",
  path: "/mobileNotification/admin",
  tags,
  summary: "Send a notification to registered devices by push token (staff, admins)",
  security: bearer,
  request: jsonBody(TokensNotice),
  responses: { 200: json(TokenReportSchema), ...errors(400, 401, 403, 404) },
});

export const silentToTokens = createRoute({
  method: "post",
  path: "/mobileNotification/silent-notification",
  tags,
  summary: "Send a silent (data only, background) notification to devices by push token (services, admins)",
  security: bearer,
  request: jsonBody(z.object({ tokens: Tokens, ...SilentFields }).openapi("SilentNotificationToTokens")),
  responses: { 200: json(TokenReportSchema), ...errors(400, 401, 403, 404) },
});

// ---- mobile notifications: to users ----------------------------------------------------------------------------

const UserNotice = z.object({ userUuid: z.uuid(), ...NoticeFields }).openapi("MobileNotificationToUser");

export const toUser = createRoute({
  method: "post",
  path: "/mobileNotification/user",
  tags,
  summary: "Send a notification to every device of a user (services, admins)",
  security: bearer,
  request: jsonBody(UserNotice),
  responses: { 200: json(ReportSchema), ...errors(400, 401, 403, 404) },
});

export const toUserByStaff = createRoute({
  method: "post",
  path: "/mobileNotification/user/admin",
  tags,
  summary: "Send a notification to every device of a user (staff, admins)",
  security: bearer,
  request: jsonBody(UserNotice),
  responses: { 200: json(ReportSchema), ...errors(400, 401, 403, 404) },
});

export const silentToUserByStaff = createRoute({
  method: "post",
  // Spelled so in the product's API.
  path: "/mobileNotification/user/admin/silent-nofitication",
  tags,
  summary: "Send a silent (data only) notification to every device of a user (staff, admins)",
  security: bearer,
  request: jsonBody(z.object({ userUuid: z.uuid(), ...SilentFields }).openapi("SilentNotificationToUser")),
  responses: { 200: json(ReportSchema), ...errors(400, 401, 403, 404) },
});

export const mobileCustomMessage = createRoute({
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
});

export const toAllDevices = createRoute({
  method: "post",
  path: "/mobileNotification/all-devices",
  tags,
  summary: "Send a notification to every registered device, or every device of one platform (staff, admins)",
  security: bearer,
  request: jsonBody(
    z.object({ ...NoticeFields, platform: z.enum(values(DevicePlatform)).optional() }).openapi("MobileBroadcast"),
  ),
  responses: { 200: json(ReportSchema), ...errors(400, 401, 403) },
});

export const toRoomUsers = createRoute({
  method: "post",
  path: "/mobileNotification/room-users",
  tags,
  summary:
    "Send a notification to a room's users: those who saved it as a favourite, are not in it now and are not banned from it (services, admins)",
  security: bearer,
  request: jsonBody(z.object({ roomUuid: z.uuid(), ...NoticeFields }).openapi("MobileNotificationToRoomUsers")),
  responses: { 200: json(ReportSchema), ...errors(400, 401, 403, 404) },
});

// ---- DJ fans ---------------------------------------------------------------------------------------------------

export const notifyDjFans = createRoute({
  method: "post",
  path: "/notifications/dj-fans",
  tags,
  summary:
    "Tell a DJ's fans (devices and browsers) that the DJ started playing; called by the live room at each song, it notifies once per set (services, admins)",
  security: bearer,
  request: jsonBody(z.object({ djUuid: z.uuid(), roomUuid: z.uuid().optional() }).openapi("DjFansNotificationRequest")),
  responses: { 200: json(DjFansResultSchema), ...errors(400, 401, 403, 404) },
});

export const djFansCheck = createRoute({
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
});

// ---- messages from people --------------------------------------------------------------------------------------

export const messageFriends = createRoute({
  method: "post",
  path: "/notifications/custom-message",
  tags,
  summary: `Send a message to some of one's friends, on their devices and browsers (signed in; ${CUSTOM_MESSAGES_PER_HOUR} an hour)`,
  security: bearer,
  request: jsonBody(
    z.object({ userUuids: Uuids(50), message: z.string().trim().min(1).max(500) }).openapi("CustomMessageToFriends"),
  ),
  responses: { 200: json(ReportSchema), ...errors(400, 401, 403, 429) },
});

export const messageFromRoom = createRoute({
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
});

export const roomUsersCheck = createRoute({
  method: "get",
  path: "/room-users-notification",
  tags,
  summary:
    "Whether the room's users can be messaged now, and how many would be reached (the room's staff, services, admins)",
  security: bearer,
  request: { query: z.object({ roomUuid: z.uuid() }) },
  responses: { 200: json(CheckSchema), ...errors(400, 401, 403, 404) },
});
