import { createHmac, timingSafeEqual } from "node:crypto";
import { type Db, schema, type Tx } from "@booth/db";
import { type Brand, brandOffers, DEFAULT_BRAND } from "@booth/sdk/brand";
import { and, asc, desc, eq, ilike, inArray, type SQL, sql } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { escapeLike } from "../../lib/crud/index.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { badRequest, found, HttpError, notFound, unauthorized } from "../../lib/errors.ts";
import { pageWhere } from "../../lib/pages.ts";
import { firstRow } from "../../lib/rows.ts";
import { preparedPerDb, type SqlJson } from "../../lib/sql-json.ts";
import { AUDIUS, isAudiusTrackPath, lookUpAudius, searchAudius } from "./audius.ts";
import { offeredSongs, requireOffered } from "./brand.ts";
import { songJsonFields, songView } from "./crates.ts";
import { PROVIDERS, type Provider, parseProviderLink } from "./provider-links.ts";
import { canLookUp, LOOKUP_SETTINGS, lookUpTrack, lookupConfigured, PROVIDER_NAMES } from "./provider-lookup.ts";
import {
  isSevenDigitalTrackId,
  lookUpSevenDigital,
  SEVEN_DIGITAL,
  searchSevenDigital,
  sevenDigitalConfigured,
  sevenDigitalConsumer,
  signedClipUrl,
} from "./seven-digital.ts";

/** The catalogue: songs, genres, search, song data by provider, albums and artists. */

export const SEARCH_PAGE = 20;
export const SONG_NOT_FOUND = errorMessage("SONG_NOT_FOUND");
export const NOT_A_TRACK_LINK = errorMessage("NOT_A_TRACK_LINK");

/** A song the upload service published into the catalogue: its row, new (answered) or changed, and its removal. */
export type SongFields = typeof schema.songs.$inferInsert;
export const addSong = async (db: Db, values: SongFields) =>
  (await db.insert(schema.songs).values(values).returning())[0];
export const changeSong = (db: Db, id: string, fields: Partial<SongFields>) =>
  db.update(schema.songs).set(fields).where(eq(schema.songs.id, id));
export const deleteSong = (tx: Tx, id: string) => tx.delete(schema.songs).where(eq(schema.songs.id, id));

export const songsWithAlbum = (db: Db, where: SQL | undefined) =>
  db
    .select({ song: schema.songs, album: schema.albums.title })
    .from(schema.songs)
    .leftJoin(schema.albums, eq(schema.albums.id, schema.songs.albumId))
    .where(where);

/** A page of songs, by artist and title. */
export async function listSongs(db: Db, where: SQL | undefined, limit: number, offset: number) {
  const songs = songsWithAlbum(db, where).orderBy(
    asc(schema.songs.artistName),
    asc(schema.songs.trackName),
    asc(schema.songs.id),
  );
  const { rows, total } = await pageWhere(db, schema.songs, where, songs, { limit, offset });
  return { data: rows.map((r) => songView(r.song, r.album)), total };
}

/** Songs by ids and/or a title prefix; the catalogue's list (no ids) only of the songs the brand offers. */
export function findSongs(
  db: Db,
  q: { ids: string[]; prefix?: string | undefined; limit: number; offset: number; brand?: Brand | undefined },
) {
  const where = and(
    q.ids.length ? inArray(schema.songs.id, q.ids) : offeredSongs(q.brand ?? DEFAULT_BRAND),
    q.prefix ? ilike(schema.songs.trackName, `${escapeLike(q.prefix)}%`) : undefined,
  );
  return listSongs(db, where, q.limit, q.offset);
}

/** One catalogue song, by id or short id, or a 404. */
export async function catalogueSong(db: Db, by: { id: string } | { shortId: string }) {
  const where = "id" in by ? eq(schema.songs.id, by.id) : eq(schema.songs.shortId, by.shortId);
  const [row] = await songsWithAlbum(db, where);
  const { song, album } = found(row, SONG_NOT_FOUND);
  return songView(song, album);
}

/** Genres by ids and/or a name prefix, by name. */
export function findGenres(db: Db, q: { ids: string[]; prefix?: string | undefined; limit: number }) {
  return db
    .select({ id: schema.genres.id, name: schema.genres.name })
    .from(schema.genres)
    .where(
      and(
        q.ids.length ? inArray(schema.genres.id, q.ids) : undefined,
        q.prefix ? ilike(schema.genres.name, `${escapeLike(q.prefix)}%`) : undefined,
      ),
    )
    .orderBy(asc(schema.genres.name))
    .limit(q.limit);
}

