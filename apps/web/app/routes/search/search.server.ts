import type { Schema } from "@booth/sdk";
import { data } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { field } from "../../lib/forms.ts";
import type { Booth } from "../../lib/sdk.server.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { readSession, requireViewer } from "../../lib/session.server.ts";
import { QUEUE, SEARCH_PAGE } from "./search.ts";

export type Song = Schema<"playlist", "Song">;
export type Person = Schema<"user", "Profile">;
/** People shown above the songs when the words match nicknames. */
export const PEOPLE_SHOWN = 8;
export type CrateSummary = { crateUuid: string; crateName: string; count: number };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The songs for `?q=` (a search) or, with no words, the catalogue in order; the viewer's crates to add them to. */
export async function loadSearch(request: Request) {
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 200);
  const offset = Math.min(10_000, Math.max(0, Number.parseInt(url.searchParams.get("offset") ?? "0", 10) || 0));
  const { token, viewer } = await readSession(request);
  const booth = sdkFor(token);
  let songs: Song[] = [];
  let total = 0;
  let error: string | null = null;
  try {
    if (q) {
      const page = (await booth.playlist.GET("/search/v2", { params: { query: { q, offset, limit: SEARCH_PAGE } } }))
        .data;
      songs = page?.data ?? [];
      total = page?.total ?? 0;
    } else {
      const page = (await booth.playlist.GET("/api/v1/songs", { params: { query: { offset, limit: SEARCH_PAGE } } }))
        .data;
      songs = page?.data ?? [];
      total = page?.total ?? 0;
    }
  } catch (e) {
    error = userMessage(e, request);
  }
  const mine = viewer ? await collections(booth) : { crates: [], queued: [] };
  // People by nickname, for the signed in, on the first page of a search.
  const people: Person[] =
    viewer && q && offset === 0
      ? ((
          await booth.user
            .GET("/users/search", { params: { query: { q: q.slice(0, 100), limit: PEOPLE_SHOWN } } })
            .catch(() => null)
        )?.data ?? [])
      : [];
  return { q, offset, songs, total, error, people, signedIn: Boolean(viewer), ...mine };
}

/** The viewer's playlists (newest first) and the songs already in their queue. */
async function collections(booth: Booth) {
  const [crates, queue] = await Promise.all([
    booth.playlist.GET("/crate/user", { params: { query: { limit: 100 } } }).catch(() => null),
    booth.playlist.GET("/crate/special/queue/songs", { params: { query: { limit: 5000 } } }).catch(() => null),
  ]);
  return {
    crates: (crates?.data?.data ?? []).map(
      (c): CrateSummary => ({ crateUuid: c.crateUuid, crateName: c.crateName, count: c.count }),
    ),
    queued: (queue?.data ?? []).map((s) => s.songId),
  };
}

/** Adds a song to the queue or a crate; refused adds answer 400 with the edge's words and the song they concern. */
export async function addSong(request: Request) {
  const { token } = await requireViewer(request);
  const form = await request.formData();
  const songId = field(form, "songId");
  const crate = field(form, "crate");
  if (!UUID.test(songId) || !(crate === QUEUE || UUID.test(crate)))
    return data({ ok: false as const, songId, crate, error: "Choose a song and a crate." }, { status: 400 });
  const booth = sdkFor(token);
  try {
    if (crate === QUEUE) await booth.playlist.POST("/crate/special/queue/songs", { body: { songId } });
    else await booth.playlist.POST("/crate/{id}/songs", { params: { path: { id: crate } }, body: { songId } });
    return { ok: true as const, songId, crate, error: null };
  } catch (e) {
    return data({ ok: false as const, songId, crate, error: userMessage(e, request) }, { status: 400 });
  }
}
