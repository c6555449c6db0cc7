import { schema } from "@booth/db";
import { brandOffers, brandOffersSong, notOffered } from "@booth/sdk/brand";
import { eq, or, type SQL, sql } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { found, HttpError } from "../../lib/errors.ts";
import { firstSource } from "./brand.ts";
import { addSongs, type Crate, crateSongs, crateView, SONG_ALREADY_IN_CRATE } from "./crates.ts";
import { queueChanged } from "./live-queue.ts";
import { canLookUp, lookUpTrack, lookupConfigured } from "./provider-lookup.ts";
import { isSevenDigitalTrackId, lookUpSevenDigital, sevenDigitalConfigured } from "./seven-digital.ts";

export const NO_SUPPORTED_PROVIDER = "Sorry, this song does not have any supported music providers to import from.";
export const NOT_IN_CATALOG = errorMessage("SONG_NOT_IN_CATALOG");
/** Providers an imported song may come from (the spec's seven-digital, soundcloud public, spotify, apple, upload). */
export const IMPORT_PROVIDERS = [
  "sevenDigital",
  "soundCloudPublic",
  "soundcloud",
  "spotify",
  "apple",
  "uploadService",
] as const;

export interface ImportSong {
  songId?: string | undefined;
  isrc?: string | undefined;
  trackName?: string | undefined;
  artistName?: string | undefined;
  musicProviders: Record<string, string>;
}

/**
 * The catalogue song an imported track is: by id, or by a provider id of a supported provider; else, when a provider
 * Booth can ask is configured (7digital among them), the track as that provider has it, added to the catalogue.
 */
async function findForImport(deps: AppDeps, song: ImportSong): Promise<{ songId: string } | { error: string }> {
  const { db } = deps;
  const { brand } = deps.config;
  const named = Object.entries(song.musicProviders).filter(([p]) =>
    (IMPORT_PROVIDERS as readonly string[]).includes(p),
  );
  // Only the sources the brand offers are looked for (BOOTH_BRAND): a track of none of them is skipped, saying why.
  const supported = named.filter(([p]) => brandOffers(brand, p));
  if (!song.songId && supported.length === 0)
    return { error: named[0] ? notOffered(brand, named[0][0], "songs") : NO_SUPPORTED_PROVIDER };
  const conditions: SQL[] = supported.map(([p, id]) => sql`${schema.songs.musicProviders} ->> ${p} = ${id}`);
  if (song.songId) conditions.push(eq(schema.songs.id, song.songId));
  const [row] = await db
    .select({ id: schema.songs.id, musicProviders: schema.songs.musicProviders })
    .from(schema.songs)
    .where(or(...conditions))
    .limit(1);
  if (row && !brandOffersSong(brand, row.musicProviders))
    return { error: notOffered(brand, firstSource(row.musicProviders), "songs") };
  if (row) return { songId: row.id };
  for (const [provider, id] of supported) {
    const lookUp =
      provider === "sevenDigital"
        ? sevenDigitalConfigured(deps) && isSevenDigitalTrackId(id)
          ? () => lookUpSevenDigital(deps, id)
          : null
        : canLookUp(provider) && lookupConfigured(deps, provider)
          ? () => lookUpTrack(deps, provider, id)
          : null;
    if (!lookUp) continue;
    try {
      const songId = await lookUp();
      if (songId) return { songId };
    } catch (err) {
      // The provider is down or refuses: this track is skipped with the reason, the others still import.
      if (err instanceof HttpError && err.status >= 500) return { error: err.message };
      throw err;
    }
  }
  return { error: NOT_IN_CATALOG };
}

/** Imports tracks into a crate one by one; the crate's import status and message say how it went. */
export async function importTracks(deps: AppDeps, crate: Crate, songs: ImportSong[]) {
  const { db, clock } = deps;
  await db
    .update(schema.crates)
    .set({ importStatus: "IN_PROGRESS", importMessage: null })
    .where(eq(schema.crates.id, crate.id));
  const skipped: { index: number; message: string }[] = [];
  let imported = 0;
  for (const [index, song] of songs.entries()) {
    const match = await findForImport(deps, song);
    if ("error" in match) {
      skipped.push({ index, message: match.error });
      continue;
    }
    try {
      await addSongs(db, crate, [match.songId], undefined, clock.now());
      imported++;
    } catch (err) {
      if (!(err instanceof HttpError) || err.status >= 500) throw err;
      skipped.push({ index, message: err.status === 409 ? SONG_ALREADY_IN_CRATE : err.message });
    }
  }
  if (imported) await queueChanged(deps, crate);
  const failed = imported === 0;
  const [done] = await db
    .update(schema.crates)
    .set({
      importStatus: failed ? "FAILED" : "COMPLETE",
      importMessage: failed
        ? (skipped[0]?.message ?? null)
        : skipped.length
          ? `${skipped.length} of ${songs.length} tracks could not be imported.`
          : null,
    })
    .where(eq(schema.crates.id, crate.id))
    .returning();
  return { crate: await crateView(db, done ?? crate), imported, skipped };
}

/** Adds a catalogue song to a crate, at the end or at the start; answers the crate's songs. */
export async function addCatalogueSong(deps: AppDeps, crate: Crate, songId: string, append: boolean) {
  const { db, clock } = deps;
  const [song] = await db.select({ id: schema.songs.id }).from(schema.songs).where(eq(schema.songs.id, songId));
  found(song, NOT_IN_CATALOG);
  await addSongs(db, crate, [songId], append ? undefined : 0, clock.now());
  await queueChanged(deps, crate);
  return crateSongs(db, crate.id);
}
