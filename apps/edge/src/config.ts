/**
 * The edge's settings: every environment variable its entries read (the Node and Deno entries, the job worker), in one
 * zod schema (decision 0022, @booth/sdk/settings). Each entry hands its environment to `readEdgeSettings` once, at
 * start; every bad or missing setting is named in one message (a `SettingsError`, printed as one line by
 * start-failure.ts), and everything else receives the typed values. No other file of the edge reads the environment
 * (config.test.ts checks). docs/configuration.md is generated from `settingsSchema` and `renamedSettings`.
 */

import { SERVICE_SECRET_MIN_LENGTH } from "@booth/sdk/live/service-auth";
import { mediaSettings } from "@booth/sdk/media";
import { logLevelSetting } from "@booth/sdk/node/logger";
import {
  brandSetting,
  deploymentSettings,
  type Environment,
  isProduction,
  type Renamed,
  readSettings,
  setting,
} from "@booth/sdk/settings";
import { z } from "zod";
import { databaseSettings, type MigrateSettings, pooledDatabaseProblems } from "./config-migrate.ts";
import { parseTrustProxy } from "./lib/client-address.ts";

export const settingsSchema = z
  .object({
    ...deploymentSettings,

    // The process.
    PORT: setting.integer({ max: 65535 }).default(8787).describe("The port the edge's API listens on."),
    HOST: setting.text().default("0.0.0.0").describe("The address the edge (and the job worker's health) listens on."),
    WORKER_PORT: setting
      .integer({ max: 65535 })
      .default(8790)
      .describe("The port of the job worker's health check (GET /healthz)."),
    LOG_LEVEL: logLevelSetting(),
    SHUTDOWN_TIMEOUT_MS: setting
      .integer()
      .default(10_000)
      .describe("How long requests in flight get to finish when the edge is stopped, in milliseconds."),
    DATA_DIR: setting
      .text()
      .default(".data")
      .describe("The folder of the embedded database, kept keys and local files (relative to where npm was started)."),
    INIT_CWD: setting
      .text()
      .optional()
      .describe("The folder npm was started from (npm sets it): a relative DATA_DIR is taken from there."),
    MIGRATE_ON_START: setting
      .flag()
      .default(true)
      .describe("Whether the edge brings the database up to date as it starts (false: the release step does)."),
    RUN_JOBS: setting
      .flag()
      .default(true)
      .describe("Whether the edge works the job queue itself (false beside a job worker)."),
    BOOTH_SINGLE_INSTANCE: setting
      .text()
      .optional()
      .describe(
        "true: the operator's word that one edge process serves the instance (no shared cache, database or storage).",
      ),
    ARGON2: setting
      .oneOf(["native", "wasm"])
      .optional()
      .describe("wasm chooses the WebAssembly argon2id over the native one that hashes passwords."),
    FFMPEG_PATH: setting
      .text()
      .optional()
      .describe("The ffmpeg that transcodes uploads; unset, the first ffmpeg on PATH, else the bundled 2018 build."),
    PATH: setting
      .text()
      .optional()
      .describe("The system's search path: where ffmpeg is looked for, and all of the environment ffmpeg runs with."),

    // Addresses.
    BOOTH_EDGE_URL: setting
      .url()
      .optional()
      .describe("Where servers and tools reach the edge; the default of BOOTH_PUBLIC_EDGE_URL."),
    BOOTH_PUBLIC_EDGE_URL: setting
      .url()
      .optional()
      .describe(
        "The edge's address as browsers and email links see it; unset, BOOTH_EDGE_URL, else http://127.0.0.1:PORT.",
      ),
    WEB_URL: setting
      .url()
      .default("http://127.0.0.1:3000")
      .describe("The web app's public address, where links in emails land."),
    BOOTH_PARTY_URL: setting
      .url()
      .default("http://127.0.0.1:1999")
      .describe("Where the edge reaches the live rooms, to tell them of changes and read their state."),
    TRUST_PROXY: setting
      .text()
      .transform((value, ctx) => {
        try {
          return parseTrustProxy(value);
        } catch (err) {
          ctx.addIssue({ code: "custom", message: (err as Error).message.replace(/^TRUST_PROXY: /, "") });
          return z.NEVER;
        }
      })
      .default([])
      .describe("Proxies (addresses, CIDR ranges) whose X-Forwarded-For names the client, such as the web's server."),

    // The database, the cache, the files.
    ...databaseSettings,
    REDIS_URL: setting
      .text()
      .optional()
      .describe("The Redis every instance shares for limits and codes (redis://host:6379); unset, a memory cache."),
    UPSTASH_REDIS_REST_URL: setting.url().optional().describe("Upstash's REST address, instead of REDIS_URL."),
    UPSTASH_REDIS_REST_TOKEN: setting.text().optional().describe("Upstash's REST token, with UPSTASH_REDIS_REST_URL."),
    CACHE_PREFIX: setting
      .text()
      .default("")
      .describe("A prefix of every cache key, so several Booths can share one Redis."),
    ...mediaSettings,
    S3_ACCESS_KEY_ID: setting.text().optional().describe("The object storage's access key id, with S3_BUCKET."),
    S3_SECRET_ACCESS_KEY: setting.text().optional().describe("The object storage's secret key, with S3_BUCKET."),
    MEDIA_SEGMENTS: setting
      .oneOf(["storage", "edge"])
      .default("storage")
      .describe(
        "Where listeners fetch songs' encrypted HLS segments when S3_BUCKET is set: storage (the bucket, by presigned addresses or under MEDIA_BASE_URL; the key and playlists stay on the edge) or edge (through the edge, as with DATA_DIR: for a bucket browsers cannot reach).",
      ),

    // Keys and secrets.
    JWT_PRIVATE_KEY: setting
      .text()
      .optional()
      .describe(
        "The private JWK (ES256) that signs every token, the same on every instance; unset, one kept in DATA_DIR.",
      ),
    JWT_PREVIOUS_PUBLIC_KEYS: setting
      .text()
      .optional()
      .describe("Public JWKs (a JSON array) of keys rotated out, whose tokens are still accepted."),
    BOOTH_SERVICE_SECRET: setting
      .text()
      .transform((value, ctx) => {
        const given = value.trim();
        if (given.length >= SERVICE_SECRET_MIN_LENGTH) return given;
        ctx.addIssue({ code: "custom", message: `must be at least ${SERVICE_SECRET_MIN_LENGTH} characters long.` });
        return z.NEVER;
      })
      .optional()
      .describe("The secret the edge and the live rooms share to sign their calls; unset, one kept in DATA_DIR."),
    METRICS_TOKEN: setting
      .text()
      .transform((value) => value.trim() || undefined)
      .optional()
      .describe("A bearer token Prometheus scrapes /metrics with; unset, /metrics answers admins only."),
    ADMIN_EMAIL: setting.text().optional().describe("The first admin's email, with ADMIN_PASSWORD."),
    ADMIN_PASSWORD: setting.text().optional().describe("The first admin's password, with ADMIN_EMAIL."),
    SEED_DEMO: setting
      .text()
      .optional()
      .describe("true or false: whether the demo rooms and catalogue open (by default on the embedded instance only)."),
    EMAIL_RESEND_SECONDS: setting
      .integer()
      .default(60)
      .describe("The fewest seconds between two verification emails to one address."),

    // Email and SMS.
    RESEND_API_KEY: setting
      .text()
      .optional()
      .describe("Resend's API key, which sends the emails; unset, they wait in the outbox."),
    MAIL_FROM: setting.text().optional().describe("The sender of emails (Booth <no-reply@example.org>), with Resend."),
    RESEND_BASE_URL: setting.url().optional().describe("Resend's API address (tests point it at a fake)."),
    TWILIO_ACCOUNT_SID: setting
      .text()
      .optional()
      .describe("Twilio's account, which sends text messages; unset, they wait in the outbox."),
    TWILIO_AUTH_TOKEN: setting.text().optional().describe("Twilio's auth token, with TWILIO_ACCOUNT_SID."),
    TWILIO_FROM: setting.text().optional().describe("The number text messages come from, with TWILIO_ACCOUNT_SID."),
    TWILIO_BASE_URL: setting.url().optional().describe("Twilio's API address (tests point it at a fake)."),

    // Pushes.
    VAPID_PUBLIC_KEY: setting.text().optional().describe("The Web Push public key; unset, a pair kept in DATA_DIR."),
    VAPID_PRIVATE_KEY: setting.text().optional().describe("The Web Push private key, with VAPID_PUBLIC_KEY."),
    VAPID_SUBJECT: setting
      .text()
      .optional()
      .describe("Who push services may contact (mailto:...); unset, the first admin's address."),
    WEB_PUSH_HOSTS: setting
      .list()
      .default([])
      .describe("Push services besides the browsers' own that subscriptions may name (a local one in tests)."),
    FCM_SERVICE_ACCOUNT: setting
      .text()
      .optional()
      .describe("The Firebase service account's key file (its JSON), for Android pushes."),
    FCM_SERVICE_ACCOUNT_PATH: setting
      .text()
      .optional()
      .describe("The path of the Firebase service account's key file, instead of FCM_SERVICE_ACCOUNT."),
    FCM_BASE_URL: setting.url().optional().describe("FCM's API address (tests point it at a fake)."),
    FCM_TOKEN_URL: setting.url().optional().describe("Google's token address for FCM (tests point it at a fake)."),
    APNS_KEY: setting.text().optional().describe("The APNs key (the .p8 PEM), for iOS pushes."),
    APNS_KEY_PATH: setting.text().optional().describe("The path of the APNs key, instead of APNS_KEY."),
    APNS_KEY_ID: setting.text().optional().describe("The APNs key's id, with APNS_KEY."),
    APNS_TEAM_ID: setting.text().optional().describe("The Apple team id, with APNS_KEY."),
    APNS_TOPIC: setting.text().optional().describe("The iOS app's bundle id, with APNS_KEY."),
    APNS_BASE_URL: setting.url().optional().describe("APNs's address (tests point it at a fake)."),

    // Payments.
    STRIPE_SECRET_KEY: setting
      .text()
      .optional()
      .describe("Stripe's secret key; unset, the local test checkout (no money) if allowed."),
    STRIPE_WEBHOOK_SECRET: setting.text().optional().describe("The secret Stripe signs its events with."),
    STRIPE_API_URL: setting.url().optional().describe("Stripe's API address (tests point it at a fake)."),
    LOCAL_CHECKOUT: setting
      .text()
      .optional()
      .describe(
        "true or false: whether purchases without money may run without Stripe (by default off in production).",
      ),
    APPLE_ROOT_CA_PEM: setting
      .text()
      .optional()
      .describe("The certificate (PEM) App Store notifications must lead to: Apple Root CA - G3."),
    APPLE_ROOT_CA_PATH: setting
      .text()
      .optional()
      .describe("The path of that certificate, instead of APPLE_ROOT_CA_PEM."),
    APPLE_BUNDLE_ID: setting
      .text()
      .optional()
      .describe("The iOS app's bundle id: App Store notifications of others are refused."),

    // Music providers and integrations.
    BOOTH_BRAND: brandSetting(),
    SPOTIFY_API_URL: setting.url().default("https://api.spotify.com").describe("Spotify's API address."),
    APPLE_MUSIC_API_URL: setting.url().default("https://api.music.apple.com").describe("Apple Music's API address."),
    AUDIUS_API_URL: setting
      .url()
      .default("https://api.audius.co")
      .describe("Audius's API address: its search, tracks, playlists and the full-length streams songs play from."),
    AUDIUS_APP_NAME: setting
      .text()
      .default("Booth")
      .describe("The app_name Booth names itself with in every call to Audius's API (and in the streams' addresses)."),
    SEVENDIGITAL_API_URL: setting
      .url()
      .default("https://api.7digital.com/1.2")
      .describe("7digital's catalogue API (version 1.2): its track search and track details."),
    SEVENDIGITAL_PREVIEWS_URL: setting
      .url()
      .default("https://previews.7digital.com")
      .describe(
        "7digital's preview service, whose 30-second clips (/clip/{trackId}, signed with the consumer secret) 7digital songs play.",
      ),
    SEVENDIGITAL_CONSUMER_KEY: setting
      .text()
      .optional()
      .describe(
        "Booth's 7digital partner key (oauth_consumer_key); unset, 7digital is left out of search and its routes answer 503.",
      ),
    SEVENDIGITAL_CONSUMER_SECRET: setting
      .text()
      .optional()
      .describe(
        "The secret of that key: the edge signs the preview clips' addresses with it (OAuth 1.0, HMAC-SHA1); it never leaves the edge.",
      ),
    SEVENDIGITAL_COUNTRY: setting
      .parsed("country code", (value) => {
        if (!/^[A-Za-z]{2}$/.test(value.trim())) throw new Error("is not a two-letter country code (US, GB, ...)");
        return value.trim().toUpperCase();
      })
      .default("US")
      .describe("The country (ISO 3166 two letters) 7digital's catalogue and previews are asked for."),
    APPLE_MUSIC_DEVELOPER_TOKEN: setting
      .text()
      .optional()
      .describe("The Apple Music developer token handed to the apps."),
    CYANITE_WEBHOOK_SECRET: setting.text().optional().describe("The secret Cyanite signs its analysis webhooks with."),
    DISCORD_CLIENT_ID: setting.text().optional().describe("Booth's OAuth client at Discord."),
    DISCORD_CLIENT_SECRET: setting.text().optional().describe("The secret of Booth's OAuth client at Discord."),
    DISCORD_REDIRECT_URI: setting
      .text()
      .optional()
      .describe("The redirect URI registered at Discord, used when a request names none."),
    DISCORD_API_URL: setting.url().optional().describe("Discord's API address (default https://discord.com/api/v10)."),
    DISCORD_AUTHORIZE_URL: setting
      .url()
      .optional()
      .describe("Discord's consent page (default https://discord.com/oauth2/authorize)."),
    DISCORD_PUBLIC_KEY: setting
      .parsed("hex Ed25519 key", (value) => {
        if (!/^[0-9a-f]{64}$/i.test(value.trim()))
          throw new Error("is not the 64 hex digits of the application's public key (Developer Portal)");
        return value.trim().toLowerCase();
      })
      .optional()
      .describe("The public key of Booth's Discord application: the bot's interactions are signed with it."),
    DISCORD_BOT_TOKEN: setting
      .text()
      .optional()
      .describe(
        "The token of Booth's Discord bot: the worker posts followed DJs' starts with it to the channels guilds chose (/booth announce).",
      ),
    SPOTIFY_CLIENT_ID: setting.text().optional().describe("Booth's OAuth client at Spotify."),
    SPOTIFY_CLIENT_SECRET: setting.text().optional().describe("The secret of Booth's OAuth client at Spotify."),
    SPOTIFY_ACCOUNTS_URL: setting
      .url()
      .optional()
      .describe("Spotify's accounts service (default https://accounts.spotify.com)."),
    YOUTUBE_CLIENT_ID: setting.text().optional().describe("Booth's OAuth client at Google, for YouTube."),
    YOUTUBE_CLIENT_SECRET: setting
      .text()
      .optional()
      .describe("The secret of Booth's OAuth client at Google (YouTube)."),
    YOUTUBE_OAUTH_URL: setting
      .url()
      .optional()
      .describe("Google's OAuth address (default https://oauth2.googleapis.com)."),
    YOUTUBE_AUTHORIZE_URL: setting
      .url()
      .optional()
      .describe("Google's consent page (default https://accounts.google.com/o/oauth2/v2/auth)."),
    YOUTUBE_API_KEY: setting
      .text()
      .optional()
      .describe("A YouTube Data API key: looks up YouTube videos the catalogue lacks."),
    YOUTUBE_API_URL: setting
      .url()
      .optional()
      .describe("The YouTube Data API's address (default https://www.googleapis.com/youtube/v3)."),
    SOUNDCLOUD_CLIENT_ID: setting.text().optional().describe("Booth's OAuth client at SoundCloud, for the web app."),
    SOUNDCLOUD_CLIENT_SECRET: setting
      .text()
      .optional()
      .describe("The secret of Booth's OAuth client at SoundCloud (the web app's)."),
    SOUNDCLOUD_MOBILE_CLIENT_ID: setting
      .text()
      .optional()
      .describe("Booth's OAuth client at SoundCloud, for the mobile apps."),
    SOUNDCLOUD_MOBILE_CLIENT_SECRET: setting
      .text()
      .optional()
      .describe("The secret of Booth's OAuth client at SoundCloud (the mobile apps')."),
    SOUNDCLOUD_AUTH_URL: setting
      .url()
      .optional()
      .describe("SoundCloud's OAuth address (default https://secure.soundcloud.com)."),
    SOUNDCLOUD_API_URL: setting
      .url()
      .optional()
      .describe("SoundCloud's API address, where tracks are resolved (default https://api.soundcloud.com)."),
    AGORA_APP_ID: setting.text().optional().describe("The Agora app that carries voice and video."),
    AGORA_APP_CERTIFICATE: setting.text().optional().describe("The Agora app's certificate, which signs its tokens."),
    COMETCHAT_APP_ID: setting.text().optional().describe("The CometChat app of room chats."),
    COMETCHAT_API_KEY: setting.text().optional().describe("The CometChat app's REST API key."),
    COMETCHAT_REGION: setting.text().optional().describe("The CometChat app's region (us, eu, in)."),
    COMETCHAT_BASE_URL: setting
      .url()
      .optional()
      .describe("Replaces https://{appId}.api-{region}.cometchat.io/v3 (a proxy, or a fake in tests)."),
    COMETCHAT_GHOST_UID: setting
      .text()
      .optional()
      .describe("The CometChat user that guests read room chats as (default booth-ghost)."),
    GEN_SONGS_API_URL: setting
      .url()
      .optional()
      .describe("A song generation provider; unset, songs are synthesised locally."),
    GEN_SONGS_API_KEY: setting
      .text()
      .optional()
      .describe("The song generation provider's API key, with GEN_SONGS_API_URL."),

    // Errors and tracing.
    SENTRY_DSN: setting.text().optional().describe("Where errors go (Sentry); unset, to the error_reports table."),
    SENTRY_ENVIRONMENT: setting.text().optional().describe("The deployment's name at Sentry (default BOOTH_ENV)."),
    SENTRY_RELEASE: setting.text().optional().describe("The release's name at Sentry (default Booth's version)."),
    OTEL_EXPORTER_OTLP_ENDPOINT: setting
      .url()
      .optional()
      .describe("An OTLP collector (over HTTP) that receives a span per request; unset, no tracing."),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: setting
      .url()
      .optional()
      .describe("The full address traces are sent to, instead of OTEL_EXPORTER_OTLP_ENDPOINT's /v1/traces."),
    OTEL_EXPORTER_OTLP_HEADERS: setting.text().optional().describe("Headers sent with each export (key=value,...)."),
    OTEL_SERVICE_NAME: setting.text().optional().describe("The service's name in traces (default booth-edge)."),
  })
  .superRefine(
    (settings, ctx) => {
      for (const problem of crossFieldProblems(settings)) ctx.addIssue({ code: "custom", ...problem });
    },
    {
      // Also when some settings are bad: every problem is named at once.
      when: () => true,
    },
  );

