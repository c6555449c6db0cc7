import type { AppDeps } from "../../deps.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { HttpError } from "../../lib/errors.ts";
import { PROVIDER_URLS, requireSettings, trimSlash } from "../../ports/integrations.ts";
import { AUDIUS, audiusPlaylist, audiusPlaylistTracks, audiusTrackOf } from "./audius.ts";
import type { PlaylistLink, PlaylistProvider } from "./playlist-links.ts";
import { list, record, str } from "./provider-json.ts";
import {
  call,
  type ProviderTrack,
  soundcloudTrackOf,
  spotifyTrackOf,
  trackJson,
  withAppToken,
  youtubeTrackOf,
} from "./provider-lookup.ts";

/**
 * A provider's playlist, read through its API with Booth's own credentials (the ones track lookups use): Spotify's
 * Web API and SoundCloud's API with the app token, the YouTube Data API with the API key. Base URLs come from the
 * configuration, so tests page through the local fake providers.
 */

/** One entry of a playlist: the provider's track, or null for one it cannot give (deleted, private, local, blocked). */
export interface PlaylistEntry {
  id: string;
  track: ProviderTrack | null;
}

export interface PlaylistSource {
  name: string;
  /** How many entries the provider says the playlist has. */
  total: number;
  /** The entries in order, from the `from`-th on, fetched a page at a time. */
  entries(from: number): AsyncGenerator<PlaylistEntry>;
}

export const PLAYLIST_NOT_FOUND = errorMessage("PLAYLIST_NOT_FOUND");

/** The settings each provider's playlists need (a 503 names them when they are missing). */
const SETTINGS: Record<PlaylistProvider, (deps: AppDeps) => Record<string, string | undefined>> = {
  spotify: (deps) => ({
    SPOTIFY_CLIENT_ID: deps.config.integrations?.spotifyClientId,
    SPOTIFY_CLIENT_SECRET: deps.config.integrations?.spotifyClientSecret,
  }),
  youtube: (deps) => ({ YOUTUBE_API_KEY: deps.config.integrations?.youtubeApiKey }),
  soundcloud: (deps) => ({
    SOUNDCLOUD_CLIENT_ID: deps.config.integrations?.soundcloudClientId,
    SOUNDCLOUD_CLIENT_SECRET: deps.config.integrations?.soundcloudClientSecret,
  }),
  // Audius's API is open (its base URL has a default).
  audius: () => ({}),
};
const NAMES: Record<PlaylistProvider, string> = {
  spotify: "Spotify",
  youtube: "YouTube",
  soundcloud: "SoundCloud",
  audius: AUDIUS,
};

/** Throws the 503 naming the settings a provider's playlist import lacks. */
export function requirePlaylistSettings(deps: AppDeps, provider: PlaylistProvider) {
  requireSettings(`${NAMES[provider]} playlist import`, SETTINGS[provider](deps));
}

/** The playlist as its provider has it; a 404 when it has none by that id (or will not show it: private). */
export async function openPlaylist(deps: AppDeps, link: PlaylistLink): Promise<PlaylistSource> {
  requirePlaylistSettings(deps, link.provider);
  const source = await PLAYLISTS[link.provider](deps, link.id);
  if (!source) throw new HttpError(404, PLAYLIST_NOT_FOUND);
  return source;
}

const count = (v: unknown) => (Number.isInteger(Number(v)) && Number(v) >= 0 ? Number(v) : 0);
const gone = (provider: string) => new HttpError(404, `${provider} no longer has this playlist.`);

/** Spotify's pages hold at most 100 entries. */
const SPOTIFY_PAGE = 100;

async function spotifyPlaylist(deps: AppDeps, id: string): Promise<PlaylistSource | null> {
  const base = `${trimSlash(deps.config.providers.spotifyApiUrl)}/v1/playlists/${encodeURIComponent(id)}`;
  const get = async (url: string) => trackJson("Spotify", await withAppToken(deps, "spotify", url));
  const head = await get(`${base}?${new URLSearchParams({ fields: "name,tracks.total" })}`);
  if (!head) return null;
  return {
    name: str(head.name) ?? "Spotify playlist",
    total: count(record(head.tracks).total),
    async *entries(from) {
      for (let offset = from; ; offset += SPOTIFY_PAGE) {
        const page = await get(`${base}/tracks?${new URLSearchParams({ offset: String(offset), limit: "100" })}`);
        if (!page) throw gone("Spotify");
        const items = list(page.items);
        for (const item of items) {
          const track = record(item.track);
          const trackId = str(track.id);
          // Deleted tracks come as null, local files and podcast episodes are nothing Booth can play.
          const playable = trackId && item.is_local !== true && track.type !== "episode" && track.is_playable !== false;
          yield { id: trackId ?? "", track: playable ? spotifyTrackOf(track, trackId) : null };
        }
        if (items.length < SPOTIFY_PAGE || !page.next) return;
      }
    },
  };
}

/** YouTube's pages hold at most 50 entries (and /videos takes at most 50 ids). */
const YOUTUBE_PAGE = 50;

