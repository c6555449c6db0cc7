import { z } from "@hono/zod-openapi";
import {
  contracts,
  created,
  DateTime,
  jsonBody,
  noContentOr,
  Offset,
  ok,
  PageQuery,
  pageSchema,
  pathKey,
  UuidParam,
  uuidParams,
} from "../../lib/openapi.ts";
import { CrateSongSchema } from "../playlist/public.ts";
import { PublicProfileSchema } from "../user/public.ts";
import { RoomSlugParam } from "./access.ts";
import { RoomSettingsSchema } from "./rooms.ts";

const { authed, route } = contracts(["Live"]);

export const joinRoom = authed("post", "/rooms/{slug}/join", {
  summary:
    "Enter a room: checks bans, kicks, the password (the guest password for guests) and the room's size; answers the room's config (its sanctions to its moderators only)",
  request: {
    params: RoomSlugParam,
    ...jsonBody(
      z.object({ password: z.string().max(128).optional(), guestPassword: z.string().max(128).optional() }).strict(),
    ),
  },
  responses: ok(RoomSettingsSchema, 400, 401, 403, 404, 429),
});

// Presence, as the live room reports it -----------------------------------------------------------------------------

const UserParam = uuidParams("user");

export const userEntered = authed("patch", "/rooms/user/{user}", {
  summary: "The live room reports that a user is in it (services)",
  tags: ["Service"],
  request: { params: UserParam, ...jsonBody(z.object({ roomUuid: z.uuid() }).strict()) },
  responses: noContentOr(400, 401, 403, 404),
});

export const userLeft = authed("delete", "/rooms/user/{user}", {
  summary: "The live room reports that a user left it; without roomUuid, they left every room (services)",
  tags: ["Service"],
  request: { params: UserParam, query: z.object({ roomUuid: z.uuid().optional() }) },
  responses: noContentOr(400, 401, 403),
});

const RoomParam = z.object({ room: pathKey("room", "the room's uuid or slug") });

export const roomUsers = route("get", "/rooms/users/{room}", {
  summary: "The profiles of the people in a room (anyone; private rooms: their members only)",
  tags: ["Rooms"],
  request: { params: RoomParam },
  responses: ok(z.array(PublicProfileSchema).openapi("RoomUsers"), 400, 401, 403, 404),
});

export const roomUserUuids = authed("get", "/rooms/users/service/{room}", {
  summary: "The uuids of the people in a room (services)",
  tags: ["Service"],
  request: { params: RoomParam },
  responses: ok(
    z.object({ roomUuid: z.uuid(), userUuids: z.array(z.uuid()) }).openapi("RoomUserUuids"),
    400,
    401,
    403,
    404,
  ),
});

export const roomState = route("get", "/rooms/room-state/{id}", {
  summary:
    "The live state of a room as its clients see it: booth, now playing, votes (anyone for public rooms; private: moderators and up)",
  request: { params: UuidParam },
  responses: ok(
    z.object({ roomUuid: z.uuid(), state: z.record(z.string(), z.unknown()) }).openapi("LiveRoomState"),
    400,
    401,
    403,
    404,
    502,
    503,
  ),
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
export const recordPlay = authed("post", "/rooms/{slug}/recent-songs", {
  summary: "Record a song played in the room, with its votes (services: the live room when a song ends)",
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
  responses: created(PlaySchema, 400, 401, 403, 404),
});

export const recentPlays = route("get", "/rooms/{slug}/recent-songs", {
  summary: "The songs played in a room, the latest first (anyone)",
  request: { params: RoomSlugParam, query: PageQuery },
  responses: ok(pageSchema(PlaySchema, "RecentSongPage"), 400, 404),
});

export const playedTime = route("get", "/rooms/room-played-time/{id}", {
  summary: "How long music has played in a room, in seconds, and how many songs (anyone)",
  request: { params: UuidParam },
  responses: ok(
    z
      .object({ roomUuid: z.uuid(), playedSeconds: z.number().int(), songs: z.number().int() })
      .openapi("RoomPlayedTime"),
    400,
    404,
  ),
});

export const playedSeconds = authed("get", "/info-admin/played-seconds", {
  summary: "Seconds of music played across all rooms, optionally since a time (staff)",
  tags: ["Admin"],
  request: { query: z.object({ since: DateTime.optional() }) },
  responses: ok(
    z.object({ playedSeconds: z.number().int(), songs: z.number().int() }).openapi("PlayedSeconds"),
    400,
    401,
    403,
  ),
});

export const roomCrate = authed("get", "/rooms/service/room/{id}/crate", {
  summary:
    "The songs of the room's room crate from a position on, wrapping around (services: the live room plays them while no DJ has a song)",
  tags: ["Service"],
  request: {
    params: UuidParam,
    query: z.object({
      from: Offset.openapi({ description: "the crate position to start from (past the end: the first song)" }),
      limit: z.coerce.number().int().min(1).max(20).default(3),
    }),
  },
  responses: ok(
    z.object({ crateId: z.uuid().nullable(), songs: z.array(CrateSongSchema) }).openapi("RoomCrateSongs"),
    400,
    401,
    403,
    404,
  ),
});
