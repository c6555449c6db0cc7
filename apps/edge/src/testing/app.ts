import { schema } from "@booth/db";
import { createTestDatabase } from "@booth/db/testing";
import { desc, eq } from "drizzle-orm";
import webpush from "web-push";
import { createApp } from "../app.ts";
import { cacheFrom } from "../bootstrap.ts";
import { type AppDeps, type Clock, defaultConfig } from "../deps.ts";
import type { Role } from "../lib/auth.ts";
import { hashPassword } from "../lib/password.ts";
import { generateKeys, signToken, type TokenType } from "../lib/tokens.ts";
import type { FfmpegSettings } from "../ports/audio.ts";
import { outboxReporter } from "../ports/error-reporter.ts";
import { dbipGeo } from "../ports/geo-dbip.ts";
import { type JobHandlers, type Jobs, pgBossJobs } from "../ports/jobs.ts";
import { recordingLiveRooms } from "../ports/live-rooms.ts";
import { outboxMailer, outboxSms } from "../ports/messaging.ts";
import { outboxPush } from "../ports/push.ts";
import { embeddedGenerator } from "../ports/song-generator.ts";
import { memoryStorage } from "../ports/storage.ts";
import { webPushSender } from "../ports/web-push.ts";
import { forgetAccount } from "../services/user/account-cache.ts";
import { createAccount } from "../services/user/accounts.ts";
import { jobHandlers, reported } from "../worker.ts";
import { TEST_ORIGIN, type TestApi, testApi } from "./api.ts";
import { testLogger } from "./logger.ts";

/** The ffmpeg of tests: the test process's FFMPEG_PATH, else the first on its PATH (as the edge's settings say). */
export const TEST_FFMPEG: FfmpegSettings = { FFMPEG_PATH: process.env.FFMPEG_PATH, PATH: process.env.PATH };

/** A clock tests can move. */
export class TestClock implements Clock {
  constructor(private current = new Date("2026-06-01T12:00:00Z")) {}
  now() {
    return new Date(this.current);
  }
  advance(seconds: number) {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
}

/** The socket peer of every test request (tests that need another override deps.peerAddress). */
export const TEST_PEER = "127.0.0.1";

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
}

/**
 * The real app on a fresh database (PGlite, or a new database on TEST_DATABASE_URL) and a fresh cache (memory, or
 * TEST_REDIS_URL under a prefix of its own). Call close() in afterAll.
 */
