import { type Db, schema } from "@booth/db";
import type { SongTags } from "@booth/db/schema";
import { MAX_UPLOAD_BYTES, MEGABYTE } from "@booth/sdk/limits";
import { and, desc, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { AppDeps } from "../../deps.ts";
import { escapeLike } from "../../lib/crud/index.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { badRequest, forbidden, found, HttpError, notFound } from "../../lib/errors.ts";
import { firstRow, returnedRow } from "../../lib/rows.ts";
import { type Probe, probeAudio, RENDITION_NAMES, type RenditionName, sniffAudio } from "../../ports/audio.ts";
import { deleteSong } from "../playlist/public.ts";
import {
  coverKey,
  hlsKey,
  MASTER,
  originalKey,
  UPLOAD_PREFIX,
  type Upload,
  variantFile,
  variantUrl,
  verifyWith,
} from "./pipeline.ts";

export const NOT_VERIFIED = "Song is not verified";
export const NOT_YOURS = "Unauthorized to edit tags that not belongs to the user";
/** The largest audio file an upload takes (50 MB): the web's upload screen holds files to the same (@booth/sdk/limits). */
export { MAX_UPLOAD_BYTES };
export const SONG_NOT_FOUND = errorMessage("SONG_NOT_FOUND");
const TOO_LARGE = `The file is larger than ${MAX_UPLOAD_BYTES / MEGABYTE} MB.`;
const NOT_AUDIO = "The file is not an audio file (mp3, flac, wav, ogg or m4a).";
const UNREADABLE = errorMessage("AUDIO_UNREADABLE");
const HAS_FILE = "This upload already has its file.";
/** A segment's file name in a stored playlist: `low-seg000.ts`..., or `seg000.ts` in a song transcoded before renditions. */
const SEGMENT = /^(?:[a-z]+-)?seg\d+\.ts$/gm;
const NO_RENDITION = (r: RenditionName) => `This song has no ${r} rendition.`;

export const uploadView = (u: Upload) => ({
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

const isPlayable = (u: Upload) => u.status === "VERIFIED" && u.transcodingStatus === "TRANSCODING_SUCCEED";
const playable = and(
  eq(schema.songUploads.status, "VERIFIED"),
  eq(schema.songUploads.transcodingStatus, "TRANSCODING_SUCCEED"),
);

/** An upload by id, or a 404. */
export async function loadUpload(db: Db, id: string) {
  const row = await firstRow(db, schema.songUploads, eq(schema.songUploads.id, id));
  return found(row, SONG_NOT_FOUND);
}

/** Publishing and transcoding run after the answer, as a job; their outcome shows in the song's status. */
export async function settleLater(deps: AppDeps, upload: Upload) {
  if (upload.status !== "VERIFIED") return;
  await deps.jobs.send("transcode", { uploadId: upload.id });
}

/** A new upload awaiting its file, and the URL to PUT the file to. */
export async function startUpload(deps: Pick<AppDeps, "db" | "clock" | "config">, ownerUuid: string, name: string) {
  const { db, clock, config } = deps;
  const row = await returnedRow(
    "upload insert",
    db
      .insert(schema.songUploads)
      .values({ ownerUuid, originalName: name, createdAt: clock.now(), updatedAt: clock.now() })
      .returning(),
  );
  return { id: row.id, uploadUrl: `${config.publicUrl}${UPLOAD_PREFIX}/upload/song/${row.id}/file` };
}

/** A body no larger than an upload may be (413 otherwise). */
export function refuseTooLarge(size: number) {
  if (size > MAX_UPLOAD_BYTES) throw new HttpError(413, TOO_LARGE);
}

/** The audio type of a file, or a 415 for a file that is not audio. */
function audioType(bytes: Uint8Array) {
  const contentType = sniffAudio(bytes);
  if (!contentType) throw new HttpError(415, NOT_AUDIO);
  return contentType;
}

/** Must be called before the file is read: an upload takes one file. */
export function refuseHasFile(upload: Upload) {
  if (upload.status !== "PENDING_UPLOAD") throw new HttpError(409, HAS_FILE);
}

const LENGTH_REQUIRED = "Send the file with its length (a Content-Length header).";
const SHORT_BODY = "The file ended before the length its Content-Length header gave.";

/**
 * The audio file of an upload, as it arrives: its first bytes say its type, it streams on to storage (never held
 * whole), and the stored file is read back through to check it decodes and to take its tags. Publishing and
 * transcoding follow after the answer. A file that turns out not to be audio is removed again.
 */
export async function receiveFile(
  deps: AppDeps,
  upload: Upload,
  body: ReadableStream<Uint8Array> | null,
  length: number | null,
) {
  if (length === null || !Number.isSafeInteger(length) || length < 0) throw new HttpError(411, LENGTH_REQUIRED);
  refuseTooLarge(length);
  if (length === 0 || !body) throw badRequest("The file is empty.");
  const { head, rest } = await peek(body, 16);
  const contentType = audioType(head);
  const { db, storage, clock } = deps;
  const key = originalKey(upload.id);
  const counted = exactly(rest, length);
  try {
    await storage.putStream(key, counted.stream, length, contentType);
  } catch (err) {
    if (counted.short()) throw badRequest(SHORT_BODY);
    throw err;
  }
  const stored = await storage.getStream(key);
  let probe: Probe;
  try {
    if (!stored) throw new Error("the stored file is missing");
    probe = await probeAudio({ stream: stored.body, size: length }, contentType);
  } catch {
    await storage.delete(key);
    throw new HttpError(415, UNREADABLE);
  }
  const [typed] = await db
    .update(schema.songUploads)
    .set({ status: "VALID_FILE_TYPE", contentType, size: length, updatedAt: clock.now() })
    .where(and(eq(schema.songUploads.id, upload.id), eq(schema.songUploads.status, "PENDING_UPLOAD")))
    .returning();
  if (!typed) throw new HttpError(409, HAS_FILE);
  const verified = await verifyWith(deps, typed, probe);
  await settleLater(deps, verified);
  return verified;
}

/** The first `bytes` bytes of a stream (fewer when it is shorter), and a stream of the whole of it again. */
async function peek(body: ReadableStream<Uint8Array>, bytes: number) {
  const reader = body.getReader();
  const taken: Uint8Array[] = [];
  let have = 0;
  while (have < bytes) {
    const { done, value } = await reader.read();
    if (done) break;
    taken.push(value);
    have += value.length;
  }
  const head = new Uint8Array(have);
  let at = 0;
  for (const chunk of taken) {
    head.set(chunk, at);
    at += chunk.length;
  }
  const rest = new ReadableStream<Uint8Array>({
    start(controller) {
      if (head.length) controller.enqueue(head);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { head: head.subarray(0, bytes), rest };
}

/** Passes a stream through while it keeps to `length` bytes; one that ends short errors (and says so). */
function exactly(body: ReadableStream<Uint8Array>, length: number) {
  let seen = 0;
  let short = false;
  const stream = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.length;
        // More than announced: the rest is not sent (the store takes exactly `length`).
        if (seen > length) controller.enqueue(chunk.subarray(0, chunk.length - (seen - length)));
        else controller.enqueue(chunk);
      },
      flush(controller) {
        if (seen < length) {
          short = true;
          controller.error(new Error(SHORT_BODY));
        }
      },
    }),
  );
  return { stream, short: () => short };
}

async function uploadPage(
  db: Db,
  where: SQL | undefined,
  order: SQL[],
  limit: number,
  offset: number,
): Promise<{ data: ReturnType<typeof uploadView>[]; total: number }> {
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(schema.songUploads)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    db.$count(schema.songUploads, where),
  ]);
  return { data: rows.map(uploadView), total };
}
const newestFirst = [desc(schema.songUploads.createdAt), desc(schema.songUploads.id)];

