import { errorMessage } from "../../lib/error-codes.ts";
import { PLAYLIST_PATH } from "./audius.ts";
import { webLink } from "./provider-links.ts";

/** The providers whose playlists Booth imports. */
export const PLAYLIST_PROVIDERS = ["spotify", "youtube", "soundcloud", "audius"] as const;

export type PlaylistProvider = (typeof PLAYLIST_PROVIDERS)[number];

export interface PlaylistLink {
  provider: PlaylistProvider;
  /**
   * Spotify's and YouTube's playlist id; for SoundCloud, the set's path (user/sets/name, with a secret token); for
   * Audius, the playlist's or album's path (handle/playlist/name, handle/album/name).
   */
  id: string;
}

export const NOT_A_PLAYLIST_LINK = errorMessage("NOT_A_PLAYLIST_LINK");

/**
 * Reads a playlist link: open.spotify.com/playlist/… (or a spotify:playlist: URI), youtube.com/playlist?list=… (a
 * watch link inside a playlist names the playlist too), soundcloud.com/<user>/sets/<name>,
 * audius.co/<handle>/playlist/<name> (or /album/). Null for anything else.
 */
export function parsePlaylistLink(link: string): PlaylistLink | null {
  const uri = /^spotify:playlist:([A-Za-z0-9]{22})$/.exec(link);
  if (uri?.[1]) return { provider: "spotify", id: uri[1] };
  const web = webLink(link);
  if (!web) return null;
  const { url, host } = web;
  if (host === "open.spotify.com" || host === "play.spotify.com") {
    const id = /^(?:\/intl-[\w-]+)?\/playlist\/([A-Za-z0-9]{22})\/?$/.exec(url.pathname)?.[1];
    return id ? { provider: "spotify", id } : null;
  }
  if (host === "youtube.com" || host === "music.youtube.com") {
    const list = url.searchParams.get("list");
    const page = url.pathname === "/playlist" || url.pathname === "/watch";
    return page && list && /^[\w-]{2,64}$/.test(list) ? { provider: "youtube", id: list } : null;
  }
  if (host === "soundcloud.com") {
    const path = /^\/([\w-]+\/sets\/[\w-]+(?:\/s-\w+)?)\/?$/.exec(url.pathname)?.[1];
    return path ? { provider: "soundcloud", id: path } : null;
  }
  if (host === "audius.co") {
    const path = url.pathname.replace(/^\/|\/$/g, "");
    return PLAYLIST_PATH.test(path) ? { provider: "audius", id: path } : null;
  }
  return null;
}
