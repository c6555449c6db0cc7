import { availableParallelism } from "node:os";
import { schema } from "@booth/db";
import { and, eq } from "drizzle-orm";
import type { AppDeps } from "../deps.ts";
import { shortId } from "../lib/ids.ts";
import { synthesizeMp3 } from "../ports/audio.ts";
import { originalKey, publish, transcode, verify } from "../services/upload/public.ts";
import { createAccount } from "../services/user/public.ts";

// A royalty-free demo catalogue the project makes itself: chords synthesised with ffmpeg, tagged, and put through
// the same upload pipeline as any user's song, so a new instance has music to play without any provider account.
const NOTE = (semitonesFromA4: number) => Math.round(440 * 2 ** (semitonesFromA4 / 12) * 100) / 100;
const chord = (root: number, minor = false) => [NOTE(root), NOTE(root + (minor ? 3 : 4)), NOTE(root + 7)];

export const DEMO_ARTISTS = [
  { name: "Sine Collective", genre: "ambient", album: "Slow Waves", year: 2024, roots: [-9, -5, -2, 0, 3] },
  { name: "The Oscillators", genre: "synthwave", album: "Neon Harmonics", year: 2025, roots: [0, 5, 7, 2, -3] },
  { name: "Lavfi Quartet", genre: "chamber", album: "Pure Tones", year: 2023, roots: [-12, -7, -4, 1, 4] },
  { name: "Null Source", genre: "drone", album: "Anullsrc", year: 2026, roots: [-14, -10, -6, -1, 6] },
] as const;
const TITLES = ["Dawn", "Drift", "Glass", "Harbor", "Lantern", "Meadow", "Orbit", "Quartz", "Signal", "Tide"];

export const DEMO_EMAIL = "demo-catalogue@booth.local";

export interface DemoOptions {
  /** Tracks per artist (the default makes 20 in all). */
  perArtist?: number;
  /** At most this many tracks in all (the first of each artist first): a test that needs one song makes one. */
  tracks?: number;
  seconds?: number;
  /** How many tracks are made at once (default DEMO_CONCURRENCY); 1 makes them one after the other, in order. */
  concurrency?: number;
  /** After each track (awaited). */
  progress?: (done: number, total: number, title: string) => unknown;
  /** Once, before the first track, with how many tracks will load (awaited). */
  started?: (total: number) => unknown;
}

/** The demo account (the demo rooms' owner and the catalogue's uploader); `created` when this call made it. */
export async function ensureDemoAccount(deps: AppDeps) {
  const { db, clock } = deps;
  const [existing] = await db.select().from(schema.users).where(eq(schema.users.email, DEMO_EMAIL));
  if (existing) return { owner: existing, created: false };
  const { user: owner } = await db.transaction((tx) =>
    createAccount(tx, { email: DEMO_EMAIL, nickname: "Booth Demo", emailStatus: "VERIFIED", now: clock.now() }),
  );
  return { owner, created: true };
}

/** Loads the demo catalogue unless it is there already; answers how many tracks it added. */
export async function seedDemoCatalogue(deps: AppDeps, options: DemoOptions = {}) {
  const { owner, created } = await ensureDemoAccount(deps);
  return created ? loadDemoTracks(deps, owner.uuid, options) : 0;
}

/** The row a query finds, else the one `make` inserts. */
async function existingOr<T>(query: Promise<T[]>, make: () => Promise<T[]>) {
  const [row] = await query;
  return row ?? (await make())[0];
}

