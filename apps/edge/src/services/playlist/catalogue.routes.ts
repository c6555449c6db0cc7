import { BRANDS } from "@booth/sdk/brand";
import { z } from "@hono/zod-openapi";
import { allForServices, oneItem } from "../../lib/contract-families.ts";
import {
  contracts,
  errors,
  json,
  jsonBody,
  limitOffset,
  ok,
  pageSchema,
  UuidCsv,
  uuidParams,
} from "../../lib/openapi.ts";
import { SEARCH_PAGE } from "./catalogue.ts";
import { SongSchema } from "./crates.ts";
import { PROVIDERS } from "./provider-links.ts";

const { authed, route } = contracts(["Service"]);

const IdList = UuidCsv.optional();
const SongPage = pageSchema(SongSchema, "SongPage");

export const songs = route("get", "/api/v1/songs", {
  summary: "Songs of the catalogue (by ids, by title prefix, or all), by artist and title",
  tags: ["Catalogue"],
  request: {
    query: z.object({
      idIn: IdList,
      prefix: z.string().trim().max(100).optional(),
      ...limitOffset(300, 100),
    }),
  },
  responses: ok(SongPage, 400),
});

export const song = route("get", "/api/v1/songs/{songId}", {
  summary: "One song",
  tags: ["Catalogue"],
  request: { params: uuidParams("songId") },
  responses: ok(SongSchema, 400, 404),
});

const GenreSchema = z.object({ id: z.uuid(), name: z.string() }).openapi("Genre");
export const genres = route("get", "/api/v1/genres", {
  summary: "Genres, by name (by ids or a name prefix)",
  tags: ["Catalogue"],
  request: {
    query: z.object({
      idIn: IdList,
      prefix: z.string().trim().max(100).optional(),
      limit: z.coerce.number().int().min(1).max(300).default(100),
    }),
  },
  responses: ok(z.array(GenreSchema), 400),
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

export const search = route("get", "/search", {
  summary: `Search the catalogue by words of the title, artist or genre, or by ISRC (${SEARCH_PAGE} a page); a first page of words has the providers' tracks (Audius, 7digital) interleaved after the first five`,
  tags: ["Search"],
  request: { query: SearchQuery },
  responses: ok(z.array(SongSchema), 400),
});

export const searchPage = route("get", "/search/v2", {
  summary: "Search, answering the page with the total and the next offset",
  tags: ["Search"],
  request: { query: SearchQuery },
  responses: ok(
    z
      .object({
        data: z.array(SongSchema),
        total: z.number().int(),
        offset: z.number().int(),
        nextOffset: z.number().int().nullable(),
      })
      .openapi("SearchPage"),
    400,
  ),
});

// ---- song data

const SongDataSchema = z
  .object({ provider: z.string(), providerSongId: z.string(), song: SongSchema })
  .openapi("SongData");

export const providers = route("get", "/song-data/providers", {
  summary: "The music providers links and ids may name, and whether lookups at each are configured",
  tags: ["Song data"],
  responses: {
    200: json(
      z
        .array(z.object({ provider: z.string(), configured: z.boolean(), setting: z.string().nullable() }))
        .openapi("Providers"),
    ),
  },
});

export const brand = route("get", "/song-data/brand", {
  summary: "This Booth's brand (BOOTH_BRAND): its name and the sources its search, imports, lookups and player offer",
  tags: ["Song data"],
  responses: {
    200: json(z.object({ brand: z.enum(BRANDS), name: z.string(), sources: z.array(z.string()) }).openapi("Brand")),
  },
});

export const songsForService = authed("get", "/song-data/service", {
  summary: "Songs by id, for services",
  request: { query: z.object({ songIds: UuidCsv }) },
  responses: ok(z.array(SongSchema), 400, 401, 403),
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
  route("get", `/song-data/${kind}/{country}/{id}`, {
    summary: `The ${kind} URLs of a catalogue song`,
    tags: ["Song data"],
    request: { params: CountryId, query: z.object({ quality: z.enum(["low", "medium", "high"]).default("medium") }) },
    responses: ok(
      z.object({ songId: z.uuid(), urls: z.record(z.string(), z.string()) }).openapi(`Song${kind}`),
      400,
      404,
    ),
  });
export const streamUrls = songUrlsRoute("stream");
export const previewUrls = songUrlsRoute("preview");

export const sevenDigitalClip = route("get", "/song-data/clip/sevenDigital/{trackId}", {
  summary: "A 7digital song's 30-second preview clip: a redirect to 7digital's address for it, signed by the edge",
  description:
    "What a 7digital song's streamUrls.http and previews.sevenDigital name: the player's audio element follows the redirect. " +
    "The address is signed there and then with Booth's partner key and secret (OAuth 1.0) and is good for a few minutes; " +
    "only tracks the catalogue has are signed (404 otherwise); 503 when 7digital is not configured.",
  tags: ["Song data"],
  request: {
    params: z.object({
      trackId: z
        .string()
        .regex(/^\d{1,12}$/, "must be a 7digital track id")
        .openapi({ param: { name: "trackId", in: "path" } }),
    }),
  },
  responses: {
    302: {
      description: "Found: the clip's signed address in Location",
      headers: { Location: { schema: { type: "string" as const }, description: "The signed clip address" } },
    },
    ...errors(400, 404, 503),
  },
});

export const byProviderId = route("get", "/song-data/{providerSongId}/{musicProvider}", {
  summary: "A song by its id at a provider",
  tags: ["Song data"],
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
  responses: ok(SongDataSchema, 400, 404, 422, 502, 503),
});

export const byProviderLink = route("get", "/song-data/{link}", {
  summary: "A song by a provider link (Spotify, Apple Music, YouTube, SoundCloud, Audius, Deezer, Tidal, ...)",
  tags: ["Song data"],
  request: {
    params: z.object({
      link: z
        .string()
        .min(1)
        .max(2000)
        .openapi({ param: { name: "link", in: "path" } }),
    }),
  },
  responses: ok(SongDataSchema, 400, 404, 422, 502, 503),
});

// ---- albums and artists (services)

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

export const allAlbums = allForServices(
  authed,
  "/albums/service/all-albums",
  "Every album (services)",
  z.array(AlbumSchema),
);

export const allSongs = allForServices(
  authed,
  "/albums/service/all-songs",
  "Every catalogue song (services)",
  SongPage,
);

export const albumSongs = oneItem(
  authed,
  "/albums/service/{albumShortId}/songs",
  "An album's songs (services)",
  z.array(SongSchema),
  shortParam("albumShortId"),
);

export const songByShortId = oneItem(
  authed,
  "/albums/service/{songShortId}/song",
  "A song by its short id (services)",
  SongSchema,
  shortParam("songShortId"),
);

export const allArtists = allForServices(
  authed,
  "/artists/service/all-artists",
  "Every artist (services)",
  z.array(ArtistSchema),
);

export const albumsByArtists = authed("post", "/artists/service/albums-by-artists", {
  summary: "The albums of several artists (services)",
  request: jsonBody(z.object({ artistShortIds: z.array(z.string().min(1).max(32)).min(1).max(500) })),
  responses: ok(z.array(AlbumSchema), 400, 401, 403),
});

export const artistAlbums = oneItem(
  authed,
  "/artists/service/{artistShortId}/albums",
  "An artist's albums (services)",
  z.array(AlbumSchema),
  shortParam("artistShortId"),
);
