import type { LoaderFunctionArgs } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { isApiError } from "../../lib/errors.ts";
import { afterSong } from "../rooms.$slug/room.server.ts";

/**
 * What a new song changes on the room's page, as JSON (room.server.ts `afterSong`); the room asks it with a fetch.
 * The edge's refusal (a room that does not exist, a slug of the wrong shape) is answered with its status.
 */
export async function loader({ request, params }: LoaderFunctionArgs): Promise<Response> {
  const headers = { "cache-control": "no-store" };
  try {
    return Response.json(await afterSong(request, params.slug ?? ""), { headers });
  } catch (error) {
    if (isApiError(error))
      return Response.json({ message: userMessage(error, request) }, { status: error.status, headers });
    throw error;
  }
}

export type AfterSong = Awaited<ReturnType<typeof afterSong>>;
