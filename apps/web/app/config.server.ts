/**
 * The web server's settings: one schema (@booth/sdk/settings, decision 0022), read from the environment once, when
 * the server starts (server.ts: every bad or missing setting in one line, and no start). The app's modules take typed
 * values from `webConfig()`; no other module of the web server reads the environment. docs/configuration.md is
 * generated from `settingsSchema` and `renamedSettings` (npm run docs:config).
 *
 * server.ts and the built app (build/server) each load their own copy of this module: what server.ts read is kept
 * under a global symbol, where the app's copy finds it (as lib/log.server.ts's logger).
 */
import { resolve } from "node:path";
import { mediaSettings } from "@booth/sdk/media";
import { logLevelSetting } from "@booth/sdk/node/logger";
import {
  brandSetting,
  deploymentSettings,
  type Environment,
  edgeUrlSetting,
  isProduction,
  type Renamed,
  readSettings,
  requiredInProduction,
  setting,
  z,
} from "@booth/sdk/settings";
import { DEFAULT_PLAYER_SCRIPTS, type PlayerScripts } from "./lib/playback/scripts.ts";

/** What a production web server does not start without: it makes up no secret another web server would not share. */
const PRODUCTION_NEEDS = {
  SESSION_SECRET: "the key that signs session cookies, the same on every web server (openssl rand -base64 32)",
};

const playerScript = (provider: string, byDefault: string) =>
  setting
    .url({ keepPath: true })
    .default(byDefault)
    .describe(`Where the pages load ${provider} from (a stand-in's address in tests; the provider's own by default).`);

/** `prefix=host` pairs (commas between them): the Activity's URL mappings beyond Booth's own. */
function parseMappings(value: string) {
  return value
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((pair) => {
      const [prefix, target, extra] = pair.split("=");
      if (!prefix || !target || extra !== undefined || !/^[a-z0-9][a-z0-9-]*$/.test(prefix))
        throw new Error(`must be prefix=host pairs (a prefix of letters, digits and dashes): "${pair}"`);
      if (!/^[a-z0-9.{}*-]+(:\d+)?(\/[^\s]*)?$/i.test(target)) throw new Error(`is not a host: "${target}"`);
      return { prefix, target };
    });
}

/** A list of hosts the page's policy allows (spaces or commas between them; empty for none). */
const hosts = (what: string, byDefault: string[]) =>
  setting
    .list()
    .default(byDefault)
    .describe(
      `The hosts pages may load ${what} from, besides the edge (spaces or commas between them; empty for none).`,
    );

