import type { AppDeps } from "../../deps.ts";
import { badRequest, HttpError } from "../../lib/errors.ts";
import { signedUrl } from "../../lib/oauth1.ts";
import { requireSettings, trimSlash } from "../../ports/integrations.ts";
import { providerFetch, providerLimiting, providerObject, providerRefused } from "../../ports/oauth.ts";
import { list, record, str } from "./provider-json.ts";
import { catalogueProviderTrack, type ProviderTrack, year } from "./provider-lookup.ts";

/**
 * 7digital, the licensed catalogue (API 1.2): its track search (`track/search`) and track details (`track/details`)
 * with Booth's partner key (`oauth_consumer_key`) and country, and its 30-second preview clips
 * (`{SEVENDIGITAL_PREVIEWS_URL}/clip/{trackId}`), whose addresses must be signed with the key's secret (OAuth 1.0,
 * HMAC-SHA1). The secret never leaves the edge: a 7digital song plays from the edge's clip route
 * (`/song-data/clip/sevenDigital/{trackId}`), which answers a redirect to an address signed there and then, good for a
 * short while. What a client sends is only ever a track id (digits); every address is built on the configured URLs.
 *
 * A 7digital song lasts its preview (30 s, or the track when shorter): the room plays the clip in sync and moves on
 * after it. 7digital marks explicit tracks (`explicitContent`), and the song keeps that flag.
 */

export const SEVEN_DIGITAL = "7digital";
/** 7digital's track ids. */
const TRACK_ID = /^\d{1,12}$/;
export const isSevenDigitalTrackId = (id: string) => TRACK_ID.test(id);
/** How long 7digital's preview clips are, in seconds. */
export const PREVIEW_SECONDS = 30;
/** Where the edge serves a 7digital song's clip (a redirect to the signed address), under the playlist service. */
export const CLIP_PREFIX = "/api/playlist-service/song-data/clip/sevenDigital";
export const clipRoute = (trackId: string) => `${CLIP_PREFIX}/${trackId}`;
/** The usage types whose tracks Booth asks for (7digital wants them named on track calls). */
const USAGE_TYPES = "download,subscriptionstreaming,adsupportedstreaming";
/** The artwork size asked for (7digital has 33 to 800 pixels). */
const IMAGE_SIZE = "350";

/** Booth's key and secret at 7digital, or the 503 naming the settings that are missing. */
export function sevenDigitalConsumer(deps: AppDeps) {
  const p = deps.config.providers;
  const s = requireSettings(SEVEN_DIGITAL, {
    SEVENDIGITAL_CONSUMER_KEY: p.sevenDigitalConsumerKey,
    SEVENDIGITAL_CONSUMER_SECRET: p.sevenDigitalConsumerSecret,
  });
  return { key: s.SEVENDIGITAL_CONSUMER_KEY, secret: s.SEVENDIGITAL_CONSUMER_SECRET };
}

export const sevenDigitalConfigured = (deps: AppDeps) =>
  Boolean(deps.config.providers.sevenDigitalConsumerKey && deps.config.providers.sevenDigitalConsumerSecret);

/** The address of a call to 7digital's API: the configured base, a fixed path, the key and the country. */
function apiUrl(deps: AppDeps, path: string, query: Record<string, string>) {
  const { sevenDigitalApiUrl, sevenDigitalCountry } = deps.config.providers;
  const params = new URLSearchParams({
    ...query,
    country: sevenDigitalCountry,
    usageTypes: USAGE_TYPES,
    imageSize: IMAGE_SIZE,
    oauth_consumer_key: sevenDigitalConsumer(deps).key,
  });
  return `${trimSlash(sevenDigitalApiUrl)}${path}?${params}`;
}

/**
 * 7digital's answer (JSON, asked for with Accept), or null when it has no such track (404, or its "not found" error
 * 2001). Its refusal of Booth's key (401, 403) is a 502 naming the settings to check; limiting a 503; anything else a
 * 502.
 */
async function sevenDigitalJson(url: string, timeoutMs?: number): Promise<Record<string, unknown> | null> {
  const res = await providerFetch(SEVEN_DIGITAL, url, { headers: { accept: "application/json" } }, timeoutMs);
  if (res.status === 404) {
    await res.body?.cancel();
    return null;
  }
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel();
    throw new HttpError(
      502,
      `${SEVEN_DIGITAL} refused Booth's key (${res.status}): check SEVENDIGITAL_CONSUMER_KEY, SEVENDIGITAL_CONSUMER_SECRET and SEVENDIGITAL_COUNTRY.`,
    );
  }
  if (res.status === 429) {
    await res.body?.cancel();
    throw providerLimiting(SEVEN_DIGITAL);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw providerRefused(SEVEN_DIGITAL, res.status);
  }
  const json = await providerObject(SEVEN_DIGITAL, res);
  if (json.status === "error") {
    const error = record(json.error);
    if (Number(error.code) === 2001) return null;
    throw new HttpError(
      502,
      `${SEVEN_DIGITAL} answered error ${String(error.code ?? "")}: ${str(error.errorMessage) ?? "unknown"}.`,
    );
  }
  return json;
}

