import type { Db } from "@booth/db";
import type { Brand } from "@booth/sdk/brand";
import { createLogger, type Logger, type LogLevel } from "@booth/sdk/node/logger";
import type { Context } from "hono";
import type { DestinationStream } from "pino";
import { currentRequestId } from "./lib/request-id.ts";
import type { Keys } from "./lib/tokens.ts";
import type { FfmpegSettings } from "./ports/audio.ts";
import type { Cache } from "./ports/cache.ts";
import type { ErrorReporter } from "./ports/error-reporter.ts";
import type { GeoLocator } from "./ports/geo.ts";
import type { IntegrationsConfig } from "./ports/integrations.ts";
import type { Jobs } from "./ports/jobs.ts";
import type { LiveRooms } from "./ports/live-rooms.ts";
import type { Mailer, SmsSender } from "./ports/messaging.ts";
import type { Push } from "./ports/push.ts";
import type { SongGenerator } from "./ports/song-generator.ts";
import type { Storage } from "./ports/storage.ts";
import type { Tracing } from "./ports/tracing.ts";

export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export type { Logger } from "@booth/sdk/node/logger";

/**
 * The edge's log (the Node and Deno entries, the job worker): pino's JSON lines at LOG_LEVEL (info unless given), secrets censored (@booth/sdk/node/logger), each line with the id of the request it belongs to
 * when it belongs to one. `destination`: where the lines go (standard output, asynchronously, unless given).
 */
export function edgeLogger(settings: { LOG_LEVEL?: LogLevel }, destination?: DestinationStream): Logger {
  return createLogger({
    level: settings.LOG_LEVEL ?? "info",
    ...(destination ? { destination } : {}),
    mixin: () => {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
  }).log;
}
export const silentLogger: Logger = () => {};

export interface AppConfig {
  /** Public base URL of the edge, used in links sent by email (magic links, resets). */
  publicUrl: string;
  /** Public URL of the web app, where links in emails land. */
  webUrl: string;
  /** Minimum seconds between two verification emails to one address. */
  emailResendSeconds: number;
  /**
   * Proxies (addresses, CIDR ranges) whose X-Forwarded-For names the client, such as the web app's server: TRUST_PROXY.
   * Empty: the socket's peer is the client, whatever the headers say.
   */
  trustProxy?: readonly string[] | undefined;
  /** METRICS_TOKEN: a bearer token Prometheus scrapes /metrics with; unset, /metrics answers admins only. */
  metricsToken?: string | undefined;
  /** BOOTH_BRAND: which sources this Booth offers (streaming providers, or the licensed catalogue: @booth/sdk/brand). */
  brand: Brand;
  /** Third-party music services: base URLs (so tests point them at local fakes) and server-side credentials. */
  providers: {
    spotifyApiUrl: string;
    appleMusicApiUrl: string;
    /** Audius's API (AUDIUS_API_URL), and the app_name Booth calls it with (AUDIUS_APP_NAME). */
    audiusApiUrl: string;
    audiusAppName: string;
    /**
     * 7digital's catalogue API (SEVENDIGITAL_API_URL) and preview service (SEVENDIGITAL_PREVIEWS_URL), Booth's partner
     * key and its secret (unset: 7digital is not configured), and the country its catalogue is asked for.
     */
    sevenDigitalApiUrl: string;
    sevenDigitalPreviewsUrl: string;
    sevenDigitalConsumerKey?: string | undefined;
    sevenDigitalConsumerSecret?: string | undefined;
    sevenDigitalCountry: string;
    appleMusicDeveloperToken?: string | undefined;
    cyaniteWebhookSecret?: string | undefined;
  };
  /** Payments: Stripe (unset key: the embedded local checkout) and App Store notifications. */
  payments?: PaymentConfig | undefined;
  /** Discord, provider OAuth, Agora and CometChat: unset ones make their routes answer 503 naming the setting. */
  integrations?: IntegrationsConfig | undefined;
  /** Which ffmpeg transcodes uploads and synthesises songs: FFMPEG_PATH, else the first on PATH (audio.ts). */
  ffmpeg: FfmpegSettings;
}

export interface PaymentConfig {
  stripeSecretKey?: string | undefined;
  stripeWebhookSecret?: string | undefined;
  /** Where Stripe's API is (default https://api.stripe.com; tests point it at a local fake). */
  stripeApiUrl?: string | undefined;
  /** The certificate (PEM) App Store notification chains must lead to: Apple Root CA - G3 in production. */
  appleRootCaPem?: string | undefined;
  /** When set, App Store notifications for another app are refused. */
  appleBundleId?: string | undefined;
  /**
   * Whether the local test checkout (no money) may run when no Stripe key is set: true unless false, which a
   * production instance is without LOCAL_CHECKOUT=true. Refused, checkouts answer 503 naming the settings.
   */
  localCheckout?: boolean | undefined;
}

export interface AppDeps {
  /** OpenTelemetry tracing of each request (OTEL_EXPORTER_OTLP_ENDPOINT); absent: none. */
  tracing?: Tracing | undefined;
  db: Db;
  cache: Cache;
  clock: Clock;
  keys: Keys;
  /**
   * The secret shared with the live rooms (BOOTH_SERVICE_SECRET): their calls carry a one-minute HS256 token signed
   * with it. Null: no rooms token is accepted.
   */
  serviceSecret: string | null;
  mailer: Mailer;
  sms: SmsSender;
  storage: Storage;
  /** Work that outlives a request (transcoding, generated songs, the demo catalogue), queued on the database. */
  jobs: Jobs;
  songGenerator: SongGenerator;
  errorReporter: ErrorReporter;
  /** IP address to country and region, from an offline database. */
  geo: GeoLocator;
  /** The live rooms (a Worker): the edge tells them about changes made over REST and reads their state. */
  liveRooms: LiveRooms;
  /** Mobile pushes (FCM, APNs, or the outbox in `push_messages`) and Web Push. */
  push: Push;
  logger: Logger;
  config: AppConfig;
  /** The socket's peer address, as the runtime reports it (Node's conninfo, Deno's remoteAddr); tests give their own. */
  peerAddress?: ((c: Context) => string | undefined) | undefined;
}

// Every request carries the app's dependencies (`c.var.deps`, set by the request path): declared here, beside them, as
// Hono's context variable, so that lib's request helpers read them without importing this layer (lib/context.ts).
declare module "hono" {
  interface ContextVariableMap {
    deps: AppDeps;
  }
}

export const defaultConfig: AppConfig = {
  publicUrl: "http://127.0.0.1:8787",
  webUrl: "http://127.0.0.1:3000",
  emailResendSeconds: 60,
  trustProxy: [],
  brand: "streaming",
  providers: {
    spotifyApiUrl: "https://api.spotify.com",
    appleMusicApiUrl: "https://api.music.apple.com",
    audiusApiUrl: "https://api.audius.co",
    audiusAppName: "Booth",
    sevenDigitalApiUrl: "https://api.7digital.com/1.2",
    sevenDigitalPreviewsUrl: "https://previews.7digital.com",
    sevenDigitalCountry: "US",
  },
  ffmpeg: {},
};