async function youtubePlaylist(deps: AppDeps, id: string): Promise<PlaylistSource | null> {
  const i = deps.config.integrations ?? {};
  const api = trimSlash(i.youtubeApiUrl || PROVIDER_URLS.youtubeApi);
  const key = i.youtubeApiKey ?? "";
  const get = async (path: string, query: Record<string, string>) => {
    const res = await call("YouTube", `${api}${path}?${new URLSearchParams({ ...query, key })}`);
    // Google answers 400 and 403 about the key or the quota; a playlist it will not list is a 404 (or an empty list).
    if (res.status === 400 || res.status === 403) {
      await res.body?.cancel();
      throw new HttpError(502, "YouTube refused Booth's credentials.");
    }
    return trackJson("YouTube", res);
  };
  const head = await get("/playlists", { part: "snippet,contentDetails", id });
  const playlist = list(head?.items)[0];
  if (!playlist) return null;
  return {
    name: str(record(playlist.snippet).title) ?? "YouTube playlist",
    total: count(record(playlist.contentDetails).itemCount),
    async *entries(from) {
      let index = 0;
      let pageToken = "";
      do {
        const page = await get("/playlistItems", {
          part: "contentDetails,status",
          playlistId: id,
          maxResults: String(YOUTUBE_PAGE),
          ...(pageToken ? { pageToken } : {}),
        });
        if (!page) throw gone("YouTube");
        const items = list(page.items);
        pageToken = str(page.nextPageToken) ?? "";
        // Pages are reached by token only: the ones before `from` are read and passed over.
        if (index + items.length <= from) {
          index += items.length;
          continue;
        }
        const videoIds = items.map((item) => str(record(item.contentDetails).videoId) ?? "");
        const wanted = [...new Set(videoIds.filter(Boolean))];
        const videos = wanted.length
          ? list((await get("/videos", { part: "snippet,contentDetails", id: wanted.join(",") }))?.items)
          : [];
        for (const [n, videoId] of videoIds.entries()) {
          if (index++ < from) continue;
          // Private and deleted videos stay in the playlist, but /videos does not answer them.
          const video = videos.find((v) => v.id === videoId);
          const hidden = record(items[n]?.status).privacyStatus === "private";
          yield { id: videoId, track: video && !hidden ? youtubeTrackOf(video, videoId) : null };
        }
      } while (pageToken);
    },
  };
}

/** A SoundCloud track's path (user/track), the id its links give it in the catalogue. */
function permalinkPath(permalink: unknown) {
  try {
    return new URL(String(permalink)).pathname.replace(/^\/|\/$/g, "");
  } catch {
    return "";
  }
}

/** SoundCloud's pages, as Booth asks for them. */
const SOUNDCLOUD_PAGE = 50;

async function soundcloudPlaylist(deps: AppDeps, path: string): Promise<PlaylistSource | null> {
  const api = trimSlash(deps.config.integrations?.soundcloudApiUrl || PROVIDER_URLS.soundcloudApi);
  const get = async (url: string) => trackJson("SoundCloud", await withAppToken(deps, "soundcloud", url));
  const set = await get(`${api}/resolve?${new URLSearchParams({ url: `https://soundcloud.com/${path}` })}`);
  if (set?.kind !== "playlist" || set.id === undefined) return null;
  const first = `${api}/playlists/${encodeURIComponent(String(set.id))}/tracks?${new URLSearchParams({
    linked_partitioning: "true",
    limit: String(SOUNDCLOUD_PAGE),
    ...(set.secret_token ? { secret_token: String(set.secret_token) } : {}),
  })}`;
  return {
    name: str(set.title) ?? "SoundCloud playlist",
    total: count(set.track_count),
    async *entries(from) {
      let index = 0;
      let next: string | null = first;
      while (next) {
        const page = await get(next);
        if (!page) throw gone("SoundCloud");
        next = str(page.next_href);
        // The next page's address comes from SoundCloud: Booth follows it only to SoundCloud's API.
        if (next && !next.startsWith(`${api}/`)) throw new HttpError(502, "SoundCloud answered an unexpected page.");
        for (const track of list(page.collection)) {
          if (index++ < from) continue;
          const id = permalinkPath(track.permalink_url) || String(track.id ?? "");
          // Tracks the uploader blocked (or a region hides) come without their title.
          const playable = id && str(track.title) && track.access !== "blocked";
          yield { id, track: playable ? soundcloudTrackOf(track, id) : null };
        }
      }
    },
  };
}

/** An Audius playlist (or album), resolved from its link's path; its tracks come in one answer. */
async function audiusSource(deps: AppDeps, path: string): Promise<PlaylistSource | null> {
  const playlist = await audiusPlaylist(deps, path);
  if (!playlist) return null;
  return {
    name: playlist.name,
    total: playlist.total,
    async *entries(from) {
      const tracks = await audiusPlaylistTracks(deps, playlist.id);
      if (!tracks) throw gone(AUDIUS);
      for (const json of tracks.slice(from)) {
        // A track deleted or no longer streamable comes without what a song needs.
        const found = audiusTrackOf(deps, json);
        yield { id: found?.id ?? String(json.id ?? ""), track: found?.track ?? null };
      }
    },
  };
}

/** How each provider's playlist is opened; null when it has none by that id. */
const PLAYLISTS: Record<PlaylistProvider, (deps: AppDeps, id: string) => Promise<PlaylistSource | null>> = {
  spotify: spotifyPlaylist,
  youtube: youtubePlaylist,
  soundcloud: soundcloudPlaylist,
  audius: audiusSource,
};
