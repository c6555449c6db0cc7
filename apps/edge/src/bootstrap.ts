import { readFileSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { createDb, type Db, MIGRATION_LOCK, type SqlExecutor, schema, type Tx } from "@booth/db";
import { SERVICE_SECRET_MIN_LENGTH } from "@booth/sdk/live/service-auth";
import { arrayContains, eq, sql } from "drizzle-orm";
import { type AppConfig, type AppDeps, defaultConfig, edgeLogger, type Logger, systemClock } from "./deps.ts";
import { parseTrustProxy } from "./lib/client-address.ts";
import { hashPassword } from "./lib/password.ts";
import { loadKeys, serviceToken, withPreviousKeys } from "./lib/tokens.ts";
import { ffmpegWarning } from "./ports/audio.ts";
import { type Cache, memoryCache, redisCache, upstashCache } from "./ports/cache.ts";
import { outboxReporter, type SentrySdk, sentryReporter } from "./ports/error-reporter.ts";
import { dbipGeo } from "./ports/geo-dbip.ts";
import { integrationsFromEnv } from "./ports/integrations.ts";
import { jobSettingsFromEnv, pgBossJobs } from "./ports/jobs.ts";
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
import { pushFromEnv } from "./ports/push-env.ts";
import { twilioSms } from "./ports/sms-twilio.ts";
import { embeddedGenerator, httpGenerator } from "./ports/song-generator.ts";
import { localStorage, type Storage } from "./ports/storage.ts";
import { s3OptionsFromEnv, s3Storage } from "./ports/storage-s3.ts";
import { tracingFromEnv } from "./ports/tracing.ts";
import { allowsLocalCheckout, assertProductionSettings, isProduction, seedsDemo } from "./production.ts";
import { type DemoOptions, ensureDemoAccount, loadDemoTracks } from "./seed/demo-catalogue.ts";
import { DEMO_ROOMS, seedDemoRooms } from "./seed/demo-rooms.ts";
import { seedDemoShop } from "./seed/demo-shop.ts";
import { clearDemoProgress, writeDemoProgress } from "./services/upload/public.ts";
import { createAccount, linkToken, normalizeEmail } from "./services/user/public.ts";
import { startStep } from "./start-failure.ts";

type Env = Record<string, string | undefined>;

export async function cacheFromEnv(env: Env, prefix = ""): Promise<Cache> {
  if (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN)
    return upstashCache(env.UPSTASH_REDIS_REST_URL, env.UPSTASH_REDIS_REST_TOKEN, prefix);
  if (env.REDIS_URL) return redisCache(env.REDIS_URL, prefix);
  return memoryCache();
}

export function configFromEnv(env: Env, port: number): AppConfig {
  return {
    publicUrl: env.PUBLIC_URL ?? `http://127.0.0.1:${port}`,
    webUrl: env.WEB_URL ?? defaultConfig.webUrl,
    emailResendSeconds: Number(env.EMAIL_RESEND_SECONDS ?? defaultConfig.emailResendSeconds),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    metricsToken: env.METRICS_TOKEN?.trim() || undefined,
    providers: {
      spotifyApiUrl: env.SPOTIFY_API_URL ?? defaultConfig.providers.spotifyApiUrl,
      appleMusicApiUrl: env.APPLE_MUSIC_API_URL ?? defaultConfig.providers.appleMusicApiUrl,
      appleMusicDeveloperToken: env.APPLE_MUSIC_DEVELOPER_TOKEN,
      cyaniteWebhookSecret: env.CYANITE_WEBHOOK_SECRET,
    },
    payments: {
      stripeSecretKey: env.STRIPE_SECRET_KEY,
      stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET,
      stripeApiUrl: env.STRIPE_API_URL,
      appleRootCaPem:
        env.APPLE_ROOT_CA_PEM ?? (env.APPLE_ROOT_CA_PATH ? readFileSync(env.APPLE_ROOT_CA_PATH, "utf8") : undefined),
      appleBundleId: env.APPLE_BUNDLE_ID,
      localCheckout: allowsLocalCheckout(env),
    },
    integrations: integrationsFromEnv(env),
  };
}

/**
 * Without a provider, the outbox; the embedded instance also prints each message, so its codes reach someone. A
 * production one does not: logs are kept and shipped, and a sign-in link in them would open the account to their
 * readers (an admin reads the outbox with `booth outbox` instead).
 */
function unsent<T extends Mailer | SmsSender>(outbox: T, env: Env, print: (text: string) => void): T {
  return isProduction(env) ? outbox : printingOutbox(outbox, print);
}

/** Resend when RESEND_API_KEY is set (MAIL_FROM then required), else the outbox table. */
export function mailerFromEnv(env: Env, db: Db, logger: Logger, print = console.log): Mailer {
  if (!env.RESEND_API_KEY) return unsent(outboxMailer(db), env, print);
  if (!env.MAIL_FROM) throw new Error("MAIL_FROM is required when RESEND_API_KEY is set");
  const mailer = resendMailer({ apiKey: env.RESEND_API_KEY, from: env.MAIL_FROM, baseUrl: env.RESEND_BASE_URL });
  return reportingFailures(mailer, "email", logger);
}

/** Twilio when TWILIO_ACCOUNT_SID is set (TWILIO_AUTH_TOKEN and TWILIO_FROM then required), else the outbox. */
export function smsFromEnv(env: Env, db: Db, logger: Logger, print = console.log): SmsSender {
  if (!env.TWILIO_ACCOUNT_SID) return unsent(outboxSms(db), env, print);
  for (const name of ["TWILIO_AUTH_TOKEN", "TWILIO_FROM"] as const)
    if (!env[name]) throw new Error(`${name} is required when TWILIO_ACCOUNT_SID is set`);
  const sms = twilioSms({
    accountSid: env.TWILIO_ACCOUNT_SID,
    authToken: env.TWILIO_AUTH_TOKEN ?? "",
    from: env.TWILIO_FROM ?? "",
    baseUrl: env.TWILIO_BASE_URL,
  });
  return reportingFailures(sms, "message", logger);
}

/** Everything the edge needs, from the environment; embedded defaults for whatever is unset. */
/**
 * `sentry`: the runtime's Sentry SDK, which the entry initialised from SENTRY_DSN (sentry.node.ts, sentry.deno.ts);
 * errors go to the error_reports table without it. `logger`: pino's JSON lines on standard output at LOG_LEVEL unless
 * given (a bad LOG_LEVEL rejects with a `LogLevelError`, which the entries print as one line (start-failure.ts)).
 */
export async function depsFromEnv(env: Env, logger: Logger = edgeLogger(env), sentry?: SentrySdk) {
  // Before anything is created: a production instance that lacks a secret must not make one up.
  assertProductionSettings(env);
  const ffmpeg = ffmpegWarning(env);
  if (ffmpeg) logger({ level: "warn", msg: ffmpeg });
  const port = Number(env.PORT ?? 8787);
  // npm runs workspace scripts inside the workspace; relative paths mean the folder npm was started from.
  const dataDir = resolve(env.INIT_CWD ?? ".", env.DATA_DIR ?? ".data");
  await mkdir(dataDir, { recursive: true });
  const database = await createDb({ url: env.DATABASE_URL, dataDir: join(dataDir, "pglite") });
  // The schema, and the job queue's tables and queues. Under an advisory lock on PostgreSQL: instances started
  // together, and the release step, take turns. MIGRATE_ON_START=false leaves it to the release step (`npm run
  // migrate`).
  if (migratesOnStart(env))
    await startStep("migrating the database", () => database.migrate({ jobs: jobSettingsFromEnv(env) }));
  // CACHE_PREFIX: one Redis may serve several Booths (or a test's instances), each under its own prefix.
  const cache = await startStep("connecting to the cache", () => cacheFromEnv(env, env.CACHE_PREFIX ?? ""));
  const keys = await withPreviousKeys(
    await loadKeys({ privateJwk: env.JWT_PRIVATE_KEY, dataDir, required: isProduction(env) }),
    env.JWT_PREVIOUS_PUBLIC_KEYS,
  );
  const serviceSecret = await loadServiceSecret(env, dataDir);
  const deps: AppDeps = {
    tracing: tracingFromEnv(env, "booth-edge"),
    db: database.db,
    cache,
    clock: systemClock,
    keys,
    serviceSecret,
    mailer: mailerFromEnv(env, database.db, logger),
    sms: smsFromEnv(env, database.db, logger),
    storage: storageFromEnv(env, dataDir),
    jobs: jobsFromEnv(env, database.sql, logger),
    errorReporter: sentry ? sentryReporter(sentry) : outboxReporter(database.db),
    push: await pushFromEnv(env, database.db, dataDir),
    geo: dbipGeo,
    songGenerator:
      env.GEN_SONGS_API_URL && env.GEN_SONGS_API_KEY
        ? httpGenerator({ baseUrl: env.GEN_SONGS_API_URL, apiKey: env.GEN_SONGS_API_KEY })
        : embeddedGenerator,
    liveRooms: notifyingQuietly(
      partyLiveRooms({
        baseUrl: env.PARTY_URL ?? "http://127.0.0.1:1999",
        serviceToken: () => serviceToken(keys, "service:edge", systemClock.now()),
      }),
      logger,
    ),
    logger,
    config: configFromEnv(env, port),
  };
  return { deps, port, database, dataDir };
}

/**
 * Lets go of what depsFromEnv opened: the job queue first (a running job gets a few seconds to finish; one cut short
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
export async function loadServiceSecret(env: Env, dataDir: string): Promise<string> {
  const given = env.BOOTH_SERVICE_SECRET?.trim();
  if (given) {
    if (given.length < SERVICE_SECRET_MIN_LENGTH)
      throw new Error(`BOOTH_SERVICE_SECRET must be at least ${SERVICE_SECRET_MIN_LENGTH} characters long.`);
    return given;
  }
  // Production without it does not get this far (assertProductionSettings).
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
export async function ensureAdmin(db: Db, env: Env, now: Date): Promise<{ email: string; password?: string } | null> {
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) {
    const email = normalizeEmail(env.ADMIN_EMAIL);
    const passwordHash = await hashPassword(env.ADMIN_PASSWORD);
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
  if (isProduction(env) || (await anyAdmin(db))) return null;
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
export async function firstAdminNotice(db: Db, env: Env, now: Date): Promise<string | null> {
  const admin = await ensureAdmin(db, env, now);
  if (admin?.password)
    return `First admin created: ${admin.email} / ${admin.password} (shown once; change it after logging in)`;
  if (admin || !isProduction(env)) return null;
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
export function seedDemoInBackground(deps: AppDeps, env: Env, print: (line: string) => void = console.log) {
  if (!seedsDemo(env)) return false;
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
export function storageFromEnv(env: Env, dataDir: string): Storage {
  const s3 = s3OptionsFromEnv(env);
  return s3 ? s3Storage(s3) : localStorage(join(dataDir, "storage"));
}

/** The job queue, with JOB_TIMEOUT_SECONDS: how long a job may run before it counts as lost and runs again. */
export function jobsFromEnv(env: Env, sql: SqlExecutor, logger: Logger) {
  return pgBossJobs(sql, { ...jobSettingsFromEnv(env), logger });
}

const isOff = (value: string | undefined) => ["false", "0", "no", "off"].includes((value ?? "").toLowerCase());

/** MIGRATE_ON_START: on unless false. */
export const migratesOnStart = (env: Env) => !isOff(env.MIGRATE_ON_START);

/** Whether this process works the job queue: RUN_JOBS, on unless false (an edge beside a worker sets it false). */
export const runsJobs = (env: Env) => !isOff(env.RUN_JOBS);
