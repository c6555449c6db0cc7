import type { Cache } from "../../ports/cache.ts";
import {
  type IntegrationsConfig,
  soundcloudOAuthClient,
  spotifyOAuthClient,
  youtubeOAuthClient,
} from "../../ports/integrations.ts";
import { type OAuthClient, requestToken } from "../../ports/oauth.ts";

export const spotifyClient = (i: IntegrationsConfig | undefined) => spotifyOAuthClient(i ?? {});

export const youtubeClient = (i: IntegrationsConfig | undefined) => youtubeOAuthClient(i ?? {});

export const soundcloudClient = (i: IntegrationsConfig | undefined, mobile: boolean) =>
  soundcloudOAuthClient(i ?? {}, mobile);

/** Exchanges an authorization code (with its PKCE verifier, if any) for the provider's tokens. */
export const exchangeCode = (
  client: OAuthClient,
  body: { code: string; redirectUri?: string; codeVerifier?: string },
) =>
  requestToken(
    client,
    {
      grant_type: "authorization_code",
      code: body.code,
      redirect_uri: body.redirectUri,
      code_verifier: body.codeVerifier,
    },
    "authorization code",
  );

export interface PublicToken {
  accessToken: string;
  tokenType: string;
  expiresAt: string | null;
}

/** Booth's own (client credentials) token, for SoundCloud's public catalogue; kept in the cache until it expires. */
export async function catalogueToken(cache: Cache, now: Date, client: OAuthClient, mobile: boolean) {
  const key = `soundcloud:public:${mobile ? "mobile" : "web"}:${client.clientId}`;
  const cached = await cache.get(key);
  if (cached) return JSON.parse(cached) as PublicToken;
  const tokens = await requestToken(client, { grant_type: "client_credentials" }, "client credentials");
  const lifetime = tokens.expiresIn ?? 3600;
  const value = {
    accessToken: tokens.accessToken,
    tokenType: "Bearer",
    expiresAt: new Date(now.getTime() + lifetime * 1000).toISOString(),
  };
  // Handed out until a minute before it expires, so nobody receives a token about to die.
  if (lifetime > 120) await cache.set(key, JSON.stringify(value), lifetime - 60);
  return value;
}
