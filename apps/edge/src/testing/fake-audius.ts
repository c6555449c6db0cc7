import { createServer, type ServerResponse } from "node:http";
import { closeServer, listenLocally } from "./local-server.ts";

/**
 * For tests: a local stand-in of Audius's API (the part Booth calls), answering as api.audius.co does: `{ data }`
 * bodies, `/v1/resolve` redirecting to the track or playlist a link names, and a track's `/stream` redirecting to the
 * audio on a "content node" (here: `/content/{id}.mp3` on the same server, served with byte ranges so a player can
 * seek). Every request is recorded with its query; `control.failWith` makes every answer that status (an outage).
 */

/** An Audius track as the API answers it; `permalink` is /handle/slug. */
export function audiusTrack(
  id: string,
  title: string,
  options: { artist?: string; slug?: string; duration?: number } = {},
) {
  const artist = options.artist ?? "Lumen Audius";
  const handle = artist.toLowerCase().replace(/\W+/g, "");
  return {
    id,
    title,
    duration: options.duration ?? 185,
    genre: "Electronic",
    release_date: "2024-03-01T00:00:00Z",
    is_streamable: true,
    permalink: `/${handle}/${options.slug ?? title.toLowerCase().replace(/\W+/g, "-")}`,
    artwork: { "150x150": null, "480x480": null, "1000x1000": null },
    user: { id: `u${id}`, name: artist, handle },
  };
}
export type AudiusTrackJson = ReturnType<typeof audiusTrack> & Record<string, unknown>;

export async function startFakeAudius(options: { mp3?: Uint8Array } = {}) {
  /** The audio every track's stream answers (can be set after the start). */
  const audio: { mp3: Uint8Array | null } = { mp3: options.mp3 ?? null };
  const tracks = new Map<string, AudiusTrackJson>();
  /** Playlists by id: the playlist's name, its link's path (handle/playlist/name) and its tracks' ids in order. */
  const playlists = new Map<string, { name: string; path: string; trackIds: string[] }>();
  const requests: { path: string; query: Record<string, string>; range: string | null }[] = [];
  const control: { failWith: number | null } = { failWith: null };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };
  const redirect = (res: ServerResponse, location: string) => res.writeHead(302, { location }).end();
  const playlistJson = (id: string) => {
    const p = playlists.get(id);
    return p && { id, playlist_name: p.name, permalink: `/${p.path}`, track_count: p.trackIds.length };
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const path = url.pathname;
    requests.push({ path, query: Object.fromEntries(url.searchParams), range: req.headers.range ?? null });
    if (control.failWith) return send(res, control.failWith, { error: "server_error" });
    const content = /^\/content\/([A-Za-z0-9]+)\.mp3$/.exec(path)?.[1];
    if (content) {
      const mp3 = audio.mp3;
      if (!mp3 || !tracks.has(content)) return send(res, 404, { error: "not found" });
      const cors = { "access-control-allow-origin": "*", "accept-ranges": "bytes", "content-type": "audio/mpeg" };
      const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
      if (!range) return res.writeHead(200, { ...cors, "content-length": mp3.length }).end(mp3);
      const start = range[1] ? Number(range[1]) : Math.max(0, mp3.length - Number(range[2]));
      const end = range[1] && range[2] ? Math.min(Number(range[2]), mp3.length - 1) : mp3.length - 1;
      if (start >= mp3.length) return res.writeHead(416, { "content-range": `bytes */${mp3.length}` }).end();
      return res
        .writeHead(206, {
          ...cors,
          "content-length": end - start + 1,
          "content-range": `bytes ${start}-${end}/${mp3.length}`,
        })
        .end(mp3.subarray(start, end + 1));
    }
    if (path === "/v1/tracks/search") {
      const words = (url.searchParams.get("query") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
      if (!words.length) return send(res, 400, { error: "query is required" });
      const limit = Number(url.searchParams.get("limit") ?? 10);
      const found = [...tracks.values()].filter((t) =>
        words.every((w) => `${t.title} ${t.user.name}`.toLowerCase().includes(w)),
      );
      return send(res, 200, { data: found.slice(0, limit) });
    }
    if (path === "/v1/resolve") {
      let link: URL;
      try {
        link = new URL(url.searchParams.get("url") ?? "");
      } catch {
        return send(res, 400, { error: "url is required" });
      }
      const track = [...tracks.values()].find((t) => t.permalink === link.pathname);
      if (track) return redirect(res, `/v1/tracks/${track.id}?${url.searchParams}`);
      const playlist = [...playlists.entries()].find(([, p]) => `/${p.path}` === link.pathname);
      if (playlist) return redirect(res, `/v1/playlists/${playlist[0]}?${url.searchParams}`);
      return send(res, 404, { error: "not found" });
    }
    const stream = /^\/v1\/tracks\/([^/]+)\/stream$/.exec(path)?.[1];
    if (stream) return tracks.has(stream) ? redirect(res, `/content/${stream}.mp3`) : send(res, 404, {});
    const track = /^\/v1\/tracks\/([^/]+)$/.exec(path)?.[1];
    if (track) {
      const found = tracks.get(decodeURIComponent(track));
      return found ? send(res, 200, { data: found }) : send(res, 404, { error: "not found" });
    }
    const playlist = /^\/v1\/playlists\/([^/]+)(\/tracks)?$/.exec(path);
    if (playlist?.[1]) {
      const p = playlists.get(decodeURIComponent(playlist[1]));
      if (!p) return send(res, 404, { error: "not found" });
      if (!playlist[2]) return send(res, 200, { data: [playlistJson(playlist[1])] });
      // A deleted track stays in the playlist, without what a track needs.
      return send(res, 200, { data: p.trackIds.map((id) => tracks.get(id) ?? { id, is_delete: true }) });
    }
    send(res, 404, { error: "not found" });
  });
  const base = await listenLocally(server);
  return {
    base,
    tracks,
    playlists,
    requests,
    control,
    audio,
    /** A track the fake has, added (its JSON as Audius answers it). */
    add(track: AudiusTrackJson) {
      tracks.set(track.id, track);
      return track;
    },
    close: () => closeServer(server),
  };
}
export type FakeAudius = Awaited<ReturnType<typeof startFakeAudius>>;
