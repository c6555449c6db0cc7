import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterSong } from "../rooms.$slug/room.server.ts";

/** What a new song changes on the room's page, as JSON (room.server.ts `afterSong`); the room asks it with a fetch. */
export async function loader({ request, params }: LoaderFunctionArgs): Promise<Response> {
  return Response.json(await afterSong(request, params.slug ?? ""), { headers: { "cache-control": "no-store" } });
}

export type AfterSong = Awaited<ReturnType<typeof afterSong>>;
