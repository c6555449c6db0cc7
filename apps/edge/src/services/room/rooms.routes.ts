import { z } from "@hono/zod-openapi";
import { removal } from "../../lib/contract-families.ts";
import {
  contracts,
  created,
  errors,
  fileBody,
  Int,
  json,
  jsonBody,
  noContentOr,
  UuidParam,
} from "../../lib/openapi.ts";
import { MAX_DJ_SEATS, MAX_PINNED_MESSAGES, PasswordInput, RoomSchema, RoomSettingsInput } from "./rooms.ts";

const { authed } = contracts(["Rooms"]);

const RoomIdParam = UuidParam;
const SettingsResponse = json(RoomSchema.extend({ roomRoles: z.array(z.any()) }).openapi("RoomWithRoles"));

/**
 * A change to some of a room's settings, answered with the room's settings: the one shape of every settings route
 * (a group of fields, or one field with the rank it needs). Their handlers come from `changeSettings`.
 */
const settingsChange = <M extends "patch" | "post", B extends z.ZodType>(
  method: M,
  path: string,
  summary: string,
  body: B,
) =>
  authed(method, path, {
    summary,
    request: { params: RoomIdParam, ...jsonBody(body) },
    responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404) },
  });

export const createRoom = authed("post", "/rooms/infrastructure", {
  summary: "Create a room; the caller owns it (a slug is made from the name when none is given)",
  request: jsonBody(RoomSettingsInput.required({ name: true })),
  responses: created(RoomSchema, 400, 401, 403, 429),
});

export const changeAllSettings = settingsChange(
  "patch",
  "/rooms/{id}/infrastructure",
  "Change any of a room's settings (its owner; staff)",
  RoomSettingsInput,
);

/** What co-owners may change: how the room looks and plays, not who may enter. */
const CoOwnerSettings = RoomSettingsInput.pick({
  name: true,
  description: true,
  vibe: true,
  design: true,
  hasChat: true,
  musicProviderKeys: true,
  djType: true,
  songsPerDj: true,
  voteSkipThreshold: true,
  waitlistEnabled: true,
  idleDjMinutes: true,
  roomCrateId: true,
}).strict();

export const changeLook = settingsChange(
  "patch",
  "/rooms/{id}",
  "Change how a room looks and plays: name, description, vibe, design, chat, DJ rules, waitlist (co-owners and up; the room crate: its owner)",
  CoOwnerSettings,
);

export const deleteRoom = removal(
  authed,
  "/rooms/{id}/infrastructure",
  "Delete a room (its owner; admins): the live room is reset and everyone leaves",
  RoomIdParam,
);

export const changeDjType = settingsChange(
  "patch",
  "/rooms/dj-type/{id}/infrastructure",
  "Who may DJ: EVERYONE, INVITE_ONLY (dj role), VERIFIED_ONLY, PRO_PLAN_OWNER (co-owners and up)",
  z.object({ djType: RoomSettingsInput.shape.djType.unwrap() }).strict(),
);
export const changeDjSeats = settingsChange(
  "patch",
  "/rooms/dj-seats/{id}/infrastructure",
  `How many DJ seats the booth has, 1 to ${MAX_DJ_SEATS} (co-owners and up)`,
  z.object({ numberOfDjs: z.number().int().min(1).max(MAX_DJ_SEATS) }).strict(),
);
export const changeLiveAudio = settingsChange(
  "patch",
  "/rooms/live-audio/{id}/infrastructure",
  "Turn the room's live audio (a DJ broadcasting their own stream) on or off (its owner)",
  z.object({ liveAudio: z.boolean() }).strict(),
);

export const changeLiveState = settingsChange(
  "patch",
  "/rooms/live-state/{id}/infrastructure",
  "Mark a room live or not (co-owners and up); the live room itself (service) also reports what plays and how many DJs sit",
  z
    .object({
      isLive: z.boolean().optional(),
      nowPlaying: z.record(z.string(), z.unknown()).nullable().optional(),
      numberOfActiveDjs: z.number().int().min(0).max(MAX_DJ_SEATS).optional(),
      messagesReceived: Int.min(0)
        .optional()
        .openapi({ description: "Messages received from clients since the room's last report (the live room only)" }),
    })
    .strict(),
);

export const promoteRoom = settingsChange(
  "patch",
  "/rooms/promote/{id}/infrastructure",
  "Promote a room, optionally only to listeners of some music providers (promoteRoom capability; staff)",
  z.object({ promoted: z.boolean(), providers: z.array(z.string().trim().min(1).max(40)).max(20).optional() }).strict(),
);

export const pinMessages = settingsChange(
  "post",
  "/rooms/{id}/pinned-messages",
  `Set the room's pinned messages, at most ${MAX_PINNED_MESSAGES}; an empty list unpins all (moderators and up)`,
  z.object({ pinnedMessages: z.array(z.string().trim().min(1).max(500)).max(MAX_PINNED_MESSAGES) }).strict(),
);