export const settingsSchema = z
  .object({
    ...deploymentSettings,
    BOOTH_EDGE_URL: edgeUrlSetting("Where this server reaches the edge (its internal address, when it has one)."),
    BOOTH_PUBLIC_EDGE_URL: setting
      .url()
      .optional()
      .describe("Where browsers reach the edge, when that is another address than BOOTH_EDGE_URL (its default)."),
    BOOTH_PARTY_URL: setting
      .url()
      .default("http://127.0.0.1:1999")
      .describe("Where this server reaches the live rooms."),
    BOOTH_PUBLIC_PARTY_URL: setting
      .url()
      .optional()
      .describe(
        "Where browsers reach the live rooms, when that is another address than BOOTH_PARTY_URL (its default); the page's policy allows its sockets.",
      ),
    WEB_URL: setting
      .url()
      .optional()
      .describe(
        "The site's public address: its port is the default port, https makes session cookies secure, and OAuth providers send people back there.",
      ),
    WEB_PORT: setting
      .integer({ max: 65535 })
      .optional()
      .describe("The port to listen on (default: WEB_URL's port, else 3000)."),
    BOOTH_BRAND: brandSetting(),
    WEB_HOST: setting.text().default("127.0.0.1").describe("The address to listen on (0.0.0.0 in a container)."),
    SESSION_SECRET: setting
      .text()
      .optional()
      .describe(
        "The key that signs session cookies, the same on every web server; required in production, else made once and kept in DATA_DIR.",
      ),
    DATA_DIR: setting
      .text()
      .default(".data")
      .describe("Where the development session secret is kept (relative to where npm was started)."),
    LOG_LEVEL: logLevelSetting(),
    SHUTDOWN_TIMEOUT_MS: setting
      .integer()
      .default(10_000)
      .describe("How long requests in flight get to finish after SIGTERM or SIGINT, in milliseconds."),
    SENTRY_DSN: setting.text().optional().describe("The Sentry project the server reports its errors to; unset, none."),
    SENTRY_BROWSER_DSN: setting
      .text()
      .optional()
      .describe(
        "The Sentry project the pages report their errors to (a DSN can only send); unset, the pages load no Sentry code.",
      ),
    SENTRY_ENVIRONMENT: setting
      .text()
      .optional()
      .describe("The deployment's name in Sentry (default: BOOTH_ENV, else NODE_ENV, else development)."),
    SENTRY_RELEASE: setting.text().optional().describe("The release in Sentry (default: Booth's version)."),
    CSP_MEDIA_HOSTS: hosts("audio and video", [
      "https://p.scdn.co",
      "https://audio.itunes.apple.com",
      "https://audio-ssl.itunes.apple.com",
      "https://*.sndcdn.com",
      "https://previews.7digital.com",
    ]),
    AUDIUS_MEDIA_HOSTS: setting
      .list()
      .default(["https://api.audius.co", "https://*.audius.co"])
      .describe(
        "The hosts pages may play Audius's full-length streams from: the edge's AUDIUS_API_URL and the content nodes its streams redirect to (spaces or commas between them; empty for none).",
      ),
    SEVENDIGITAL_PREVIEWS_URL: setting
      .url()
      .default("https://previews.7digital.com")
      .describe(
        "7digital's preview service, as the edge's SEVENDIGITAL_PREVIEWS_URL: pages may play 7digital's 30-second clips from its origin (the edge redirects the player there with a signed address).",
      ),
    CSP_IMAGE_HOSTS: hosts("images", [
      "https://i.scdn.co",
      "https://*.mzstatic.com",
      "https://*.sndcdn.com",
      "https://i.ytimg.com",
      "https://artwork-cdn.7static.com",
    ]),
    CSP_FRAME_HOSTS: hosts("frames", []),
    // Where the player fetches songs' encrypted segments when the edge names the bucket's addresses: the edge's own
    // settings, by the same names (docs/deploy.md, the bucket).
    S3_BUCKET: mediaSettings.S3_BUCKET.describe(
      "The edge's object storage bucket: the page's policy lets the player fetch songs' segments from it (with S3_ENDPOINT, S3_REGION and S3_FORCE_PATH_STYLE as the edge has them); unset, from the edge only.",
    ),
    S3_ENDPOINT: mediaSettings.S3_ENDPOINT,
    S3_REGION: mediaSettings.S3_REGION,
    S3_FORCE_PATH_STYLE: mediaSettings.S3_FORCE_PATH_STYLE,
    MEDIA_BASE_URL: mediaSettings.MEDIA_BASE_URL.describe(
      "The edge's MEDIA_BASE_URL: the page's policy lets the player fetch songs' segments from its origin (instead of the bucket's).",
    ),
    DISCORD_CLIENT_ID: setting
      .text()
      .optional()
      .describe(
        "Booth's Discord application (its Application ID, the edge's DISCORD_CLIENT_ID): set, the pages run as a Discord Activity when Discord opens them (docs/discord.md); unset, never.",
      ),
    DISCORD_FRAME_ANCESTORS: setting
      .list()
      .default(["https://discord.com", "https://*.discord.com", "https://*.discordsays.com"])
      .describe(
        "The pages that may frame Booth as a Discord Activity (the Activity's pages only; every other page may be framed by nobody).",
      ),
    DISCORD_PROXY_MAPPINGS: setting
      .parsed("comma-separated prefix=host list", parseMappings)
      .default([])
      .describe(
        "More of the Activity's URL mappings than the ones Booth makes from its settings (docs/discord.md): prefix=host pairs, as set in Discord's Developer Portal (the prefix without /.proxy).",
      ),
    YOUTUBE_IFRAME_API_URL: playerScript("YouTube's IFrame player API", DEFAULT_PLAYER_SCRIPTS.youtube),
    SOUNDCLOUD_WIDGET_API_URL: playerScript("SoundCloud's widget API", DEFAULT_PLAYER_SCRIPTS.soundcloud),
    SOUNDCLOUD_WIDGET_URL: playerScript("SoundCloud's widget page", DEFAULT_PLAYER_SCRIPTS.soundcloudWidget),
    SPOTIFY_PLAYER_SDK_URL: playerScript("Spotify's Web Playback SDK", DEFAULT_PLAYER_SCRIPTS.spotify),
    SPOTIFY_WEB_API_URL: playerScript("Spotify's Web API (the player's calls)", DEFAULT_PLAYER_SCRIPTS.spotifyApi),
    MUSICKIT_JS_URL: playerScript("Apple's MusicKit JS", DEFAULT_PLAYER_SCRIPTS.musicKit),
  })
  .check(
    requiredInProduction(PRODUCTION_NEEDS, (missing) => [
      // One line, in the words the web has always used (apps/web/test/production.test.ts).
      `production mode (NODE_ENV or BOOTH_ENV is production) does not start without:${missing.map(([name, what]) => `  - ${name}: ${what}`).join("")}`,
    ]),
  );

