import { type Db, schema, type Tx } from "@booth/db";
import { type Brand, brandOffersSong, DEFAULT_BRAND } from "@booth/sdk/brand";
import { and, eq } from "drizzle-orm";
import { errorMessage } from "../../lib/error-codes.ts";
import { found, notFound, USER_NOT_FOUND } from "../../lib/errors.ts";
import { firstRow } from "../../lib/rows.ts";
import { firstSource, notOfferedError } from "./brand.ts";
import {
  accessibleCrate,
  addSongs,
  type Crate,
  crateSongs,
  SONG_ALREADY_IN_CRATE,
  type SpecialKind,
  songView,
  specialCrate,
  withLockedCrate,
} from "./crates.ts";

/**
 * What the live room needs of a DJ's crates (services): the next songs of their queue, the queue moving on after a
 * play, a song a DJ names looked up in the catalogue, and a starred song landing in their likes. The queue is a
 * circle: `currentPosition` is the song that plays next, and after it plays the position moves past it, wrapping at
 * the end.
 */

export const SONG_NOT_FOUND = errorMessage("SONG_NOT_FOUND");
export const SONG_NOT_READY = "This song cannot be played yet: its upload is still being processed.";

export async function userExists(db: Db | Tx, userUuid: string) {
  const [user] = await db.select({ uuid: schema.users.uuid }).from(schema.users).where(eq(schema.users.uuid, userUuid));
  found(user, USER_NOT_FOUND);
}

/**
 * Up to `limit` songs from the queue's current position on, wrapping around. A song the brand does not offer (queued
 * before BOOTH_BRAND changed) is passed over: the room plays the next one, and it stays in the queue.
 */
export async function upcoming(db: Db | Tx, crate: Crate, limit: number, brand: Brand = DEFAULT_BRAND) {
  const songs = await crateSongs(db, crate.id);
  if (!songs.length) return [];
  const start = Math.min(crate.currentPosition, songs.length - 1);
  const circle = Array.from({ length: songs.length }, (_, i) => songs[(start + i) % songs.length]!);
  return circle.filter((song) => brandOffersSong(brand, song.musicProviders)).slice(0, limit);
}

/** The next songs of a user's queue (made the first time it is asked for). */
export async function upcomingOf(db: Db, userUuid: string, limit: number, now: Date, brand: Brand = DEFAULT_BRAND) {
  await userExists(db, userUuid);
  const crate = await specialCrate(db, userUuid, "queue", now);
  return upcoming(db, crate, limit, brand);
}

/** A song of the queue was played: the position moves past it (a song no longer in the queue moves nothing). */
export async function advanceQueue(
  db: Db,
  userUuid: string,
  crateSongUuid: string,
  limit: number,
  now: Date,
  brand: Brand = DEFAULT_BRAND,
) {
  await userExists(db, userUuid);
  const crate = await specialCrate(db, userUuid, "queue", now);
  await withLockedCrate(db, crate.id, now, async (tx, count) => {
    const entry = await firstRow(tx, schema.crateSongs, eq(schema.crateSongs.id, crateSongUuid));
    if (!entry || entry.crateId !== crate.id || count === 0) return;
    await tx
      .update(schema.crates)
      .set({ currentPosition: (entry.position + 1) % count })
      .where(eq(schema.crates.id, crate.id));
  });
  const fresh = await firstRow(db, schema.crates, eq(schema.crates.id, crate.id));
  return upcoming(db, fresh ?? crate, limit, brand);
}

/** A song a DJ names, as the room plays it; the crate entry kept only when it is one of theirs and holds the song. */
export async function playableSong(
  db: Db,
  userUuid: string,
  songId: string,
  crateSongUuid: string | undefined,
  brand: Brand = DEFAULT_BRAND,
) {
  await userExists(db, userUuid);
  const [row] = await db
    .select({ song: schema.songs, album: schema.albums.title, upload: schema.songUploads })
    .from(schema.songs)
    .leftJoin(schema.albums, eq(schema.albums.id, schema.songs.albumId))
    .leftJoin(schema.songUploads, eq(schema.songUploads.songId, schema.songs.id))
    .where(eq(schema.songs.id, songId))
    .limit(1);
  const { song, album, upload } = found(row, SONG_NOT_FOUND);
  if (!brandOffersSong(brand, song.musicProviders))
    throw notOfferedError(brand, firstSource(song.musicProviders), "songs");
  // An upload joins the catalogue once verified, before its HLS exists: until then nobody can hear it, and only
  // its owner learns that it exists.
  if (upload && !(upload.status === "VERIFIED" && upload.transcodingStatus === "TRANSCODING_SUCCEED"))
    throw notFound(upload.ownerUuid === userUuid ? SONG_NOT_READY : SONG_NOT_FOUND);
  const [entry] = crateSongUuid
    ? await db
        .select({ id: schema.crateSongs.id, position: schema.crateSongs.position })
        .from(schema.crateSongs)
        .innerJoin(schema.crates, eq(schema.crates.id, schema.crateSongs.crateId))
        .where(
          and(
            eq(schema.crateSongs.id, crateSongUuid),
            eq(schema.crateSongs.songId, songId),
            eq(schema.crates.userUuid, userUuid),
          ),
        )
    : [];
  return {
    ...songView(song, album),
    ...(entry ? { crateSongUuid: entry.id, position: entry.position } : {}),
    status: "SUCCESS" as const,
  };
}

/** A starred song lands in the user's likes crate; one already there is not an error for the room. */
export const likeSong = (db: Db, userUuid: string, songId: string, now: Date) =>
  addToCrateOf(db, userUuid, "likes", songId, now);

/**
 * A song the live room adds to one of a user's crates: their likes when they star it, the crate they pick when they
 * grab it. Only a crate of their own (404 when it does not exist, 403 when it is another's).
 */
export async function addToCrateOf(db: Db, userUuid: string, target: string | SpecialKind, songId: string, now: Date) {
  await userExists(db, userUuid);
  const crate = await accessibleCrate(db, userUuid, target, "write", now);
  try {
    const [row] = await addSongs(db, crate, [songId], undefined, now);
    const song = (await crateSongs(db, crate.id)).find((s) => s.crateSongUuid === row?.id);
    if (!song) throw new Error("crate song missing after insert");
    return { added: true as const, song };
  } catch (err) {
    if ((err as { status?: number }).status === 409) return { added: false as const, message: SONG_ALREADY_IN_CRATE };
    throw err;
  }
}