// ---- search

/** A prefix query from what a person typed: each word must start a word of the title, artist or genre. */
export function prefixQuery(text: string) {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words
    .slice(0, 10)
    .map((w) => `${w}:*`)
    .join(" & ");
}
const document = sql`to_tsvector('simple', ${schema.songs.trackName} || ' ' || ${schema.songs.artistName} || ' ' || coalesce(${schema.songs.genre}, ''))`;

export interface SearchQuery {
  q?: string | undefined;
  isrc?: string | undefined;
  explicit: "true" | "false";
  offset: number;
  limit: number;
  /** Only the songs this brand offers (BOOTH_BRAND; the default brand's when not given). */
  brand?: Brand | undefined;
}

/** The words of a search as a tsquery, or a 400 when there are none to search by. */
function searchWords(q: SearchQuery) {
  if (!q.q && !q.isrc) throw badRequest(["q: a search needs a query"]);
  const tsquery = q.q ? prefixQuery(q.q) : "";
  if (q.q && !tsquery) throw badRequest(["q: a search needs letters or digits"]);
  return tsquery;
}

/** A page of a word search as JSON text written by the database, best match first; prepared with and without explicit songs. */
const wordSearchQuery = (withExplicit: boolean, brand: Brand) =>
  preparedPerDb((db) => {
    const words = sql`to_tsquery('simple', ${sql.placeholder("words")})`;
    // The page is chosen on its sort keys alone; only its songs are then written as JSON.
    const page = db
      .select({
        rank: sql<number>`ts_rank(${document}, ${words})`.as("rank"),
        trackName: schema.songs.trackName,
        id: schema.songs.id,
      })
      .from(schema.songs)
      .where(
        and(
          sql`${document} @@ ${words}`,
          withExplicit ? undefined : eq(schema.songs.explicit, false),
          offeredSongs(brand),
        ),
      )
      .orderBy(desc(sql`ts_rank(${document}, ${words})`), asc(schema.songs.trackName), asc(schema.songs.id))
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"))
      .as("page");
    return db
      .select({
        body: sql<string>`coalesce(json_agg(json_build_object(${songJsonFields(schema.songs, schema.albums.title)}) order by ${page.rank} desc, ${page.trackName}, ${page.id}), '[]')::text`,
      })
      .from(page)
      .innerJoin(schema.songs, eq(schema.songs.id, page.id))
      .leftJoin(schema.albums, eq(schema.albums.id, schema.songs.albumId))
      .prepare(`${withExplicit ? "search_songs_all" : "search_songs_clean"}_${brand}`);
  });
const wordSearches = {
  streaming: { clean: wordSearchQuery(false, "streaming"), all: wordSearchQuery(true, "streaming") },
  catalogue: { clean: wordSearchQuery(false, "catalogue"), all: wordSearchQuery(true, "catalogue") },
} satisfies Record<Brand, unknown>;

/**
 * The songs of a search without its total (`GET /search`), as JSON text: a word search in one prepared statement,
 * an ISRC search as `search` finds it.
 */
export async function searchSongs(db: Db, q: SearchQuery): Promise<SqlJson<ReturnType<typeof songView>[]>> {
  const tsquery = searchWords(q);
  if (q.isrc) return JSON.stringify((await search(db, q)).songs);
  const prepared = wordSearches[q.brand ?? DEFAULT_BRAND][q.explicit === "true" ? "all" : "clean"](db);
  const [row] = await prepared.execute({ words: tsquery, limit: q.limit, offset: q.offset });
  return row?.body ?? "[]";
}

/** How many catalogue songs a search answers before the songs of providers join them (spec 9). */
export const CATALOGUE_FIRST = 5;

/** The spec's interleave: the first five catalogue songs, then a provider's and a catalogue's in turn; each song once. */
export function interleave<T extends { songId: string }>(catalogue: T[], provider: T[], limit: number): T[] {
  const out: T[] = [];
  const seen = new Set<string>();
  const take = (song: T | undefined) => {
    if (song && !seen.has(song.songId) && out.length < limit) {
      seen.add(song.songId);
      out.push(song);
    }
  };
  catalogue.slice(0, CATALOGUE_FIRST).forEach(take);
  for (let i = 0; i < Math.max(provider.length, catalogue.length); i++) {
    take(provider[i]);
    take(catalogue[CATALOGUE_FIRST + i]);
  }
  return out;
}

