import type { LoaderFunctionArgs } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { isApiError } from "../../lib/errors.ts";
import { liveToken } from "../../lib/session.server.ts";

/** A fresh short-lived token for the room page's live socket, HLS keys and listening events (never cached). */
export async function loader({ request }: LoaderFunctionArgs) {
  let session: Awaited<ReturnType<typeof liveToken>>;
  try {
    session = await liveToken(request);
  } catch (error) {
    // The edge's limit on this visitor (guest tokens per address) is theirs to hear about, not a server failure.
    if (isApiError(error, 429))
      return Response.json(
        { message: userMessage(error, request) },
        { status: 429, headers: { "cache-control": "no-store" } },
      );
    throw error;
  }
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (session.setCookie) headers["set-cookie"] = session.setCookie;
  return Response.json({ token: session.liveToken, expiresAt: session.liveTokenExpiresAt }, { headers });
}
