import { createRoute, z } from "@hono/zod-openapi";
import { CrudQuerySchema, CrudSelectionSchema, crudPageSchema } from "../../lib/crud/index.ts";
import { bearer, errors, json, jsonBody, Offset, PageQuery, UuidParam } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../../lib/profiles.ts";
import { RoomSlugParam } from "./access.ts";
import { RoomSchema, RoomSettingsSchema } from "./rooms.ts";

/**
 * Lists and single reads of rooms. Registered (room/index.ts) after every other `/rooms/...` route, and
 * `roomBySlug` last of all: `/rooms/{slug}` would otherwise answer for the fixed paths.
 */
const tags = ["Rooms"];

const RoomList = z.array(RoomSchema).openapi("RoomList");
const RoomPage = z.object({ data: RoomList, total: z.number().int() }).openapi("RoomPage");

export const publicRooms = createRoute({
  method: "get",
  path: "/rooms/public",
  tags,
  summary: "Public rooms, the busiest first (anyone)",
  request: { query: PageQuery },
  responses: { 200: json(RoomPage), ...errors(400) },
});

export const promotedRooms = createRoute({
  method: "get",
  path: "/rooms/promoted-rooms",
  tags,
  summary: "Promoted rooms; with providers (comma-separated), only those promoted to listeners of one of them (anyone)",
  request: { query: z.object({ providers: z.string().max(500).optional() }) },
  responses: { 200: json(RoomList), ...errors(400) },
});

export const privateCount = createRoute({
  method: "get",
  path: "/rooms/private-count",
  tags,
  summary: "How many private rooms there are (anyone)",
  responses: { 200: json(z.object({ count: z.number().int() }).openapi("PrivateRoomCount")) },
});

export const roomByUuid = createRoute({
  method: "get",
  path: "/rooms/uuid/{uuid}",
  tags,
  summary: "A room by uuid (anyone)",
  request: { params: z.object({ uuid: z.uuid().openapi({ param: { name: "uuid", in: "path" } }) }) },
  responses: { 200: json(RoomSchema), ...errors(400, 404) },
});

export const multipleRooms = createRoute({
  method: "get",
  path: "/rooms/multiple/list",
  tags,
  summary: "Several rooms by uuid: `room` repeated or comma-separated, at most 100 (anyone); unknown ones are left out",
  request: {
    query: z.object({
      room: z.union([z.string().max(4000), z.array(z.string().max(100)).max(100)]).optional(),
    }),
  },
  responses: { 200: json(RoomList), ...errors(400) },
});

export const myRooms = createRoute({
  method: "get",
  path: "/rooms/mine/list",
  tags,
  summary: "Rooms the caller runs: owns, co-owns or moderates (signed in)",
  security: bearer,
  responses: { 200: json(RoomList), ...errors(401) },
});

export const ownedRooms = createRoute({
  method: "get",
  path: "/rooms/owned-rooms/list",
  tags,
  summary: "Rooms the caller owns (signed in)",
  security: bearer,
  responses: { 200: json(RoomList), ...errors(401) },
});

export const roomsWithPasswords = createRoute({
  method: "post",
  path: "/rooms/list",
  tags,
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
  responses: { 200: json(RoomList), ...errors(400) },
});

export const favoriteRooms = createRoute({
  method: "get",
  path: "/rooms/favorites",
  tags,
  summary:
    "A user's favourite rooms (the caller's by default); private ones only to the user themselves with includePrivate",
  security: bearer,
  request: {
    query: z.object({
      userUuid: z.uuid().optional(),
      includePrivate: z.enum(["true", "false"]).optional(),
    }),
  },
  responses: { 200: json(RoomList), ...errors(400, 401) },
});

export const recordRecent = createRoute({
  method: "post",
  path: "/rooms/recent",
  tags,
  summary: "Remember that the caller visited a room (signed in); joining a room does it too",
  security: bearer,
  request: jsonBody(z.object({ roomUuid: z.uuid() }).strict()),
  responses: {
    201: json(z.object({ roomUuid: z.uuid(), visitedAt: z.string() }).openapi("RoomVisit")),
    ...errors(400, 401, 404),
  },
});

export const recentRooms = createRoute({
  method: "get",
  path: "/rooms/recent",
  tags,
  summary: "The rooms the caller visited, the latest first (signed in)",
  security: bearer,
  request: { query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }) },
  responses: { 200: json(RoomList), ...errors(400, 401) },
});

export const friendsActivity = createRoute({
  method: "get",
  path: "/rooms/friends-activity",
  tags,
  summary:
    "Where the caller's friends and followed DJs are: each one in a listed public room without a password, the latest first, at most 50 (signed in; not in the spec)",
  security: bearer,
  responses: {
    200: json(
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
    ),
    ...errors(401),
  },
});

export const recentlyVisited = createRoute({
  method: "get",
  path: "/rooms/rockset/recently-visited-rooms",
  tags,
  summary: "Public rooms visited by the most people in the last 24 hours (anyone)",
  request: { query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }) },
  responses: { 200: json(RoomList), ...errors(400) },
});

export const discordRooms = createRoute({
  method: "get",
  path: "/rooms/discord/list/{guild}",
  tags: ["Discord"],
  summary: "The rooms of a Discord guild (anyone)",
  request: { params: z.object({ guild: z.string().regex(/^\d{5,25}$/, "guild: a Discord guild id") }) },
  responses: { 200: json(RoomList), ...errors(400) },
});

// Services and admins ----------------------------------------------------------------------------------------------

export const serviceList = createRoute({
  method: "get",
  path: "/rooms/service/list",
  tags: ["Service"],
  summary: "Every room, oldest first, with take/skip (services)",
  security: bearer,
  request: {
    query: z.object({
      take: z.coerce.number().int().min(1).max(1000).default(100),
      skip: Offset,
    }),
  },
  responses: { 200: json(RoomPage), ...errors(400, 401, 403) },
});

export const serviceRoom = createRoute({
  method: "get",
  path: "/rooms/service/room/{id}",
  tags: ["Service"],
  summary: "A room's full settings with every role in force, as the live room needs them (services)",
  security: bearer,
  request: { params: UuidParam },
  responses: { 200: json(RoomSettingsSchema), ...errors(400, 401, 403, 404) },
});

export const adminRooms = createRoute({
  method: "get",
  path: "/admin/rooms",
  tags: ["Admin"],
  summary: "Every room, in the nestjsx/crud query syntax (staff)",
  security: bearer,
  request: { query: CrudQuerySchema },
  responses: { 200: json(crudPageSchema(RoomSchema.partial()).openapi("AdminRoomPage")), ...errors(400, 401, 403) },
});

export const adminRoom = createRoute({
  method: "get",
  path: "/admin/rooms/{id}",
  tags: ["Admin"],
  summary: "One room with its roles (staff)",
  security: bearer,
  request: { params: UuidParam, query: CrudSelectionSchema },
  responses: { 200: json(RoomSettingsSchema.partial()), ...errors(400, 401, 403, 404) },
});

// Last: `/rooms/{slug}` would otherwise answer for the fixed paths above.
export const roomBySlug = createRoute({
  method: "get",
  path: "/rooms/{slug}",
  tags,
  summary: "A room by slug (or uuid) (anyone)",
  request: { params: RoomSlugParam },
  responses: { 200: json(RoomSchema), ...errors(400, 404) },
});