/** A 7digital track in the catalogue's terms, with its id; null for what is no track Booth can use. */
export function sevenDigitalTrackOf(json: Record<string, unknown>): { id: string; track: ProviderTrack } | null {
  const id = String(json.id ?? "");
  const title = str(json.title);
  if (!TRACK_ID.test(id) || !title) return null;
  const version = str(json.version);
  const artist = record(json.artist);
  const release = record(json.release);
  const duration = Math.round(Number(json.duration ?? 0)) || 0;
  const clip = clipRoute(id);
  const url = str(json.url);
  return {
    id,
    track: {
      // "Title (Version)" as 7digital shows a track whose version is not in its title already.
      trackName: version && !title.includes(version) ? `${title} (${version})` : title,
      artistName: str(artist.appearsAs) ?? str(artist.name) ?? "Unknown artist",
      album: str(release.title),
      // The room plays the preview: the song lasts as long as it.
      duration: duration > 0 ? Math.min(duration, PREVIEW_SECONDS) : PREVIEW_SECONDS,
      explicit: json.explicitContent === true || json.explicitContent === "true",
      isrc: str(json.isrc),
      releaseYear: year(release.year ?? release.releaseDate ?? record(json.download).releaseDate),
      thumbnail: httpsUrl(release.image),
      link: url && /^https:\/\/([\w-]+\.)?7digital\.com\//.test(url) ? url : null,
      preview: clip,
      stream: clip,
      sample: true,
    },
  };
}

/** An https address (7digital's artwork is served on http too: the page's policy wants https). */
function httpsUrl(value: unknown) {
  const url = str(value);
  if (!url) return null;
  return /^https?:\/\/[\w.-]+\//.test(url) ? url.replace(/^http:/, "https:") : null;
}

/**
 * A 7digital track put in the catalogue with its clip: the song's id, or null when 7digital has no such track. A
 * 400 for an id of another shape; a 503 when 7digital is not configured.
 */
export async function lookUpSevenDigital(deps: AppDeps, id: string): Promise<string | null> {
  if (!TRACK_ID.test(id)) throw badRequest("This is not a 7digital track id.");
  const json = await sevenDigitalJson(apiUrl(deps, "/track/details", { trackId: id }));
  const found = json ? sevenDigitalTrackOf(record(json.track)) : null;
  return found ? catalogueProviderTrack(deps, "sevenDigital", found.id, found.track) : null;
}

/**
 * How long a search waits for 7digital before answering without it (the song picker searches as the DJ types; as
 * Audius's).
 */
const SEARCH_TIMEOUT_MS = 3000;

/** 7digital's tracks for a search, put in the catalogue: their song ids, best match first. */
export async function searchSevenDigital(deps: AppDeps, query: string, limit: number): Promise<string[]> {
  const url = apiUrl(deps, "/track/search", { q: query, pageSize: String(limit), page: "1" });
  const json = await sevenDigitalJson(url, SEARCH_TIMEOUT_MS);
  const results = record(json?.searchResults).searchResult;
  // One result comes as an object where a converter made JSON of 7digital's XML; 7digital's own JSON has a list.
  const entries = Array.isArray(results) ? list(results) : results ? [record(results)] : [];
  const ids: string[] = [];
  for (const entry of entries.slice(0, limit)) {
    const found = sevenDigitalTrackOf(record(entry.track));
    if (found) ids.push(await catalogueProviderTrack(deps, "sevenDigital", found.id, found.track));
  }
  return [...new Set(ids)];
}

/** How long a signed clip address stays good for 7digital (its timestamp's window); the player asks at once. */
export const CLIP_LIFETIME_SECONDS = 300;

/** The clip of a 7digital track, its address signed now with Booth's key and secret (and the country). */
export function signedClipUrl(deps: AppDeps, trackId: string): string {
  if (!TRACK_ID.test(trackId)) throw badRequest("This is not a 7digital track id.");
  const { sevenDigitalPreviewsUrl, sevenDigitalCountry } = deps.config.providers;
  const url = `${trimSlash(sevenDigitalPreviewsUrl)}/clip/${trackId}?${new URLSearchParams({ country: sevenDigitalCountry })}`;
  return signedUrl(url, sevenDigitalConsumer(deps), deps.clock.now().getTime());
}
