import { SongUploadStatus, TranscodingStatus, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, noContent, PageQuery, pageSchema, UuidParam } from "../../lib/openapi.ts";
import { RENDITION_NAMES } from "./audio.ts";

const tags = ["Uploads"];

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
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("UploadedSong");
const AudioBody = {
  required: true,
  content: { "audio/mpeg": { schema: z.any().openapi({ type: "string", format: "binary" }) } },
};

export const startUpload = createRoute({
  method: "post",
  path: "/upload/song",
  tags,
  summary: "Start an upload: answers the song id and the URL to PUT the audio file to",
  security: bearer,
  request: jsonBody(z.object({ originalFileName: z.string().trim().min(1).max(255) })),
  responses: {
    201: json(z.object({ id: z.uuid(), uploadUrl: z.string() }).openapi("UploadTicket"), "Created"),
    ...errors(400, 401, 403, 429),
  },
});

export const sendFile = createRoute({
  method: "put",
  path: "/upload/song/{id}/file",
  tags,
  summary: "Send the audio file of an upload (mp3, flac, wav, ogg or m4a; at most 50 MB)",
  security: bearer,
  request: { params: UuidParam, body: AudioBody },
  responses: { 200: json(UploadSchema), ...errors(400, 401, 403, 404, 409, 411, 413, 415) },
});

export const ownSongs = createRoute({
  method: "get",
  path: "/songs",
  tags,
  summary: "The caller's uploaded songs, newest first",
  security: bearer,
  request: { query: PageQuery.extend({ status: z.enum(values(SongUploadStatus)).optional() }) },
  responses: { 200: json(pageSchema(UploadSchema, "UploadPage")), ...errors(400, 401, 403) },
});

export const publicSongs = createRoute({
  method: "get",
  path: "/songs/public",
  tags,
  summary: "Every verified, playable upload, newest first",
  request: { query: PageQuery },
  responses: { 200: json(pageSchema(UploadSchema, "PublicUploadPage")), ...errors(400) },
});

export const search = createRoute({
  method: "get",
  path: "/search",
  tags,
  summary: "Search playable uploads by title or artist",
  request: { query: PageQuery.extend({ term: z.string().trim().min(1).max(200) }) },
  responses: { 200: json(pageSchema(UploadSchema, "UploadSearchPage")), ...errors(400) },
});

export const hlsKey = createRoute({
  method: "get",
  path: "/songs/hls/key",
  tags,
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

export const getSong = createRoute({
  method: "get",
  path: "/songs/{id}",
  tags,
  summary: "One uploaded song (its owner, or anyone once it is playable)",
  request: { params: UuidParam },
  responses: { 200: json(UploadSchema), ...errors(400, 404) },
});

export const editTags = createRoute({
  method: "patch",
  path: "/songs/{id}",
  tags,
  summary: "Edit a song's tags (its owner); completing missing tags verifies it",
  security: bearer,
  request: { params: UuidParam, ...jsonBody(TagsSchema) },
  responses: { 200: json(UploadSchema), ...errors(400, 401, 403, 404, 409) },
});

export const deleteSong = createRoute({
  method: "delete",
  path: "/songs/{id}",
  tags,
  summary: "Delete an uploaded song and its files (its owner or an admin)",
  security: bearer,
  request: { params: UuidParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});

export const hlsPlaylist = createRoute({
  method: "get",
  path: "/songs/{id}/hls-playlist",
  tags,
  summary:
    "The HLS playlist of a verified song, for someone allowed to hear it now (its uploader, an admin, a member of a room playing it): the master playlist of its renditions (low, medium, high), or with `rendition` that rendition's media playlist, whose key URI carries a short grant",
  security: bearer,
  request: {
    params: UuidParam,
    query: z.object({
      rendition: z
        .enum(RENDITION_NAMES)
        .optional()
        .openapi({ description: "One rendition's media playlist (the master playlist's variant streams name these)" }),
    }),
  },
  responses: {
    200: { description: "An HLS playlist", content: { "application/vnd.apple.mpegurl": { schema: z.string() } } },
    ...errors(400, 401, 403, 404, 409),
  },
});

export const hlsSegment = createRoute({
  method: "get",
  path: "/songs/{id}/hls/{segment}",
  tags,
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

export const cover = createRoute({
  method: "get",
  path: "/songs/{id}/cover",
  tags,
  summary: "A song's cover art, from its tags",
  request: { params: UuidParam },
  responses: { 200: { description: "The cover image" }, ...errors(400, 404) },
});

export const metadata = createRoute({
  method: "post",
  path: "/metadata",
  tags,
  summary: "Read the tags of an audio file without keeping it",
  security: bearer,
  request: { body: AudioBody },
  responses: {
    200: json(TagsSchema.extend({ duration: z.number().int() }).openapi("AudioMetadata")),
    ...errors(400, 401, 403, 413, 415),
  },
});
