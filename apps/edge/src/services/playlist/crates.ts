import { type Db, schema, type Tx } from "@booth/db";
import { z } from "@hono/zod-openapi";
import { and, asc, eq, gt, gte, inArray, lt, lte, sql } from "drizzle-orm";
import { errorMessage } from "../../lib/error-codes.ts";
import { badRequest, conflict, forbidden, found, notFound } from "../../lib/errors.ts";
import { shortId } from "../../lib/ids.ts";
import { jsonPick } from "../../lib/json-rows.ts";
import { Timestamps } from "../../lib/openapi.ts";
import { newestFirst } from "../../lib/pages.ts";
import { firstRow, returnedRow } from "../../lib/rows.ts";
import { jsonColumns, preparedPerDb, type SqlJson } from "../../lib/sql-json.ts";

export const MAX_CRATE_SONGS = 5000;
export const SONG_ALREADY_IN_CRATE = errorMessage("SONG_ALREADY_IN_CRATE");
export const CRATE_NOT_FOUND = errorMessage("CRATE_NOT_FOUND");
export const NOT_IN_CRATE = errorMessage("SONG_NOT_IN_CRATE");
export type Crate = typeof schema.crates.$inferSelect;
export type Song = typeof schema.songs.$inferSelect;
export type SpecialKind = "queue" | "likes";

export const SongSchema = z
  .object({
    songId: z.uuid(),
    songShortId: z.string(),
    trackName: z.string(),
    artistName: z.string(),
    album: z.string().nullable(),
    genre: z.string().nullable(),
    duration: z.number().int(),
    explicit: z.boolean(),
    isrc: z.string().nullable(),
    musicProviders: z.record(z.string(), z.string()),
    thumbnails: z.record(z.string(), z.string()),
    links: z.record(z.string(), z.string()),
    previews: z.record(z.string(), z.string()),
    streamUrls: z.record(z.string(), z.string()),
    description: z.string().nullable(),
    isGenerated: z.boolean(),
    releaseYear: z.number().int().nullable(),
  })
  .openapi("Song");
export const CrateSongSchema = SongSchema.extend({
  crateSongUuid: z.uuid(),
  position: z.number().int(),
  status: z.literal("SUCCESS"),
}).openapi("CrateSong");
export const CrateSchema = z
  .object({
    crateUuid: z.uuid(),
    crateShortId: z.string(),
    crateName: z.string(),
    description: z.string().nullable(),
    kind: z.enum(["default", "queue", "likes"]),
    userUuid: z.uuid(),
    thumbnails: z.array(z.string()),
    crateSongsNumber: z.number().int(),
    count: z.number().int(),
    importStatus: z.enum(["IN_PROGRESS", "FAILED", "COMPLETE"]).nullable(),
    importMessage: z.string().nullable(),
    currentPosition: z.number().int(),
    ...Timestamps,
  })
  .openapi("Crate");

/** The song's columns a Song answer shows under their own names, after its ids, its names and its album. */
const SONG_DETAILS = [
  "genre",
  "duration",
  "explicit",
  "isrc",
  "musicProviders",
  "thumbnails",
  "links",
  "previews",
  "streamUrls",
  "description",
  "isGenerated",
  "releaseYear",
] as const;

export const songView = (song: Song, albumTitle: string | null = null) => ({
  songId: song.id,
  songShortId: song.shortId,
  trackName: song.trackName,
  artistName: song.artistName,
  album: albumTitle,
  ...jsonPick(song, ...SONG_DETAILS),
});

/** The songs of a crate in order, with their crate ids and positions. */
export async function crateSongs(db: Db | Tx, crateId: string, limit = MAX_CRATE_SONGS, offset = 0) {
  const rows = await db
    .select({ entry: schema.crateSongs, song: schema.songs, album: schema.albums.title })
    .from(schema.crateSongs)
    .innerJoin(schema.songs, eq(schema.songs.id, schema.crateSongs.songId))
    .leftJoin(schema.albums, eq(schema.albums.id, schema.songs.albumId))
    .where(eq(schema.crateSongs.crateId, crateId))
    .orderBy(asc(schema.crateSongs.position))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({
    ...songView(r.song, r.album),
    crateSongUuid: r.entry.id,
    position: r.entry.position,
    status: "SUCCESS" as const,
  }));
}