/** How many of each provider's tracks join a search's first page. */
export const PROVIDER_SEARCH = 10;

/**
 * The providers whose tracks join a search's first page (spec 9), one entry each: its name (for the log), how it is
 * searched (its tracks put in the catalogue, their song ids answered) and whether it is configured (one that is not is
 * left out, silently). Audius's API is open; 7digital needs Booth's partner key and secret.
 */
export const SEARCH_SOURCES = {
  audius: { name: AUDIUS, search: searchAudius, configured: (_deps: AppDeps) => true },
  sevenDigital: { name: SEVEN_DIGITAL, search: searchSevenDigital, configured: sevenDigitalConfigured },
} as const;
export type SearchSource = keyof typeof SEARCH_SOURCES;

/**
 * One provider's songs for a search (its first page, searched by words), explicit ones only when asked for. The
 * provider down, slow or refusing leaves the search to the others (logged).
 */
export async function providerSearch(
  deps: AppDeps,
  source: SearchSource,
  q: SearchQuery,
): Promise<ReturnType<typeof songView>[]> {
  const { name, search, configured } = SEARCH_SOURCES[source];
  if (!q.q || q.isrc || q.offset > 0 || !configured(deps)) return [];
  try {
    const ids = await search(deps, q.q, Math.min(q.limit, PROVIDER_SEARCH));
    const songs = await songsByIds(deps.db, ids);
    return q.explicit === "true" ? songs : songs.filter((s) => !s.explicit);
  } catch (err) {
    if (!(err instanceof HttpError) || err.status === 500) throw err;
    deps.logger({ level: "warn", msg: `${name} left out of a search`, err: err.message });
    return [];
  }
}

/** The providers' songs for a search (those the brand offers), asked together, taken one of each in turn. */
export async function providerSearches(deps: AppDeps, q: SearchQuery): Promise<ReturnType<typeof songView>[]> {
  const sources = (Object.keys(SEARCH_SOURCES) as SearchSource[]).filter((source) =>
    brandOffers(q.brand ?? DEFAULT_BRAND, source),
  );
  const found = await Promise.all(sources.map((source) => providerSearch(deps, source, q)));
  const out: ReturnType<typeof songView>[] = [];
  for (let i = 0; i < Math.max(0, ...found.map((songs) => songs.length)); i++)
    for (const songs of found) if (songs[i]) out.push(songs[i] as ReturnType<typeof songView>);
  return out;
}

export async function search(db: Db, q: SearchQuery) {
  const tsquery = searchWords(q);
  const where = and(
    q.isrc ? eq(schema.songs.isrc, q.isrc.toUpperCase()) : undefined,
    tsquery ? sql`${document} @@ to_tsquery('simple', ${tsquery})` : undefined,
    q.explicit === "true" ? undefined : eq(schema.songs.explicit, false),
    offeredSongs(q.brand ?? DEFAULT_BRAND),
  );
  // Best match first when there are words to rank by (a bare constant in ORDER BY would name a column).
  const byRank = tsquery ? [desc(sql`ts_rank(${document}, to_tsquery('simple', ${tsquery}))`)] : [];
  const songs = songsWithAlbum(db, where).orderBy(...byRank, asc(schema.songs.trackName), asc(schema.songs.id));
  const { rows, total } = await pageWhere(db, schema.songs, where, songs, q);
  return { songs: rows.map((r) => songView(r.song, r.album)), total };
}

// ---- song data

/** The providers links and ids may name, and whether lookups at each are configured. */
export const providerSettings = (deps: AppDeps) =>
  PROVIDERS.map((provider) => ({
    provider,
    // Audius's API is open: its base URL has a default (AUDIUS_API_URL).
    configured:
      provider === "uploadService" ||
      provider === "audius" ||
      (provider === "sevenDigital" && sevenDigitalConfigured(deps)) ||
      (canLookUp(provider) && lookupConfigured(deps, provider)),
    setting: canLookUp(provider)
      ? LOOKUP_SETTINGS[provider]
      : provider === "audius"
        ? "AUDIUS_API_URL"
        : provider === "sevenDigital"
          ? "SEVENDIGITAL_CONSUMER_KEY and SEVENDIGITAL_CONSUMER_SECRET"
          : null,
  }));

