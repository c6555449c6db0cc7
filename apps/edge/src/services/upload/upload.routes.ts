import { SongUploadStatus, TranscodingStatus, values } from "@booth/db/schema";
import { MAX_UPLOAD_BYTES, MEGABYTE } from "@booth/sdk/limits";
import { z } from "@hono/zod-openapi";
import { publicItem, removal } from "../../lib/contract-families.ts";
import {
  contracts,
  created,
  errors,
  jsonBody,
  ok,
  PageQuery,
  pageSchema,
  Timestamps,
  UuidParam,
} from "../../lib/openapi.ts";
import { RENDITION_NAMES } from "../../ports/audio.ts";

const tags = ["Uploads"];
const { authed, route } = contracts(tags);

const TagsSchema = z
  .object({
    title: z.string().trim().min(1).max(200).nullable().optional(),
    artist: z.string().trim().min(1).max(200).nullable().optional(),
    album: z.string().trim().max(200).nullable().optional(),
    year: z.number().int().min(1000).max(3000).nullable().optional(),
    genre: z.string().trim().max(100).nullable().optional(),
    comment: z.string().trim().max(1000).nullable().optional(),
    track: z.number().int().min(0).max(9999).nullable().optional(),
  })
  .openapi("SongTags");
const UploadSchema = z
  .object({
    id: z.uuid(),
    ownerUuid: z.uuid(),
    originalName: z.string(),
    status: z.enum(values(SongUploadStatus)),
    transcodingStatus: z.enum(values(TranscodingStatus)),
    contentType: z.string().nullable(),
    size: z.number().int().nullable(),
    duration: z.number().int().nullable(),
    tags: TagsSchema,
    songId: z.uuid().nullable(),
    thumbnails: z.record(z.string(), z.string()),
    hlsPlaylistUrl: z.string().nullable(),
    error: z.string().nullable(),
    ...Timestamps,
  })
  .openapi("UploadedSong");
const AudioBody = {
  required: true,
  content: { "audio/mpeg": { schema: z.any().openapi({ type: "string", format: "binary" }) } },
};

export const startUpload = authed("post", "/upload/song", {
  summary: "Start an upload: answers the song id and the URL to PUT the audio file to",
  request: jsonBody(z.object({ originalFileName: z.string().trim().min(1).max(255) })),
  responses: created(z.object({ id: z.uuid(), uploadUrl: z.string() }).openapi("UploadTicket"), 400, 401, 403, 429),
});

export const sendFile = authed("put", "/upload/song/{id}/file", {
  summary: `Send the audio file of an upload (mp3, flac, wav, ogg or m4a; at most ${MAX_UPLOAD_BYTES / MEGABYTE} MB)`,
  request: { params: UuidParam, body: AudioBody },
  responses: ok(UploadSchema, 400, 401, 403, 404, 409, 411, 413, 415),
});

export const ownSongs = authed("get", "/songs", {
  summary: "The caller's uploaded songs, newest first",
  request: { query: PageQuery.extend({ status: z.enum(values(SongUploadStatus)).optional() }) },
  responses: ok(pageSchema(UploadSchema, "UploadPage"), 400, 401, 403),
});

export const publicSongs = route("get", "/songs/public", {
  summary: "Every verified, playable upload, newest first",
  request: { query: PageQuery },
  responses: ok(pageSchema(UploadSchema, "PublicUploadPage"), 400),
});

export const search = route("get", "/search", {
  summary: "Search playable uploads by title or artist",
  request: { query: PageQuery.extend({ term: z.string().trim().min(1).max(200) }) },
  responses: ok(pageSchema(UploadSchema, "UploadSearchPage"), 400),
});

export const hlsKey = route("get", "/songs/hls/key", {
  summary:
    "The AES-128 key of a song's HLS segments, for the grant its playlist gave someone allowed to hear it (a few minutes)",
  request: {
    query: z.object({
      songId: z.uuid(),
      grant: z.string().max(2000).optional().openapi({ description: "The grant in the playlist's key URI" }),
    }),
  },
  responses: {
    200: {
      description: "The 16-byte key",
      content: { "application/octet-stream": { schema: z.any().openapi({ type: "string", format: "binary" }) } },
    },
    ...errors(400, 401, 403, 404),
  },
});

export const getSong = publicItem(
  route,
  "/songs/{id}",
  "One uploaded song (its owner, or anyone once it is playable)",
  UploadSchema,
);

export const editTags = authed("patch", "/songs/{id}", {
  summary: "Edit a song's tags (its owner); completing missing tags verifies it",
  request: { params: UuidParam, ...jsonBody(TagsSchema) },
  responses: ok(UploadSchema, 400, 401, 403, 404, 409),
});

export const deleteSong = removal(
  authed,
  "/songs/{id}",
  "Delete an uploaded song and its files (its owner or an admin)",
);

export const hlsPlaylist = authed("get", "/songs/{id}/hls-playlist", {
  summary:
    "The HLS playlist of a verified song, for someone allowed to hear it now (its uploader, an admin, a member of a room playing it): the master playlist of its renditions (low, medium, high), or with `rendition` that rendition's media playlist, whose key URI carries a short grant",
  request: {
    params: UuidParam,
    query: z.object({
      rendition: z.enum(RENDITION_NAMES).optional().openapi({
        description: "One rendition's media playlist (the master playlist's variant streams name these)",
      }),
    }),
  },
  responses: {
    200: { description: "An HLS playlist", content: { "application/vnd.apple.mpegurl": { schema: z.string() } } },
    ...errors(400, 401, 403, 404, 409),
  },
});

export const hlsSegment = route("get", "/songs/{id}/hls/{segment}", {
  summary: "One encrypted HLS segment of a song",
  request: {
    params: UuidParam.extend({
      segment: z
        .string()
        .regex(/^(?:(?:low|medium|high)-)?seg\d{3,6}\.ts$/)
        .openapi({ param: { name: "segment", in: "path" } }),
    }),
  },
  responses: { 200: { description: "An MPEG-TS segment, AES-128 encrypted" }, ...errors(400, 404) },
});

export const cover = route("get", "/songs/{id}/cover", {
  summary: "A song's cover art, from its tags",
  request: { params: UuidParam },
  responses: { 200: { description: "The cover image" }, ...errors(400, 404) },
});

export const metadata = authed("post", "/metadata", {
  summary: "Read the tags of an audio file without keeping it",
  request: { body: AudioBody },
  responses: ok(TagsSchema.extend({ duration: z.number().int() }).openapi("AudioMetadata"), 400, 401, 403, 413, 415),
});