/** `songView` written by the database: the same fields, as JSON (keep the two in step: crates.test.ts compares them). */
export const songJsonFields = (s: typeof schema.songs, albumTitle: typeof schema.albums.title) => sql`
  'songId', ${s.id}, 'songShortId', ${s.shortId}, 'trackName', ${s.trackName}, 'artistName', ${s.artistName},
  'album', ${albumTitle}, ${jsonColumns(s, SONG_DETAILS)}`;

const crateSongsJsonQuery = preparedPerDb((db) => {
  const page = db
    .select({
      entry: sql`json_build_object(${songJsonFields(schema.songs, schema.albums.title)},
        'crateSongUuid', ${schema.crateSongs.id}, 'position', ${schema.crateSongs.position}, 'status', 'SUCCESS')`.as(
        "entry",
      ),
      position: schema.crateSongs.position,
    })
    .from(schema.crateSongs)
    .innerJoin(schema.songs, eq(schema.songs.id, schema.crateSongs.songId))
    .leftJoin(schema.albums, eq(schema.albums.id, schema.songs.albumId))
    .where(eq(schema.crateSongs.crateId, sql.placeholder("crateId")))
    .orderBy(asc(schema.crateSongs.position))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"))
    .as("page");
  return db
    .select({ body: sql<string>`coalesce(json_agg(${page.entry} order by ${page.position}), '[]')::text` })
    .from(page)
    .prepare("crate_songs_json");
});

/** `crateSongs` as the JSON text of its answer, written by the database in one round trip. */
export async function crateSongsJson(db: Db, crateId: string, limit = MAX_CRATE_SONGS, offset = 0) {
  const [row] = await crateSongsJsonQuery(db).execute({ crateId, limit, offset });
  return (row?.body ?? "[]") as SqlJson<Awaited<ReturnType<typeof crateSongs>>>;
}

export async function crateView(db: Db | Tx, crate: Crate) {
  const [stats] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(schema.crateSongs)
    .where(eq(schema.crateSongs.crateId, crate.id));
  const firsts = await db
    .select({ thumbnails: schema.songs.thumbnails })
    .from(schema.crateSongs)
    .innerJoin(schema.songs, eq(schema.songs.id, schema.crateSongs.songId))
    .where(eq(schema.crateSongs.crateId, crate.id))
    .orderBy(asc(schema.crateSongs.position))
    .limit(4);
  const n = stats?.n ?? 0;
  return {
    crateUuid: crate.id,
    crateShortId: crate.shortId,
    crateName: crate.name,
    description: crate.description,
    kind: crate.kind,
    userUuid: crate.userUuid,
    thumbnails: firsts.flatMap((f) => Object.values(f.thumbnails).slice(0, 1)),
    crateSongsNumber: n,
    count: n,
    importStatus: crate.importStatus,
    importMessage: crate.importMessage,
    currentPosition: crate.currentPosition,
    createdAt: crate.createdAt.toISOString(),
    updatedAt: crate.updatedAt.toISOString(),
  };
}

const SPECIAL_NAMES: Record<SpecialKind, string> = { queue: "Queue", likes: "Likes" };

/** A user's queue or likes crate, made the first time it is asked for. */
export async function specialCrate(db: Db | Tx, userUuid: string, kind: SpecialKind, now: Date) {
  const find = () =>
    db
      .select()
      .from(schema.crates)
      .where(and(eq(schema.crates.userUuid, userUuid), eq(schema.crates.kind, kind)))
      .limit(1);
  const [existing] = await find();
  if (existing) return existing;
  await db
    .insert(schema.crates)
    .values({ userUuid, kind, name: SPECIAL_NAMES[kind], shortId: shortId(), createdAt: now, updatedAt: now })
    .onConflictDoNothing();
  const [made] = await find();
  if (!made) throw new Error("special crate missing after insert");
  return made;
}

const crateById = preparedPerDb((db) =>
  db
    .select()
    .from(schema.crates)
    .where(eq(schema.crates.id, sql.placeholder("id")))
    .prepare("crate_by_id"),
);

/**
 * The crate a caller names: their own crate by uuid, or their special one. Playlists are public to signed-in users;
 * the queue and likes only to their owner. Only the owner edits.
 */
