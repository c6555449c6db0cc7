import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { HttpError, notFound } from "../../lib/errors.ts";
import { firstRow } from "../../lib/rows.ts";
import { appendNewSongs, type Crate, createCrate } from "./crates.ts";
import type { PlaylistLink, PlaylistProvider } from "./playlist-links.ts";
import { openPlaylist, type PlaylistEntry } from "./playlist-sources.ts";
import { catalogueProviderTrack } from "./provider-lookup.ts";

/**
 * A playlist import: the crate is made at once (named after the playlist), then a job on the queue (ports/jobs.ts)
 * pages through the playlist and adds its tracks. Its progress lives in the shared cache, so whichever edge instance
 * is asked answers it, for a day after it was started.
 */

/** At most this many tracks of a playlist are imported (the first ones); a crate holds at most 5,000. */
export const MAX_PLAYLIST_TRACKS = 500;
/** How long an import's progress can be read after it started. */
export const IMPORT_TTL_SECONDS = 24 * 60 * 60;
export const IMPORT_NOT_FOUND = errorMessage("PLAYLIST_IMPORT_NOT_FOUND");
/** Entries are added to the crate, and the progress saved, this many at a time. */
const BATCH = 10;

export const IMPORT_STATES = ["queued", "running", "complete", "failed"] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

export interface PlaylistImport {
  importId: string;
  userUuid: string;
  provider: PlaylistProvider;
  playlistId: string;
  playlistName: string;
  crateUuid: string;
  state: ImportState;
  /** The entries that will be looked at: the playlist's, up to MAX_PLAYLIST_TRACKS. */
  total: number;
  /** How many entries the provider says the playlist has (more than `total` when it was cut at the limit). */
  playlistTracks: number;
  /** Entries looked at so far: imported + skipped. */
  done: number;
  imported: number;
  /** Entries the provider could not give (deleted, private, local files) or that the crate already had. */
  skipped: number;
  message: string | null;
  createdAt: string;
  updatedAt: string;
}

const key = (importId: string) => `playlist-import:${importId}`;

async function save(deps: AppDeps, job: PlaylistImport) {
  job.updatedAt = deps.clock.now().toISOString();
  await deps.cache.set(key(job.importId), JSON.stringify(job), IMPORT_TTL_SECONDS);
}

async function load(deps: AppDeps, importId: string): Promise<PlaylistImport | null> {
  const raw = await deps.cache.get(key(importId));
  return raw ? (JSON.parse(raw) as PlaylistImport) : null;
}

/** What the owner sees of an import. */
export function importView(job: PlaylistImport) {
  const { userUuid: _owner, ...view } = job;
  return view;
}

/** An import as its owner reads it; anyone else is told there is none (a 404, as for a missing one). */
export async function ownImport(deps: AppDeps, importId: string, userUuid: string) {
  const job = await load(deps, importId);
  if (!job || job.userUuid !== userUuid) throw notFound(IMPORT_NOT_FOUND);
  return job;
}

/**
 * Starts an import: the playlist is asked for at once (so a missing or private one, a provider down or not
 * configured, is the request's answer), its crate made, and the job queued.
 */
