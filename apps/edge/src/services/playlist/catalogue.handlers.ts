import type { Context } from "hono";
import { requireService } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { allForServicesHandler } from "../../lib/contract-families.ts";
import { type AppRouteHandler, uuidList } from "../../lib/openapi.ts";
import { sqlJson } from "../../lib/sql-json.ts";
import { explicitAudioAllowed } from "../user/public.ts";
import { brandView } from "./brand.ts";
import type * as routes from "./catalogue.routes.ts";
import * as catalogue from "./catalogue.ts";

export const songs: AppRouteHandler<typeof routes.songs> = async (c) => {
  const { idIn, prefix, limit, offset } = c.req.valid("query");
  const { brand } = c.var.deps.config;
  return c.json(
    await catalogue.findSongs(c.var.deps.db, { ids: uuidList(idIn, "idIn"), prefix, limit, offset, brand }),
    200,
  );
};

export const song: AppRouteHandler<typeof routes.song> = async (c) =>
  c.json(await catalogue.catalogueSong(c.var.deps.db, { id: c.req.valid("param").songId }), 200);

export const genres: AppRouteHandler<typeof routes.genres> = async (c) => {
  const { idIn, prefix, limit } = c.req.valid("query");
  return c.json(await catalogue.findGenres(c.var.deps.db, { ids: uuidList(idIn, "idIn"), prefix, limit }), 200);
};

/** In Discord mode, explicit songs only for a profile that allows explicit audio (lib/discord-mode.ts). */
const withDiscordRule = async <Q extends { explicit: "true" | "false" }>(c: Context<AppEnv>, q: Q): Promise<Q> =>
  q.explicit === "true" && !(await explicitAudioAllowed(c)) ? { ...q, explicit: "false" } : q;

/** The catalogue's songs the brand offers, and on a first page the providers' it offers (Audius's, 7digital's) interleaved with them (spec 9). */
export const search: AppRouteHandler<typeof routes.search> = async (c) => {
  const { brand } = c.var.deps.config;
  const q = { ...(await withDiscordRule(c, c.req.valid("query"))), brand };
  const [body, providers] = await Promise.all([
    catalogue.searchSongs(c.var.deps.db, q),
    catalogue.providerSearches(c.var.deps, q),
  ]);
  if (providers.length === 0) return sqlJson(c, body, 200);
  return c.json(catalogue.interleave(JSON.parse(body) as typeof providers, providers, q.limit), 200);
};

export const searchPage: AppRouteHandler<typeof routes.searchPage> = async (c) => {
  const q = await withDiscordRule(c, c.req.valid("query"));
  const { songs, total } = await catalogue.search(c.var.deps.db, { ...q, brand: c.var.deps.config.brand });
  const next = q.offset + songs.length;
  return c.json({ data: songs, total, offset: q.offset, nextOffset: next < total ? next : null }, 200);
};

export const providers: AppRouteHandler<typeof routes.providers> = (c) =>
  c.json(catalogue.providerSettings(c.var.deps), 200);

export const brand: AppRouteHandler<typeof routes.brand> = (c) => c.json(brandView(c.var.deps.config.brand), 200);

export const songsForService: AppRouteHandler<typeof routes.songsForService> = async (c) => {
  await requireService(c);
  const ids = uuidList(c.req.valid("query").songIds, "songIds");
  return c.json(await catalogue.songsByIds(c.var.deps.db, ids), 200);
};

const songUrls =
  (kind: "stream" | "preview"): AppRouteHandler<ReturnType<typeof routes.songUrlsRoute>> =>
  async (c) =>
    c.json(await catalogue.songUrls(c.var.deps.db, c.req.valid("param").id, kind), 200);
export const streamUrls = songUrls("stream");
export const previewUrls = songUrls("preview");

/** A redirect to a 7digital clip's address, signed now; never cached (the signature is good for minutes). */
export const sevenDigitalClip: AppRouteHandler<typeof routes.sevenDigitalClip> = async (c) => {
  const location = await catalogue.sevenDigitalClip(c.var.deps, c.req.valid("param").trackId);
  return c.body(null, 302, { location, "cache-control": "no-store" });
};

export const byProviderId: AppRouteHandler<typeof routes.byProviderId> = async (c) => {
  const { providerSongId, musicProvider } = c.req.valid("param");
  return c.json(await catalogue.byProviderId(c.var.deps, musicProvider, providerSongId), 200);
};

export const byProviderLink: AppRouteHandler<typeof routes.byProviderLink> = async (c) =>
  c.json(await catalogue.byProviderLink(c.var.deps, c.req.valid("param").link), 200);

export const allAlbums = allForServicesHandler<typeof routes.allAlbums>(catalogue.allAlbums);

export const allSongs = allForServicesHandler<typeof routes.allSongs>((db, take, skip) =>
  catalogue.listSongs(db, undefined, take, skip),
);

export const albumSongs: AppRouteHandler<typeof routes.albumSongs> = async (c) => {
  await requireService(c);
  return c.json(await catalogue.albumSongs(c.var.deps.db, c.req.valid("param").albumShortId), 200);
};

export const songByShortId: AppRouteHandler<typeof routes.songByShortId> = async (c) => {
  await requireService(c);
  return c.json(await catalogue.catalogueSong(c.var.deps.db, { shortId: c.req.valid("param").songShortId }), 200);
};

export const allArtists = allForServicesHandler<typeof routes.allArtists>(catalogue.allArtists);

export const albumsByArtists: AppRouteHandler<typeof routes.albumsByArtists> = async (c) => {
  await requireService(c);
  return c.json(await catalogue.albumsOfArtists(c.var.deps.db, c.req.valid("json").artistShortIds), 200);
};

export const artistAlbums: AppRouteHandler<typeof routes.artistAlbums> = async (c) => {
  await requireService(c);
  return c.json(await catalogue.artistAlbums(c.var.deps.db, c.req.valid("param").artistShortId), 200);
};
