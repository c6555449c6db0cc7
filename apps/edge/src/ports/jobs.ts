import {
  JOB_KINDS,
  JOB_POLICIES,
  JOBS_SCHEMA,
  type JobKind,
  type JobQueueSettings,
  jobQueueOptions,
  lostJobCheckSeconds,
  type SqlExecutor,
} from "@booth/db";
import { PgBoss } from "pg-boss";

/** Work that outlives the request that asked for it, by kind, with what each needs to know. */
export interface JobPayloads {
  /** Publish a verified upload and transcode it to HLS (services/upload/pipeline.ts `settle`). */
  transcode: { uploadId: string };
  /** Make a paid-for song, then commit or void its hold (services/upload/gen-songs.ts). */
  "generate-song": {
    uploadId: string;
    holdId: string;
    prompt: string;
    duration: number;
    title: string;
    artist: string;
  };
  /** Synthesise and transcode the demo catalogue's tracks (seed/demo-catalogue.ts). */
  "demo-catalogue": { ownerUuid: string };
  /** Add a provider playlist's tracks to the crate made for it (services/playlist/playlist-imports.ts). */
  "playlist-import": { importId: string };
  /** Post a followed DJ's start to their room's guild's channel (services/room/discord-announce.ts). */
  "discord-announce": {
    /** This start: it holds the DJ's claim on the room's 30 minutes while its job retries. */
    startId: string;
    roomUuid: string;
    djUuid: string;
    song: { trackName: string; artistName: string } | null;
    /** How many times Discord asked to wait (429) so far. */
    waits: number;
  };
}
// The kinds are the queues the release step makes (packages/db's JOB_KINDS); a kind without a payload above does not
// compile (JobPayloads[K] below).
export { JOB_KINDS, type JobKind };

export type JobHandlers = { [K in JobKind]: (data: JobPayloads[K]) => Promise<void> };

/** What became of a job: waiting, running, done, retrying or failed for good; how many runs; the last error. */
export const JOB_STATES = ["created", "retry", "active", "completed", "cancelled", "failed"] as const;
export type JobState = (typeof JOB_STATES)[number];