/** Whether an earlier run made this track to the end. */
async function finishedDemoTrack(deps: AppDeps, ownerUuid: string, title: string) {
  const [row] = await deps.db
    .select({ id: schema.songUploads.id })
    .from(schema.songUploads)
    .where(
      and(
        eq(schema.songUploads.ownerUuid, ownerUuid),
        eq(schema.songUploads.originalName, `${title}.mp3`),
        eq(schema.songUploads.transcodingStatus, "TRANSCODING_SUCCEED"),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * How many demo tracks are made at once: each is ffmpeg runs on one core (the synthesis, then the three renditions'
 * encoders in one process), so as many as the machine has cores, up to 4. Three renditions cost about twice the CPU
 * of the one rendition the demo once had; two at a time on two cores keeps the catalogue's loading about as long.
 */
export const DEMO_CONCURRENCY = Math.max(1, Math.min(availableParallelism(), 4));

/** Runs the tasks, `width` at a time, in order; the first failure is thrown once the running ones end. */
async function inPool(tasks: (() => Promise<void>)[], width: number) {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < tasks.length) {
      const task = tasks[next++];
      try {
        await task?.();
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker));
}

/** Synthesises, publishes and transcodes the demo tracks as uploads of `ownerUuid`; answers how many. */
export async function loadDemoTracks(deps: AppDeps, ownerUuid: string, options: DemoOptions = {}) {
  const perArtist = options.perArtist ?? 5;
  const seconds = options.seconds ?? 30;
  const { db, clock } = deps;
  const now = clock.now();
  const total = Math.min(DEMO_ARTISTS.length * perArtist, options.tracks ?? Number.POSITIVE_INFINITY);
  let done = 0;
  await options.started?.(total);
  const tracks: (() => Promise<void>)[] = [];
  for (const [a, artist] of DEMO_ARTISTS.entries()) {
    if (tracks.length === total) break;
    // A run that a crash cut short runs again as a job: what it made already is kept, not made twice.
    const artistRow = await existingOr(
      db.select().from(schema.artists).where(eq(schema.artists.name, artist.name)).limit(1),
      () => db.insert(schema.artists).values({ shortId: shortId(), name: artist.name, createdAt: now }).returning(),
    );
    const albumRow = await existingOr(
      db.select().from(schema.albums).where(eq(schema.albums.title, artist.album)).limit(1),
      () =>
        db
          .insert(schema.albums)
          .values({
            shortId: shortId(),
            title: artist.album,
            artistId: artistRow?.id,
            releaseYear: artist.year,
            createdAt: now,
          })
          .returning(),
    );
    await db.insert(schema.genres).values({ name: artist.genre }).onConflictDoNothing();
    for (let i = 0; i < perArtist && tracks.length < total; i++) {
      const title = `${TITLES[(a * 3 + i) % TITLES.length]} ${["I", "II", "III", "IV", "V", "VI"][i % 6]}`;
      const root = artist.roots[i % artist.roots.length] ?? 0;
      tracks.push(async () => {
        if (!(await finishedDemoTrack(deps, ownerUuid, title))) {
          const bytes = await synthesizeMp3({
            ffmpeg: deps.config.ffmpeg,
            seconds: seconds + ((a + i) % 3) * 5,
            frequencies: chord(root, (a + i) % 2 === 1),
            title,
            artist: artist.name,
            album: artist.album,
            genre: artist.genre,
            year: artist.year,
          });
          const [upload] = await db
            .insert(schema.songUploads)
            .values({
              ownerUuid,
              originalName: `${title}.mp3`,
              status: "VALID_FILE_TYPE",
              contentType: "audio/mpeg",
              size: bytes.length,
              createdAt: now,
              updatedAt: now,
            })
            .returning();
          if (!upload) throw new Error("demo upload insert returned nothing");
          await deps.storage.put(originalKey(upload.id), bytes, "audio/mpeg");
          const published = await publish(deps, await verify(deps, upload, bytes));
          if (published.songId)
            await db
              .update(schema.songs)
              .set({ artistId: artistRow?.id, albumId: albumRow?.id })
              .where(eq(schema.songs.id, published.songId));
          const finished = await transcode(deps, published);
          if (finished.transcodingStatus !== "TRANSCODING_SUCCEED")
            throw new Error(`demo track ${title} did not transcode`);
        }
        // Counted apart from the call: `progress?.(++done)` skips the increment when there is no progress to tell.
        done += 1;
        await options.progress?.(done, total, title);
      });
    }
  }
  await inPool(tracks, options.concurrency ?? DEMO_CONCURRENCY);
  return done;
}
