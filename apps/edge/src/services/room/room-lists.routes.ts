import { z } from "@hono/zod-openapi";
import { adminCrudItem, adminCrudList, allForServices } from "../../lib/contract-families.ts";
import { contracts, errors, json, jsonBody, ok, PageQuery, UuidParam, uuidParams } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../user/public.ts";
import { RoomSlugParam } from "./access.ts";
import { RoomSchema, RoomSettingsSchema } from "./rooms.ts";

/**
 * Lists and single reads of rooms. Registered (room/index.ts) after every other `/rooms/...` route, and
 * `roomBySlug` last of all: `/rooms/{slug}` would otherwise answer for the fixed paths.
 */
const { authed, route } = contracts(["Rooms"]);

const RoomList = z.array(RoomSchema).openapi("RoomList");
const RoomPage = z.object({ data: RoomList, total: z.number().int() }).openapi("RoomPage");

export const publicRooms = route("get", "/rooms/public", {
  summary: "Public rooms, the busiest first (anyone)",
  request: { query: PageQuery },
  responses: ok(RoomPage, 400),
});

export const promotedRooms = route("get", "/rooms/promoted-rooms", {
  summary: "Promoted rooms; with providers (comma-separated), only those promoted to listeners of one of them (anyone)",
  request: { query: z.object({ providers: z.string().max(500).optional() }) },
  responses: ok(RoomList, 400),
});

export const privateCount = route("get", "/rooms/private-count", {
  summary: "How many private rooms there are (anyone)",
  responses: { 200: json(z.object({ count: z.number().int() }).openapi("PrivateRoomCount")) },
});

export const roomByUuid = route("get", "/rooms/uuid/{uuid}", {
  summary: "A room by uuid (anyone)",
  request: { params: uuidParams("uuid") },
  responses: ok(RoomSchema, 400, 404),
});

export const multipleRooms = route("get", "/rooms/multiple/list", {
  summary: "Several rooms by uuid: `room` repeated or comma-separated, at most 100 (anyone); unknown ones are left out",
  request: {
    query: z.object({
      room: z.union([z.string().max(4000), z.array(z.string().max(100)).max(100)]).optional(),
    }),
  },
  responses: ok(RoomList, 400),
});

export const myRooms = authed("get", "/rooms/mine/list", {
  summary: "Rooms the caller runs: owns, co-owns or moderates (signed in)",
  responses: ok(RoomList, 401),
});

export const ownedRooms = authed("get", "/rooms/owned-rooms/list", {
  summary: "Rooms the caller owns (signed in)",
  responses: ok(RoomList, 401),
});

export const roomsWithPasswords = route("post", "/rooms/list", {
  summary:
    "Rooms by uuid or slug with the passwords the caller knows: protected rooms come back only with the right one (anyone)",
  request: jsonBody(
    z
      .object({
        rooms: z
          .array(
            z.object({ room: z.string().trim().min(1).max(100), password: z.string().max(128).optional() }).strict(),
          )
          .min(1)
          .max(50),
      })
      .strict(),
  ),
  responses: ok(RoomList, 400),
});

export const favoriteRooms = authed("get", "/rooms/favorites", {
  summary:
    "A user's favourite rooms (the caller's by default); private ones only to the user themselves with includePrivate",
  request: {
    query: z.object({
      userUuid: z.uuid().optional(),
      includePrivate: z.enum(["true", "false"]).optional(),
    }),
  },
  responses: ok(RoomList, 400, 401),
});

export const recordRecent = authed("post", "/rooms/recent", {
  summary: "Remember that the caller visited a room (signed in); joining a room does it too",
  request: jsonBody(z.object({ roomUuid: z.uuid() }).strict()),
  responses: {
    201: json(z.object({ roomUuid: z.uuid(), visitedAt: z.string() }).openapi("RoomVisit")),
    ...errors(400, 401, 404),
  },
});

export const recentRooms = authed("get", "/rooms/recent", {
  summary: "The rooms the caller visited, the latest first (signed in)",
  request: { query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }) },
  responses: ok(RoomList, 400, 401),
});

export const friendsActivity = authed("get", "/rooms/friends-activity", {
  summary:
    "Where the caller's friends and followed DJs are: each one in a listed public room without a password, the latest first, at most 50 (signed in; not in the spec)",
  responses: ok(
    z
      .array(
        z.object({
          person: PublicProfileSchema,
          relation: z.enum(["friend", "following"]),
          since: z.string(),
          room: RoomSchema,
        }),
      )
      .openapi("FriendsActivity"),
    401,
  ),
});

export const recentlyVisited = route("get", "/rooms/rockset/recently-visited-rooms", {
  summary: "Public rooms visited by the most people in the last 24 hours (anyone)",
  request: { query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }) },
  responses: ok(RoomList, 400),
});

export const discordRooms = route("get", "/rooms/discord/list/{guild}", {
  summary: "The rooms of a Discord guild (anyone)",
  tags: ["Discord"],
  request: { params: z.object({ guild: z.string().regex(/^\d{5,25}$/, "guild: a Discord guild id") }) },
  responses: ok(RoomList, 400),
});

// Services and admins ----------------------------------------------------------------------------------------------

export const serviceList = allForServices(
  authed,
  "/rooms/service/list",
  "Every room, oldest first, with take/skip (services)",
  RoomPage,
);

export const serviceRoom = authed("get", "/rooms/service/room/{id}", {
  summary: "A room's full settings with every role in force, as the live room needs them (services)",
  tags: ["Service"],
  request: { params: UuidParam },
  responses: ok(RoomSettingsSchema, 400, 401, 403, 404),
});

export const adminRooms = adminCrudList(
  authed,
  "/admin/rooms",
  "Every room, in the nestjsx/crud query syntax (staff)",
  RoomSchema.partial(),
  "AdminRoomPage",
);

export const adminRoom = adminCrudItem(
  authed,
  "/admin/rooms/{id}",
  "One room with its roles (staff)",
  RoomSettingsSchema.partial(),
);

// Last: `/rooms/{slug}` would otherwise answer for the fixed paths above.
export const roomBySlug = route("get", "/rooms/{slug}", {
  summary: "A room by slug (or uuid) (anyone)",
  request: { params: RoomSlugParam },
  responses: ok(RoomSchema, 400, 404),
});