/** A user's uploads, newest first, of one status or all. */
export const ownUploads = (
  db: Db,
  ownerUuid: string,
  q: { limit: number; offset: number; status?: Upload["status"] | undefined },
) =>
  uploadPage(
    db,
    and(eq(schema.songUploads.ownerUuid, ownerUuid), q.status ? eq(schema.songUploads.status, q.status) : undefined),
    newestFirst,
    q.limit,
    q.offset,
  );

/** Every playable upload, newest first. */
export const publicUploads = (db: Db, limit: number, offset: number) =>
  uploadPage(db, playable, newestFirst, limit, offset);

/** Playable uploads whose title or artist holds the term. */
export function searchUploads(db: Db, term: string, limit: number, offset: number) {
  const like = `%${escapeLike(term)}%`;
  const where = and(
    playable,
    or(
      ilike(sql`${schema.songUploads.tags} ->> 'title'`, like),
      ilike(sql`${schema.songUploads.tags} ->> 'artist'`, like),
    ),
  );
  return uploadPage(db, where, [desc(schema.songUploads.createdAt)], limit, offset);
}

/** An upload as someone sees it: its owner always, anyone else once it is playable. */
export async function visibleUpload(db: Db, id: string, caller: string | undefined) {
  const upload = await loadUpload(db, id);
  if (upload.ownerUuid !== caller && !isPlayable(upload)) throw notFound(SONG_NOT_FOUND);
  return upload;
}

