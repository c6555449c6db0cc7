import type { LoaderFunctionArgs } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { readSession } from "../../lib/session.server.ts";

/**
 * Songs for the room's queue picker, as JSON: the catalogue search (20 a page) for `?q=`, else the catalogue's first
 * songs. A resource route (no screen) the room asks with a plain `fetch`, not a fetcher: a fetcher's first load makes
 * the router look this route up (lazy route discovery), and a revalidation meanwhile (every new song starts one)
 * made it answer a 404 page in place of the room (remix-run/remix#10263).
 */
export async function loader({ request }: LoaderFunctionArgs): Promise<Response> {
  return Response.json(await songsFor(request), { headers: { "cache-control": "no-store" } });
}

export type SongPickerAnswer = Awaited<ReturnType<typeof songsFor>>;

async function songsFor(request: Request) {
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
