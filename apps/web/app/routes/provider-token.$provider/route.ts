import type { LoaderFunctionArgs } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { isApiError } from "../../lib/errors.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { readSession } from "../../lib/session.server.ts";

const noStore = { "cache-control": "no-store" };
const answer = (status: number, message: string) =>
  Response.json({ statusCode: status, message }, { status, headers: noStore });

/**
 * The signed-in viewer's own token at a provider, for the room's player (Spotify's Web Playback SDK, MusicKit): asked of
 * the edge with the session's token, so it is always the caller's own and never anyone else's; the path names only
 * the provider. Not signed in: 401. Not connected: 404. The provider not configured on the edge: its 503.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const provider = params.provider;
  if (provider !== "spotify" && provider !== "apple")
    return answer(404, "Booth plays through Spotify and Apple Music accounts only.");
  const { token, viewer, setCookie } = await readSession(request);
  if (!token || !viewer) return answer(401, "Log in to play songs through your own account.");
  const booth = sdkFor(token);
  const headers: Record<string, string> = { ...noStore, ...(setCookie ? { "set-cookie": setCookie } : {}) };
  try {
    if (provider === "spotify") {
      // The edge refreshes the stored token for its owner (the caller): a fresh hour for the page's player.
      const { data } = await booth.user.POST("/spotify/refresh-token", {});
      if (!data) return answer(404, "Spotify is not connected.");
      return Response.json({ accessToken: data.accessToken, expiresAt: data.expiresAt }, { headers });
    }
    const { data } = await booth.user.GET("/apple/user-token/{id}", { params: { path: { id: viewer.uuid } } });
    if (!data?.musicUserToken) return answer(404, "Apple Music is not connected.");
    return Response.json(
      { accessToken: data.musicUserToken, developerToken: data.developerToken, expiresAt: null },
      { headers },
    );
  } catch (error) {
    // A link the provider revoked (409) is no account; a provider the edge lacks settings for says which (503).
    if (isApiError(error) && (error.status < 500 || error.status === 503))
      return answer(
        error.status === 409 ? 404 : error.status,
        error.status === 503 ? error.message : userMessage(error, request),
      );
    throw error;
  }
}
