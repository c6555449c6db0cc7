import { JOBS_SCHEMA, type SqlExecutor } from "@booth/db";
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
}
export type JobKind = keyof JobPayloads;
export const JOB_KINDS = [
  "transcode",
  "generate-song",
  "demo-catalogue",
  "playlist-import",
] as const satisfies readonly JobKind[];

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
  /** Queues a job; with a `key`, not while another job of that kind and key waits or runs. Answers its id. */
  send<K extends JobKind>(kind: K, data: JobPayloads[K], options?: { key?: string }): Promise<string | null>;
  /** Works every queue in this process (the embedded edge, `npm run start:worker`) until stop(). */
  work(handlers: JobHandlers): Promise<void>;
  get(kind: JobKind, id: string): Promise<JobStatus | null>;
  /** The latest jobs, newest first, of one kind or state when given. */
  list(filter: { kind?: JobKind | undefined; state?: JobState | undefined; limit: number }): Promise<JobStatus[]>;
  /** How many jobs there are of each kind in each state (the queue's depth, for the metrics). */
  depth(): Promise<{ kind: string; state: string; count: number }[]>;
  /** Stops working (a running job finishes first, up to a few seconds) and sending. */
  stop(): Promise<void>;
}

export interface JobsOptions {
  /**
   * How long a job may run before it counts as lost (its worker died) and runs again: JOB_TIMEOUT_SECONDS, default
   * 600 (ffmpeg's own limit is five minutes a run).
   */
  timeoutSeconds?: number;
  /** Runs after the first failure, with doubling waits from `retryDelaySeconds`. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** How often an idle worker asks for work. */
  pollSeconds?: number;
  /** Where a job's start, end and failure are told (the app's Logger). */
  logger: (entry: Record<string, unknown>) => void;
}

/**
 * The job queue on the database (pg-boss; on PostgreSQL and on the embedded PGlite alike): jobs survive restarts, a
 * job whose worker died runs again once its timeout passes, a failing job is retried with backoff and keeps its last
 * error. Any number of instances send; any number work (each job runs on one at a time).
 */
export function pgBossJobs(sql: SqlExecutor, options: JobsOptions): Jobs {
  const timeoutSeconds = options.timeoutSeconds ?? 600;
  const boss = new PgBoss({
    db: sql,
    schema: JOBS_SCHEMA,
    // `npm run migrate` (or the start of an instance) installs the tables; here they must exist already.
    migrate: false,
    // Lost jobs are noticed this often: never later than a tenth of their timeout past it, and at least once a minute.
    maintenanceIntervalSeconds: Math.min(60, Math.max(1, Math.ceil(timeoutSeconds / 10))),
    schedule: false,
  });
  boss.on("error", (err) => options.logger({ level: "error", msg: "job queue error", err: String(err) }));
  const queueOptions = {
    retryLimit: options.retryLimit ?? 4,
    retryDelay: options.retryDelaySeconds ?? 5,
    retryBackoff: true,
    expireInSeconds: timeoutSeconds,
    // Finished jobs stay visible for a week.
    deleteAfterSeconds: 7 * 24 * 60 * 60,
  };
  let started: Promise<void> | undefined;
  const start = () => {
    started ??= (async () => {
      await boss.start();
      for (const kind of JOB_KINDS) {
        await boss.createQueue(kind, queueOptions);
        await boss.updateQueue(kind, queueOptions);
      }
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
    async send(kind, data, sendOptions = {}) {
      await start();
      const id = await boss.send(kind, data as object, {
        ...queueOptions,
        ...(sendOptions.key ? { singletonKey: sendOptions.key } : {}),
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