export async function accessibleCrate(
  db: Db,
  userUuid: string,
  target: string | SpecialKind,
  access: "read" | "write",
  now: Date,
) {
  if (target === "queue" || target === "likes") return specialCrate(db, userUuid, target, now);
  const [row] = await crateById(db).execute({ id: target });
  const crate = found(row, CRATE_NOT_FOUND);
  if (crate.userUuid !== userUuid && (access === "write" || crate.kind !== "default")) throw forbidden();
  return crate;
}

/** Runs a change to a crate's songs with the crate row locked, so positions stay 0..n-1 under concurrency. */
export async function withLockedCrate<T>(
  db: Db,
  crateId: string,
  now: Date,
  change: (tx: Tx, count: number) => Promise<T>,
) {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ id: schema.crates.id })
      .from(schema.crates)
      .where(eq(schema.crates.id, crateId))
      .for("update");
    found(locked, CRATE_NOT_FOUND);
    const [agg] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(schema.crateSongs)
      .where(eq(schema.crateSongs.crateId, crateId));
    const result = await change(tx, agg?.n ?? 0);
    await tx.update(schema.crates).set({ updatedAt: now }).where(eq(schema.crates.id, crateId));
    return result;
  });
}

/** The spec's rule: the same song when the song id, short id or ISRC match, or any provider id is shared. */
export function sameSong(a: Song, b: Song) {
  if (a.id === b.id || a.shortId === b.shortId) return true;
  if (a.isrc && b.isrc && a.isrc === b.isrc) return true;
  return Object.entries(a.musicProviders).some(([provider, id]) => b.musicProviders[provider] === id);
}

export async function addSongs(db: Db, crate: Crate, songIds: string[], position: number | undefined, now: Date) {
  const unique = [...new Set(songIds)];
  const songs = await db.select().from(schema.songs).where(inArray(schema.songs.id, unique));
  if (songs.length !== unique.length) throw notFound("Song not found.");
  const ordered = unique.map((id) => songs.find((s) => s.id === id) as Song);
  return withLockedCrate(db, crate.id, now, async (tx, count) => {
    if (count + ordered.length > MAX_CRATE_SONGS) throw badRequest(`A crate holds at most ${MAX_CRATE_SONGS} songs.`);
    const present = await tx
      .select({ song: schema.songs })
      .from(schema.crateSongs)
      .innerJoin(schema.songs, eq(schema.songs.id, schema.crateSongs.songId))
      .where(eq(schema.crateSongs.crateId, crate.id));
    for (const song of ordered) if (present.some((p) => sameSong(p.song, song))) throw conflict(SONG_ALREADY_IN_CRATE);
    const at = Math.min(Math.max(position ?? count, 0), count);
    await tx
      .update(schema.crateSongs)
      .set({ position: sql`${schema.crateSongs.position} + ${ordered.length}` })
      .where(and(eq(schema.crateSongs.crateId, crate.id), gte(schema.crateSongs.position, at)));
    return tx
      .insert(schema.crateSongs)
      .values(ordered.map((song, i) => ({ crateId: crate.id, songId: song.id, position: at + i, addedAt: now })))
      .returning();
  });
}

/**
 * Adds songs at the end of a crate, leaving out those it has already (by the same-song rule, among themselves too)
 * and those past its limit; answers how many were added. For imports, where a playlist may repeat a song.
 */
export async function appendNewSongs(db: Db, crate: Crate, songIds: string[], now: Date) {
  if (songIds.length === 0) return 0;
  const songs = await db
    .select()
    .from(schema.songs)
    .where(inArray(schema.songs.id, [...new Set(songIds)]));
  return withLockedCrate(db, crate.id, now, async (tx, count) => {
    const present = await tx
      .select({ song: schema.songs })
      .from(schema.crateSongs)
      .innerJoin(schema.songs, eq(schema.songs.id, schema.crateSongs.songId))
      .where(eq(schema.crateSongs.crateId, crate.id));
    const kept = present.map((p) => p.song);
    const fresh: Song[] = [];
    for (const id of songIds) {
      const song = songs.find((s) => s.id === id);
      if (!song || kept.some((k) => sameSong(k, song))) continue;
      if (count + fresh.length >= MAX_CRATE_SONGS) break;
      kept.push(song);
      fresh.push(song);
    }
    if (fresh.length)
      await tx
        .insert(schema.crateSongs)
        .values(fresh.map((song, i) => ({ crateId: crate.id, songId: song.id, position: count + i, addedAt: now })));
    return fresh.length;
  });
}

