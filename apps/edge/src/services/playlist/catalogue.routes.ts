import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, asc, count, desc, eq, ilike, inArray, type SQL, sql } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { requireService } from "../../lib/auth.ts";
import { badRequest, HttpError, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, uuidList } from "../../lib/openapi.ts";
import { SongSchema, songView } from "./crates.ts";
import { PROVIDERS, type Provider, parseProviderLink } from "./provider-links.ts";
import { canLookUp, LOOKUP_SETTINGS, lookUpTrack, lookupConfigured, PROVIDER_NAMES } from "./provider-lookup.ts";

export const SEARCH_PAGE = 20;
export const catalogueRoutes = createRouter();

const IdList = z.string().max(20_000).optional().openapi({ description: "comma-separated ids" });
const splitIds = (v: string | undefined) => uuidList(v, "idIn");
const escapeLike = (v: string) => v.replace(/[\\%_]/g, (m) => `\\${m}`);
const SongPage = z.object({ data: z.array(SongSchema), total: z.number().int() }).openapi("SongPage");

const songsWithAlbum = (db: Parameters<typeof listSongs>[0], where: SQL | undefined) =>
  db
    .select({ song: schema.songs, album: schema.albums.title })
    .from(schema.songs)
    .leftJoin(schema.albums, eq(schema.albums.id, schema.songs.albumId))
    .where(where);