export async function createTestApp(overrides: Partial<AppDeps> = {}) {
  const database = await createTestDatabase();
  const clock = new TestClock();
  const prefix = `test:${crypto.randomUUID()}:`;
  const cache = await cacheFrom({ REDIS_URL: process.env.TEST_REDIS_URL }, prefix);
  const { keys } = await generateKeys();
  // The secret a test shares with the live rooms it starts (BOOTH_SERVICE_SECRET).
  const serviceSecret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const recordedLiveRooms = recordingLiveRooms();
  const deps: AppDeps = {
    db: database.db,
    cache,
    clock,
    keys,
    serviceSecret,
    mailer: outboxMailer(database.db),
    sms: outboxSms(database.db),
    storage: memoryStorage(),
    // The real job queue on the test's database, worked in this process from the first job sent.
    jobs: workedOnFirstSend(
      pgBossJobs(database.sql, { logger: testLogger, pollSeconds: 1, retryDelaySeconds: 1 }),
      () =>
        reported(
          deps,
          jobHandlers(deps, () => {}),
        ),
    ),
    songGenerator: embeddedGenerator(TEST_FFMPEG),
    errorReporter: outboxReporter(database.db),
    geo: dbipGeo,
    liveRooms: recordedLiveRooms,
    // Mobile pushes land in push_messages; Web Push is real and may reach a local push service on 127.0.0.1.
    push: outboxPush(
      database.db,
      webPushSender({
        vapid: webpush.generateVAPIDKeys(),
        subject: "mailto:test@booth.local",
        extraHosts: ["127.0.0.1"],
      }),
    ),
    logger: testLogger,
    // Tests never reach the internet: providers default to a closed local port (tests that need one run a fake).
    config: {
      ...defaultConfig,
      providers: {
        ...defaultConfig.providers,
        spotifyApiUrl: "http://127.0.0.1:9",
        appleMusicApiUrl: "http://127.0.0.1:9",
        audiusApiUrl: "http://127.0.0.1:9",
        sevenDigitalApiUrl: "http://127.0.0.1:9",
        sevenDigitalPreviewsUrl: "http://127.0.0.1:9",
      },
      ffmpeg: TEST_FFMPEG,
      // Requests come from a trusted local proxy, so a test names its caller's address with X-Forwarded-For.
      trustProxy: [TEST_PEER],
    },
    peerAddress: () => TEST_PEER,
    ...overrides,
  };
  // A test's own config (`{ ...defaultConfig, ... }`, which names no ffmpeg) transcodes with this machine's ffmpeg
  // too, not the bundled 2018 build, which cannot write Booth's renditions.
  if (!deps.config.ffmpeg.FFMPEG_PATH && !deps.config.ffmpeg.PATH)
    deps.config = { ...deps.config, ffmpeg: TEST_FFMPEG };
  // Nor does a test's own config reach Audius's public API (its base URL has a default): a test that wants Audius
  // runs its fake (fake-audius.ts).
  if (deps.config.providers.audiusApiUrl === defaultConfig.providers.audiusApiUrl)
    deps.config = { ...deps.config, providers: { ...deps.config.providers, audiusApiUrl: "http://127.0.0.1:9" } };
  const app = createApp(deps);

  async function request(method: string, path: string, options: RequestOptions = {}) {
    const url = new URL(path, TEST_ORIGIN);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: BodyInit | undefined;
    if (options.body instanceof FormData || typeof options.body === "string") body = options.body as BodyInit;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await app.request(url.pathname + url.search, { method, headers, body });
    const text = await bodyText(res);
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever shape the route answers.
    return { status: res.status, body: json as any, headers: res.headers };
  }

  /**
   * The SDK's typed clients, one per service, answered in-process and signed with `token` when given. A refusal is
   * an answer, not a throw: `const { data, error, response } = await t.api(token).merch.GET("/api/v1/consumables")`.
   * Prefer it to request(), which stays for input a typed client cannot send (malformed bodies, unknown fields).
   */
  function api(token?: string | null): TestApi {
    return testApi(app, token);
  }

  let counter = 0;
  /** A user created directly in the database (fast: no HTTP, one password hash shared by all). */
  const sharedHash = hashPassword("password123");
  async function createUser(options: { roles?: Role[]; email?: string; nickname?: string; verified?: boolean } = {}) {
    counter++;
    const email = options.email ?? `user${counter}-${crypto.randomUUID().slice(0, 6)}@example.com`;
    const passwordHash = await sharedHash;
    const { user, profile } = await database.db.transaction((tx) =>
      createAccount(tx, {
        email,
        passwordHash,
        nickname: options.nickname ?? null,
        roles: options.roles ?? ["user"],
        emailStatus: options.verified === false ? "PENDING_VERIFICATION" : "VERIFIED",
        now: clock.now(),
      }),
    );
    const token = await tokenFor(user.uuid);
    return { user, profile: profile!, token, email, password: "password123" };
  }

  /**
   * A user (createUser's defaults) for each name, made in that order:
   * `const { owner, dj } = await t.createUsers("owner", "dj")`.
   */
  async function createUsers<K extends string>(...names: K[]) {
    const users = {} as Record<K, Awaited<ReturnType<typeof createUser>>>;
    for (const name of names) users[name] = await createUser();
    return users;
  }

  /** The user's row as stored (an error when there is none). */
  async function userRow(uuid: string) {
    const [user] = await database.db.select().from(schema.users).where(eq(schema.users.uuid, uuid));
    if (!user) throw new Error(`no user ${uuid}`);
    return user;
  }

  /** The user row with this email, if any (a sign-up a test expects refused leaves none). */
  async function userByEmail(email: string) {
    const [user] = await database.db.select().from(schema.users).where(eq(schema.users.email, email));
    return user;
  }

  async function tokenFor(uuid: string, type: TokenType = "user") {
    const user = await userRow(uuid);
    return signToken(
      deps.keys,
      { sub: uuid, type, roles: user.roles, badges: user.badges, ver: user.tokenVersion },
      Math.floor(clock.now().getTime() / 1000),
    );
  }

  /** The newest message sent to an address (email or phone), from the outbox. */
  async function lastMessage(to: string) {
    const [row] = await database.db
      .select()
      .from(schema.outbox)
      .where(eq(schema.outbox.to, to))
      .orderBy(desc(schema.outbox.createdAt), desc(schema.outbox.id))
      .limit(1);
    return row ?? null;
  }

  /** A service token of the edge's own (as it signs its calls to the rooms); an hour long, for tests' sake. */
  async function serviceToken() {
    return signToken(
      deps.keys,
      { sub: "service:test", type: "service", roles: [], badges: [], ver: 0 },
      Math.floor(clock.now().getTime() / 1000),
      3600,
    );
  }

  return {
    app,
    deps,
    db: database.db,
    /** The database for raw SQL (the job queue's executor), and its URL on PostgreSQL (for processes a test starts). */
    sql: database.sql,
    databaseUrl: database.url,
    clock,
    request,
    api,
    createUser,
    createUsers,
    userRow,
    userByEmail,
    tokenFor,
    serviceToken,
    // The secret and keys the app uses: the ones generated here, or those a test passed in `overrides`.
    serviceSecret: deps.serviceSecret ?? serviceSecret,
    lastMessage,
    /**
     * The live rooms of the app, which record what they are told (`live.events`) and answer the states a test gives
     * them (`live.states.set(roomUuid, state)`); unless the test passed `liveRooms` of its own.
     */
    get live() {
      if (deps.liveRooms !== recordedLiveRooms) throw new Error("this test app has the liveRooms its test passed");
      return recordedLiveRooms;
    },
    /**
     * A test that changes an account, its sanctions or its profile in the database directly (not through the edge)
     * says so here, as an operator would have to: the edge's shared cache holds the account up to a minute otherwise.
     */
    accountChanged: (uuid: string) => forgetAccount(deps.cache, uuid),
    /** Changes the user's row in the database directly, and says so (`accountChanged`), as an operator would. */
    async changeUser(uuid: string, values: Partial<typeof schema.users.$inferInsert>) {
      await database.db.update(schema.users).set(values).where(eq(schema.users.uuid, uuid));
      await forgetAccount(deps.cache, uuid);
    },
    async close() {
      await deps.jobs.stop();
      await cache.close();
      await database.close();
    },
  };
}

/** A queue whose worker in this process starts with the first job: most test files send none. */
function workedOnFirstSend(jobs: Jobs, handlers: () => JobHandlers): Jobs {
  let working: Promise<void> | undefined;
  return {
    ...jobs,
    async send(kind, data, options) {
      working ??= jobs.work(handlers());
      await working;
      return jobs.send(kind, data, options);
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
/** A user `createUser` made, with their token, email and password. */
export type TestUser = Awaited<ReturnType<TestApp["createUser"]>>;

/** An answer's text; an event stream (which does not end by itself) up to its first event, then closed. */
async function bodyText(res: Response) {
  if (!res.body || !res.headers.get("content-type")?.startsWith("text/event-stream")) return res.text();
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  await reader.cancel();
  return text;
}