export async function removeSong(db: Db, crate: Crate, crateSongUuid: string, now: Date) {
  await withLockedCrate(db, crate.id, now, async (tx) => {
    const [row] = await tx
      .delete(schema.crateSongs)
      .where(and(eq(schema.crateSongs.id, crateSongUuid), eq(schema.crateSongs.crateId, crate.id)))
      .returning();
    const gone = found(row, NOT_IN_CRATE);
    await tx
      .update(schema.crateSongs)
      .set({ position: sql`${schema.crateSongs.position} - 1` })
      .where(and(eq(schema.crateSongs.crateId, crate.id), gt(schema.crateSongs.position, gone.position)));
    if (crate.currentPosition > gone.position)
      await tx
        .update(schema.crates)
        .set({ currentPosition: sql`${schema.crates.currentPosition} - 1` })
        .where(eq(schema.crates.id, crate.id));
  });
}

export async function moveSong(db: Db, crate: Crate, crateSongUuid: string, wanted: number, now: Date) {
  await withLockedCrate(db, crate.id, now, async (tx, count) => {
    const row = await firstRow(
      tx,
      schema.crateSongs,
      and(eq(schema.crateSongs.id, crateSongUuid), eq(schema.crateSongs.crateId, crate.id)),
    );
    const entry = found(row, NOT_IN_CRATE);
    const to = Math.min(Math.max(wanted, 0), count - 1);
    const from = entry.position;
    if (to === from) return;
    const inCrate = eq(schema.crateSongs.crateId, crate.id);
    if (to < from)
      await tx
        .update(schema.crateSongs)
        .set({ position: sql`${schema.crateSongs.position} + 1` })
        .where(and(inCrate, gte(schema.crateSongs.position, to), lt(schema.crateSongs.position, from)));
    else
      await tx
        .update(schema.crateSongs)
        .set({ position: sql`${schema.crateSongs.position} - 1` })
        .where(and(inCrate, gt(schema.crateSongs.position, from), lte(schema.crateSongs.position, to)));
    await tx.update(schema.crateSongs).set({ position: to }).where(eq(schema.crateSongs.id, entry.id));
  });
}

export async function shuffleSongs(db: Db, crate: Crate, now: Date) {
  await withLockedCrate(db, crate.id, now, async (tx) => {
    const entries = await tx
      .select({ id: schema.crateSongs.id })
      .from(schema.crateSongs)
      .where(eq(schema.crateSongs.crateId, crate.id));
    const order = entries.map((e) => e.id);
    for (let i = order.length - 1; i > 0; i--) {
      const j = (crypto.getRandomValues(new Uint32Array(1))[0] ?? 0) % (i + 1);
      [order[i], order[j]] = [order[j] as string, order[i] as string];
    }
    for (const [position, id] of order.entries())
      await tx.update(schema.crateSongs).set({ position }).where(eq(schema.crateSongs.id, id));
    await tx.update(schema.crates).set({ currentPosition: 0 }).where(eq(schema.crates.id, crate.id));
  });
}

export async function clearSongs(db: Db, crate: Crate, now: Date) {
  await withLockedCrate(db, crate.id, now, async (tx) => {
    await tx.delete(schema.crateSongs).where(eq(schema.crateSongs.crateId, crate.id));
    await tx.update(schema.crates).set({ currentPosition: 0 }).where(eq(schema.crates.id, crate.id));
  });
}

/** "New Playlist #N" with the first unused positive N among the user's crates. */
export async function nextPlaylistName(db: Db | Tx, userUuid: string) {
  const rows = await db
    .select({ name: schema.crates.name })
    .from(schema.crates)
    .where(and(eq(schema.crates.userUuid, userUuid), sql`${schema.crates.name} ~ '^New Playlist #[0-9]+$'`));
  const used = new Set(rows.map((r) => Number(r.name.slice("New Playlist #".length))));
  let n = 1;
  while (used.has(n)) n++;
  return `New Playlist #${n}`;
}