/** Old names, still read (with a warning naming the new one). */
export const renamedSettings: Renamed = {
  BOOTH_API_URL: "BOOTH_EDGE_URL",
  BOOTH_PUBLIC_API_URL: "BOOTH_PUBLIC_EDGE_URL",
  PARTY_URL: "BOOTH_PARTY_URL",
  PUBLIC_PARTY_URL: "BOOTH_PUBLIC_PARTY_URL",
};

export type WebSettings = z.output<typeof settingsSchema>;

/** The CSP host lists split on spaces as on commas, and keep "empty for none" (readSettings takes empty as unset). */
function withHostLists(environment: Environment): Environment {
  const out: Record<string, string | undefined> = { ...environment };
  for (const name of [
    "CSP_MEDIA_HOSTS",
    "AUDIUS_MEDIA_HOSTS",
    "CSP_IMAGE_HOSTS",
    "CSP_FRAME_HOSTS",
    "DISCORD_FRAME_ANCESTORS",
  ]) {
    const value = out[name];
    if (value !== undefined) out[name] = value.trim() === "" ? "," : value.replace(/\s+/g, ",");
  }
  return out;
}

/** The settings of `environment`; throws a SettingsError naming every bad or missing one. */
export const readWebSettings = (environment: Environment) =>
  readSettings("web", settingsSchema, withHostLists(environment), { renamed: renamedSettings });

/** What production lacks, one line each ("SESSION_SECRET: what it is"); none outside production. */
export function missingProductionSettings(environment: Environment): string[] {
  if (!isProduction(environment)) return [];
  return Object.entries(PRODUCTION_NEEDS)
    .filter(([name]) => !environment[name])
    .map(([name, what]) => `${name}: ${what}`);
}

/**
 * The providers' player scripts, from the settings (`YOUTUBE_IFRAME_API_URL`, `SOUNDCLOUD_WIDGET_API_URL`,
 * `SOUNDCLOUD_WIDGET_URL`, `SPOTIFY_PLAYER_SDK_URL`, `SPOTIFY_WEB_API_URL`, `MUSICKIT_JS_URL`), the real ones when
 * unset. The page's policy allows scripts, frames and connections for these origins only.
 */
const playerScriptsOf = (settings: WebSettings): PlayerScripts => ({
  youtube: settings.YOUTUBE_IFRAME_API_URL,
  soundcloud: settings.SOUNDCLOUD_WIDGET_API_URL,
  soundcloudWidget: settings.SOUNDCLOUD_WIDGET_URL,
  spotify: settings.SPOTIFY_PLAYER_SDK_URL,
  spotifyApi: settings.SPOTIFY_WEB_API_URL.replace(/\/+$/, ""),
  musicKit: settings.MUSICKIT_JS_URL,
});

/** What the server and the app's modules use: the settings, and what follows from them. */
export function configOf(settings: WebSettings) {
  return {
    settings,
    /** Where the server reaches the edge and the rooms, and the addresses handed to browsers (the same by default). */
    edgeUrl: settings.BOOTH_EDGE_URL,
    partyUrl: settings.BOOTH_PARTY_URL,
    publicEdgeUrl: settings.BOOTH_PUBLIC_EDGE_URL ?? settings.BOOTH_EDGE_URL,
    publicPartyUrl: settings.BOOTH_PUBLIC_PARTY_URL ?? settings.BOOTH_PARTY_URL,
    secureCookies: settings.WEB_URL?.startsWith("https:") ?? false,
    /** Which Booth this is (BOOTH_BRAND, the edge's too): its name, colours and the sources its pages offer. */
    brand: settings.BOOTH_BRAND,
    /** The deployment's name in Sentry: SENTRY_ENVIRONMENT, else BOOTH_ENV, else NODE_ENV, else "development". */
    sentryEnvironment: settings.SENTRY_ENVIRONMENT || settings.BOOTH_ENV || settings.NODE_ENV || "development",
    production: isProduction(settings),
    /** The providers' player scripts. */
    players: playerScriptsOf(settings),
    port: settings.WEB_PORT ?? Number(new URL(settings.WEB_URL ?? "http://127.0.0.1:3000").port || 3000),
    // `npm start` runs in apps/web; DATA_DIR is relative to where npm was started, as for the edge.
    dataDir: resolve(process.env.INIT_CWD ?? process.cwd(), settings.DATA_DIR),
  };
}
export type WebConfig = ReturnType<typeof configOf>;

const KEY = Symbol.for("booth.web.config");
const registry = globalThis as { [KEY]?: WebConfig };

/**
 * This process's configuration, read from the environment at the first call: server.ts makes it before it starts
 * (and stops on a SettingsError); the built app's modules then find it.
 */
export function webConfig(): WebConfig {
  registry[KEY] ??= configOf(readWebSettings(process.env));
  return registry[KEY];
}
