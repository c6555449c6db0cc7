import type { LoaderFunctionArgs } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { readSession } from "../../lib/session.server.ts";

/**
 * Songs for the room's queue picker: the catalogue search (20 a page) for `?q=`, else the catalogue's first songs.
 * A resource route (no screen): the room loads it with a fetcher.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const q = new URL(request.url).searchParams.get("q")?.trim() ?? "";
  const { token } = await readSession(request);
  const booth = sdkFor(token);
  try {
    if (q) return { songs: (await booth.playlist.GET("/search", { params: { query: { q, limit: 20 } } })).data ?? [] };
    const page = await booth.playlist.GET("/api/v1/songs", { params: { query: { limit: 20 } } });
    return { songs: page.data?.data ?? [] };
  } catch (error) {
    return { songs: [], error: userMessage(error, request) };
  }
}