/** A new crate of the user, named "New Playlist #N" when no name is given. */
export async function createCrate(
  db: Db,
  userUuid: string,
  body: { name?: string | undefined; description?: string | null | undefined },
  now: Date,
) {
  const crate = await db.transaction(async (tx) => {
    // Serialise a user's crate creation so two unnamed crates never get the same number.
    await tx
      .select({ uuid: schema.users.uuid })
      .from(schema.users)
      .where(eq(schema.users.uuid, userUuid))
      .for("update");
    const name = body.name ?? (await nextPlaylistName(tx, userUuid));
    return returnedRow(
      "crate insert",
      tx
        .insert(schema.crates)
        .values({
          userUuid,
          name,
          description: body.description ?? null,
          shortId: shortId(),
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
  });
  return crate;
}

/** A page of a user's crates, newest first: their playlists, or every crate with the queue and likes. */
export async function listCrates(
  db: Db,
  userUuid: string,
  limit: number,
  offset: number,
  kinds: "default" | "all" = "default",
) {
  const where = and(
    eq(schema.crates.userUuid, userUuid),
    kinds === "default" ? eq(schema.crates.kind, "default") : undefined,
  );
  const { rows, total } = await newestFirst(db, schema.crates, where, { limit, offset });
  return { data: await Promise.all(rows.map((r) => crateView(db, r))), total };
}

/** Every crate, oldest first. */
export async function allCrates(db: Db, take: number, skip: number) {
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(schema.crates)
      .orderBy(asc(schema.crates.createdAt), asc(schema.crates.id))
      .limit(take)
      .offset(skip),
    db.$count(schema.crates),
  ]);
  return { data: await Promise.all(rows.map((r) => crateView(db, r))), total };
}

/** The songs of a crate by its short id. */
export async function songsOfShortId(db: Db, crateShortId: string) {
  const row = await firstRow(db, schema.crates, eq(schema.crates.shortId, crateShortId));
  return crateSongsJson(db, found(row, CRATE_NOT_FOUND).id);
}

/** Sets the position of the song playing next; a position past the end is refused. */
export async function setCurrentPosition(db: Db, crate: Crate, position: number, now: Date) {
  const songs = await db.$count(schema.crateSongs, eq(schema.crateSongs.crateId, crate.id));
  if (position > Math.max(songs - 1, 0)) throw badRequest(["position: is past the end of the crate"]);
  const [updated] = await db
    .update(schema.crates)
    .set({ currentPosition: position, updatedAt: now })
    .where(eq(schema.crates.id, crate.id))
    .returning();
  return updated ?? crate;
}

/** Renames or describes a playlist (never the queue or likes). */
export async function updateCrate(
  db: Db,
  crate: Crate,
  body: { name?: string | undefined; description?: string | null | undefined },
  now: Date,
) {
  if (crate.kind !== "default") throw forbidden("The queue and likes crates cannot be renamed.");
  const [updated] = await db
    .update(schema.crates)
    .set({
      ...(body.name ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      updatedAt: now,
    })
    .where(eq(schema.crates.id, crate.id))
    .returning();
  return updated ?? crate;
}

/** Deletes a playlist (the queue and likes are emptied, never deleted). */
export async function deleteCrate(db: Db, crate: Crate) {
  if (crate.kind !== "default") throw forbidden("The queue and likes crates cannot be deleted; empty them instead.");
  await db.delete(schema.crates).where(eq(schema.crates.id, crate.id));
}

/** A copy of a crate, its songs in the same order, as a new crate of the user. */
export async function copyCrate(db: Db, crate: Crate, userUuid: string, now: Date) {
  return db.transaction(async (tx) => {
    const row = await returnedRow(
      "crate insert",
      tx
        .insert(schema.crates)
        .values({
          userUuid,
          name: `${crate.name} (copy)`.slice(0, 100),
          description: crate.description,
          shortId: shortId(),
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    const entries = await tx
      .select()
      .from(schema.crateSongs)
      .where(eq(schema.crateSongs.crateId, crate.id))
      .orderBy(asc(schema.crateSongs.position));
    if (entries.length)
      await tx
        .insert(schema.crateSongs)
        .values(entries.map((e) => ({ crateId: row.id, songId: e.songId, position: e.position, addedAt: now })));
    return row;
  });
}