/** New tags for an upload with a readable file; completing a title and an artist verifies it. */
export async function editTags(
  deps: AppDeps,
  upload: Upload,
  tags: { [K in keyof SongTags]?: SongTags[K] | undefined },
) {
  if (upload.status === "PENDING_UPLOAD" || upload.status === "VERIFICATION_ERROR")
    throw new HttpError(409, "This song has no readable file to tag.");
  const tagsNow = { ...upload.tags, ...tags };
  const verifiedNow = !!tagsNow.title?.trim() && !!tagsNow.artist?.trim();
  const [row] = await deps.db
    .update(schema.songUploads)
    .set({ tags: tagsNow, status: verifiedNow ? "VERIFIED" : "MISSING_METADATA", updatedAt: deps.clock.now() })
    .where(eq(schema.songUploads.id, upload.id))
    .returning();
  const edited = found(row, SONG_NOT_FOUND);
  await settleLater(deps, edited);
  return edited;
}

/** Deletes an upload, its catalogue song and its files. */
export async function deleteUpload(deps: Pick<AppDeps, "db" | "storage">, upload: Upload) {
  const { db, storage } = deps;
  await db.transaction(async (tx) => {
    await tx.delete(schema.songUploads).where(eq(schema.songUploads.id, upload.id));
    if (upload.songId) await deleteSong(tx, upload.songId);
  });
  const playlists = [MASTER, ...RENDITION_NAMES.map(variantFile)];
  const segments: string[] = [];
  for (const name of playlists) {
    const playlist = await storage.get(hlsKey(upload.id, name));
    if (playlist) segments.push(...(new TextDecoder().decode(playlist.data).match(SEGMENT) ?? []));
  }
  for (const key of [
    originalKey(upload.id),
    coverKey(upload.id),
    hlsKey(upload.id, "key"),
    ...segments.map((s) => hlsKey(upload.id, s)),
    ...playlists.map((p) => hlsKey(upload.id, p)),
  ])
    await storage.delete(key);
}

/** Refuses an upload that cannot be streamed yet: 403 until verified, 409 while transcoding. */
export function refuseUnstreamable(upload: Upload) {
  if (upload.status !== "VERIFIED") throw forbidden(NOT_VERIFIED);
  if (upload.transcodingStatus !== "TRANSCODING_SUCCEED")
    throw new HttpError(409, "The song is still being transcoded.");
}

