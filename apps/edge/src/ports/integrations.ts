import type { EdgeSettings } from "../config.ts";
import { HttpError } from "../lib/errors.ts";
import type { OAuthClient } from "./oauth.ts";

/**
 * Credentials and base URLs of the third-party services the user and room services talk to (Discord, Spotify
 * accounts, Google OAuth for YouTube, SoundCloud, Agora, CometChat). Every field is optional: a route whose
 * provider is missing a setting answers 503 naming it. Base URLs default to the providers' own; tests point them
 * at local fakes.
 */
export interface IntegrationsConfig {
  discordClientId?: string | undefined;
  discordClientSecret?: string | undefined;
  /** The redirect URI registered at Discord, used when a request names none. */
  discordRedirectUri?: string | undefined;
  discordApiUrl?: string | undefined;
  /** Discord's consent page (default https://discord.com/oauth2/authorize). */
  discordAuthorizeUrl?: string | undefined;
  /** The public key of Booth's Discord application (hex), which signs the bot's interactions. */
  discordPublicKey?: string | undefined;
  /** The bot's token: posts to the channels guilds chose for announcements. */
  discordBotToken?: string | undefined;
  spotifyClientId?: string | undefined;
  spotifyClientSecret?: string | undefined;
  spotifyAccountsUrl?: string | undefined;
  youtubeClientId?: string | undefined;
  youtubeClientSecret?: string | undefined;
  youtubeOAuthUrl?: string | undefined;
  /** Google's consent page (default https://accounts.google.com/o/oauth2/v2/auth). */
  youtubeAuthorizeUrl?: string | undefined;
  soundcloudClientId?: string | undefined;
  soundcloudClientSecret?: string | undefined;
  soundcloudMobileClientId?: string | undefined;
  soundcloudMobileClientSecret?: string | undefined;
  soundcloudAuthUrl?: string | undefined;
  /** SoundCloud's API, where tracks are resolved (default https://api.soundcloud.com). */
  soundcloudApiUrl?: string | undefined;
  /** A YouTube Data API key: looks up YouTube videos the catalogue lacks. */
  youtubeApiKey?: string | undefined;
  /** The YouTube Data API (default https://www.googleapis.com/youtube/v3). */
  youtubeApiUrl?: string | undefined;
  agoraAppId?: string | undefined;
  agoraAppCertificate?: string | undefined;
  cometchatAppId?: string | undefined;
  cometchatApiKey?: string | undefined;
  cometchatRegion?: string | undefined;
  /** Replaces https://{appId}.api-{region}.cometchat.io/v3 (a proxy, or a local fake in tests). */
  cometchatBaseUrl?: string | undefined;
  /** The CometChat user that people without an account (guests) read room chats as. */
  cometchatGhostUid?: string | undefined;
}

export const PROVIDER_URLS = {
  discordApi: "https://discord.com/api/v10",
  spotifyAccounts: "https://accounts.spotify.com",
  youtubeOAuth: "https://oauth2.googleapis.com",
  soundcloudAuth: "https://secure.soundcloud.com",
  soundcloudApi: "https://api.soundcloud.com",
  youtubeApi: "https://www.googleapis.com/youtube/v3",
  discordAuthorize: "https://discord.com/oauth2/authorize",
  youtubeAuthorize: "https://accounts.google.com/o/oauth2/v2/auth",
} as const;

export const DEFAULT_GHOST_UID = "booth-ghost";

/** The settings of the integrations (config.ts). */
export type IntegrationSettings = Pick<
  EdgeSettings,
  | "DISCORD_CLIENT_ID"
  | "DISCORD_CLIENT_SECRET"
  | "DISCORD_REDIRECT_URI"
  | "DISCORD_API_URL"
  | "DISCORD_AUTHORIZE_URL"
  | "DISCORD_PUBLIC_KEY"
  | "DISCORD_BOT_TOKEN"
  | "SPOTIFY_CLIENT_ID"
  | "SPOTIFY_CLIENT_SECRET"
  | "SPOTIFY_ACCOUNTS_URL"
  | "YOUTUBE_CLIENT_ID"
  | "YOUTUBE_CLIENT_SECRET"
  | "YOUTUBE_OAUTH_URL"
  | "YOUTUBE_AUTHORIZE_URL"
  | "SOUNDCLOUD_CLIENT_ID"
  | "SOUNDCLOUD_CLIENT_SECRET"
  | "SOUNDCLOUD_MOBILE_CLIENT_ID"
  | "SOUNDCLOUD_MOBILE_CLIENT_SECRET"
  | "SOUNDCLOUD_AUTH_URL"
  | "SOUNDCLOUD_API_URL"
  | "YOUTUBE_API_KEY"
  | "YOUTUBE_API_URL"
  | "AGORA_APP_ID"
  | "AGORA_APP_CERTIFICATE"
  | "COMETCHAT_APP_ID"
  | "COMETCHAT_API_KEY"
  | "COMETCHAT_REGION"
  | "COMETCHAT_BASE_URL"
  | "COMETCHAT_GHOST_UID"
>;

