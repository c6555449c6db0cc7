import { DevicePlatform, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { contracts, jsonBody, ok } from "../../lib/openapi.ts";
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

const { authed } = contracts(["Notifications"]);

/** A notification sent to whom `body` names (services, staff, admins), answered with how it was delivered (`report`). */
const send = <P extends string, B extends z.ZodType, R extends z.ZodType>(
  path: P,
  summary: string,
  body: B,
  report: R,
) => authed("post", path, { summary, request: jsonBody(body), responses: ok(report, 400, 401, 403, 404) });

// ---- mobile notifications: to device tokens ----------------------------------------------------------------------

const TokensNotice = z.object({ tokens: Tokens, ...NoticeFields }).openapi("MobileNotificationToTokens");

export const toTokens = send(
  "/mobileNotification",
  "Send a notification to registered devices by push token (services, admins)",
  TokensNotice,
  TokenReportSchema,
);

export const toTokensByStaff = send(
  "/mobileNotification/admin",
  "Send a notification to registered devices by push token (staff, admins)",
  TokensNotice,
  TokenReportSchema,
);

export const silentToTokens = send(
  "/mobileNotification/silent-notification",
  "Send a silent (data only, background) notification to devices by push token (services, admins)",
  z.object({ tokens: Tokens, ...SilentFields }).openapi("SilentNotificationToTokens"),
  TokenReportSchema,
);

// ---- mobile notifications: to users ----------------------------------------------------------------------------

const UserNotice = z.object({ userUuid: z.uuid(), ...NoticeFields }).openapi("MobileNotificationToUser");

export const toUser = send(
  "/mobileNotification/user",
  "Send a notification to every device of a user (services, admins)",
  UserNotice,
  ReportSchema,
);

export const toUserByStaff = send(
  "/mobileNotification/user/admin",
  "Send a notification to every device of a user (staff, admins)",
  UserNotice,
  ReportSchema,
);

export const silentToUserByStaff = send(
  "/mobileNotification/user/admin/silent-nofitication",
  "Send a silent (data only) notification to every device of a user (staff, admins)",
  z.object({ userUuid: z.uuid(), ...SilentFields }).openapi("SilentNotificationToUser"),
  ReportSchema,
);

export const mobileCustomMessage = send(
  "/mobileNotification/custom-message",
  "Send a message from a user to other users' devices, leaving out anyone blocked either way (services, admins)",
  z.object({ senderUuid: z.uuid(), userUuids: Uuids(500), ...NoticeFields }).openapi("MobileCustomMessage"),
  ReportSchema,
);

export const toAllDevices = authed("post", "/mobileNotification/all-devices", {
  summary: "Send a notification to every registered device, or every device of one platform (staff, admins)",
  request: jsonBody(
    z.object({ ...NoticeFields, platform: z.enum(values(DevicePlatform)).optional() }).openapi("MobileBroadcast"),
  ),
  responses: ok(ReportSchema, 400, 401, 403),
});

export const toRoomUsers = send(
  "/mobileNotification/room-users",
  "Send a notification to a room's users: those who saved it as a favourite, are not in it now and are not banned from it (services, admins)",
  z.object({ roomUuid: z.uuid(), ...NoticeFields }).openapi("MobileNotificationToRoomUsers"),
  ReportSchema,
);

// ---- DJ fans ---------------------------------------------------------------------------------------------------

export const notifyDjFans = send(
  "/notifications/dj-fans",
  "Tell a DJ's fans (devices and browsers) that the DJ started playing; called by the live room at each song, it notifies once per set (services, admins)",
  z
    .object({
      djUuid: z.uuid(),
      roomUuid: z.uuid().optional(),
      song: z
        .object({ trackName: z.string().max(500), artistName: z.string().max(500) })
        .optional()
        .openapi({
          description:
            "The song the DJ started (the live room): a DJ with followers starting in a guild's room is posted to the channel the guild chose",
        }),
    })
    .openapi("DjFansNotificationRequest"),
  DjFansResultSchema,
);

export const djFansCheck = authed("get", "/dj-fans-notification", {
  summary:
    "Whether a DJ's fans can be notified now, and how many would be reached (the DJ themselves; services and admins for any DJ)",
  request: {
    query: z.object({
      djUuid: z.uuid().optional().openapi({ description: "default: the caller" }),
      roomUuid: z.uuid().optional().openapi({ description: "fans already in this room are not counted" }),
    }),
  },
  responses: ok(CheckSchema, 400, 401, 403, 404),
});

// ---- messages from people --------------------------------------------------------------------------------------

export const messageFriends = authed("post", "/notifications/custom-message", {
  summary: `Send a message to some of one's friends, on their devices and browsers (signed in; ${CUSTOM_MESSAGES_PER_HOUR} an hour)`,
  request: jsonBody(
    z.object({ userUuids: Uuids(50), message: z.string().trim().min(1).max(500) }).openapi("CustomMessageToFriends"),
  ),
  responses: ok(ReportSchema, 400, 401, 403, 429),
});

export const messageFromRoom = authed("post", "/notifications/custom-message-from-room", {
  summary:
    "Send a message from a room to its users (favourites not in it now, not banned), once an hour (the room's owner, co-owners, moderators)",
  request: jsonBody(
    z.object({ roomUuid: z.uuid(), message: z.string().trim().min(1).max(500) }).openapi("CustomMessageFromRoom"),
  ),
  responses: ok(ReportSchema, 400, 401, 403, 404, 429),
});

export const roomUsersCheck = authed("get", "/room-users-notification", {
  summary:
    "Whether the room's users can be messaged now, and how many would be reached (the room's staff, services, admins)",
  request: { query: z.object({ roomUuid: z.uuid() }) },
  responses: ok(CheckSchema, 400, 401, 403, 404),
});
