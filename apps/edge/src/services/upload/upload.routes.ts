import { schema } from "@booth/db";
import { SongUploadStatus, TranscodingStatus, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { and, desc, eq, ilike, or, sql } from "drizzle-orm";
import type { Context } from "hono";
import { ADMINS, hasAnyRole, rateLimit, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest, forbidden, HttpError, notFound } from "../../lib/errors.ts";
import {
  bearer,
  createRouter,
  errors,
  json,
  jsonBody,
  noContent,
  PageQuery,
  pageSchema,
  UuidParam,
} from "../../lib/openapi.ts";
import { probeAudio, sniffAudio } from "./audio.ts";
import { keyGrant, requireKeyGrant, requireListener } from "./hearing.ts";
import { coverKey, hlsKey, keyUrl, originalKey, settle, UPLOAD_PREFIX, type Upload, verify } from "./pipeline.ts";

export const NOT_VERIFIED = "Song is not verified";
export const NOT_YOURS = "Unauthorized to edit tags that not belongs to the user";
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export const uploadRoutes = createRouter();
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
const view = (u: Upload) => ({
  id: u.id,
  ownerUuid: u.ownerUuid,
  originalName: u.originalName,
  status: u.status,
  transcodingStatus: u.transcodingStatus,
  contentType: u.contentType,
  size: u.size,
  duration: u.duration,
  tags: u.tags,
  songId: u.songId,
  thumbnails: u.hasCover ? { uploadService: `${UPLOAD_PREFIX}/songs/${u.id}/cover` } : {},
  hlsPlaylistUrl: u.transcodingStatus === "TRANSCODING_SUCCEED" ? `${UPLOAD_PREFIX}/songs/${u.id}/hls-playlist` : null,
  error: u.error,
  createdAt: u.createdAt.toISOString(),
  updatedAt: u.updatedAt.toISOString(),
});

async function loadUpload(c: Context<AppEnv>, id: string) {
  const [row] = await c.var.deps.db.select().from(schema.songUploads).where(eq(schema.songUploads.id, id));
  if (!row) throw notFound("Song not found.");
  return row;
}

/** Publishing and transcoding run after the answer; their outcome shows in the song's status. */
function settleLater(c: Context<AppEnv>, upload: Upload) {
  const deps = c.var.deps;
  void settle(deps, upload).catch((err) =>
    deps.logger({ level: "error", msg: "upload settle failed", uploadId: upload.id, err: String(err) }),
  );
}

uploadRoutes.openapi(
  createRoute({
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
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    if (!user.capabilities.includes("uploadMusic") && !hasAnyRole(user.roles, ADMINS))
      throw forbidden("Uploading music needs the uploadMusic capability.");
    await rateLimit(c, `upload:${user.uuid}`, 50, 3600);
    const { db, clock, config } = c.var.deps;
    const [row] = await db
      .insert(schema.songUploads)
      .values({
        ownerUuid: user.uuid,
        originalName: c.req.valid("json").originalFileName,
        createdAt: clock.now(),
        updatedAt: clock.now(),
      })
      .returning();
    if (!row) throw new Error("upload insert returned nothing");
    return c.json({ id: row.id, uploadUrl: `${config.publicUrl}${UPLOAD_PREFIX}/upload/song/${row.id}/file` }, 201);
  },
);

uploadRoutes.openapi(
  createRoute({
    method: "put",
    path: "/upload/song/{id}/file",
    tags,
    summary: "Send the audio file of an upload (mp3, flac, wav, ogg or m4a; at most 50 MB)",
    security: bearer,
    request: {
      params: UuidParam,
      body: {
        required: true,
        content: { "audio/mpeg": { schema: z.any().openapi({ type: "string", format: "binary" }) } },
      },
    },
    responses: { 200: json(UploadSchema), ...errors(400, 401, 403, 404, 409, 413, 415) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const upload = await loadUpload(c, c.req.valid("param").id);
    if (upload.ownerUuid !== user.uuid) throw forbidden();
    if (upload.status !== "PENDING_UPLOAD") throw new HttpError(409, "This upload already has its file.");
    const declared = Number(c.req.header("content-length") ?? 0);
    if (declared > MAX_UPLOAD_BYTES) throw new HttpError(413, "The file is larger than 50 MB.");
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.length > MAX_UPLOAD_BYTES) throw new HttpError(413, "The file is larger than 50 MB.");
    if (bytes.length === 0) throw badRequest("The file is empty.");
    const contentType = sniffAudio(bytes);
    if (!contentType) throw new HttpError(415, "The file is not an audio file (mp3, flac, wav, ogg or m4a).");
    try {
      await probeAudio(bytes, contentType);
    } catch {
      throw new HttpError(415, "The file could not be read as audio; it may be damaged or truncated.");
    }
    const { db, storage, clock } = c.var.deps;
    await storage.put(originalKey(upload.id), bytes, contentType);
    const [typed] = await db
      .update(schema.songUploads)
      .set({ status: "VALID_FILE_TYPE", contentType, size: bytes.length, updatedAt: clock.now() })
      .where(and(eq(schema.songUploads.id, upload.id), eq(schema.songUploads.status, "PENDING_UPLOAD")))
      .returning();
    if (!typed) throw new HttpError(409, "This upload already has its file.");
    const verified = await verify(c.var.deps, typed, bytes);
    settleLater(c, verified);
    return c.json(view(verified), 200);
  },
);

uploadRoutes.openapi(
  createRoute({
    method: "get",
    path: "/songs",
    tags,
    summary: "The caller's uploaded songs, newest first",
    security: bearer,
    request: { query: PageQuery.extend({ status: z.enum(values(SongUploadStatus)).optional() }) },
    responses: { 200: json(pageSchema(UploadSchema, "UploadPage")), ...errors(400, 401, 403) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const { limit, offset, status } = c.req.valid("query");
    const where = and(
      eq(schema.songUploads.ownerUuid, user.uuid),
      status ? eq(schema.songUploads.status, status) : undefined,
    );
    const { db } = c.var.deps;
    const [rows, total] = await Promise.all([
      db
        .select()
        .from(schema.songUploads)
        .where(where)
        .orderBy(desc(schema.songUploads.createdAt), desc(schema.songUploads.id))
        .limit(limit)
        .offset(offset),
      db.$count(schema.songUploads, where),
    ]);
    return c.json({ data: rows.map(view), total }, 200);
  },
);

const playable = and(
  eq(schema.songUploads.status, "VERIFIED"),
  eq(schema.songUploads.transcodingStatus, "TRANSCODING_SUCCEED"),
);

uploadRoutes.openapi(
  createRoute({
    method: "get",
    path: "/songs/public",
    tags,
    summary: "Every verified, playable upload, newest first",
    request: { query: PageQuery },
    responses: { 200: json(pageSchema(UploadSchema, "PublicUploadPage")), ...errors(400) },
  }),
  async (c) => {
    const { limit, offset } = c.req.valid("query");
    const { db } = c.var.deps;
    const [rows, total] = await Promise.all([
      db
        .select()
        .from(schema.songUploads)
        .where(playable)
        .orderBy(desc(schema.songUploads.createdAt), desc(schema.songUploads.id))
        .limit(limit)
        .offset(offset),
      db.$count(schema.songUploads, playable),
    ]);
    return c.json({ data: rows.map(view), total }, 200);
  },
);

uploadRoutes.openapi(
  createRoute({
    method: "get",
    path: "/search",
    tags,
    summary: "Search playable uploads by title or artist",
    request: { query: PageQuery.extend({ term: z.string().trim().min(1).max(200) }) },
    responses: { 200: json(pageSchema(UploadSchema, "UploadSearchPage")), ...errors(400) },
  }),
  async (c) => {
    const { term, limit, offset } = c.req.valid("query");
    const like = `%${term.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    const where = and(
      playable,
      or(
        ilike(sql`${schema.songUploads.tags} ->> 'title'`, like),
        ilike(sql`${schema.songUploads.tags} ->> 'artist'`, like),
      ),
    );
    const { db } = c.var.deps;
    const [rows, total] = await Promise.all([
      db
        .select()
        .from(schema.songUploads)
        .where(where)
        .orderBy(desc(schema.songUploads.createdAt))
        .limit(limit)
        .offset(offset),
      db.$count(schema.songUploads, where),
    ]);
    return c.json({ data: rows.map(view), total }, 200);
  },
);

uploadRoutes.openapi(
  createRoute({
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
  }),
  async (c) => {
    const { songId, grant } = c.req.valid("query");
    await requireKeyGrant(c, songId, grant);
    const key = await c.var.deps.storage.get(hlsKey(songId, "key"));
    if (!key) throw notFound("Song not found.");
    return c.body(key.data as Uint8Array<ArrayBuffer>, 200, {
      "content-type": "application/octet-stream",
      "cache-control": "private, no-store",
    });
  },
);

uploadRoutes.openapi(
  createRoute({
    method: "get",
    path: "/songs/{id}",
    tags,
    summary: "One uploaded song (its owner, or anyone once it is playable)",
    request: { params: UuidParam },
    responses: { 200: json(UploadSchema), ...errors(400, 404) },
  }),
  async (c) => {
    const upload = await loadUpload(c, c.req.valid("param").id);
    const caller = c.var.auth?.sub;
    if (
      upload.ownerUuid !== caller &&
      !(upload.status === "VERIFIED" && upload.transcodingStatus === "TRANSCODING_SUCCEED")
    )
      throw notFound("Song not found.");
    return c.json(view(upload), 200);
  },
);

uploadRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/songs/{id}",
    tags,
    summary: "Edit a song's tags (its owner); completing missing tags verifies it",
    security: bearer,
    request: { params: UuidParam, ...jsonBody(TagsSchema) },
    responses: { 200: json(UploadSchema), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const upload = await loadUpload(c, c.req.valid("param").id);
    if (upload.ownerUuid !== user.uuid) throw forbidden(NOT_YOURS);
    if (upload.status === "PENDING_UPLOAD" || upload.status === "VERIFICATION_ERROR")
      throw new HttpError(409, "This song has no readable file to tag.");
    const tagsNow = { ...upload.tags, ...c.req.valid("json") };
    const verifiedNow = !!tagsNow.title?.trim() && !!tagsNow.artist?.trim();
    const [row] = await c.var.deps.db
      .update(schema.songUploads)
      .set({ tags: tagsNow, status: verifiedNow ? "VERIFIED" : "MISSING_METADATA", updatedAt: c.var.deps.clock.now() })
      .where(eq(schema.songUploads.id, upload.id))
      .returning();
    if (!row) throw notFound("Song not found.");
    settleLater(c, row);
    return c.json(view(row), 200);
  },
);

uploadRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/songs/{id}",
    tags,
    summary: "Delete an uploaded song and its files (its owner or an admin)",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const upload = await loadUpload(c, c.req.valid("param").id);
    if (upload.ownerUuid !== user.uuid && !hasAnyRole(user.roles, ADMINS)) throw forbidden();
    const { db, storage } = c.var.deps;
    await db.transaction(async (tx) => {
      await tx.delete(schema.songUploads).where(eq(schema.songUploads.id, upload.id));
      if (upload.songId) await tx.delete(schema.songs).where(eq(schema.songs.id, upload.songId));
    });
    const playlist = await storage.get(hlsKey(upload.id, "index.m3u8"));
    const segments = playlist ? (new TextDecoder().decode(playlist.data).match(/seg\d+\.ts/g) ?? []) : [];
    for (const key of [
      originalKey(upload.id),
      coverKey(upload.id),
      hlsKey(upload.id, "key"),
      hlsKey(upload.id, "index.m3u8"),
      ...segments.map((s) => hlsKey(upload.id, s)),
    ])
      await storage.delete(key);
    return c.body(null, 204);
  },
);

uploadRoutes.openapi(
  createRoute({
    method: "get",
    path: "/songs/{id}/hls-playlist",
    tags,
    summary:
      "The HLS playlist of a verified song, for someone allowed to hear it now (its uploader, an admin, a member of a room playing it); its key URI carries a short grant",
    security: bearer,
    request: { params: UuidParam },
    responses: {
      200: { description: "An HLS playlist", content: { "application/vnd.apple.mpegurl": { schema: z.string() } } },
      ...errors(400, 401, 403, 404, 409),
    },
  }),
  async (c) => {
    const upload = await loadUpload(c, c.req.valid("param").id);
    if (upload.status !== "VERIFIED") throw forbidden(NOT_VERIFIED);
    if (upload.transcodingStatus !== "TRANSCODING_SUCCEED")
      throw new HttpError(409, "The song is still being transcoded.");
    const listener = await requireListener(c, upload);
    const playlist = await c.var.deps.storage.get(hlsKey(upload.id, "index.m3u8"));
    if (!playlist) throw notFound("Song not found.");
    const keyUri = `${keyUrl(upload.id)}&grant=${await keyGrant(c, listener, upload.id)}`;
    const text = new TextDecoder()
      .decode(playlist.data)
      .replace(/^(seg\d+\.ts)$/gm, `${UPLOAD_PREFIX}/songs/${upload.id}/hls/$1`)
      .replace(/(#EXT-X-KEY:[^\n]*URI=")[^"]*"/g, `$1${keyUri}"`);
    // Each answer holds one listener's grant: no shared cache may keep it.
    return c.body(text, 200, {
      "content-type": "application/vnd.apple.mpegurl",
      "cache-control": "private, no-store",
    });
  },
);

uploadRoutes.openapi(
  createRoute({
    method: "get",
    path: "/songs/{id}/hls/{segment}",
    tags,
    summary: "One encrypted HLS segment of a song",
    request: {
      params: UuidParam.extend({
        segment: z
          .string()
          .regex(/^seg\d{3,6}\.ts$/)
          .openapi({ param: { name: "segment", in: "path" } }),
      }),
    },
    responses: { 200: { description: "An MPEG-TS segment, AES-128 encrypted" }, ...errors(400, 404) },
  }),
  async (c) => {
    const { id, segment } = c.req.valid("param");
    const data = await c.var.deps.storage.get(hlsKey(id, segment));
    if (!data) throw notFound("Segment not found.");
    return c.body(data.data as Uint8Array<ArrayBuffer>, 200, {
      "content-type": "video/mp2t",
      "cache-control": "public, max-age=31536000, immutable",
    });
  },
);

uploadRoutes.openapi(
  createRoute({
    method: "get",
    path: "/songs/{id}/cover",
    tags,
    summary: "A song's cover art, from its tags",
    request: { params: UuidParam },
    responses: { 200: { description: "The cover image" }, ...errors(400, 404) },
  }),
  async (c) => {
    const cover = await c.var.deps.storage.get(coverKey(c.req.valid("param").id));
    if (!cover) throw notFound("This song has no cover.");
    return c.body(cover.data as Uint8Array<ArrayBuffer>, 200, {
      "content-type": cover.contentType,
      "cache-control": "public, max-age=86400",
    });
  },
);

uploadRoutes.openapi(
  createRoute({
    method: "post",
    path: "/metadata",
    tags,
    summary: "Read the tags of an audio file without keeping it",
    security: bearer,
    request: {
      body: {
        required: true,
        content: { "audio/mpeg": { schema: z.any().openapi({ type: "string", format: "binary" }) } },
      },
    },
    responses: {
      200: json(TagsSchema.extend({ duration: z.number().int() }).openapi("AudioMetadata")),
      ...errors(400, 401, 403, 413, 415),
    },
  }),
  async (c) => {
    await requireUser(c, { types: ["user", "bot"] });
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.length > MAX_UPLOAD_BYTES) throw new HttpError(413, "The file is larger than 50 MB.");
    const contentType = sniffAudio(bytes);
    if (!contentType) throw new HttpError(415, "The file is not an audio file (mp3, flac, wav, ogg or m4a).");
    try {
      const probe = await probeAudio(bytes, contentType);
      return c.json({ ...probe.tags, duration: probe.duration }, 200);
    } catch {
      throw new HttpError(415, "The file could not be read as audio; it may be damaged or truncated.");
    }
  },
);