export type EdgeSettings = z.output<typeof settingsSchema>;

/** Old names still read, each with a warning naming the new one. */
export const renamedSettings: Renamed = {
  PUBLIC_URL: "BOOTH_PUBLIC_EDGE_URL",
  PARTY_URL: "BOOTH_PARTY_URL",
};

/**
 * The edge's settings, read once from its environment; throws a `SettingsError` naming every bad or missing one. `app`
 * names the process in that message and in the warnings of old names, which go to `warn`.
 */
export function readEdgeSettings(
  environment: Environment,
  options: { app?: string; warn?: (message: string) => void } = {},
): EdgeSettings {
  return readSettings(options.app ?? "Booth edge", settingsSchema, environment, {
    renamed: renamedSettings,
    ...(options.warn ? { warn: options.warn } : {}),
  });
}

// --- Settings that need others ---------------------------------------------------------------------------------

type Partly = Partial<Record<keyof EdgeSettings, unknown>>;

/** Whether a setting is given (one that failed its own check counts as given: it is named already). */
const given = (value: unknown) => (typeof value === "string" ? value.trim() !== "" : value !== undefined);

function crossFieldProblems(settings: Partly): { path?: string[]; message: string }[] {
  const problems: { path?: string[]; message: string }[] = [];
  const needs = (when: boolean, names: (keyof EdgeSettings)[], because: string) => {
    if (when)
      for (const name of names)
        if (!given(settings[name])) problems.push({ path: [name], message: `is required when ${because} is set` });
  };
  needs(given(settings.RESEND_API_KEY), ["MAIL_FROM"], "RESEND_API_KEY");
  needs(given(settings.TWILIO_ACCOUNT_SID), ["TWILIO_AUTH_TOKEN", "TWILIO_FROM"], "TWILIO_ACCOUNT_SID");
  needs(
    given(settings.APNS_KEY) || given(settings.APNS_KEY_PATH),
    ["APNS_KEY_ID", "APNS_TEAM_ID", "APNS_TOPIC"],
    "APNS_KEY or APNS_KEY_PATH",
  );
  if (given(settings.MEDIA_BASE_URL) && !given(settings.S3_BUCKET))
    problems.push({
      path: ["MEDIA_BASE_URL"],
      message: "needs S3_BUCKET (with DATA_DIR's storage the edge serves the segments)",
    });
  if (given(settings.MEDIA_BASE_URL) && settings.MEDIA_SEGMENTS === "edge")
    problems.push({ path: ["MEDIA_BASE_URL"], message: "is not used when MEDIA_SEGMENTS=edge (unset one of them)" });
  if (given(settings.S3_BUCKET)) {
    const missing = (["S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const).filter((name) => !given(settings[name]));
    if (missing.length) problems.push({ message: `${missing.join(" and ")} must be set when S3_BUCKET is set` });
  }
  // Bootstrap migrates at start unless MIGRATE_ON_START=false (every entry but the release step goes through it).
  problems.push(...pooledDatabaseProblems(settings as Partial<MigrateSettings>, settings.MIGRATE_ON_START !== false));
  const production = isProduction(settings as Deployment);
  const missing = production ? missingProductionSettings(settings) : [];
  if (missing.length)
    problems.push({
      message: `Booth is in production mode (NODE_ENV or BOOTH_ENV is production) and does not start without:${missing
        .map((line) => `  - ${line}`)
        .join("")}`,
    });
  return problems;
}

/** A setting a production edge must have: whether the settings lack it, and the text that names it then. */
interface Requirement {
  lacks: (settings: Partly) => boolean;
  line: string;
}

const required = (name: keyof EdgeSettings, why: string): Requirement => ({
  lacks: (settings) => !given(settings[name]),
  line: `${name}: ${why}`,
});

/** The operator's word that one edge process serves this instance, so its memory cache and PGlite are not shared. */
export const singleInstance = (settings: Partly) => settings.BOOTH_SINGLE_INSTANCE === "true";

/** Needed only where several edge processes serve the instance (not BOOTH_SINGLE_INSTANCE=true). */
const shared = ({ lacks, line }: Requirement): Requirement => ({
  lacks: (settings) => !singleInstance(settings) && lacks(settings),
  line,
});

/** Every secret must come from the environment; in this order the missing ones are listed. */
const PRODUCTION_SETTINGS: Requirement[] = [
  required(
    "JWT_PRIVATE_KEY",
    "the private JWK (ES256) that signs every token, the same on every instance (npx tsx apps/edge/src/scripts/jwt-key.ts)",
  ),
  required(
    "BOOTH_SERVICE_SECRET",
    "the secret the edge and the live rooms share to sign their calls to each other, at least 32 characters (openssl rand -base64 48)",
  ),
  required("VAPID_PUBLIC_KEY", "the Web Push key pair (npx web-push generate-vapid-keys)"),
  required("VAPID_PRIVATE_KEY", "the Web Push key pair (npx web-push generate-vapid-keys)"),
  shared({
    lacks: (settings) =>
      !given(settings.REDIS_URL) &&
      !(given(settings.UPSTASH_REDIS_REST_URL) && given(settings.UPSTASH_REDIS_REST_TOKEN)),
    line: "REDIS_URL (or UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN): the cache every instance shares for limits and codes; BOOTH_SINGLE_INSTANCE=true if only one instance runs",
  }),
  shared(
    required(
      "DATABASE_URL",
      "the PostgreSQL every instance shares; BOOTH_SINGLE_INSTANCE=true if only one instance runs (PGlite in DATA_DIR)",
    ),
  ),
  shared({
    lacks: (settings) => !given(settings.S3_BUCKET),
    line: "S3_BUCKET (with S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and, off AWS, S3_ENDPOINT): the object storage every instance and the job worker share for uploads and HLS; BOOTH_SINGLE_INSTANCE=true if one host keeps the files (DATA_DIR/storage)",
  }),
  {
    lacks: (settings) => given(settings.ADMIN_EMAIL) !== given(settings.ADMIN_PASSWORD),
    line: "ADMIN_EMAIL and ADMIN_PASSWORD: the first admin needs both (or neither)",
  },
];

/** What a production edge lacks to start, one text per setting. */
export const missingProductionSettings = (settings: Partly): string[] =>
  PRODUCTION_SETTINGS.filter((requirement) => requirement.lacks(settings)).map((requirement) => requirement.line);

type Deployment = Pick<EdgeSettings, "BOOTH_ENV" | "NODE_ENV">;

/** The demo catalogue and rooms: loaded by default on the embedded instance, in production only with SEED_DEMO=true. */
export const seedsDemo = (settings: Deployment & Pick<EdgeSettings, "SEED_DEMO">) =>
  isProduction(settings) ? settings.SEED_DEMO === "true" : settings.SEED_DEMO !== "false";

/**
 * The local test checkout (purchases without money, when STRIPE_SECRET_KEY is unset): on by default on the embedded
 * instance, in production only with LOCAL_CHECKOUT=true. LOCAL_CHECKOUT=false turns it off anywhere.
 */
export const allowsLocalCheckout = (settings: Deployment & Pick<EdgeSettings, "LOCAL_CHECKOUT">) =>
  settings.LOCAL_CHECKOUT ? settings.LOCAL_CHECKOUT === "true" : !isProduction(settings);
