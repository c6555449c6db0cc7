import { schema } from "@booth/db";
import { and, eq, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { AppDeps } from "../../deps.ts";
import { HttpError } from "../../lib/errors.ts";
import { shortId } from "../../lib/ids.ts";
import {
  PROVIDER_URLS,
  requireSettings,
  soundcloudOAuthClient,
  spotifyOAuthClient,
  trimSlash,
} from "../../ports/integrations.ts";
import { providerFetch, providerLimiting, providerObject, providerRefused, requestToken } from "../../ports/oauth.ts";
import { record, str } from "./provider-json.ts";
import type { Provider } from "./provider-links.ts";

/**
 * Song data for a track the catalogue lacks, asked of the provider that has it: Spotify's Web API and SoundCloud's
 * API (with Booth's own app token, the client-credentials grant), Apple Music's catalogue API (the server's developer
 * token) and the YouTube Data API (an API key). A track found there joins the catalogue (merged into a song with the
 * same ISRC, if one exists), so the next lookup, a crate or an import finds it without asking again.
 */

/** The providers Booth can ask, and the settings each needs. */
export const LOOKUP_SETTINGS = {
  spotify: "SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET",
  apple: "APPLE_MUSIC_DEVELOPER_TOKEN",
  youtube: "YOUTUBE_API_KEY",
  soundcloud: "SOUNDCLOUD_CLIENT_ID and SOUNDCLOUD_CLIENT_SECRET",
} as const satisfies Partial<Record<Provider, string>>;
export type LookupProvider = keyof typeof LOOKUP_SETTINGS;
export const canLookUp = (provider: string): provider is LookupProvider => provider in LOOKUP_SETTINGS;
/** The providers' names as people know them, for messages. */
export const PROVIDER_NAMES: Record<LookupProvider, string> = {
  spotify: "Spotify",
  apple: "Apple Music",
  youtube: "YouTube",
  soundcloud: "SoundCloud",
};

/** Whether a provider's lookups have what they need. */
export function lookupConfigured(deps: AppDeps, provider: LookupProvider) {
  const i = deps.config.integrations ?? {};
  switch (provider) {
    case "spotify":
      return Boolean(i.spotifyClientId && i.spotifyClientSecret);
    case "apple":
      return Boolean(deps.config.providers.appleMusicDeveloperToken);
    case "youtube":
      return Boolean(i.youtubeApiKey);
    case "soundcloud":
      return Boolean(i.soundcloudClientId && i.soundcloudClientSecret);
  }
}

/** What a provider says of a track, in the catalogue's terms. */
export interface ProviderTrack {
  trackName: string;
  artistName: string;
  album: string | null;
  /** Seconds. */
  duration: number;
  explicit: boolean;
  isrc: string | null;
  releaseYear: number | null;
  thumbnail: string | null;
  link: string | null;
  preview: string | null;
  /** A full-length stream the web's player can play on its audio element (Audius's), if the provider has one. */
  stream?: string | null;
  /**
   * The stream is a sample (7digital's 30-second clip, which the song's duration is): it plays a song of the provider's
   * own, but joins a song found by ISRC (whose duration is the whole track's) only as its preview.
   */
  sample?: boolean;
}

/** Apple Music's catalogue is per storefront; links carry no storefront we keep, so the US one. */
const APPLE_STOREFRONT = "us";

/** A GET of a provider's JSON API, with Booth's credentials when it wants them in a header. */
export const call = (provider: string, url: string, authorization?: string) =>
  providerFetch(provider, url, {
    headers: { ...(authorization ? { authorization } : {}), accept: "application/json" },
  });

/** The track's JSON, or null when the provider has no such track. */
export async function trackJson(provider: string, res: Response): Promise<Record<string, unknown> | null> {
  // Spotify answers 400 for an id that cannot be one ("invalid id"), both answer 404 for an unknown one.
  if (res.status === 404 || res.status === 400) {
    await res.body?.cancel();
    return null;
  }
  if (res.status === 429) throw providerLimiting(provider);
  if (res.status === 401 || res.status === 403) throw new HttpError(502, `${provider} refused Booth's credentials.`);
  if (!res.ok) throw providerRefused(provider, res.status);
  return providerObject(provider, res);
}

/** The year of a provider's date ("2024-05-17", "2024"), or null. */
export const year = (date: unknown) => {
  const y = Number.parseInt(String(date ?? "").slice(0, 4), 10);
  return Number.isFinite(y) && y > 0 ? y : null;
};

/** Booth's own token at a provider (client credentials), kept in the cache until shortly before it expires. */
async function appToken(deps: AppDeps, provider: "spotify" | "soundcloud", fresh: boolean): Promise<string> {
  const i = deps.config.integrations ?? {};
  const client = provider === "spotify" ? spotifyOAuthClient(i) : soundcloudOAuthClient(i);
  const key = `provider-lookup:${provider}-app-token`;
  if (!fresh) {
    const kept = await deps.cache.get(key);
    if (kept) return kept;
  }
  // Lookups that find no token at the same moment share one request for it.
  const pending = tokenRequests(deps);
  const asked = pending.get(key);
  if (asked) return asked;
  const request = (async () => {
    const token = await requestToken(client, { grant_type: "client_credentials" }, "app credentials");
    await deps.cache.set(key, token.accessToken, Math.max(60, (token.expiresIn ?? 3600) - 60));
    return token.accessToken;
  })().finally(() => pending.delete(key));
  pending.set(key, request);
  return request;
}

/** The app-token requests under way, per app (its deps). */
const tokenRequestsByApp = new WeakMap<AppDeps, Map<string, Promise<string>>>();
function tokenRequests(deps: AppDeps) {
  const pending = tokenRequestsByApp.get(deps) ?? new Map<string, Promise<string>>();
  tokenRequestsByApp.set(deps, pending);
  return pending;
}

/** A call with Booth's app token; a token refused (expired early, revoked) is replaced once. */
export async function withAppToken(deps: AppDeps, provider: "spotify" | "soundcloud", url: string) {
  const scheme = provider === "soundcloud" ? "OAuth" : "Bearer";
  const name = PROVIDER_NAMES[provider];
  const res = await call(name, url, `${scheme} ${await appToken(deps, provider, false)}`);
  if (res.status !== 401) return res;
  await res.body?.cancel();
  return call(name, url, `${scheme} ${await appToken(deps, provider, true)}`);
}

async function spotifyTrack(deps: AppDeps, id: string): Promise<ProviderTrack | null> {
  const url = `${trimSlash(deps.config.providers.spotifyApiUrl)}/v1/tracks/${encodeURIComponent(id)}`;
  const json = await trackJson("Spotify", await withAppToken(deps, "spotify", url));
  return json ? spotifyTrackOf(json, id) : null;
}

/** A Spotify track object (as /v1/tracks and a playlist's items give it) in the catalogue's terms. */
export function spotifyTrackOf(json: Record<string, unknown>, id: string): ProviderTrack {
  const name = str(json.name);
  if (!name) throw new HttpError(502, "Spotify answered a track without a name.");
  const album = record(json.album);
  const artists = Array.isArray(json.artists) ? (json.artists as Record<string, unknown>[]) : [];
  const images = Array.isArray(album.images) ? (album.images as Record<string, unknown>[]) : [];
  const externalIds = record(json.external_ids);
  const externalUrls = record(json.external_urls);
  return {
    trackName: name,
    artistName:
      artists
        .map((a) => str(a.name))
        .filter(Boolean)
        .join(", ") || "Unknown artist",
    album: str(album.name),
    duration: Math.round(Number(json.duration_ms ?? 0) / 1000) || 0,
    explicit: json.explicit === true,
    isrc: str(externalIds.isrc),
    releaseYear: year(album.release_date),
    thumbnail: str(images[0]?.url),
    link: str(externalUrls.spotify) ?? `https://open.spotify.com/track/${id}`,
    preview: str(json.preview_url),
  };
}

async function appleSong(deps: AppDeps, id: string): Promise<ProviderTrack | null> {
  const { APPLE_MUSIC_DEVELOPER_TOKEN: token } = requireSettings("Apple Music lookups", {
    APPLE_MUSIC_DEVELOPER_TOKEN: deps.config.providers.appleMusicDeveloperToken,
  });
  const url = `${trimSlash(deps.config.providers.appleMusicApiUrl)}/v1/catalog/${APPLE_STOREFRONT}/songs/${encodeURIComponent(id)}`;
  const json = await trackJson("Apple Music", await call("Apple Music", url, `Bearer ${token}`));
  const data = Array.isArray(json?.data) ? (json.data as Record<string, unknown>[]) : [];
  const attributes = data[0]?.attributes as Record<string, unknown> | undefined;
  if (!json || !attributes) return null;
  const name = str(attributes.name);
  if (!name) throw new HttpError(502, "Apple Music answered a song without a name.");
  const artwork = record(attributes.artwork);
  const previews = Array.isArray(attributes.previews) ? (attributes.previews as Record<string, unknown>[]) : [];
  return {
    trackName: name,
    artistName: str(attributes.artistName) ?? "Unknown artist",
    album: str(attributes.albumName),
    duration: Math.round(Number(attributes.durationInMillis ?? 0) / 1000) || 0,
    explicit: attributes.contentRating === "explicit",
    isrc: str(attributes.isrc),
    releaseYear: year(attributes.releaseDate),
    // Artwork URLs are templates: {w}x{h}.
    thumbnail: str(artwork.url)?.replace("{w}", "600").replace("{h}", "600") ?? null,
    link: str(attributes.url),
    preview: str(previews[0]?.url),
  };
}

/** ISO 8601 durations as YouTube gives them (PT1H2M3S) in seconds. */
export function isoSeconds(duration: unknown) {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(String(duration ?? ""));
  if (!m) return 0;
  const [, d = "0", h = "0", min = "0", sec = "0"] = m;
  return ((Number(d) * 24 + Number(h)) * 60 + Number(min)) * 60 + Number(sec);
}

async function youtubeVideo(deps: AppDeps, id: string): Promise<ProviderTrack | null> {
  const i = deps.config.integrations ?? {};
  const { YOUTUBE_API_KEY: key } = requireSettings("YouTube lookups", { YOUTUBE_API_KEY: i.youtubeApiKey });
  const query = new URLSearchParams({ part: "snippet,contentDetails", id, key });
  const res = await call("YouTube", `${trimSlash(i.youtubeApiUrl || PROVIDER_URLS.youtubeApi)}/videos?${query}`);
  // Google answers 400 (keyInvalid) or 403 (quota, API not enabled) about the key, never about the video.
  if (res.status === 400 || res.status === 403) {
    await res.body?.cancel();
    throw new HttpError(502, "YouTube refused Booth's credentials.");
  }
  const json = await trackJson("YouTube", res);
  const items = Array.isArray(json?.items) ? (json.items as Record<string, unknown>[]) : [];
  const video = items[0];
  return video ? youtubeTrackOf(video, id) : null;
}

/** A YouTube video resource (part snippet and contentDetails) in the catalogue's terms. */
export function youtubeTrackOf(video: Record<string, unknown>, id: string): ProviderTrack {
  const snippet = record(video.snippet);
  const details = record(video.contentDetails);
  const rating = record(details.contentRating);
  const thumbnails = (snippet.thumbnails ?? {}) as Record<string, { url?: unknown } | undefined>;
  const name = str(snippet.title);
  if (!name) throw new HttpError(502, "YouTube answered a video without a title.");
  return {
    trackName: name,
    // Music videos' channels are "Artist - Topic" or "ArtistVEVO".
    artistName: (str(snippet.channelTitle) ?? "Unknown artist").replace(/ - Topic$|VEVO$/, "") || "Unknown artist",
    album: null,
    duration: isoSeconds(details.duration),
    explicit: rating.ytRating === "ytAgeRestricted",
    isrc: null,
    releaseYear: year(snippet.publishedAt),
    thumbnail: str(thumbnails.high?.url) ?? str(thumbnails.medium?.url) ?? str(thumbnails.default?.url),
    link: `https://www.youtube.com/watch?v=${id}`,
    preview: null,
  };
}

async function soundcloudTrack(deps: AppDeps, id: string): Promise<ProviderTrack | null> {
  const i = deps.config.integrations ?? {};
  const api = trimSlash(i.soundcloudApiUrl || PROVIDER_URLS.soundcloudApi);
  // Links name a track by its path (artist/track), resolved to the track; numeric ids are asked directly.
  const url = /^\d+$/.test(id)
    ? `${api}/tracks/${id}`
    : `${api}/resolve?${new URLSearchParams({ url: `https://soundcloud.com/${id}` })}`;
  const json = await trackJson("SoundCloud", await withAppToken(deps, "soundcloud", url));
  if (!json || (json.kind !== undefined && json.kind !== "track")) return null;
  return soundcloudTrackOf(json, id);
}

/** A SoundCloud track resource in the catalogue's terms. */
export function soundcloudTrackOf(json: Record<string, unknown>, id: string): ProviderTrack {
  const name = str(json.title);
  if (!name) throw new HttpError(502, "SoundCloud answered a track without a title.");
  const user = record(json.user);
  const publisher = record(json.publisher_metadata);
  return {
    trackName: name,
    artistName: str(publisher.artist) ?? str(user.username) ?? "Unknown artist",
    album: str(publisher.album_title),
    duration: Math.round(Number(json.duration ?? 0) / 1000) || 0,
    explicit: publisher.explicit === true,
    isrc: str(publisher.isrc),
    releaseYear: typeof json.release_year === "number" ? json.release_year : year(json.created_at),
    // Artwork comes "-large" (100 px); "-t500x500" is the same picture, larger.
    thumbnail: str(json.artwork_url)?.replace("-large.", "-t500x500.") ?? null,
    link: str(json.permalink_url) ?? `https://soundcloud.com/${id}`,
    preview: null,
  };
}

/**
 * A track the catalogue lacks, asked of its provider and added to the catalogue: the song's id, or null when the
 * provider has no track by that id.
 */
export async function lookUpTrack(deps: AppDeps, provider: LookupProvider, id: string): Promise<string | null> {
  const track = await PROVIDER_TRACK[provider](deps, id);
  return track ? catalogueProviderTrack(deps, provider, id, track) : null;
}

/** How each provider is asked for a track; null when it has none by that id. */
const PROVIDER_TRACK: Record<LookupProvider, (deps: AppDeps, id: string) => Promise<ProviderTrack | null>> = {
  spotify: spotifyTrack,
  apple: appleSong,
  youtube: youtubeVideo,
  soundcloud: soundcloudTrack,
};

/**
 * Puts a provider's track in the catalogue and answers the song's id: the song already known by that provider id,
 * else the one with the same ISRC (which learns the provider id), else a new song (with its artist and album).
 * Concurrent lookups of one track serialise on an advisory lock, so the track joins the catalogue once.
 */
export async function catalogueProviderTrack(
  deps: AppDeps,
  provider: LookupProvider | "audius" | "sevenDigital",
  id: string,
  track: ProviderTrack,
): Promise<string> {
  const { db, clock } = deps;
  const songs = schema.songs;
  /** A jsonb column with this provider's entry added (or the column as it is, for nothing to add). */
  const merge = (column: AnyPgColumn, value: string | null) =>
    sql<Record<string, string>>`${column} || ${JSON.stringify(value ? { [provider]: value } : {})}::jsonb`;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`catalogue:${provider}:${id}`}))`);
    const [known] = await tx
      .select({ id: songs.id })
      .from(songs)
      .where(sql`${songs.musicProviders} ->> ${provider} = ${id}`)
      .limit(1);
    if (known) return known.id;
    if (track.isrc) {
      const [same] = await tx
        .update(songs)
        .set({
          musicProviders: merge(songs.musicProviders, id),
          thumbnails: merge(songs.thumbnails, track.thumbnail),
          links: merge(songs.links, track.link),
          previews: merge(songs.previews, track.preview),
          // A stream the song has already (an upload's) stays the one it plays.
          streamUrls: sql`${JSON.stringify(track.stream && !track.sample ? { http: track.stream } : {})}::jsonb || ${songs.streamUrls}`,
        })
        .where(
          eq(
            songs.id,
            sql`(select ${songs.id} from ${songs} where ${songs.isrc} = ${track.isrc} order by ${songs.createdAt} limit 1)`,
          ),
        )
        .returning({ id: songs.id });
      if (same) return same.id;
    }
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`catalogue-artist:${track.artistName}`}))`);
    let [artist] = await tx
      .select({ id: schema.artists.id })
      .from(schema.artists)
      .where(eq(schema.artists.name, track.artistName))
      .limit(1);
    if (!artist)
      [artist] = await tx
        .insert(schema.artists)
        .values({ shortId: shortId(), name: track.artistName, createdAt: clock.now() })
        .returning({ id: schema.artists.id });
    let albumId: string | null = null;
    if (track.album && artist) {
      let [album] = await tx
        .select({ id: schema.albums.id })
        .from(schema.albums)
        .where(and(eq(schema.albums.title, track.album), eq(schema.albums.artistId, artist.id)))
        .limit(1);
      if (!album)
        [album] = await tx
          .insert(schema.albums)
          .values({
            shortId: shortId(),
            title: track.album,
            artistId: artist.id,
            releaseYear: track.releaseYear,
            thumbnails: track.thumbnail ? { [provider]: track.thumbnail } : null,
            createdAt: clock.now(),
          })
          .returning({ id: schema.albums.id });
      albumId = album?.id ?? null;
    }
    const one = (value: string | null) => (value ? { [provider]: value } : {});
    const [song] = await tx
      .insert(songs)
      .values({
        shortId: shortId(),
        trackName: track.trackName,
        artistName: track.artistName,
        artistId: artist?.id ?? null,
        albumId,
        duration: track.duration,
        explicit: track.explicit,
        isrc: track.isrc,
        releaseYear: track.releaseYear,
        musicProviders: { [provider]: id },
        thumbnails: one(track.thumbnail),
        links: one(track.link),
        previews: one(track.preview),
        streamUrls: track.stream ? { http: track.stream } : {},
        createdAt: clock.now(),
      })
      .returning({ id: songs.id });
    if (!song) throw new HttpError(500, "The song could not be stored.");
    return song.id;
  });
}
