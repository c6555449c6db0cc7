import { schema } from "@booth/db";
import {
  BRAND_NAMES,
  type Brand,
  brandOffers,
  brandOffersSong,
  brandSources,
  notOffered,
  SOURCES,
} from "@booth/sdk/brand";
import { inArray, type SQL, sql } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { HttpError } from "../../lib/errors.ts";

/**
 * The brand (BOOTH_BRAND, decision 0027) at the playlist service's doors: which sources @booth/sdk/brand says the
 * brand offers is decided there, once; here it is applied. A source the brand does not offer is refused with a 422
 * that names it and changes nothing; a song already in the catalogue whose sources are all of other brands is left
 * out of search, refused to crates and queues, and passed over when a DJ's queue plays.
 */

export type BrandWhat = Parameters<typeof notOffered>[2];

/** The 422 of a source the brand does not offer. */
export const notOfferedError = (brand: Brand, source: string, what: BrandWhat) =>
  new HttpError(422, notOffered(brand, source, what));

/** Refuses (422) a source the brand does not offer. */
export function requireOffered(deps: AppDeps, source: string, what: BrandWhat) {
  if (!brandOffers(deps.config.brand, source)) throw notOfferedError(deps.config.brand, source, what);
}

/** The first source of a song's (none the brand offers), to name in its refusal. */
export const firstSource = (musicProviders: Readonly<Record<string, string>>) =>
  Object.keys(musicProviders).find((key) => (SOURCES as readonly string[]).includes(key)) ?? "unknown";

/**
 * Refuses (422) songs the brand does not offer, naming the first one's source; unknown ids are left to the caller.
 * Answers the songs it read (their sources and whether each is explicit), for the caller's own rules.
 */
export async function requireOfferedSongs(deps: AppDeps, songIds: string[]) {
  if (songIds.length === 0) return [];
  const songs = await deps.db
    .select({ musicProviders: schema.songs.musicProviders, explicit: schema.songs.explicit })
    .from(schema.songs)
    .where(inArray(schema.songs.id, [...new Set(songIds)]));
  const refused = songs.find((song) => !brandOffersSong(deps.config.brand, song.musicProviders));
  if (refused) throw notOfferedError(deps.config.brand, firstSource(refused.musicProviders), "songs");
  return songs;
}

const textArray = (words: readonly string[]) => sql.raw(`array[${words.map((word) => `'${word}'`).join(",")}]`);

/**
 * The songs a brand offers, as a condition on `songs` (brandOffersSong's rule): one of its sources is the brand's, or
 * it has none. The lists are the module's constants, never a client's words.
 */
export const offeredSongs = (brand: Brand, songs: Pick<typeof schema.songs, "musicProviders"> = schema.songs): SQL =>
  sql`(not (${songs.musicProviders} ?| ${textArray(SOURCES)}) or ${songs.musicProviders} ?| ${textArray(brandSources(brand))})`;

/** What a client is told of this Booth's brand (GET /song-data/brand). */
export const brandView = (brand: Brand) => ({ brand, name: BRAND_NAMES[brand], sources: [...brandSources(brand)] });
