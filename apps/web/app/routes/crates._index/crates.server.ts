import type { Schema } from "@booth/sdk";
import { data, redirect } from "@remix-run/node";
import { userMessage } from "../../lib/errors.ts";
import { field } from "../../lib/forms.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { requireViewer } from "../../lib/session.server.ts";
import { CRATE_PAGE } from "./crates.ts";

export type Crate = Schema<"playlist", "Crate">;

/** The viewer's queue and likes, and a page of their playlists (newest first). */
export async function loadCrates(request: Request) {
  const { token } = await requireViewer(request);
  const url = new URL(request.url);
  const offset = Math.max(0, Number.parseInt(url.searchParams.get("offset") ?? "0", 10) || 0);
  const booth = sdkFor(token);
  try {
    const [queue, likes, page] = await Promise.all([
      booth.playlist.GET("/crate/special/queue", {}),
      booth.playlist.GET("/crate/special/likes", {}),
      booth.playlist.GET("/crate/user", { params: { query: { limit: CRATE_PAGE, offset } } }),
    ]);
    return {
      offset,
      special: [queue.data, likes.data].filter((c): c is Crate => Boolean(c)),
      crates: page.data?.data ?? [],
      total: page.data?.total ?? 0,
      error: null,
    };
  } catch (e) {
    return { offset, special: [] as Crate[], crates: [] as Crate[], total: 0, error: userMessage(e) };
  }
}

/** Creates a crate ("New Playlist #N" when no name is given) and opens it. */
export async function createCrate(request: Request) {
  const { token } = await requireViewer(request);
  const form = await request.formData();
  const name = field(form, "name");
  try {
    const { data: crate } = await sdkFor(token).playlist.POST("/crate", { body: name ? { name } : {} });
    if (!crate) throw new Error("no crate in the answer");
    return redirect(`/crates/${crate.crateUuid}`);
  } catch (e) {
    return data({ error: userMessage(e), name }, { status: 400 });
  }
}
