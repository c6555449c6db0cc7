import type { Schema } from "@booth/sdk";
import { data, redirect } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { isApiError } from "../../lib/errors.ts";
import { field } from "../../lib/forms.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { requireViewer } from "../../lib/session.server.ts";
import { CRATE_PAGE } from "./crates.ts";

export type Crate = Schema<"playlist", "Crate">;
export type PlaylistImport = Schema<"playlist", "PlaylistImport">;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The playlist import `?import=` names, when it is the viewer's: its progress, or why it cannot be shown. */
async function loadImport(booth: ReturnType<typeof sdkFor>, importId: string | null, request: Request) {
  if (!importId || !UUID.test(importId)) return { playlistImport: null, importError: null };
  try {
    const { data } = await booth.playlist.GET("/api/v1/playlist-imports/{importId}", {
      params: { path: { importId } },
    });
    return { playlistImport: data ?? null, importError: null };
  } catch (e) {
    return { playlistImport: null, importError: userMessage(e, request) };
  }
}

/** The viewer's queue and likes, and a page of their playlists (newest first). */
export async function loadCrates(request: Request) {
  const { token } = await requireViewer(request);
  const url = new URL(request.url);
  const offset = Math.max(0, Number.parseInt(url.searchParams.get("offset") ?? "0", 10) || 0);
  const booth = sdkFor(token);
  const progress = loadImport(booth, url.searchParams.get("import"), request);
  try {
    const [queue, likes, page] = await Promise.all([
      booth.playlist.GET("/crate/special/queue", {}),
      booth.playlist.GET("/crate/special/likes", {}),
      booth.playlist.GET("/crate/user", { params: { query: { limit: CRATE_PAGE, offset } } }),
    ]);
    return {
      ...(await progress),
      offset,
      special: [queue.data, likes.data].filter((c): c is Crate => Boolean(c)),
      crates: page.data?.data ?? [],
      total: page.data?.total ?? 0,
      error: null,
    };
  } catch (e) {
    return {
      ...(await progress),
      offset,
      special: [] as Crate[],
      crates: [] as Crate[],
      total: 0,
      error: userMessage(e, request),
    };
  }
}

/** The page's forms: a new crate, or a playlist to import. */
export async function changeCrates(request: Request) {
  const { token } = await requireViewer(request);
  const form = await request.formData();
  return field(form, "intent") === "import-playlist"
    ? importPlaylist(token, form, request)
    : createCrate(token, form, request);
}

/**
 * Starts a playlist import and shows its progress (`?import=`). The provider being down or not configured is said as
 * the edge says it: the person can do something about neither, but should know it is not their link.
 */
async function importPlaylist(token: string, form: FormData, request: Request) {
  const link = field(form, "link");
  try {
    const { data: started } = await sdkFor(token).playlist.POST("/api/v1/playlist-imports", { body: { link } });
    if (!started) throw new Error("no import in the answer");
    return redirect(`/crates?import=${started.importId}`);
  } catch (e) {
    const message = isApiError(e) && (e.status === 502 || e.status === 503) ? e.message : userMessage(e, request);
    return data({ importError: message, link, error: undefined, name: undefined }, { status: 400 });
  }
}

/** Creates a crate ("New Playlist #N" when no name is given) and opens it. */
async function createCrate(token: string, form: FormData, request: Request) {
  const name = field(form, "name");
  try {
    const { data: crate } = await sdkFor(token).playlist.POST("/crate", { body: name ? { name } : {} });
    if (!crate) throw new Error("no crate in the answer");
    return redirect(`/crates/${crate.crateUuid}`);
  } catch (e) {
    return data({ error: userMessage(e, request), name, importError: undefined, link: undefined }, { status: 400 });
  }
}
