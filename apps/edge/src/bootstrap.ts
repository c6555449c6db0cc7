import { readFileSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { createDb, type Db, MIGRATION_LOCK, type SqlExecutor, schema, type Tx } from "@booth/db";
import { SERVICE_SECRET_MIN_LENGTH } from "@booth/sdk/live/service-auth";
import { type Environment, isProduction } from "@booth/sdk/settings";
import { arrayContains, eq, sql } from "drizzle-orm";
import type { DestinationStream } from "pino";
import { allowsLocalCheckout, type EdgeSettings, readEdgeSettings, seedsDemo } from "./config.ts";
import { type AppConfig, type AppDeps, edgeLogger, type Logger, systemClock } from "./deps.ts";
import { argon2, hashPassword } from "./lib/password.ts";
import { loadKeys, serviceToken, withPreviousKeys } from "./lib/tokens.ts";
import { ffmpegWarning } from "./ports/audio.ts";
import { type Cache, memoryCache, redisCache, upstashCache } from "./ports/cache.ts";
import { outboxReporter, type SentrySdk, sentryReporter } from "./ports/error-reporter.ts";
import { dbipGeo } from "./ports/geo-dbip.ts";
import { integrationsFrom } from "./ports/integrations.ts";
import { jobSettingsFrom, pgBossJobs } from "./ports/jobs.ts";
import { notifyingQuietly, partyLiveRooms } from "./ports/live-rooms.ts";
import { resendMailer } from "./ports/mail-resend.ts";
import {
  type Mailer,
  outboxMailer,
  outboxSms,
  printingOutbox,
  reportingFailures,
  type SmsSender,
} from "./ports/messaging.ts";
import { pushFrom } from "./ports/push-env.ts";
import { twilioSms } from "./ports/sms-twilio.ts";
import { embeddedGenerator, httpGenerator } from "./ports/song-generator.ts";
import { localStorage, type Storage } from "./ports/storage.ts";
import { type S3Settings, s3OptionsFrom, s3Storage } from "./ports/storage-s3.ts";
import { tracingFrom } from "./ports/tracing.ts";
import { type DemoOptions, ensureDemoAccount, loadDemoTracks } from "./seed/demo-catalogue.ts";
import { DEMO_ROOMS, seedDemoRooms } from "./seed/demo-rooms.ts";
import { seedDemoShop } from "./seed/demo-shop.ts";
import { clearDemoProgress, writeDemoProgress } from "./services/upload/public.ts";
import { createAccount, linkToken, normalizeEmail } from "./services/user/public.ts";
import { startStep } from "./start-failure.ts";

type Settings = EdgeSettings;

/**
 * The start's settings, read once from the environment (`app` names the process in what it prints), and the edge's log
 * at their LOG_LEVEL, which says each old name read. `destination`: where the log's lines go (standard output unless
 * given). Throws a `SettingsError` naming every bad or missing setting (start-failure.ts prints it as one line).
 */
export function readStart(environment: Environment, app: string, destination?: DestinationStream) {
  const renamed: string[] = [];
  const settings = readEdgeSettings(environment, { app, warn: (msg) => renamed.push(msg) });
  const logger = edgeLogger(settings, destination);
  for (const msg of renamed) logger({ level: "warn", msg });
  return { settings, logger };
}

/** Upstash's REST API when both its settings are given, else Redis at REDIS_URL, else a memory cache. */
export async function cacheFrom(
  settings: Pick<Settings, "UPSTASH_REDIS_REST_URL" | "UPSTASH_REDIS_REST_TOKEN" | "REDIS_URL">,
  prefix = "",
): Promise<Cache> {
  const { UPSTASH_REDIS_REST_URL: upstashUrl, UPSTASH_REDIS_REST_TOKEN: upstashToken, REDIS_URL: redisUrl } = settings;
  if (upstashUrl && upstashToken) return upstashCache(upstashUrl, upstashToken, prefix);
  if (redisUrl) return redisCache(redisUrl, prefix);
  return memoryCache();
}

/** What the routes read of the settings (deps.config). */
export function configFrom(settings: Settings): AppConfig {
  const { APPLE_ROOT_CA_PATH: appleRootCaPath } = settings;
  return {
    publicUrl: settings.BOOTH_PUBLIC_EDGE_URL ?? settings.BOOTH_EDGE_URL ?? `http://127.0.0.1:${settings.PORT}`,
    webUrl: settings.WEB_URL,
    emailResendSeconds: settings.EMAIL_RESEND_SECONDS,
    trustProxy: settings.TRUST_PROXY,
    metricsToken: settings.METRICS_TOKEN,
    brand: settings.BOOTH_BRAND,
    providers: {
      spotifyApiUrl: settings.SPOTIFY_API_URL,
      appleMusicApiUrl: settings.APPLE_MUSIC_API_URL,
      audiusApiUrl: settings.AUDIUS_API_URL,
      audiusAppName: settings.AUDIUS_APP_NAME,
      sevenDigitalApiUrl: settings.SEVENDIGITAL_API_URL,
      sevenDigitalPreviewsUrl: settings.SEVENDIGITAL_PREVIEWS_URL,
      sevenDigitalConsumerKey: settings.SEVENDIGITAL_CONSUMER_KEY,
      sevenDigitalConsumerSecret: settings.SEVENDIGITAL_CONSUMER_SECRET,
      sevenDigitalCountry: settings.SEVENDIGITAL_COUNTRY,
      appleMusicDeveloperToken: settings.APPLE_MUSIC_DEVELOPER_TOKEN,
      cyaniteWebhookSecret: settings.CYANITE_WEBHOOK_SECRET,
    },
    payments: {
      stripeSecretKey: settings.STRIPE_SECRET_KEY,
      stripeWebhookSecret: settings.STRIPE_WEBHOOK_SECRET,
      stripeApiUrl: settings.STRIPE_API_URL,
      appleRootCaPem:
        settings.APPLE_ROOT_CA_PEM ?? (appleRootCaPath ? readFileSync(appleRootCaPath, "utf8") : undefined),
      appleBundleId: settings.APPLE_BUNDLE_ID,
      localCheckout: allowsLocalCheckout(settings),
    },
    integrations: integrationsFrom(settings),
    ffmpeg: { FFMPEG_PATH: settings.FFMPEG_PATH, PATH: settings.PATH },
  };
}

type Deployment = Pick<Settings, "BOOTH_ENV" | "NODE_ENV">;

/**
 * Without a provider, the outbox; the embedded instance also prints each message, so its codes reach someone. A
 * production one does not: logs are kept and shipped, and a sign-in link in them would open the account to their
 * readers (an admin reads the outbox with `booth outbox` instead).
 */
function unsent<T extends Mailer | SmsSender>(outbox: T, settings: Deployment, print: (text: string) => void): T {
  return isProduction(settings) ? outbox : printingOutbox(outbox, print);
}

/** Resend when RESEND_API_KEY is set (MAIL_FROM then required: config.ts), else the outbox table. */
export function mailerFrom(
  settings: Deployment & Pick<Settings, "RESEND_API_KEY" | "MAIL_FROM" | "RESEND_BASE_URL">,
  db: Db,
  logger: Logger,
  print = console.log,
): Mailer {
  if (!settings.RESEND_API_KEY) return unsent(outboxMailer(db), settings, print);
  const mailer = resendMailer({
    apiKey: settings.RESEND_API_KEY,
    from: settings.MAIL_FROM ?? "",
    baseUrl: settings.RESEND_BASE_URL,
  });
  return reportingFailures(mailer, "email", logger);
}

/** Twilio when TWILIO_ACCOUNT_SID is set (TWILIO_AUTH_TOKEN and TWILIO_FROM then required: config.ts), else the outbox. */
export function smsFrom(
  settings: Deployment & Pick<Settings, "TWILIO_ACCOUNT_SID" | "TWILIO_AUTH_TOKEN" | "TWILIO_FROM" | "TWILIO_BASE_URL">,
  db: Db,
  logger: Logger,
  print = console.log,
): SmsSender {
  if (!settings.TWILIO_ACCOUNT_SID) return unsent(outboxSms(db), settings, print);
  const sms = twilioSms({
    accountSid: settings.TWILIO_ACCOUNT_SID,
    authToken: settings.TWILIO_AUTH_TOKEN ?? "",
    from: settings.TWILIO_FROM ?? "",
    baseUrl: settings.TWILIO_BASE_URL,
  });
  return reportingFailures(sms, "message", logger);
}

/**
 * Everything the edge needs, from its settings (readStart); embedded defaults for whatever is unset. `logger`: the
 * edge's log (readStart's). `sentry`: the runtime's Sentry SDK, which the entry initialised from SENTRY_DSN
 * (sentry.node.ts, sentry.deno.ts); errors go to the error_reports table without it.
 */
export async function depsFrom(settings: Settings, logger: Logger, sentry?: SentrySdk) {
  const ffmpeg = ffmpegWarning(settings);
  if (ffmpeg) logger({ level: "warn", msg: ffmpeg });
  // The argon2id that hashes passwords: native unless ARGON2=wasm (or where it does not load).
  await argon2(settings.ARGON2);
  const port = settings.PORT;
  // npm runs workspace scripts inside the workspace; relative paths mean the folder npm was started from.
  const dataDir = resolve(settings.INIT_CWD ?? ".", settings.DATA_DIR);
  await mkdir(dataDir, { recursive: true });
  const database = await createDb({
    url: settings.DATABASE_URL,
    dataDir: join(dataDir, "pglite"),
    pooled: settings.DATABASE_POOLED,
    directUrl: settings.DATABASE_DIRECT_URL,
    max: settings.DATABASE_POOL_MAX,
    applicationName: "booth",
  });
  // The schema, and the job queue's tables and queues. Under an advisory lock on PostgreSQL: instances started
  // together, and the release step, take turns. MIGRATE_ON_START=false leaves it to the release step (`npm run
  // migrate`).
  if (settings.MIGRATE_ON_START)
    await startStep("migrating the database", () => database.migrate({ jobs: jobSettingsFrom(settings) }));
  // CACHE_PREFIX: one Redis may serve several Booths (or a test's instances), each under its own prefix.
  const cache = await startStep("connecting to the cache", () => cacheFrom(settings, settings.CACHE_PREFIX));
  const keys = await withPreviousKeys(
    await loadKeys({ privateJwk: settings.JWT_PRIVATE_KEY, dataDir, required: isProduction(settings) }),
    settings.JWT_PREVIOUS_PUBLIC_KEYS,
  );
  const serviceSecret = await loadServiceSecret(settings, dataDir);
  const deps: AppDeps = {
    tracing: tracingFrom(settings, "booth-edge"),
    db: database.db,
    cache,
    clock: systemClock,
    keys,
    serviceSecret,
    mailer: mailerFrom(settings, database.db, logger),
    sms: smsFrom(settings, database.db, logger),
    storage: storageFrom(settings, dataDir),
    jobs: jobsFrom(settings, database.sql, logger),
    errorReporter: sentry ? sentryReporter(sentry) : outboxReporter(database.db),
    push: await pushFrom(settings, database.db, dataDir),
    geo: dbipGeo,
    songGenerator:
      settings.GEN_SONGS_API_URL && settings.GEN_SONGS_API_KEY
        ? httpGenerator({ baseUrl: settings.GEN_SONGS_API_URL, apiKey: settings.GEN_SONGS_API_KEY })
        : embeddedGenerator(settings),
    liveRooms: notifyingQuietly(
      partyLiveRooms({
        baseUrl: settings.BOOTH_PARTY_URL,
        serviceToken: () => serviceToken(keys, "service:edge", systemClock.now()),
      }),
      logger,
    ),
    logger,
    config: configFrom(settings),
  };
  return { deps, port, database, dataDir };
}

/**
 * Lets go of what depsFrom opened: the job queue first (a running job gets a few seconds to finish; one cut short
 * runs again elsewhere once its timeout passes), then the database and the cache.
 */
export async function closeDeps(deps: AppDeps, database: { close(): Promise<void> }) {
  await deps.jobs.stop().catch(() => {});
  await Promise.allSettled([database.close(), deps.cache.close(), deps.tracing?.shutdown()]);
}

/**
 * The secret shared with the live rooms: BOOTH_SERVICE_SECRET; else (not in production) the one kept in
 * `DATA_DIR/service-secret`, made at the first start and readable by its owner only, where the rooms started with the
 * same DATA_DIR find it (apps/rooms-party/scripts/dev.mjs).
 */
export async function loadServiceSecret(
  settings: Pick<Settings, "BOOTH_SERVICE_SECRET">,
  dataDir: string,
): Promise<string> {
  // At least SERVICE_SECRET_MIN_LENGTH long (config.ts); production without it does not get this far.
  if (settings.BOOTH_SERVICE_SECRET) return settings.BOOTH_SERVICE_SECRET;
  const file = join(dataDir, "service-secret");
  try {
    const kept = (await readFile(file, "utf8")).trim();
    if (kept.length >= SERVICE_SECRET_MIN_LENGTH) return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * The first admin: ADMIN_EMAIL / ADMIN_PASSWORD make sure that account exists with the admin role (idempotent).
 * Without them, an embedded instance that has no admin yet gets one with a random password, returned to be shown
 * once; a production instance gets none (a password in its logs would outlive the moment).
 */
type AdminSettings = Deployment & Pick<Settings, "ADMIN_EMAIL" | "ADMIN_PASSWORD">;

export async function ensureAdmin(
  db: Db,
  settings: AdminSettings,
  now: Date,
): Promise<{ email: string; password?: string } | null> {
  if (settings.ADMIN_EMAIL && settings.ADMIN_PASSWORD) {
    const email = normalizeEmail(settings.ADMIN_EMAIL);
    const passwordHash = await hashPassword(settings.ADMIN_PASSWORD);
    await db.transaction(async (tx) => {
      await startLock(tx);
      const [existing] = await tx.select().from(schema.users).where(eq(schema.users.email, email)).for("update");
      if (!existing) {
        await createAccount(tx, { email, passwordHash, roles: ["user", "admin"], emailStatus: "VERIFIED", now });
        return;
      }
      const roles = existing.roles.includes("admin") ? existing.roles : [...existing.roles, "admin" as const];
      await tx
        .update(schema.users)
        .set({ roles, passwordHash, updatedAt: now })
        .where(eq(schema.users.uuid, existing.uuid));
    });
    return { email };
  }
  const anyAdmin = (q: Db | Tx) =>
    q
      .select({ uuid: schema.users.uuid })
      .from(schema.users)
      .where(arrayContains(schema.users.roles, ["admin"]))
      .limit(1)
      .then((rows) => rows.length > 0);
  if (isProduction(settings) || (await anyAdmin(db))) return null;
  const email = "admin@booth.local";
  const password = linkToken().slice(0, 20);
  const passwordHash = await hashPassword(password);
  const created = await db.transaction(async (tx) => {
    await startLock(tx);
    if (await anyAdmin(tx)) return false;
    await createAccount(tx, { email, passwordHash, roles: ["user", "admin"], emailStatus: "VERIFIED", now });
    return true;
  });
  return created ? { email, password } : null;
}

/**
 * Instances started at the same moment take turns at what each does once at start (the first admin): the later one
 * finds it done. Held until the transaction ends.
 */
async function startLock(tx: Tx) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${START_LOCK})`);
}
const START_LOCK = MIGRATION_LOCK + 1;

/** What the start output says about the first admin: its password, shown once, or what a production operator sets. */
export async function firstAdminNotice(db: Db, settings: AdminSettings, now: Date): Promise<string | null> {
  const admin = await ensureAdmin(db, settings, now);
  if (admin?.password)
    return `First admin created: ${admin.email} / ${admin.password} (shown once; change it after logging in)`;
  if (admin || !isProduction(settings)) return null;
  const [any] = await db
    .select({ uuid: schema.users.uuid })
    .from(schema.users)
    .where(arrayContains(schema.users.roles, ["admin"]))
    .limit(1);
  return any
    ? null
    : "No admin account: set ADMIN_EMAIL and ADMIN_PASSWORD and restart (an existing account with that email becomes admin).";
}

/**
 * Opens the demo: first what needs no audio (the demo account, its rooms and, on a fresh instance, a stocked shop), so
 * a first visitor finds rooms within a second of the edge answering; then the catalogue's tracks, printing progress.
 */
export async function openDemo(deps: AppDeps, print: (line: string) => void, options: DemoOptions = {}) {
  const opened = await openDemoRooms(deps, print);
  if (opened) await loadDemoCatalogue(deps, opened.ownerUuid, print, options);
}

/**
 * The part of the demo that needs no audio: the demo account, its rooms and, on a fresh instance, a stocked shop.
 * Answers the demo account when it is new (its catalogue is then still to load), else null.
 */
export async function openDemoRooms(deps: AppDeps, print: (line: string) => void) {
  const { owner, created } = await ensureDemoAccount(deps);
  const rooms = await seedDemoRooms(deps);
  if (rooms) print(`Demo rooms open: ${DEMO_ROOMS.map((r) => `/rooms/${r.slug}`).join(", ")}`);
  if (!created) return null;
  const shop = await seedDemoShop(deps);
  if (shop.bundles || shop.consumables)
    print(`Demo shop stocked: ${shop.bundles} token bundles, ${shop.consumables} consumables`);
  return { ownerUuid: owner.uuid };
}

/** The demo catalogue's tracks, printing progress (the "demo-catalogue" job; a second run skips finished tracks). */
export async function loadDemoCatalogue(
  deps: AppDeps,
  ownerUuid: string,
  print: (line: string) => void,
  options: DemoOptions = {},
) {
  // The progress goes to the shared cache too, for the home page of whichever instance a visitor asks.
  let added: number;
  try {
    added = await loadDemoTracks(deps, ownerUuid, {
      ...options,
      started: (total) => writeDemoProgress(deps.cache, 0, total),
      progress: async (done, total, title) => {
        await writeDemoProgress(deps.cache, done, total);
        print(`Demo catalogue: ${done}/${total} ${"#".repeat(done)}${".".repeat(total - done)} ${title}`);
        await options.progress?.(done, total, title);
      },
    });
  } catch (err) {
    await clearDemoProgress(deps.cache);
    throw err;
  }
  print(`Demo catalogue ready: ${added} tracks`);
}

/**
 * Opens the demo in the background: its rooms now, its catalogue as a job for whichever worker takes it. The embedded
 * instance does unless SEED_DEMO=false; a production one only with SEED_DEMO=true. Answers whether it started.
 */
export function seedDemoInBackground(
  deps: AppDeps,
  settings: Deployment & Pick<Settings, "SEED_DEMO">,
  print: (line: string) => void = console.log,
) {
  if (!seedsDemo(settings)) return false;
  openDemoRooms(deps, print)
    .then(async (opened) => {
      if (!opened) return;
      await deps.jobs.send("demo-catalogue", opened, { key: "demo" });
      print("Demo catalogue queued: the job worker synthesises and transcodes its tracks");
    })
    .catch((err) => print(`Demo failed: ${String(err)}`));
  return true;
}

/** Object storage when S3_BUCKET is set (S3, R2, MinIO), else the folder DATA_DIR/storage. */
export function storageFrom(settings: S3Settings, dataDir: string): Storage {
  const s3 = s3OptionsFrom(settings);
  return s3 ? s3Storage(s3) : localStorage(join(dataDir, "storage"));
}

/** The job queue, with JOB_TIMEOUT_SECONDS: how long a job may run before it counts as lost and runs again. */
export function jobsFrom(settings: Pick<Settings, "JOB_TIMEOUT_SECONDS">, sql: SqlExecutor, logger: Logger) {
  return pgBossJobs(sql, { ...jobSettingsFrom(settings), logger });
}