export function integrationsFrom(settings: IntegrationSettings): IntegrationsConfig {
  return {
    discordClientId: settings.DISCORD_CLIENT_ID,
    discordClientSecret: settings.DISCORD_CLIENT_SECRET,
    discordRedirectUri: settings.DISCORD_REDIRECT_URI,
    discordApiUrl: settings.DISCORD_API_URL,
    discordAuthorizeUrl: settings.DISCORD_AUTHORIZE_URL,
    discordPublicKey: settings.DISCORD_PUBLIC_KEY,
    discordBotToken: settings.DISCORD_BOT_TOKEN,
    spotifyClientId: settings.SPOTIFY_CLIENT_ID,
    spotifyClientSecret: settings.SPOTIFY_CLIENT_SECRET,
    spotifyAccountsUrl: settings.SPOTIFY_ACCOUNTS_URL,
    youtubeClientId: settings.YOUTUBE_CLIENT_ID,
    youtubeClientSecret: settings.YOUTUBE_CLIENT_SECRET,
    youtubeOAuthUrl: settings.YOUTUBE_OAUTH_URL,
    youtubeAuthorizeUrl: settings.YOUTUBE_AUTHORIZE_URL,
    soundcloudClientId: settings.SOUNDCLOUD_CLIENT_ID,
    soundcloudClientSecret: settings.SOUNDCLOUD_CLIENT_SECRET,
    soundcloudMobileClientId: settings.SOUNDCLOUD_MOBILE_CLIENT_ID,
    soundcloudMobileClientSecret: settings.SOUNDCLOUD_MOBILE_CLIENT_SECRET,
    soundcloudAuthUrl: settings.SOUNDCLOUD_AUTH_URL,
    soundcloudApiUrl: settings.SOUNDCLOUD_API_URL,
    youtubeApiKey: settings.YOUTUBE_API_KEY,
    youtubeApiUrl: settings.YOUTUBE_API_URL,
    agoraAppId: settings.AGORA_APP_ID,
    agoraAppCertificate: settings.AGORA_APP_CERTIFICATE,
    cometchatAppId: settings.COMETCHAT_APP_ID,
    cometchatApiKey: settings.COMETCHAT_API_KEY,
    cometchatRegion: settings.COMETCHAT_REGION,
    cometchatBaseUrl: settings.COMETCHAT_BASE_URL,
    cometchatGhostUid: settings.COMETCHAT_GHOST_UID,
  };
}

const listed = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;

/**
 * The settings a provider needs, or a 503 naming the missing ones: "Spotify is not configured: set
 * SPOTIFY_CLIENT_ID and SPOTIFY_CLIENT_SECRET."
 */
export function requireSettings<K extends string>(
  provider: string,
  settings: Record<K, string | undefined>,
): Record<K, string> {
  const missing = Object.entries(settings)
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length) throw new HttpError(503, `${provider} is not configured: set ${listed(missing)}.`);
  return settings as Record<K, string>;
}

export const trimSlash = (url: string) => url.replace(/\/+$/, "");

/** Booth's OAuth client at `provider`: its id and secret settings, in that order (a 503 names those missing). */
function oauthClient(
  provider: string,
  tokenUrl: string,
  settings: Record<string, string | undefined>,
  configured = provider,
): OAuthClient {
  const [clientId, clientSecret] = Object.values(requireSettings(configured, settings)) as [string, string];
  return { provider, tokenUrl, clientId, clientSecret };
}

/** Booth's OAuth client at Discord, whose token endpoint is under its API. */
export const discordOAuthClient = (i: IntegrationsConfig, apiUrl: string) =>
  oauthClient("Discord", `${apiUrl}/oauth2/token`, {
    DISCORD_CLIENT_ID: i.discordClientId,
    DISCORD_CLIENT_SECRET: i.discordClientSecret,
  });

/** Booth's OAuth client at Spotify's accounts service (a 503 naming the settings when they are missing). */
export const spotifyOAuthClient = (i: IntegrationsConfig) =>
  oauthClient("Spotify", `${trimSlash(i.spotifyAccountsUrl || PROVIDER_URLS.spotifyAccounts)}/api/token`, {
    SPOTIFY_CLIENT_ID: i.spotifyClientId,
    SPOTIFY_CLIENT_SECRET: i.spotifyClientSecret,
  });

/** Booth's OAuth client at Google, for YouTube. */
export const youtubeOAuthClient = (i: IntegrationsConfig) =>
  oauthClient("YouTube", `${trimSlash(i.youtubeOAuthUrl || PROVIDER_URLS.youtubeOAuth)}/token`, {
    YOUTUBE_CLIENT_ID: i.youtubeClientId,
    YOUTUBE_CLIENT_SECRET: i.youtubeClientSecret,
  });

/** Booth's OAuth client at SoundCloud: the web app's, or the mobile apps' (`mobile`). */
export function soundcloudOAuthClient(i: IntegrationsConfig, mobile = false): OAuthClient {
  const tokenUrl = `${trimSlash(i.soundcloudAuthUrl || PROVIDER_URLS.soundcloudAuth)}/oauth/token`;
  return mobile
    ? oauthClient(
        "SoundCloud",
        tokenUrl,
        {
          SOUNDCLOUD_MOBILE_CLIENT_ID: i.soundcloudMobileClientId,
          SOUNDCLOUD_MOBILE_CLIENT_SECRET: i.soundcloudMobileClientSecret,
        },
        "SoundCloud for mobile",
      )
    : oauthClient("SoundCloud", tokenUrl, {
        SOUNDCLOUD_CLIENT_ID: i.soundcloudClientId,
        SOUNDCLOUD_CLIENT_SECRET: i.soundcloudClientSecret,
      });
}