/**
 * An upload's HLS playlist as the edge serves it. Without a rendition, the master playlist: its variant streams are
 * the edge's own rendition playlists. With one, that rendition's media playlist: its segments served by the edge, or
 * by the store itself when it hands out addresses (segmentUrls), and its key URI the one `keyUri` gives. (A song
 * transcoded before renditions has one media playlist, served as the master and without renditions.)
 */
export async function hlsPlaylist(
  deps: Pick<AppDeps, "storage">,
  upload: Upload,
  rendition: RenditionName | undefined,
  keyUri: () => Promise<string>,
) {
  const text = await storedPlaylist(deps.storage, upload, rendition);
  if (text.includes("#EXT-X-STREAM-INF"))
    return text.replace(/^([a-z]+)\.m3u8$/gm, (line, name: string) =>
      (RENDITION_NAMES as string[]).includes(name) ? variantUrl(upload.id, name as RenditionName) : line,
    );
  const uri = await keyUri();
  const segments = await segmentUrls(deps.storage, upload, text.match(SEGMENT) ?? []);
  return text
    .replace(SEGMENT, (segment) => segments.get(segment) ?? segment)
    .replace(/(#EXT-X-KEY:[^\n]*URI=")[^"]*"/g, `$1${uri}"`);
}

/**
 * The stored playlists, read from the store for at most a minute. They are written once, by the song's transcoding,
 * before it can be streamed (refuseUnstreamable), and never changed; every listener of a song asks for the same two,
 * so each was a read of the bucket per listener and song. Kept per store (a test's app has its own).
 */
const playlists = new WeakMap<AppDeps["storage"], LRUCache<string, string>>();
const PLAYLIST_TTL_MS = 60_000;

async function storedPlaylist(storage: AppDeps["storage"], upload: Upload, rendition: RenditionName | undefined) {
  const key = hlsKey(upload.id, rendition ? variantFile(rendition) : MASTER);
  let cache = playlists.get(storage);
  if (!cache) {
    cache = new LRUCache<string, string>({ max: 10_000, ttl: PLAYLIST_TTL_MS });
    playlists.set(storage, cache);
  }
  const known = cache.get(key);
  if (known !== undefined) return known;
  const stored = found(await storage.get(key), rendition ? NO_RENDITION(rendition) : SONG_NOT_FOUND);
  const text = new TextDecoder().decode(stored.data);
  cache.set(key, text);
  return text;
}

/** How long a segment's address outlives the start of the song (a presigned one's lifetime is its duration besides). */
const SEGMENT_URL_MARGIN_SECONDS = 3600;

/**
 * Where a listener fetches each of a media playlist's segments: from the store itself when it hands out addresses
 * (a presigned GET, or under MEDIA_BASE_URL: storage-s3.ts), valid for the song and a margin; else the edge's route.
 * The names come from the stored playlist ffmpeg wrote, never from a request.
 */
async function segmentUrls(storage: AppDeps["storage"], upload: Upload, names: string[]) {
  const direct = storage.clientUrl?.bind(storage);
  const seconds = (upload.duration ?? 0) + SEGMENT_URL_MARGIN_SECONDS;
  const urls = await Promise.all(
    names.map((name) =>
      direct ? direct(hlsKey(upload.id, name), seconds) : `${UPLOAD_PREFIX}/songs/${upload.id}/hls/${name}`,
    ),
  );
  return new Map(names.map((name, i) => [name, urls[i] ?? name]));
}

/** A stored file of a song (its HLS key, a segment, its cover), or a 404 with `message`. */
export async function storedFile(deps: Pick<AppDeps, "storage">, key: string, message: string) {
  return found(await deps.storage.get(key), message);
}

/** The tags and duration of an audio file, kept nowhere. */
export async function readMetadata(bytes: Uint8Array) {
  refuseTooLarge(bytes.length);
  const contentType = audioType(bytes);
  try {
    const probe = await probeAudio(bytes, contentType);
    return { ...probe.tags, duration: probe.duration };
  } catch {
    throw new HttpError(415, UNREADABLE);
  }
}
