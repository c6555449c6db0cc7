import { PgBoss, type Queue, type QueueOptions } from "pg-boss";

/** Raw SQL as the job queue (pg-boss) sends it: one statement with `$n` parameters, or several without. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** What it talks to: pg-boss's backend profile for it (the embedded PGlite is one connection in this process). */
  readonly backend: "postgres" | "pglite";
}

/** The schema the job queue keeps its tables in. */
export const JOBS_SCHEMA = "pgboss";

/**
 * The queues, one per kind of job Booth runs (apps/edge/src/ports/jobs.ts types what each carries). They are part of
 * the database's schema: the release step makes them, with their options, under the migrations' lock.
 */
export const JOB_KINDS = [
  "transcode",
  "generate-song",
  "demo-catalogue",
  "playlist-import",
  "discord-announce",
] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/**
 * Each queue's policy. A kind whose jobs are sent with a key is `exclusive`: one job a key, waiting or running, and a
 * second send with the key while one does is refused (the demo catalogue once however many edges open the demo, a
 * playlist import once). The others are `standard`: any number at once (a key would mean nothing there).
 */
export const JOB_POLICIES: Record<JobKind, "standard" | "exclusive"> = {
  transcode: "standard",
  "generate-song": "standard",
  "demo-catalogue": "exclusive",
  "playlist-import": "exclusive",
  "discord-announce": "standard",
};

export interface JobQueueSettings {
  /**
   * How long a job may run before it counts as lost (its worker died) and runs again: JOB_TIMEOUT_SECONDS, default
   * 600 (ffmpeg's own limit is five minutes a run).
   */
  timeoutSeconds?: number | undefined;
  /** Runs after the first failure (a lost job's second run counts as one), with doubling waits from `retryDelaySeconds`. */
  retryLimit?: number | undefined;
  retryDelaySeconds?: number | undefined;
}

/** A week, in seconds. */
const WEEK = 7 * 24 * 60 * 60;

/** The options of every queue (and of every job sent, which carries its sender's): timeout, retries, retention. */
export function jobQueueOptions(settings: JobQueueSettings = {}) {
  return {
    expireInSeconds: settings.timeoutSeconds ?? 600,
    retryLimit: settings.retryLimit ?? 4,
    retryDelay: settings.retryDelaySeconds ?? 5,
    retryBackoff: true,
    // Finished jobs stay visible for a week (the admin's job list, `booth jobs`).
    deleteAfterSeconds: WEEK,
  } satisfies QueueOptions;
}

/**
 * How often lost jobs are looked for (pg-boss's supervision): never later than a tenth of their timeout past it, and
 * at least once a minute.
 */
export const lostJobCheckSeconds = (timeoutSeconds: number) =>
  Math.min(60, Math.max(1, Math.ceil(timeoutSeconds / 10)));

/** The oldest schema of the job queue pg-boss 12 upgrades: pg-boss 11.0's (pg-boss 10 made version 24). */
const OLDEST_UPGRADABLE_VERSION = 25;

/**
 * Installs or upgrades the job queue's tables, then makes each queue or brings its options up to date. The release
 * step runs it (Database.migrate(), under the migrations' lock on PostgreSQL); it waits for pg-boss's background
 * index builds of an upgrade too, since no running instance makes them (they start with `migrate: false`).
 */
