import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, Offset, UuidCsv } from "../../lib/openapi.ts";
import { SEARCH_PAGE } from "./catalogue.ts";
import { SongSchema } from "./crates.ts";
import { PROVIDERS } from "./provider-links.ts";

const IdList = UuidCsv.optional();
const SongPage = z.object({ data: z.array(SongSchema), total: z.number().int() }).openapi("SongPage");

export const songs = createRoute({
  method: "get",
  path: "/api/v1/songs",
  tags: ["Catalogue"],
  summary: "Songs of the catalogue (by ids, by title prefix, or all), by artist and title",
  request: {
    query: z.object({
      idIn: IdList,
      prefix: z.string().trim().max(100).optional(),
      limit: z.coerce.number().int().min(1).max(300).default(100),
      offset: Offset,
    }),
  },
  responses: { 200: json(SongPage), ...errors(400) },
});

export const song = createRoute({
  method: "get",
  path: "/api/v1/songs/{songId}",
  tags: ["Catalogue"],
  summary: "One song",
  request: { params: z.object({ songId: z.uuid().openapi({ param: { name: "songId", in: "path" } }) }) },
  responses: { 200: json(SongSchema), ...errors(400, 404) },
});

const GenreSchema = z.object({ id: z.uuid(), name: z.string() }).openapi("Genre");
export const genres = createRoute({
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
});

// ---- search

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

export const search = createRoute({
  method: "get",
  path: "/search",
  tags: ["Search"],
  summary: `Search the catalogue by words of the title, artist or genre, or by ISRC (${SEARCH_PAGE} a page)`,
  request: { query: SearchQuery },
  responses: { 200: json(z.array(SongSchema)), ...errors(400) },
});

export const searchPage = createRoute({
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
});

// ---- song data

const SongDataSchema = z
  .object({ provider: z.string(), providerSongId: z.string(), song: SongSchema })
  .openapi("SongData");

export const providers = createRoute({
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
});

export const songsForService = createRoute({
  method: "get",
  path: "/song-data/service",
  tags: ["Service"],
  summary: "Songs by id, for services",
  security: bearer,
  request: { query: z.object({ songIds: UuidCsv }) },
  responses: { 200: json(z.array(SongSchema)), ...errors(400, 401, 403) },
});

const CountryId = z.object({
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, "must be a country code")
    .openapi({ param: { name: "country", in: "path" } }),
  id: z.uuid().openapi({ param: { name: "id", in: "path" } }),
});
/** The stream or preview URLs of a song: one contract per kind. */
export const songUrlsRoute = (kind: "stream" | "preview") =>
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
  });
export const streamUrls = songUrlsRoute("stream");
export const previewUrls = songUrlsRoute("preview");

export const byProviderId = createRoute({
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
});

export const byProviderLink = createRoute({
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
});

// ---- albums and artists (services)

const TakeSkip = z.object({
  take: z.coerce.number().int().min(1).max(1000).default(100),
  skip: Offset,
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
const shortParam = <N extends string>(name: N) =>
  z.object({
    [name]: z
      .string()
      .min(1)
      .max(32)
      .openapi({ param: { name, in: "path" } }),
  } as Record<N, z.ZodString>);

export const allAlbums = createRoute({
  method: "get",
  path: "/albums/service/all-albums",
  tags: ["Service"],
  summary: "Every album (services)",
  security: bearer,
  request: { query: TakeSkip },
  responses: { 200: json(z.array(AlbumSchema)), ...errors(400, 401, 403) },
});

export const allSongs = createRoute({
  method: "get",
  path: "/albums/service/all-songs",
  tags: ["Service"],
  summary: "Every catalogue song (services)",
  security: bearer,
  request: { query: TakeSkip },
  responses: { 200: json(SongPage), ...errors(400, 401, 403) },
});

export const albumSongs = createRoute({
  method: "get",
  path: "/albums/service/{albumShortId}/songs",
  tags: ["Service"],
  summary: "An album's songs (services)",
  security: bearer,
  request: { params: shortParam("albumShortId") },
  responses: { 200: json(z.array(SongSchema)), ...errors(400, 401, 403, 404) },
});

export const songByShortId = createRoute({
  method: "get",
  path: "/albums/service/{songShortId}/song",
  tags: ["Service"],
  summary: "A song by its short id (services)",
  security: bearer,
  request: { params: shortParam("songShortId") },
  responses: { 200: json(SongSchema), ...errors(400, 401, 403, 404) },
});

export const allArtists = createRoute({
  method: "get",
  path: "/artists/service/all-artists",
  tags: ["Service"],
  summary: "Every artist (services)",
  security: bearer,
  request: { query: TakeSkip },
  responses: { 200: json(z.array(ArtistSchema)), ...errors(400, 401, 403) },
});

export const albumsByArtists = createRoute({
  method: "post",
  path: "/artists/service/albums-by-artists",
  tags: ["Service"],
  summary: "The albums of several artists (services)",
  security: bearer,
  request: jsonBody(z.object({ artistShortIds: z.array(z.string().min(1).max(32)).min(1).max(500) })),
  responses: { 200: json(z.array(AlbumSchema)), ...errors(400, 401, 403) },
});

export const artistAlbums = createRoute({
  method: "get",
  path: "/artists/service/{artistShortId}/albums",
  tags: ["Service"],
  summary: "An artist's albums (services)",
  security: bearer,
  request: { params: shortParam("artistShortId") },
  responses: { 200: json(z.array(AlbumSchema)), ...errors(400, 401, 403, 404) },
});