/**
 * A provider track: from the catalogue when it has it, else asked of the provider (Spotify, Apple Music, YouTube,
 * SoundCloud, Audius, 7digital) and added to the catalogue; a 503 naming the settings when that provider's lookups are
 * not configured. Audius's tracks are named by their id or by their link's path (handle/slug).
 */
export async function byProviderId(deps: AppDeps, provider: Provider, id: string) {
  requireOffered(deps, provider, "songs");
  const find = async (where: SQL) => {
    const [row] = await songsWithAlbum(deps.db, where).limit(1);
    return row ? { provider, providerSongId: id, song: songView(row.song, row.album) } : null;
  };
  const known = await find(sql`${schema.songs.musicProviders} ->> ${provider} = ${id}`);
  if (known) return known;
  if (provider === "uploadService") throw notFound(SONG_NOT_FOUND);
  if (provider === "audius") {
    const linked = isAudiusTrackPath(id)
      ? await find(sql`${schema.songs.links} ->> 'audius' = ${`https://audius.co/${id}`}`)
      : null;
    if (linked) return linked;
    const songId = await lookUpAudius(deps, id);
    if (!songId) throw notFound(`${AUDIUS} has no track ${isAudiusTrackPath(id) ? "at this link" : "with this id"}.`);
    return found(await find(eq(schema.songs.id, songId)), SONG_NOT_FOUND);
  }
  if (provider === "sevenDigital") {
    if (!isSevenDigitalTrackId(id)) throw badRequest("This is not a 7digital track id.");
    sevenDigitalConsumer(deps);
    const songId = await lookUpSevenDigital(deps, id);
    if (!songId) throw notFound(`${SEVEN_DIGITAL} has no track with this id.`);
    return found(await find(eq(schema.songs.id, songId)), SONG_NOT_FOUND);
  }
  if (!canLookUp(provider))
    throw notFound(`This song is not in our catalog, and Booth does not look up ${provider} tracks.`);
  if (!lookupConfigured(deps, provider))
    throw new HttpError(
      503,
      `This song is not in our catalog, and ${provider} lookups are not configured: set ${LOOKUP_SETTINGS[provider]}.`,
    );
  const songId = await lookUpTrack(deps, provider, id);
  if (!songId) throw notFound(`${PROVIDER_NAMES[provider]} has no track with this id.`);
  return found(await find(eq(schema.songs.id, songId)), SONG_NOT_FOUND);
}

/** A song by a provider link, as `byProviderId`; a 400 for a link of no music service we know. */
export function byProviderLink(deps: AppDeps, link: string) {
  const parsed = parseProviderLink(link);
  if (!parsed) throw badRequest(NOT_A_TRACK_LINK);
  requireOffered(deps, parsed.provider, "links");
  return byProviderId(deps, parsed.provider, parsed.id);
}

/** Songs by id, in the order asked, the unknown ones left out. */
export async function songsByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await songsWithAlbum(db, inArray(schema.songs.id, ids));
  const byId = new Map(rows.map((r) => [r.song.id, songView(r.song, r.album)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The stream or preview URLs of a song; a 404 when it has none. */
export async function songUrls(db: Db, songId: string, kind: "stream" | "preview") {
  const row = await firstRow(db, schema.songs, eq(schema.songs.id, songId));
  const song = found(row, SONG_NOT_FOUND);
  const urls = song[kind === "stream" ? "streamUrls" : "previews"];
  if (Object.keys(urls).length === 0) throw notFound(`This song has no ${kind}.`);
  return { songId: song.id, urls };
}

/**
 * The address of a 7digital clip, signed now: only for a track the catalogue has (a 404 otherwise), so the edge signs
 * no address for a track nobody found through it; a 503 when 7digital is not configured.
 */
export async function sevenDigitalClip(deps: AppDeps, trackId: string) {
  sevenDigitalConsumer(deps);
  const row = await firstRow(
    deps.db,
    schema.songs,
    sql`${schema.songs.musicProviders} ->> 'sevenDigital' = ${trackId}`,
  );
  if (!row) throw notFound(`This ${SEVEN_DIGITAL} track is not in the catalogue.`);
  return signedClipUrl(deps, trackId);
}

/** Provider links mapped to catalogue songs (null where the catalogue has no match). */
export async function migrateLinks(db: Db, links: string[]) {
  const out = [];
  for (const link of links) {
    const parsed = parseProviderLink(link);
    if (!parsed) {
      out.push({ link, provider: null, song: null, message: NOT_A_TRACK_LINK });
      continue;
    }
    const row = await firstRow(
      db,
      schema.songs,
      sql`${schema.songs.musicProviders} ->> ${parsed.provider} = ${parsed.id}`,
    );
    out.push({
      link,
      provider: parsed.provider,
      song: row ? songView(row) : null,
      message: row ? null : "Sorry, this song is not in our catalog and can't be imported.",
    });
  }
  return out;
}

// ---- music analysis (Cyanite)

/**
 * Stores Cyanite's analysis on the song it was sent for. The body must be signed with the shared secret
 * (HMAC-SHA512 of the raw body, hex, in `signature`).
 */
export async function storeAnalysis(db: Db, secret: string | undefined, raw: string, signature: string) {
  if (!secret) throw new HttpError(503, "The Cyanite webhook is not configured: set CYANITE_WEBHOOK_SECRET.");
  const expected = createHmac("sha512", secret).update(raw).digest("hex");
  if (signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature), Buffer.from(expected)))
    throw unauthorized("The webhook signature does not match.");
  let payload: { resource?: { id?: unknown }; event?: unknown };
  try {
    payload = JSON.parse(raw);
  } catch {
    throw badRequest("The webhook body is not JSON.");
  }
  const resourceId = payload.resource?.id;
  if (typeof resourceId !== "string") throw badRequest(["resource.id: is required"]);
  const [song] = await db
    .update(schema.songs)
    .set({ analysis: payload })
    .where(sql`${schema.songs.musicProviders} ->> 'cyanite' = ${resourceId}`)
    .returning({ id: schema.songs.id });
  return { songId: found(song, "No song was sent for this analysis.").id };
}

// ---- albums and artists

type AlbumRow = { album: typeof schema.albums.$inferSelect; artist: typeof schema.artists.$inferSelect | null };
const albumsQuery = (db: Db) =>
  db
    .select({ album: schema.albums, artist: schema.artists })
    .from(schema.albums)
    .leftJoin(schema.artists, eq(schema.artists.id, schema.albums.artistId));
export const albumView = (r: AlbumRow) => ({
  albumShortId: r.album.shortId,
  title: r.album.title,
  artistShortId: r.artist?.shortId ?? null,
  artistName: r.artist?.name ?? null,
  releaseYear: r.album.releaseYear,
  thumbnails: r.album.thumbnails ?? {},
});

export async function allAlbums(db: Db, take: number, skip: number) {
  const rows = await albumsQuery(db).orderBy(asc(schema.albums.title), asc(schema.albums.id)).limit(take).offset(skip);
  return rows.map(albumView);
}

/** An album's songs by title; a 404 for an unknown album. */
export async function albumSongs(db: Db, albumShortId: string) {
  const row = await firstRow(db, schema.albums, eq(schema.albums.shortId, albumShortId));
  const album = found(row, "Album not found.");
  const rows = await songsWithAlbum(db, eq(schema.songs.albumId, album.id)).orderBy(asc(schema.songs.trackName));
  return rows.map((r) => songView(r.song, r.album));
}

export async function allArtists(db: Db, take: number, skip: number) {
  const rows = await db
    .select()
    .from(schema.artists)
    .orderBy(asc(schema.artists.name), asc(schema.artists.id))
    .limit(take)
    .offset(skip);
  return rows.map((a) => ({ artistShortId: a.shortId, name: a.name }));
}

export async function albumsOfArtists(db: Db, artistShortIds: string[]) {
  const rows = await albumsQuery(db)
    .where(inArray(schema.artists.shortId, artistShortIds))
    .orderBy(asc(schema.albums.title));
  return rows.map(albumView);
}

/** An artist's albums by year and title; a 404 for an unknown artist. */
export async function artistAlbums(db: Db, artistShortId: string) {
  const row = await firstRow(db, schema.artists, eq(schema.artists.shortId, artistShortId));
  const artist = found(row, "Artist not found.");
  const rows = await albumsQuery(db)
    .where(eq(schema.albums.artistId, artist.id))
    .orderBy(asc(schema.albums.releaseYear), asc(schema.albums.title));
  return rows.map(albumView);
}
