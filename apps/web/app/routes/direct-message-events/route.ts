import type { LoaderFunctionArgs } from "@remix-run/node";
import { isApiError } from "../../lib/errors.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { readSession } from "../../lib/session.server.ts";

/**
 * The viewer's direct-message events (the social service's `GET /direct-messages/events`), passed on as they come
 * with the session's token, which the browser never holds. The browser's EventSource (lib/direct-messages.tsx) reads
 * it; when the visitor leaves, the request's signal ends the edge's stream too. Any edge may serve it: the events
 * reach every edge through the shared cache.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { token } = await readSession(request);
  if (!token) return new Response("Sign in to get your messages.", { status: 401 });
  try {
    const { response } = await sdkFor(token).social.GET("/direct-messages/events", {
      parseAs: "stream",
      signal: request.signal,
    });
    return new Response(response.body, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        // A proxy in front of the web must not hold the events back.
        "x-accel-buffering": "no",
      },
    });
  } catch (error) {
    // EventSource tries again after an error answer only when told to come back: a 204 ends it (signed out).
    if (isApiError(error) && (error.status === 401 || error.status === 403)) return new Response(null, { status: 204 });
    return new Response("The messages' events are not available right now.", { status: 503 });
  }
}
