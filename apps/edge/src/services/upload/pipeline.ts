import { schema } from "@booth/db";
import type { SongTags } from "@booth/db/schema";
import { eq } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { shortId } from "../../lib/ids.ts";
import { type Probe, probeAudio, type RenditionName, transcodeToHls } from "../../ports/audio.ts";
import { addSong, changeSong } from "../playlist/public.ts";

export type Upload = typeof schema.songUploads.$inferSelect;
export const UPLOAD_PREFIX = "/api/upload-service";
export const originalKey = (id: string) => `uploads/${id}/original`;
export const coverKey = (id: string) => `uploads/${id}/cover`;
export const hlsKey = (id: string, name: string) => `hls/${id}/${name}`;
export const playlistUrl = (id: string) => `${UPLOAD_PREFIX}/songs/${id}/hls-playlist`;
/** A rendition's media playlist: the master playlist's route with the rendition named (the same listener check). */
export const variantUrl = (id: string, rendition: RenditionName) => `${playlistUrl(id)}?rendition=${rendition}`;
/** The stored master playlist (or, for a song transcoded before renditions, its only media playlist). */
export const MASTER = "index.m3u8";
export const variantFile = (rendition: RenditionName) => `${rendition}.m3u8`;
/** How a segment is cached, wherever it is read from (the edge's route, the bucket, a CDN in front of it). */
export const SEGMENT_CACHE = "public, max-age=31536000, immutable";
export const keyUrl = (id: string) => `${UPLOAD_PREFIX}/songs/hls/key?songId=${id}`;

const complete = (tags: SongTags) => !!tags.title?.trim() && !!tags.artist?.trim();

async function update(deps: AppDeps, id: string, values: Partial<typeof schema.songUploads.$inferInsert>) {
  const [row] = await deps.db
    .update(schema.songUploads)
    .set({ ...values, updatedAt: deps.clock.now() })
    .where(eq(schema.songUploads.id, id))
    .returning();
  if (!row) throw new Error(`upload ${id} vanished`);
  return row;
}

/** Reads the stored file's tags: VERIFIED with a title and an artist, MISSING_METADATA without, VERIFICATION_ERROR when it does not decode. */
export async function verify(deps: AppDeps, upload: Upload, bytes: Uint8Array) {
  let probe: Probe;
  try {
    probe = await probeAudio(bytes, upload.contentType ?? "audio/mpeg");
  } catch (err) {
    return update(deps, upload.id, {
      status: "VERIFICATION_ERROR",
      error: `The file could not be read as audio: ${String(err).slice(0, 200)}`,
    });
  }
  return verifyWith(deps, upload, probe);
}

/** Records what a probe of the upload's file found (its cover stored beside it). */
export async function verifyWith(deps: AppDeps, upload: Upload, probe: Probe) {
  if (probe.cover) await deps.storage.put(coverKey(upload.id), probe.cover.data, probe.cover.format);
  const tags = { ...probe.tags, ...stripEmpty(upload.tags) };
  return update(deps, upload.id, {
    tags,
    duration: probe.duration,
    hasCover: probe.cover ? 1 : 0,
    status: complete(tags) ? "VERIFIED" : "MISSING_METADATA",
    error: null,
  });
}

const stripEmpty = (tags: SongTags) =>
  Object.fromEntries(Object.entries(tags).filter(([, v]) => v !== null && v !== undefined && v !== ""));

/** The catalogue song of a verified upload, made or brought up to date with its tags. */
export async function publish(deps: AppDeps, upload: Upload) {
  const tags = upload.tags;
  const values = {
    trackName: tags.title ?? upload.originalName,
    artistName: tags.artist ?? "Unknown artist",
    genre: tags.genre ?? null,
    duration: upload.duration ?? 0,
    releaseYear: tags.year ?? null,
    ownerUuid: upload.ownerUuid,
    musicProviders: { uploadService: upload.id },
    streamUrls: { hls: playlistUrl(upload.id) },
    thumbnails: (upload.hasCover ? { uploadService: `${UPLOAD_PREFIX}/songs/${upload.id}/cover` } : {}) as Record<
      string,
      string
    >,
  };
  if (upload.songId) {
    await changeSong(deps.db, upload.songId, values);
    return upload;
  }
  const song = await addSong(deps.db, { ...values, shortId: shortId(), createdAt: deps.clock.now() });
  return update(deps, upload.id, { songId: song?.id ?? null });
}

/** Transcodes a verified upload to encrypted HLS in every rendition (one master playlist); the status says how it went. */
export async function transcode(deps: AppDeps, upload: Upload) {
  await update(deps, upload.id, { transcodingStatus: "TRANSCODING_IN_PROGRESS" });
  try {
    const original = await deps.storage.get(originalKey(upload.id));
    if (!original) throw new Error("the uploaded file is missing");
    const key = crypto.getRandomValues(new Uint8Array(16));
    const out = await transcodeToHls(original.data, key, keyUrl(upload.id), { ffmpeg: deps.config.ffmpeg });
    await deps.storage.put(hlsKey(upload.id, "key"), key, "application/octet-stream");
    // A segment never changes (its upload's key encrypts it; a new upload is a new id): any cache may keep it.
    for (const [name, data] of out.files)
      await deps.storage.put(hlsKey(upload.id, name), data, "video/mp2t", { cacheControl: SEGMENT_CACHE });
    const playlist = (name: string, text: string) =>
      deps.storage.put(hlsKey(upload.id, name), new TextEncoder().encode(text), "application/vnd.apple.mpegurl");
    for (const [rendition, text] of out.variants) await playlist(variantFile(rendition as RenditionName), text);
    // The master last: a song is whole once it is there.
    await playlist(MASTER, out.master);
    return update(deps, upload.id, { transcodingStatus: "TRANSCODING_SUCCEED" });
  } catch (err) {
    deps.logger({ level: "error", msg: "transcoding failed", uploadId: upload.id, err: String(err) });
    return update(deps, upload.id, { transcodingStatus: "TRANSCODING_ERROR", error: "Transcoding failed." });
  }
}

/** After a file or its tags change: publish and transcode when verified. Runs detached from the request. */
export async function settle(deps: AppDeps, upload: Upload) {
  if (upload.status !== "VERIFIED") return upload;
  const published = await publish(deps, upload);
  if (published.transcodingStatus === "TRANSCODING_SUCCEED") return published;
  return transcode(deps, published);
}