export async function migrateJobs(sql: SqlExecutor, settings: JobQueueSettings = {}) {
  await refuseUnupgradable(sql);
  const boss = new PgBoss({
    db: sql,
    schema: JOBS_SCHEMA,
    backend: sql.backend,
    migrate: true,
    supervise: false,
    schedule: false,
    registerInstance: false,
  });
  let failure: unknown;
  boss.on("error", (err) => {
    failure ??= err;
  });
  await boss.start();
  try {
    const options = jobQueueOptions(settings);
    const existing = new Map((await boss.getQueues([...JOB_KINDS])).map((queue) => [queue.name, queue]));
    for (const kind of JOB_KINDS) {
      const queue = existing.get(kind);
      const policy = JOB_POLICIES[kind];
      if (!queue) await retryOnConflict(() => boss.createQueue(kind, { ...options, policy }));
      else if (queue.policy !== policy)
        throw new Error(
          `the job queue "${kind}" has the policy ${queue.policy}, Booth needs ${policy}, and pg-boss cannot change a queue's policy: once it holds no waiting or running job, delete it (SELECT ${JOBS_SCHEMA}.delete_queue('${kind}')) and migrate again`,
        );
      else if (differs(queue, options)) await retryOnConflict(() => boss.updateQueue(kind, options));
    }
    await backgroundMigrations(boss);
    if (failure) throw failure;
  } finally {
    await boss.stop({ graceful: true, close: false, timeout: 5000 });
  }
}

/** Whether a queue's stored options differ from `options` (an unchanged queue is not written to). */
function differs(queue: Queue, options: ReturnType<typeof jobQueueOptions>) {
  return (Object.keys(options) as (keyof typeof options)[]).some((key) => queue[key] !== options[key]);
}

/** A job queue from pg-boss 10 cannot be upgraded by pg-boss 12: said plainly rather than as pg-boss's assertion. */
async function refuseUnupgradable(sql: SqlExecutor) {
  const { rows } = await sql.executeSql(`SELECT to_regclass('${JOBS_SCHEMA}.version') IS NOT NULL AS installed`);
  if (!rows[0]?.installed) return;
  const version = Number((await sql.executeSql(`SELECT version FROM ${JOBS_SCHEMA}.version`)).rows[0]?.version);
  if (version >= OLDEST_UPGRADABLE_VERSION) return;
  throw new Error(
    `the job queue's tables (schema "${JOBS_SCHEMA}", version ${version}) are pg-boss 10's, which pg-boss 12 cannot upgrade: move them aside (ALTER SCHEMA ${JOBS_SCHEMA} RENAME TO ${JOBS_SCHEMA}_v${version}) and migrate again (jobs still waiting there are not carried over)`,
  );
}

/**
 * Waits for pg-boss's background migrations (the index builds an upgrade leaves to run outside its transaction): they
 * start with pg-boss and run one after another. A failed one fails the release step, with its error.
 */
async function backgroundMigrations(boss: PgBoss, timeoutMs = 10 * 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await boss.getBamStatus();
    const count = (name: string) => status.find((row) => row.status === name)?.count ?? 0;
    if (count("pending") + count("in_progress") === 0 && !boss.isBamWorking()) {
      if (count("failed") === 0) return;
      const [failed] = (await boss.getBamEntries()).filter((entry) => entry.status === "failed");
      throw new Error(`a background migration of the job queue failed (${failed?.name}): ${failed?.error}`);
    }
    if (Date.now() > deadline)
      throw new Error(`the job queue's background migrations did not finish in ${timeoutMs / 60_000} minutes`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** PostgreSQL's codes for a transaction it rolled back to break a deadlock, or to keep transactions serializable. */
const CONFLICTS = new Set(["40P01", "40001"]);

/**
 * Runs `action`, again after a short, jittered and growing wait when PostgreSQL rolled it back over a deadlock or a
 * serialization failure (another process wrote the same rows at that moment); up to `attempts` times in all.
 */
export async function retryOnConflict<T>(action: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await action();
    } catch (err) {
      if (attempt >= attempts || !CONFLICTS.has(sqlState(err) ?? "")) throw err;
      await new Promise((r) => setTimeout(r, (25 + Math.random() * 75) * 2 ** (attempt - 1)));
    }
  }
}

/** The SQLSTATE of a database error (postgres.js and PGlite name it `code`), through its causes. */
export function sqlState(err: unknown): string | undefined {
  for (let cause = err, depth = 0; cause && typeof cause === "object" && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}
