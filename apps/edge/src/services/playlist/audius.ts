import type { AppDeps } from "../../deps.ts";
import { badRequest, HttpError } from "../../lib/errors.ts";
import { trimSlash } from "../../ports/integrations.ts";
import { providerFetch, providerLimiting, providerObject, providerRefused } from "../../ports/oauth.ts";
import { list, record, str } from "./provider-json.ts";
import { catalogueProviderTrack, type ProviderTrack, year } from "./provider-lookup.ts";

/**
 * Audius's open API (api.audius.co): search, tracks, links resolved to tracks and playlists, a playlist's tracks, and
 * the full-length stream of a track. Every call goes to the configured base URL (AUDIUS_API_URL) with Booth's
 * `app_name` (AUDIUS_APP_NAME); what a client sends is only ever an id or a path checked against the shapes below,
 * and a redirect Audius answers is followed only within that base URL. Answers wrap their payload in `{ data }`.
 *
 * Audius marks no track explicit (its API has no such field): its songs are stored as not explicit, so a profile that
 * refuses explicit audio still finds them.
 */

export const AUDIUS = "Audius";
/** Audius's track and playlist ids (hash ids, "D7KyD"). */
const AUDIUS_ID = /^[A-Za-z0-9]{1,32}$/;
/** A track's path as its links give it: handle/slug. */
const TRACK_PATH = /^[\w.-]{1,100}\/[\w.-]{1,200}$/;
/** A playlist's or album's path: handle/playlist/slug or handle/album/slug. */
export const PLAYLIST_PATH = /^[\w.-]{1,100}\/(?:playlist|album)\/[\w.-]{1,200}$/;

export const isAudiusTrackPath = (id: string) => TRACK_PATH.test(id);
/** The audius.co link of a track or playlist path. */
export const audiusLink = (path: string) => `https://audius.co/${path}`;

/** The address of a call to Audius's API: the configured base, a fixed path, Booth's app name. */
function apiUrl(deps: AppDeps, path: string, query: Record<string, string> = {}) {
  const { audiusApiUrl, audiusAppName } = deps.config.providers;
  return `${trimSlash(audiusApiUrl)}${path}?${new URLSearchParams({ ...query, app_name: audiusAppName })}`;
}

/** A track's full-length stream, which the web's player plays on its audio element (Audius redirects to the file). */
export const audiusStreamUrl = (deps: AppDeps, id: string) =>
  apiUrl(deps, `/v1/tracks/${encodeURIComponent(id)}/stream`);

/**
 * The `data` of an Audius answer, or null when Audius has no such thing (404, or 400 for an id it cannot read). A
 * redirect (how /v1/resolve answers) is followed once, and only to the configured API.
 */
async function audiusData(deps: AppDeps, url: string, hops = 1, timeoutMs?: number): Promise<unknown> {
  const init: RequestInit = { headers: { accept: "application/json" }, redirect: "manual" };
  const res = await providerFetch(AUDIUS, url, init, timeoutMs);
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel();
    const location = res.headers.get("location");
    const next = location ? new URL(location, url) : null;
    const base = new URL(trimSlash(deps.config.providers.audiusApiUrl));
    if (
      !next ||
      hops < 1 ||
      next.origin !== base.origin ||
      !next.pathname.startsWith(`${trimSlash(base.pathname)}/v1/`)
    )
      throw new HttpError(502, "Audius answered an unexpected redirect.");
    if (!next.searchParams.has("app_name")) next.searchParams.set("app_name", deps.config.providers.audiusAppName);
    return audiusData(deps, next.toString(), hops - 1, timeoutMs);
  }
  if (res.status === 404 || res.status === 400) {
    await res.body?.cancel();
    return null;
  }
  if (res.status === 429) throw providerLimiting(AUDIUS);
  if (!res.ok) {
    await res.body?.cancel();
    throw providerRefused(AUDIUS, res.status);
  }
  return (await providerObject(AUDIUS, res)).data ?? null;
}