export const changeExternalUrl = settingsChange(
  "post",
  "/rooms/{id}/externalUrl",
  "Link the room to a page elsewhere (http or https), or unlink it with null (co-owners and up)",
  z
    .object({
      externalUrl: z
        .url({ protocol: /^https?$/ })
        .max(2000)
        .nullable(),
    })
    .strict(),
);

export const uploadPoster = authed("post", "/rooms/{id}/poster", {
  summary: "Upload the room's poster (png, jpeg, webp or gif, at most 5 MB; co-owners and up)",
  request: {
    params: RoomIdParam,
    ...fileBody(),
  },
  responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404, 413, 415) },
});

export const deletePoster = authed("delete", "/rooms/{id}/poster", {
  summary: "Remove the room's poster (co-owners and up)",
  request: { params: RoomIdParam },
  responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404) },
});

export const clearChat = removal(
  authed,
  "/rooms/conversation/{id}",
  "Clear the room's chat: the live room forgets its messages (moderators and up)",
  RoomIdParam,
);

export const resetRoom = authed("post", "/rooms/reset/{id}/infrastructure", {
  summary:
    "Reset the live room (its owner; global moderators and up): the booth, votes and chat start over and everyone reconnects",
  request: { params: RoomIdParam },
  responses: noContentOr(400, 401, 403, 404),
});

// Admin -------------------------------------------------------------------------------------------------------------

export const adminChange = authed("patch", "/rooms/admin/{id}", {
  summary: "Change any room setting, promotion or owner (staff)",
  tags: ["Admin"],
  request: {
    params: RoomIdParam,
    ...jsonBody(
      RoomSettingsInput.extend({
        promoted: z.boolean(),
        ownerUuid: z.uuid(),
      })
        .partial()
        .strict(),
    ),
  },
  responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404) },
});

const GuestPasswordBody = z.object({ roomUuid: z.uuid(), guestPassword: PasswordInput.unwrap() }).strict();

export const setGuestPassword = authed("post", "/rooms/admin/guest-password", {
  summary: "Set a room's guest password: guests (no account) enter with it (admins)",
  tags: ["Admin"],
  request: jsonBody(GuestPasswordBody),
  responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404) },
});

export const removeGuestPassword = authed("delete", "/rooms/admin/guest-password", {
  summary: "Remove a room's guest password (admins)",
  tags: ["Admin"],
  request: jsonBody(z.object({ roomUuid: z.uuid() }).strict()),
  responses: { 200: SettingsResponse, ...errors(400, 401, 403, 404) },
});

const Snowflake = (what: string) => z.string().regex(/^\d{5,25}$/, `${what}: a Discord id`);

export const discordActivityRoom = authed("post", "/rooms/discord/{guild}/activity", {
  summary:
    "The room of a Discord Activity: the one of the guild's voice channel, decided by the first to start the Activity there (the guild's attached room no other channel plays, else a new one) (guild members signed in with Discord)",
  tags: ["Discord"],
  request: {
    params: z.object({ guild: Snowflake("guild") }),
    ...jsonBody(
      z
        .object({
          channelId: Snowflake("channelId").openapi({ description: "The voice channel the Activity runs in" }),
          accessToken: z
            .string()
            .trim()
            .min(1)
            .max(4096)
            .openapi({ description: "The caller's Discord access token (the Activity's), with the guilds scope" }),
          name: RoomSettingsInput.shape.name
            .unwrap()
            .optional()
            .openapi({ description: "The name of a room made now (default: Discord, and the channel's id)" }),
        })
        .strict(),
    ),
  },
  responses: {
    200: json(RoomSchema.extend({ opened: z.boolean() }).openapi("ActivityRoom"), "The channel's room"),
    ...errors(400, 401, 403, 409, 429, 502, 503),
  },
});

export const attachDiscord = authed("post", "/rooms/discord/{guild}", {
  summary:
    "Attach a room to a Discord guild's activity: an existing room the caller co-owns (roomUuid), or a new one (name)",
  tags: ["Discord"],
  request: {
    params: z.object({ guild: z.string().regex(/^\d{5,25}$/, "guild: a Discord guild id") }),
    ...jsonBody(
      z
        .object({ roomUuid: z.uuid().optional(), name: RoomSettingsInput.shape.name.unwrap().optional() })
        .strict()
        .refine((b) => !!b.roomUuid !== !!b.name, { message: "give roomUuid or name", path: ["roomUuid"] }),
    ),
  },
  responses: { 200: SettingsResponse, 201: json(RoomSchema, "Created"), ...errors(400, 401, 403, 404) },
});