export interface JobStatus {
  id: string;
  kind: JobKind;
  state: JobState;
  attempts: number;
  lastError: string | null;
  /** What it works on (an upload's id, ...). */
  data: Record<string, unknown>;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface Jobs {
  /**
   * Connects to the job queue and checks that the release step made its queues; the others start it when first
   * needed. An instance's start calls it, so that a queue it cannot use fails the start rather than a later request.
   */
  start(): Promise<void>;
  /**
   * Queues a job. With a `key` (kinds whose queue is exclusive: the demo catalogue, playlist imports), not while
   * another job of that kind and key waits or runs: answers null then. With `startAfterSeconds`, not worked before
   * then. Answers its id.
   */
  send<K extends JobKind>(
    kind: K,
    data: JobPayloads[K],
    options?: { key?: string; startAfterSeconds?: number },
  ): Promise<string | null>;
  /** Works every queue in this process (the embedded edge, `npm run start:worker`) until stop(). */
  work(handlers: JobHandlers): Promise<void>;
  get(kind: JobKind, id: string): Promise<JobStatus | null>;
  /** The latest jobs, newest first, of one kind or state when given. */
  list(filter: { kind?: JobKind | undefined; state?: JobState | undefined; limit: number }): Promise<JobStatus[]>;
  /** How many jobs there are of each kind in each state (the queue's depth, for the metrics). */
  depth(): Promise<{ kind: string; state: string; count: number }[]>;
  /**
   * Stops working and sending: a running job gets a few seconds to finish, then goes back to the queue (failed, so
   * it is retried) for another worker.
   */
  stop(): Promise<void>;
}

export interface JobsOptions extends JobQueueSettings {
  /** How often an idle worker asks for work. */
  pollSeconds?: number;
  /** Where a job's start, end and failure are told (the app's Logger), and the queue's errors after start. */
  logger: (entry: Record<string, unknown>) => void;
}

/** JOB_TIMEOUT_SECONDS: how long a job may run before it counts as lost and runs again (the default when unset). */
export function jobSettingsFrom(settings: { JOB_TIMEOUT_SECONDS?: number | undefined }): JobQueueSettings {
  return { timeoutSeconds: settings.JOB_TIMEOUT_SECONDS };
}

/** A start that finds the release step has not made the job queue's queues (MIGRATE_ON_START=false, no migrate). */
export class MissingQueuesError extends Error {
  override name = "MissingQueuesError";
}

/**
 * The job queue on the database (pg-boss; on PostgreSQL and on the embedded PGlite alike): jobs survive restarts, a
 * job whose worker died runs again once its timeout passes, a failing job is retried with backoff and keeps its last
 * error. Any number of instances send; any number work (each job runs on one at a time). The queues are the release
 * step's (packages/db's migrateJobs): an instance only uses them, so instances started together write nothing to
 * them at start.
 */
export function pgBossJobs(sql: SqlExecutor, options: JobsOptions): Jobs {
  const timeoutSeconds = options.timeoutSeconds ?? 600;
  const checkSeconds = lostJobCheckSeconds(timeoutSeconds);
  const boss = new PgBoss({
    db: sql,
    schema: JOBS_SCHEMA,
    backend: sql.backend,
    // The release step (`npm run migrate`, or the start of an instance) installs the tables and makes the queues.
    migrate: false,
    // Lost jobs (active past their timeout) are looked for on each supervision pass, of each queue at most once a
    // monitor interval, by whichever instance claims it first.
    superviseIntervalSeconds: checkSeconds,
    monitorIntervalSeconds: checkSeconds,
    schedule: false,
  });
  // After start, pg-boss's own work (supervision, polling, its registry of instances) reports its failures here; one
  // is told, and the work goes on at its next turn.
  boss.on("error", (err) => options.logger({ level: "error", msg: "job queue error", err: String(err) }));
  // Each job carries its sender's timeout and retries (the queue's own, set by the release step, are the defaults
  // for a job sent by anything else).
  const jobOptions = jobQueueOptions(options);
  let started: Promise<void> | undefined;
  const start = () => {
    started ??= (async () => {
      await boss.start().catch((err: unknown) => {
        // pg-boss's own words for a database the release step has not migrated yet.
        if (err instanceof Error && err.message === "pg-boss is not installed")
          throw new MissingQueuesError(
            "the job queue's tables are not there: run the release step (npm run migrate) first, or start with MIGRATE_ON_START=true",
          );
        throw err;
      });
      const made = new Set((await boss.getQueues([...JOB_KINDS])).map((queue) => queue.name));
      const missing = JOB_KINDS.filter((kind) => !made.has(kind));
      if (missing.length)
        throw new MissingQueuesError(
          `the job queue has no queue ${missing.join(", ")}: run the release step (npm run migrate) first, or start with MIGRATE_ON_START=true`,
        );
    })();
    return started;
  };
  const workers: string[] = [];
  let stopped = false;
  async function query(filter: {
    kind?: JobKind | undefined;
    state?: JobState | undefined;
    id?: string;
    limit: number;
  }) {
    await start();
    const { rows } = await sql.executeSql(
      `SELECT id, name, state, retry_count, output, data, created_on, started_on, completed_on
         FROM ${JOBS_SCHEMA}.job
        WHERE ($1::text IS NULL OR name = $1) AND ($2::text IS NULL OR state::text = $2)
          AND ($3::uuid IS NULL OR id = $3)
        ORDER BY created_on DESC
        LIMIT $4`,
      [filter.kind ?? null, filter.state ?? null, filter.id ?? null, filter.limit],
    );
    return rows.map(jobStatus);
  }
  return {
    start,
    async send(kind, data, sendOptions = {}) {
      // On a standard queue pg-boss would store the key and hold nothing to it.
      if (sendOptions.key && JOB_POLICIES[kind] !== "exclusive")
        throw new Error(`jobs of kind ${kind} take no key: its queue is not exclusive (JOB_POLICIES)`);
      await start();
      const id = await boss.send(kind, data as object, {
        ...jobOptions,
        ...(sendOptions.key ? { singletonKey: sendOptions.key } : {}),
        ...(sendOptions.startAfterSeconds ? { startAfter: sendOptions.startAfterSeconds } : {}),
      });
      // A worker in this process starts on it now rather than at its next poll.
      for (const worker of workers) boss.notifyWorker(worker);
      return id;
    },
    async work(handlers) {
      await start();
      for (const kind of JOB_KINDS) {
        const handler = handlers[kind] as (data: unknown) => Promise<void>;
        const id = await boss.work(
          kind,
          { batchSize: 1, pollingIntervalSeconds: options.pollSeconds ?? 2 },
          async ([job]) => {
            if (!job) return;
            options.logger({ level: "info", msg: "job started", kind, jobId: job.id });
            try {
              await handler(job.data);
            } catch (err) {
              options.logger({ level: "error", msg: "job failed", kind, jobId: job.id, err: String(err) });
              throw err;
            }
            options.logger({ level: "info", msg: "job done", kind, jobId: job.id });
          },
        );
        workers.push(id);
      }
    },
    async get(kind, id) {
      const [job] = await query({ kind, id, limit: 1 });
      return job ?? null;
    },
    list: (filter) => query(filter),
    async depth() {
      await start();
      const { rows } = await sql.executeSql(
        `SELECT name, state::text AS state, count(*)::int AS count FROM ${JOBS_SCHEMA}.job GROUP BY name, state`,
        [],
      );
      return rows.map((r) => ({ kind: String(r.name), state: String(r.state), count: Number(r.count) }));
    },
    async stop() {
      if (stopped || !started) return;
      stopped = true;
      await started.catch(() => {});
      await boss.stop({ graceful: true, close: false, timeout: 5000 });
    },
  };
}

const asDate = (value: unknown) => (value ? new Date(value as string) : null);

/** A row of pg-boss's job table as Booth shows it: attempts counted from one, the last error's message. */
function jobStatus(row: Record<string, unknown>): JobStatus {
  const output = row.output as { message?: unknown } | null;
  const started = asDate(row.started_on);
  return {
    id: String(row.id),
    kind: row.name as JobKind,
    state: row.state as JobState,
    attempts: Number(row.retry_count ?? 0) + (started ? 1 : 0),
    lastError: output && typeof output.message === "string" ? output.message : null,
    data: (row.data ?? {}) as Record<string, unknown>,
    createdAt: asDate(row.created_on) ?? new Date(0),
    startedAt: started,
    finishedAt: row.state === "completed" || row.state === "failed" ? asDate(row.completed_on) : null,
  };
}