/** An Audius track in the catalogue's terms, with its id; null for one that cannot be streamed (or is no track). */
export function audiusTrackOf(
  deps: AppDeps,
  json: Record<string, unknown>,
): { id: string; track: ProviderTrack } | null {
  const id = str(json.id);
  const name = str(json.title);
  if (!id || !AUDIUS_ID.test(id) || !name || json.is_streamable === false || json.is_delete === true) return null;
  const user = record(json.user);
  const artwork = record(json.artwork);
  const permalink = str(json.permalink);
  return {
    id,
    track: {
      trackName: name,
      artistName: str(user.name) ?? str(user.handle) ?? "Unknown artist",
      album: null,
      duration: Math.round(Number(json.duration ?? 0)) || 0,
      // Audius has no explicit flag (see above).
      explicit: false,
      isrc: str(json.isrc),
      releaseYear: year(json.release_date),
      thumbnail: str(artwork["480x480"]) ?? str(artwork["1000x1000"]) ?? str(artwork["150x150"]),
      link: permalink ? `https://audius.co${permalink.startsWith("/") ? "" : "/"}${permalink}` : null,
      preview: null,
      stream: audiusStreamUrl(deps, id),
    },
  };
}

/** A track by its id or its link's path (resolved); null when Audius has none. A 400 for anything else. */
async function audiusTrack(deps: AppDeps, id: string) {
  let data: unknown;
  if (isAudiusTrackPath(id)) data = await audiusData(deps, apiUrl(deps, "/v1/resolve", { url: audiusLink(id) }));
  else if (AUDIUS_ID.test(id)) data = await audiusData(deps, apiUrl(deps, `/v1/tracks/${id}`));
  else throw badRequest("This is not an Audius track id or link.");
  // A link may resolve to a user or a playlist: those are no track.
  return data && !Array.isArray(data) ? audiusTrackOf(deps, record(data)) : null;
}

/**
 * An Audius track (by id or link path) put in the catalogue with its stream: the song's id, or null when Audius has
 * no such track (or it cannot be streamed).
 */
export async function lookUpAudius(deps: AppDeps, id: string): Promise<string | null> {
  const found = await audiusTrack(deps, id);
  return found ? catalogueProviderTrack(deps, "audius", found.id, found.track) : null;
}

/** Audius's answer to a search, its streamable tracks put in the catalogue: their song ids, best match first. */
/**
 * How long a search waits for Audius before answering with the catalogue alone: the song picker searches as the DJ
 * types, so an Audius that is slow or out of reach (an offline machine) must not hold it for a provider's 15 s.
 */
const SEARCH_TIMEOUT_MS = 3000;

export async function searchAudius(deps: AppDeps, query: string, limit: number): Promise<string[]> {
  const url = apiUrl(deps, "/v1/tracks/search", { query, limit: String(limit) });
  const data = await audiusData(deps, url, 1, SEARCH_TIMEOUT_MS);
  const ids: string[] = [];
  for (const json of list(data).slice(0, limit)) {
    const found = audiusTrackOf(deps, json);
    if (found) ids.push(await catalogueProviderTrack(deps, "audius", found.id, found.track));
  }
  return [...new Set(ids)];
}

/** A playlist by its link's path: its id, name and track count; null when the link names no playlist at Audius. */
export async function audiusPlaylist(deps: AppDeps, path: string) {
  if (!PLAYLIST_PATH.test(path)) throw badRequest("This is not an Audius playlist link.");
  const data = await audiusData(deps, apiUrl(deps, "/v1/resolve", { url: audiusLink(path) }));
  // /v1/playlists/{id} answers a list of one.
  const playlist = Array.isArray(data) ? list(data)[0] : data ? record(data) : null;
  const id = str(playlist?.id);
  if (!playlist || !id || !AUDIUS_ID.test(id) || !str(playlist.playlist_name)) return null;
  return { id, name: str(playlist.playlist_name) ?? "Audius playlist", total: Number(playlist.track_count) || 0 };
}

/** A playlist's tracks (Audius answers them all at once); null when the playlist is gone. */
export async function audiusPlaylistTracks(deps: AppDeps, id: string) {
  const data = await audiusData(deps, apiUrl(deps, `/v1/playlists/${encodeURIComponent(id)}/tracks`));
  return data === null ? null : list(data);
}