export async function startImport(deps: AppDeps, userUuid: string, link: PlaylistLink) {
  const source = await openPlaylist(deps, link);
  const now = deps.clock.now();
  const crate = await createCrate(deps.db, userUuid, { name: crateName(source.name) }, now);
  await setCrateImport(deps, crate, "IN_PROGRESS", null);
  const job: PlaylistImport = {
    importId: crypto.randomUUID(),
    userUuid,
    provider: link.provider,
    playlistId: link.id,
    playlistName: source.name,
    crateUuid: crate.id,
    state: "queued",
    total: Math.min(source.total, MAX_PLAYLIST_TRACKS),
    playlistTracks: source.total,
    done: 0,
    imported: 0,
    skipped: 0,
    message: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await save(deps, job);
  await deps.jobs.send("playlist-import", { importId: job.importId }, { key: job.importId });
  return job;
}

/** A crate name from a playlist's: the crate's limit is 100 characters, and a blank one is no name. */
const crateName = (name: string) => name.replace(/\s+/g, " ").trim().slice(0, 100) || "Imported playlist";

async function setCrateImport(
  deps: AppDeps,
  crate: Pick<Crate, "id">,
  status: Crate["importStatus"],
  message: string | null,
) {
  await deps.db
    .update(schema.crates)
    .set({ importStatus: status, importMessage: message })
    .where(eq(schema.crates.id, crate.id));
}

/** What the finished import says: how many were skipped, and whether the playlist was cut at the limit. */
function summary(job: PlaylistImport) {
  const parts: string[] = [];
  if (job.skipped) parts.push(`${job.skipped} of ${job.done} tracks could not be imported.`);
  if (job.playlistTracks > MAX_PLAYLIST_TRACKS)
    parts.push(`The playlist has ${job.playlistTracks} tracks; the first ${MAX_PLAYLIST_TRACKS} were imported.`);
  return parts.join(" ") || null;
}

/**
 * The job: adds the playlist's entries to the crate ten at a time, saving the progress after each batch. A run after
 * a worker died goes on from the entry it had reached. A provider that fails or the playlist gone ends the import as
 * failed (what was added stays); a crate deleted meanwhile ends it too.
 */
export async function runImport(deps: AppDeps, importId: string) {
  const job = await load(deps, importId);
  if (!job || job.state === "complete" || job.state === "failed") return;
  // The crate's status is written before the progress says the import ended: whoever sees it end and reads the crate
  // finds its final status.
  const fail = async (message: string) => {
    job.state = "failed";
    job.message = message;
    await setCrateImport(deps, { id: job.crateUuid }, "FAILED", message);
    await save(deps, job);
  };
  const crate = await crateOf(deps, job.crateUuid);
  if (!crate) return fail("The crate was deleted before the import finished.");
  job.state = "running";
  await save(deps, job);
  let batch: PlaylistEntry[] = [];
  try {
    const source = await openPlaylist(deps, { provider: job.provider, id: job.playlistId });
    for await (const entry of source.entries(job.done)) {
      if (job.done + batch.length >= job.total) break;
      batch.push(entry);
      if (batch.length === BATCH) {
        await addBatch(deps, crate, job, batch);
        batch = [];
      }
    }
    await addBatch(deps, crate, job, batch);
  } catch (err) {
    // Booth's own failures (the database) throw, so the queue runs the job again; a provider's are the import's end,
    // with the entries read before it kept.
    if (!(err instanceof HttpError) || err.status === 500) throw err;
    if (err.status !== 404) await addBatch(deps, crate, job, batch);
    return fail(err.message);
  }
  // The provider may list fewer entries than it counted.
  job.total = job.done;
  job.state = "complete";
  job.message = summary(job);
  await setCrateImport(deps, crate, job.imported || !job.done ? "COMPLETE" : "FAILED", job.message);
  await save(deps, job);
}

async function crateOf(deps: AppDeps, crateUuid: string) {
  return firstRow(deps.db, schema.crates, eq(schema.crates.id, crateUuid));
}

/**
 * Puts a batch of entries' tracks in the catalogue and the crate, and saves the progress: an entry the provider could
 * not give, or a song the crate has already (a playlist may repeat one), counts as skipped.
 */
async function addBatch(deps: AppDeps, crate: Crate, job: PlaylistImport, batch: PlaylistEntry[]) {
  if (batch.length === 0) return;
  const songIds: string[] = [];
  for (const entry of batch)
    if (entry.track) songIds.push(await catalogueProviderTrack(deps, job.provider, entry.id, entry.track));
  const added = await appendNewSongs(deps.db, crate, songIds, deps.clock.now());
  job.imported += added;
  job.skipped += batch.length - added;
  job.done += batch.length;
  await save(deps, job);
}
