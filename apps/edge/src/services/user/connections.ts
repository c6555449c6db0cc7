import type { LinkedProvider } from "@booth/db/schema";
import { HttpError } from "../../lib/errors.ts";
import { type IntegrationsConfig, PROVIDER_URLS, requireSettings, trimSlash } from "../../ports/integrations.ts";
import type { CONNECTION_PROVIDERS, OAUTH_PROVIDERS } from "./connections.routes.ts";
import { discordSettings } from "./discord.ts";
import { soundcloudClient, spotifyClient, youtubeClient } from "./music-providers.ts";

export type ConnectionProvider = (typeof CONNECTION_PROVIDERS)[number];
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

export const PROVIDER_NAMES: Record<ConnectionProvider, string> = {
  spotify: "Spotify",
  youtube: "YouTube",
  soundcloud: "SoundCloud",
  apple: "Apple Music",
  discord: "Discord",
};

/** The rows of provider_accounts a connection covers (SoundCloud's web and mobile links are one connection). */
export const LINKED: Record<ConnectionProvider, LinkedProvider[]> = {
  spotify: ["spotify"],
  youtube: ["youtube"],
  soundcloud: ["soundcloud", "soundcloudMobile"],
  apple: ["apple"],
  discord: ["discord"],
};

/** What Booth asks each provider for. */
const SCOPES: Record<OAuthProvider, string | null> = {
  spotify: "user-read-email user-read-private playlist-read-private playlist-modify-private streaming",
  youtube: "https://www.googleapis.com/auth/youtube.readonly",
  soundcloud: null,
  discord: "identify email",
};

/** The client id and consent page of Booth's app at a provider (a 503 naming the settings it lacks). */
function consentPage(i: IntegrationsConfig, provider: OAuthProvider) {
  switch (provider) {
    case "spotify":
      return {
        clientId: spotifyClient(i).clientId,
        page: `${trimSlash(i.spotifyAccountsUrl || PROVIDER_URLS.spotifyAccounts)}/authorize`,
      };
    case "youtube":
      return {
        clientId: youtubeClient(i).clientId,
        page: i.youtubeAuthorizeUrl || PROVIDER_URLS.youtubeAuthorize,
        extra: { access_type: "offline", prompt: "consent", include_granted_scopes: "true" },
      };
    case "soundcloud":
      return {
        clientId: soundcloudClient(i, false).clientId,
        page: `${trimSlash(i.soundcloudAuthUrl || PROVIDER_URLS.soundcloudAuth)}/authorize`,
      };
    case "discord":
      return {
        clientId: discordSettings(i).client.clientId,
        page: i.discordAuthorizeUrl || PROVIDER_URLS.discordAuthorize,
      };
  }
}

/** The provider's consent page for Booth's app, carrying the client's state and redirect back to it. */
export function authorizeUrl(
  i: IntegrationsConfig | undefined,
  provider: OAuthProvider,
  input: { redirectUri: string; state: string; codeChallenge?: string | undefined },
) {
  const { clientId, page, extra } = { extra: {}, ...consentPage(i ?? {}, provider) };
  const url = new URL(page);
  url.searchParams.set("client_id", clientId);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("redirect_uri", input.redirectUri);
  url.searchParams.set("state", input.state);
  const scope = SCOPES[provider];
  if (scope) url.searchParams.set("scope", scope);
  if (input.codeChallenge) {
    url.searchParams.set("code_challenge", input.codeChallenge);
    url.searchParams.set("code_challenge_method", "S256");
  }
  for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
  return url.toString();
}

/** Null when Booth can connect the provider, else the 503's message naming the settings it lacks. */
export function notConfigured(
  i: IntegrationsConfig | undefined,
  appleDeveloperToken: string | undefined,
  provider: ConnectionProvider,
): string | null {
  try {
    if (provider === "apple")
      requireSettings("Apple Music", { APPLE_MUSIC_DEVELOPER_TOKEN: appleDeveloperToken || undefined });
    else consentPage(i ?? {}, provider);
    return null;
  } catch (error) {
    if (error instanceof HttpError && error.status === 503) return error.message;
    throw error;
  }
}
