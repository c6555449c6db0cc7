import type { AppDeps } from "../../deps.ts";
import { HttpError } from "../../lib/errors.ts";
import { providerFetch, providerRefused } from "../../ports/oauth.ts";
import { type Crate, crateSongs } from "./crates.ts";

/** Copies of a crate at a music provider, made with the user's own provider token. */

/** Calls a provider's JSON API; a refusal becomes a 502 naming the provider and its status. */
async function providerCall(provider: string, url: string, init: RequestInit) {
  const res = await providerFetch(provider, url, init);
  if (res.status === 401) throw new HttpError(401, `${provider} refused the access token.`);
  if (!res.ok) throw providerRefused(provider, res.status);
  return (await res.json().catch(() => ({}))) as Record<string, unknown>;
}

/** A new private Spotify playlist of the user with the crate's songs Spotify knows. */
export async function exportToSpotify(
  deps: Pick<AppDeps, "db" | "config">,
  crate: Crate,
  accessToken: string,
  name: string | undefined,
) {
  const base = deps.config.providers.spotifyApiUrl.replace(/\/+$/, "");
  const headers = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
  const songs = await crateSongs(deps.db, crate.id);
  const uris = songs.flatMap((s) => (s.musicProviders.spotify ? [`spotify:track:${s.musicProviders.spotify}`] : []));
  const me = await providerCall("Spotify", `${base}/v1/me`, { headers });
  const playlist = await providerCall("Spotify", `${base}/v1/users/${encodeURIComponent(String(me.id))}/playlists`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      name: name ?? crate.name,
      description: crate.description ?? "From Booth",
      public: false,
    }),
  });
  const playlistId = String(playlist.id);
  for (let i = 0; i < uris.length; i += 100)
    await providerCall("Spotify", `${base}/v1/playlists/${encodeURIComponent(playlistId)}/tracks`, {
      method: "POST",
      headers,
      body: JSON.stringify({ uris: uris.slice(i, i + 100) }),
    });
  const url = (playlist.external_urls as { spotify?: string } | undefined)?.spotify ?? null;
  return { playlistId, url, exported: uris.length, skipped: songs.length - uris.length };
}

/** Apple Music export needs the server's developer token: a 503 naming the setting without it. */
export function appleDeveloperToken(deps: Pick<AppDeps, "config">) {
  const token = deps.config.providers.appleMusicDeveloperToken;
  if (!token) throw new HttpError(503, "Apple Music export is not configured: set APPLE_MUSIC_DEVELOPER_TOKEN.");
  return token;
}

/** A new Apple Music library playlist of the user with the crate's songs Apple Music knows. */
export async function exportToApple(
  deps: Pick<AppDeps, "db" | "config">,
  crate: Crate,
  developerToken: string,
  musicUserToken: string,
  name: string | undefined,
) {
  const songs = await crateSongs(deps.db, crate.id);
  const tracks = songs.flatMap((s) => (s.musicProviders.apple ? [{ id: s.musicProviders.apple, type: "songs" }] : []));
  const result = await providerCall(
    "Apple Music",
    `${deps.config.providers.appleMusicApiUrl.replace(/\/+$/, "")}/v1/me/library/playlists`,
    {
      method: "POST",
      headers: {
        authorization: `Bearer ${developerToken}`,
        "music-user-token": musicUserToken,
        "content-type": "application/json",
      },
      body: JSON.stringify({
        attributes: { name: name ?? crate.name, description: crate.description ?? "From Booth" },
        relationships: { tracks: { data: tracks } },
      }),
    },
  );
  const playlistId = String((result.data as { id?: string }[] | undefined)?.[0]?.id ?? "");
  return { playlistId, url: null, exported: tracks.length, skipped: songs.length - tracks.length };
}