async function listSongs(db: import("@booth/db").Db, where: SQL | undefined, limit: number, offset: number) {
  const [rows, [total]] = await Promise.all([
    songsWithAlbum(db, where)
      .orderBy(asc(schema.songs.artistName), asc(schema.songs.trackName), asc(schema.songs.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(schema.songs).where(where),
  ]);
  return { data: rows.map((r) => songView(r.song, r.album)), total: total?.n ?? 0 };
}

catalogueRoutes.openapi(
  createRoute({
    method: "get",
    path: "/api/v1/songs",
    tags: ["Catalogue"],
    summary: "Songs of the catalogue (by ids, by title prefix, or all), by artist and title",
    request: {
      query: z.object({
        idIn: IdList,
        prefix: z.string().trim().max(100).optional(),
        limit: z.coerce.number().int().min(1).max(300).default(100),
        offset: z.coerce.number().int().min(0).default(0),
      }),
    },
    responses: { 200: json(SongPage), ...errors(400) },
  }),
  async (c) => {
    const q = c.req.valid("query");
    const ids = splitIds(q.idIn);
    const where = and(
      ids.length ? inArray(schema.songs.id, ids) : undefined,
      q.prefix ? ilike(schema.songs.trackName, `${escapeLike(q.prefix)}%`) : undefined,
    );
    return c.json(await listSongs(c.var.deps.db, where, q.limit, q.offset), 200);
  },
);

catalogueRoutes.openapi(
  createRoute({
    method: "get",
    path: "/api/v1/songs/{songId}",
    tags: ["Catalogue"],
    summary: "One song",
    request: { params: z.object({ songId: z.uuid().openapi({ param: { name: "songId", in: "path" } }) }) },
    responses: { 200: json(SongSchema), ...errors(400, 404) },
  }),
  async (c) => {
    const [row] = await songsWithAlbum(c.var.deps.db, eq(schema.songs.id, c.req.valid("param").songId));
    if (!row) throw notFound("Song not found.");
    return c.json(songView(row.song, row.album), 200);
  },
);

const GenreSchema = z.object({ id: z.uuid(), name: z.string() }).openapi("Genre");
catalogueRoutes.openapi(
  createRoute({
    method: "get",
    path: "/api/v1/genres",
    tags: ["Catalogue"],
    summary: "Genres, by name (by ids or a name prefix)",
    request: {
      query: z.object({
        idIn: IdList,
        prefix: z.string().trim().max(100).optional(),
        limit: z.coerce.number().int().min(1).max(300).default(100),
      }),
    },
    responses: { 200: json(z.array(GenreSchema)), ...errors(400) },
  }),
  async (c) => {
    const q = c.req.valid("query");
    const ids = splitIds(q.idIn);
    const rows = await c.var.deps.db
      .select({ id: schema.genres.id, name: schema.genres.name })
      .from(schema.genres)
      .where(
        and(
          ids.length ? inArray(schema.genres.id, ids) : undefined,
          q.prefix ? ilike(schema.genres.name, `${escapeLike(q.prefix)}%`) : undefined,
        ),
      )
      .orderBy(asc(schema.genres.name))
      .limit(q.limit);
    return c.json(rows, 200);
  },
);

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

const SearchQuery = z.object({
  q: z.string().trim().max(200).optional(),
  isrc: z
    .string()
    .trim()
    .regex(/^[A-Z]{2}[A-Z0-9]{3}\d{7}$/i, "must be an ISRC like USRC17607839")
    .optional(),
  explicit: z.enum(["true", "false"]).default("false"),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/)
    .optional(),
  offset: z.coerce.number().int().min(0).max(10_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(SEARCH_PAGE),
});

async function search(db: import("@booth/db").Db, q: z.infer<typeof SearchQuery>) {
  if (!q.q && !q.isrc) throw badRequest(["q: a search needs a query"]);
  const tsquery = q.q ? prefixQuery(q.q) : "";
  if (q.q && !tsquery) throw badRequest(["q: a search needs letters or digits"]);
  const where = and(
    q.isrc ? eq(schema.songs.isrc, q.isrc.toUpperCase()) : undefined,
    tsquery ? sql`${document} @@ to_tsquery('simple', ${tsquery})` : undefined,
    q.explicit === "true" ? undefined : eq(schema.songs.explicit, false),
  );
  // Best match first when there are words to rank by (a bare constant in ORDER BY would name a column).
  const byRank = tsquery ? [desc(sql`ts_rank(${document}, to_tsquery('simple', ${tsquery}))`)] : [];
  const [rows, [total]] = await Promise.all([
    songsWithAlbum(db, where)
      .orderBy(...byRank, asc(schema.songs.trackName), asc(schema.songs.id))
      .limit(q.limit)
      .offset(q.offset),
    db.select({ n: count() }).from(schema.songs).where(where),
  ]);
  return { songs: rows.map((r) => songView(r.song, r.album)), total: total?.n ?? 0 };
}

catalogueRoutes.openapi(
  createRoute({
    method: "get",
    path: "/search",
    tags: ["Search"],
    summary: `Search the catalogue by words of the title, artist or genre, or by ISRC (${SEARCH_PAGE} a page)`,
    request: { query: SearchQuery },
    responses: { 200: json(z.array(SongSchema)), ...errors(400) },
  }),
  async (c) => c.json((await search(c.var.deps.db, c.req.valid("query"))).songs, 200),
);

catalogueRoutes.openapi(
  createRoute({
    method: "get",
    path: "/search/v2",
    tags: ["Search"],
    summary: "Search, answering the page with the total and the next offset",
    request: { query: SearchQuery },
    responses: {
      200: json(
        z
          .object({
            data: z.array(SongSchema),
            total: z.number().int(),
            offset: z.number().int(),
            nextOffset: z.number().int().nullable(),
          })
          .openapi("SearchPage"),
      ),
      ...errors(400),
    },
  }),
  async (c) => {
    const q = c.req.valid("query");
    const { songs, total } = await search(c.var.deps.db, q);
    const next = q.offset + songs.length;
    return c.json({ data: songs, total, offset: q.offset, nextOffset: next < total ? next : null }, 200);
  },
);

// ---- song data

const settingOf = (provider: Provider) => (canLookUp(provider) ? LOOKUP_SETTINGS[provider] : null);
const SongDataSchema = z
  .object({ provider: z.string(), providerSongId: z.string(), song: SongSchema })
  .openapi("SongData");

/**
 * A provider track: from the catalogue when it has it, else asked of the provider (Spotify, Apple Music, YouTube,
 * SoundCloud) and added to the catalogue; a 503 naming the settings when that provider's lookups are not configured.
 */
async function byProviderId(deps: AppDeps, provider: Provider, id: string) {
  const find = async (where: SQL) => {
    const [row] = await songsWithAlbum(deps.db, where).limit(1);
    return row ? { provider, providerSongId: id, song: songView(row.song, row.album) } : null;
  };
  const known = await find(sql`${schema.songs.musicProviders} ->> ${provider} = ${id}`);
  if (known) return known;
  if (provider === "uploadService") throw notFound("Song not found.");
  if (!canLookUp(provider))
    throw notFound(`This song is not in our catalog, and Booth does not look up ${provider} tracks.`);
  if (!lookupConfigured(deps, provider))
    throw new HttpError(
      503,
      `This song is not in our catalog, and ${provider} lookups are not configured: set ${LOOKUP_SETTINGS[provider]}.`,
    );
  const songId = await lookUpTrack(deps, provider, id);
  if (!songId) throw notFound(`${PROVIDER_NAMES[provider]} has no track with this id.`);
  const added = await find(eq(schema.songs.id, songId));
  if (!added) throw notFound("Song not found.");
  return added;
}

catalogueRoutes.openapi(
  createRoute({
    method: "get",
    path: "/song-data/providers",
    tags: ["Song data"],
    summary: "The music providers links and ids may name, and whether lookups at each are configured",
    responses: {
      200: json(
        z
          .array(z.object({ provider: z.string(), configured: z.boolean(), setting: z.string().nullable() }))
          .openapi("Providers"),
      ),
    },
  }),
  (c) =>
    c.json(
      PROVIDERS.map((provider) => ({
        provider,
        configured: provider === "uploadService" || (canLookUp(provider) && lookupConfigured(c.var.deps, provider)),
        setting: settingOf(provider),
      })),
      200,
    ),
);

catalogueRoutes.openapi(
  createRoute({
    method: "get",
    path: "/song-data/service",
    tags: ["Service"],
    summary: "Songs by id, for services",
    security: bearer,
    request: { query: z.object({ songIds: z.string().max(20_000) }) },
    responses: { 200: json(z.array(SongSchema)), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireService(c);
    const ids = uuidList(c.req.valid("query").songIds, "songIds");
    if (ids.length === 0) return c.json([], 200);
    const rows = await songsWithAlbum(c.var.deps.db, inArray(schema.songs.id, ids));
    const byId = new Map(rows.map((r) => [r.song.id, songView(r.song, r.album)]));
    return c.json(
      ids.flatMap((id) => byId.get(id) ?? []),
      200,
    );
  },
);

const CountryId = z.object({
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, "must be a country code")
    .openapi({ param: { name: "country", in: "path" } }),
  id: z.uuid().openapi({ param: { name: "id", in: "path" } }),
});
for (const [kind, field] of [
  ["stream", "streamUrls"],
  ["preview", "previews"],
] as const)
  catalogueRoutes.openapi(
    createRoute({
      method: "get",
      path: `/song-data/${kind}/{country}/{id}`,
      tags: ["Song data"],
      summary: `The ${kind} URLs of a catalogue song`,
      request: { params: CountryId, query: z.object({ quality: z.enum(["low", "medium", "high"]).default("medium") }) },
      responses: {
        200: json(z.object({ songId: z.uuid(), urls: z.record(z.string(), z.string()) }).openapi(`Song${kind}`)),
        ...errors(400, 404),
      },
    }),
    async (c) => {
      const [song] = await c.var.deps.db
        .select()
        .from(schema.songs)
        .where(eq(schema.songs.id, c.req.valid("param").id));
      if (!song) throw notFound("Song not found.");
      const urls = song[field];
      if (Object.keys(urls).length === 0) throw notFound(`This song has no ${kind}.`);
      return c.json({ songId: song.id, urls }, 200);
    },
  );

catalogueRoutes.openapi(
  createRoute({
    method: "get",
    path: "/song-data/{providerSongId}/{musicProvider}",
    tags: ["Song data"],
    summary: "A song by its id at a provider",
    request: {
      params: z.object({
        providerSongId: z
          .string()
          .min(1)
          .max(200)
          .openapi({ param: { name: "providerSongId", in: "path" } }),
        musicProvider: z.enum(PROVIDERS).openapi({ param: { name: "musicProvider", in: "path" } }),
      }),
    },
    responses: { 200: json(SongDataSchema), ...errors(400, 404, 502, 503) },
  }),
  async (c) => {
    const { providerSongId, musicProvider } = c.req.valid("param");
    return c.json(await byProviderId(c.var.deps, musicProvider, providerSongId), 200);
  },
);

catalogueRoutes.openapi(
  createRoute({
    method: "get",
    path: "/song-data/{link}",
    tags: ["Song data"],
    summary: "A song by a provider link (Spotify, Apple Music, YouTube, SoundCloud, Audius, Deezer, Tidal, ...)",
    request: {
      params: z.object({
        link: z
          .string()
          .min(1)
          .max(2000)
          .openapi({ param: { name: "link", in: "path" } }),
      }),
    },
    responses: { 200: json(SongDataSchema), ...errors(400, 404, 502, 503) },
  }),
  async (c) => {
    const parsed = parseProviderLink(c.req.valid("param").link);
    if (!parsed) throw badRequest("This is not a track link of a music service we know.");
    return c.json(await byProviderId(c.var.deps, parsed.provider, parsed.id), 200);
  },
);

// ---- albums and artists (services)

const TakeSkip = z.object({
  take: z.coerce.number().int().min(1).max(1000).default(100),
  skip: z.coerce.number().int().min(0).default(0),
});
const AlbumSchema = z
  .object({
    albumShortId: z.string(),
    title: z.string(),
    artistShortId: z.string().nullable(),
    artistName: z.string().nullable(),
    releaseYear: z.number().int().nullable(),
    thumbnails: z.record(z.string(), z.string()),
  })
  .openapi("Album");
const ArtistSchema = z.object({ artistShortId: z.string(), name: z.string() }).openapi("Artist");
const albumsQuery = (db: import("@booth/db").Db) =>
  db
    .select({ album: schema.albums, artist: schema.artists })
    .from(schema.albums)
    .leftJoin(schema.artists, eq(schema.artists.id, schema.albums.artistId));
const albumView = (r: {
  album: typeof schema.albums.$inferSelect;
  artist: typeof schema.artists.$inferSelect | null;
}) => ({
  albumShortId: r.album.shortId,
  title: r.album.title,
  artistShortId: r.artist?.shortId ?? null,
  artistName: r.artist?.name ?? null,
  releaseYear: r.album.releaseYear,
  thumbnails: r.album.thumbnails ?? {},
});
const shortParam = (name: string) =>
  z.object({
    [name]: z
      .string()
      .min(1)
      .max(32)
      .openapi({ param: { name, in: "path" } }),
  });

catalogueRoutes.openapi(
  createRoute({
    method: "get",
    path: "/albums/service/all-albums",
    tags: ["Service"],
    summary: "Every album (services)",
    security: bearer,
    request: { query: TakeSkip },
    responses: { 200: json(z.array(AlbumSchema)), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireService(c);
    const { take, skip } = c.req.valid("query");
    const rows = await albumsQuery(c.var.deps.db)
      .orderBy(asc(schema.albums.title), asc(schema.albums.id))
      .limit(take)
      .offset(skip);
    return c.json(rows.map(albumView), 200);
  },
);

catalogueRoutes.openapi(
  createRoute({
    method: "get",
    path: "/albums/service/all-songs",
    tags: ["Service"],
    summary: "Every catalogue song (services)",
    security: bearer,
    request: { query: TakeSkip },
    responses: { 200: json(SongPage), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireService(c);
    const { take, skip } = c.req.valid("query");
    return c.json(await listSongs(c.var.deps.db, undefined, take, skip), 200);
  },
);

catalogueRoutes.openapi(
  createRoute({
    method: "get",
    path: "/albums/service/{albumShortId}/songs",
    tags: ["Service"],
    summary: "An album's songs (services)",
    security: bearer,
    request: { params: shortParam("albumShortId") },
    responses: { 200: json(z.array(SongSchema)), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const { db } = c.var.deps;
    const [album] = await db
      .select()
      .from(schema.albums)
      .where(eq(schema.albums.shortId, c.req.valid("param").albumShortId as string));
    if (!album) throw notFound("Album not found.");
    const rows = await songsWithAlbum(db, eq(schema.songs.albumId, album.id)).orderBy(asc(schema.songs.trackName));
    return c.json(
      rows.map((r) => songView(r.song, r.album)),
      200,
    );
  },
);

catalogueRoutes.openapi(
  createRoute({
    method: "get",
    path: "/albums/service/{songShortId}/song",
    tags: ["Service"],
    summary: "A song by its short id (services)",
    security: bearer,
    request: { params: shortParam("songShortId") },
    responses: { 200: json(SongSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const [row] = await songsWithAlbum(
      c.var.deps.db,
      eq(schema.songs.shortId, c.req.valid("param").songShortId as string),
    );
    if (!row) throw notFound("Song not found.");
    return c.json(songView(row.song, row.album), 200);
  },
);

catalogueRoutes.openapi(
  createRoute({
    method: "get",
    path: "/artists/service/all-artists",
    tags: ["Service"],
    summary: "Every artist (services)",
    security: bearer,
    request: { query: TakeSkip },
    responses: { 200: json(z.array(ArtistSchema)), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireService(c);
    const { take, skip } = c.req.valid("query");
    const rows = await c.var.deps.db
      .select()
      .from(schema.artists)
      .orderBy(asc(schema.artists.name), asc(schema.artists.id))
      .limit(take)
      .offset(skip);
    return c.json(
      rows.map((a) => ({ artistShortId: a.shortId, name: a.name })),
      200,
    );
  },
);

catalogueRoutes.openapi(
  createRoute({
    method: "post",
    path: "/artists/service/albums-by-artists",
    tags: ["Service"],
    summary: "The albums of several artists (services)",
    security: bearer,
    request: jsonBody(z.object({ artistShortIds: z.array(z.string().min(1).max(32)).min(1).max(500) })),
    responses: { 200: json(z.array(AlbumSchema)), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireService(c);
    const rows = await albumsQuery(c.var.deps.db)
      .where(inArray(schema.artists.shortId, c.req.valid("json").artistShortIds))
      .orderBy(asc(schema.albums.title));
    return c.json(rows.map(albumView), 200);
  },
);

catalogueRoutes.openapi(
  createRoute({
    method: "get",
    path: "/artists/service/{artistShortId}/albums",
    tags: ["Service"],
    summary: "An artist's albums (services)",
    security: bearer,
    request: { params: shortParam("artistShortId") },
    responses: { 200: json(z.array(AlbumSchema)), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const { db } = c.var.deps;
    const [artist] = await db
      .select()
      .from(schema.artists)
      .where(eq(schema.artists.shortId, c.req.valid("param").artistShortId as string));
    if (!artist) throw notFound("Artist not found.");
    const rows = await albumsQuery(db)
      .where(eq(schema.albums.artistId, artist.id))
      .orderBy(asc(schema.albums.releaseYear), asc(schema.albums.title));
    return c.json(rows.map(albumView), 200);
  },
);
