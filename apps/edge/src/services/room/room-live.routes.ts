import { createRoute, z } from "@hono/zod-openapi";
import {
  bearer,
  DateTime,
  errors,
  json,
  jsonBody,
  noContent,
  Offset,
  PageQuery,
  UuidParam,
} from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../../lib/profiles.ts";
import { CrateSongSchema } from "../playlist/crates.ts";
import { RoomSlugParam } from "./access.ts";
import { RoomSettingsSchema } from "./rooms.ts";

const tags = ["Live"];

export const joinRoom = createRoute({
  method: "post",
  path: "/rooms/{slug}/join",
  tags,
  summary:
    "Enter a room: checks bans, kicks, the password (the guest password for guests) and the room's size; answers the room's config (its sanctions to its moderators only)",
  security: bearer,
  request: {
    params: RoomSlugParam,
    ...jsonBody(
      z.object({ password: z.string().max(128).optional(), guestPassword: z.string().max(128).optional() }).strict(),
    ),
  },
  responses: { 200: json(RoomSettingsSchema), ...errors(400, 401, 403, 404, 429) },
});

// Presence, as the live room reports it -----------------------------------------------------------------------------

const UserParam = z.object({ user: z.uuid().openapi({ param: { name: "user", in: "path" } }) });

export const userEntered = createRoute({
  method: "patch",
  path: "/rooms/user/{user}",
  tags: ["Service"],
  summary: "The live room reports that a user is in it (services)",
  security: bearer,
  request: { params: UserParam, ...jsonBody(z.object({ roomUuid: z.uuid() }).strict()) },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});

export const userLeft = createRoute({
  method: "delete",
  path: "/rooms/user/{user}",
  tags: ["Service"],
  summary: "The live room reports that a user left it; without roomUuid, they left every room (services)",
  security: bearer,
  request: { params: UserParam, query: z.object({ roomUuid: z.uuid().optional() }) },
  responses: { ...noContent, ...errors(400, 401, 403) },
});

const RoomParam = z.object({
  room: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: "room", in: "path", description: "the room's uuid or slug" } }),
});

export const roomUsers = createRoute({
  method: "get",
  path: "/rooms/users/{room}",
  tags: ["Rooms"],
  summary: "The profiles of the people in a room (anyone; private rooms: their members only)",
  request: { params: RoomParam },
  responses: { 200: json(z.array(PublicProfileSchema).openapi("RoomUsers")), ...errors(400, 401, 403, 404) },
});

export const roomUserUuids = createRoute({
  method: "get",
  path: "/rooms/users/service/{room}",
  tags: ["Service"],
  summary: "The uuids of the people in a room (services)",
  security: bearer,
  request: { params: RoomParam },
  responses: {
    200: json(z.object({ roomUuid: z.uuid(), userUuids: z.array(z.uuid()) }).openapi("RoomUserUuids")),
    ...errors(400, 401, 403, 404),
  },
});

export const roomState = createRoute({
  method: "get",
  path: "/rooms/room-state/{id}",
  tags,
  summary:
    "The live state of a room as its clients see it: booth, now playing, votes (anyone for public rooms; private: moderators and up)",
  request: { params: UuidParam },
  responses: {
    200: json(z.object({ roomUuid: z.uuid(), state: z.record(z.string(), z.unknown()) }).openapi("LiveRoomState")),
    ...errors(400, 401, 403, 404, 502, 503),
  },
});

// Plays ------------------------------------------------------------------------------------------------------------

const VoteCounts = z
  .object({
    likes: z.number().int().min(0).max(1_000_000),
    dislikes: z.number().int().min(0).max(1_000_000),
    stars: z.number().int().min(0).max(1_000_000),
  })
  .openapi("VoteCounts");
const PlayedSong = z
  .object({
    trackName: z.string().max(500),
    artistName: z.string().max(500),
    duration: z
      .number()
      .min(0)
      .max(24 * 3600),
  })
  .catchall(z.unknown())
  .openapi("PlayedSong");
const PlaySchema = z
  .object({
    id: z.uuid(),
    roomUuid: z.uuid(),
    djUuid: z.uuid().nullable(),
    song: z.record(z.string(), z.unknown()),
    voteCounts: VoteCounts,
    playedAt: z.string(),
  })
  .openapi("RecentSong");
export const recordPlay = createRoute({
  method: "post",
  path: "/rooms/{slug}/recent-songs",
  tags,
  summary: "Record a song played in the room, with its votes (services: the live room when a song ends)",
  security: bearer,
  request: {
    params: RoomSlugParam,
    ...jsonBody(
      z
        .object({
          song: PlayedSong,
          djUuid: z.uuid().nullable().optional(),
          voteCounts: VoteCounts,
          playedAt: DateTime.optional(),
        })
        .strict(),
    ),
  },
  responses: { 201: json(PlaySchema, "Created"), ...errors(400, 401, 403, 404) },
});

export const recentPlays = createRoute({
  method: "get",
  path: "/rooms/{slug}/recent-songs",
  tags,
  summary: "The songs played in a room, the latest first (anyone)",
  request: { params: RoomSlugParam, query: PageQuery },
  responses: {
    200: json(z.object({ data: z.array(PlaySchema), total: z.number().int() }).openapi("RecentSongPage")),
    ...errors(400, 404),
  },
});

export const playedTime = createRoute({
  method: "get",
  path: "/rooms/room-played-time/{id}",
  tags,
  summary: "How long music has played in a room, in seconds, and how many songs (anyone)",
  request: { params: UuidParam },
  responses: {
    200: json(
      z
        .object({ roomUuid: z.uuid(), playedSeconds: z.number().int(), songs: z.number().int() })
        .openapi("RoomPlayedTime"),
    ),
    ...errors(400, 404),
  },
});

export const playedSeconds = createRoute({
  method: "get",
  path: "/info-admin/played-seconds",
  tags: ["Admin"],
  summary: "Seconds of music played across all rooms, optionally since a time (staff)",
  security: bearer,
  request: { query: z.object({ since: DateTime.optional() }) },
  responses: {
    200: json(z.object({ playedSeconds: z.number().int(), songs: z.number().int() }).openapi("PlayedSeconds")),
    ...errors(400, 401, 403),
  },
});

export const roomCrate = createRoute({
  method: "get",
  path: "/rooms/service/room/{id}/crate",
  tags: ["Service"],
  summary:
    "The songs of the room's room crate from a position on, wrapping around (services: the live room plays them while no DJ has a song)",
  security: bearer,
  request: {
    params: UuidParam,
    query: z.object({
      from: Offset.openapi({ description: "the crate position to start from (past the end: the first song)" }),
      limit: z.coerce.number().int().min(1).max(20).default(3),
    }),
  },
  responses: {
    200: json(z.object({ crateId: z.uuid().nullable(), songs: z.array(CrateSongSchema) }).openapi("RoomCrateSongs")),
    ...errors(400, 401, 403, 404),
  },
});
