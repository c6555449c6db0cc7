import { z } from "@hono/zod-openapi";
import { contracts, errors, json, jsonBody, ok, uuidParams } from "../../lib/openapi.ts";
import { CrateSongSchema, SongSchema } from "./crates.ts";

/** What the live room needs of a DJ's crates (services); the rules are in queue.ts. */
const { authed } = contracts(["Service"]);

const UserParam = uuidParams("userUuid");
const Upcoming = z.object({ songs: z.array(CrateSongSchema) }).openapi("UpcomingQueueSongs");
/** A queue song's shape; the crate entry only when the DJ named one of their own. */
const PlayableSong = SongSchema.extend({
  crateSongUuid: z.uuid().optional(),
  position: z.number().int().optional(),
  status: z.literal("SUCCESS"),
}).openapi("PlayableSong");

export const upcoming = authed("get", "/crate/service/user/{userUuid}/queue/upcoming", {
  summary: "The next songs of a user's queue, the one playing next first (services: the live room)",
  request: {
    params: UserParam,
    query: z.object({ limit: z.coerce.number().int().min(1).max(20).default(2) }),
  },
  responses: ok(Upcoming, 400, 401, 403, 404),
});

export const advance = authed("post", "/crate/service/user/{userUuid}/queue/advance", {
  summary:
    "A song of a user's queue was played: the queue moves past it (a song no longer in the queue moves nothing); answers the next songs (services)",
  request: {
    params: UserParam,
    ...jsonBody(z.object({ crateSongUuid: z.uuid(), limit: z.number().int().min(1).max(20).default(2) }).strict()),
  },
  responses: ok(Upcoming, 400, 401, 403, 404),
});

export const playableSong = authed("get", "/crate/service/user/{userUuid}/songs/{songId}", {
  summary:
    "A song a DJ names, as the room plays it: the catalogue's data and stream addresses; the crate entry kept only when it is one of theirs (service tokens only)",
  request: {
    params: uuidParams("userUuid", "songId"),
    query: z.object({ crateSongUuid: z.uuid().optional() }),
  },
  responses: ok(PlayableSong, 400, 401, 403, 404, 422),
});

export const likeSong = authed("post", "/crate/service/user/{userUuid}/likes/songs", {
  summary:
    "Add a song to a user's likes crate (services: the live room when they star a song); a song already there answers 200",
  request: { params: UserParam, ...jsonBody(z.object({ songId: z.uuid() }).strict()) },
  responses: {
    200: json(z.object({ added: z.literal(false), message: z.string() }).openapi("AlreadyLiked")),
    201: json(z.object({ added: z.literal(true), song: CrateSongSchema }).openapi("Liked"), "Created"),
    ...errors(400, 401, 403, 404),
  },
});

export const grabSong = authed("post", "/crate/service/user/{userUuid}/crates/{crate}/songs", {
  summary:
    "Add a song to one of a user's crates, by its uuid, or their queue or likes (services: the live room when they grab the song playing); a song already there answers 200",
  request: {
    params: UserParam.extend({
      crate: z
        .union([z.uuid(), z.enum(["queue", "likes"])])
        .openapi({ param: { name: "crate", in: "path" }, description: "a crate's uuid, `queue` or `likes`" }),
    }),
    ...jsonBody(z.object({ songId: z.uuid() }).strict()),
  },
  responses: {
    200: json(z.object({ added: z.literal(false), message: z.string() }).openapi("AlreadyInCrate")),
    201: json(z.object({ added: z.literal(true), song: CrateSongSchema }).openapi("AddedToCrate"), "Created"),
    ...errors(400, 401, 403, 404),
  },
});
