import type { LoaderFunctionArgs } from "@remix-run/node";
import { liveToken } from "../../lib/session.server.ts";

/** A fresh short-lived token for the room page's live socket, HLS keys and listening events (never cached). */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await liveToken(request);
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (session.setCookie) headers["set-cookie"] = session.setCookie;
  return Response.json({ token: session.liveToken, expiresAt: session.liveTokenExpiresAt }, { headers });
}
