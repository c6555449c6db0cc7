import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { type JobQueueSettings, migrateJobs, type SqlExecutor } from "./job-queue.ts";
import * as schema from "./schema/index.ts";

export * from "./job-queue.ts";

export { schema };
export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  db: Db;
  kind: "postgres" | "pglite";
  /** The same connection(s), for the job queue. */
  sql: SqlExecutor;
  /**
   * Brings the schema up to date: Drizzle's migrations, then the job queue's tables (schema `pgboss`) and its queues
   * with their options (`jobs`: the timeout and retries, JOB_TIMEOUT_SECONDS). On PostgreSQL under an advisory lock,
   * so instances started at the same moment and the release step take turns (the later ones find nothing to do).
   */
  migrate(options?: { jobs?: JobQueueSettings }): Promise<void>;
  close(): Promise<void>;
}

/** The advisory lock migrations run under (any fixed number; "booth" in ASCII). */
export const MIGRATION_LOCK = 0x626f6f7468;

/** Rows of every statement: pg-boss runs some commands as one string of several statements. */
const allRows = (results: { rows: unknown[] }[]) => ({
  rows: results.flatMap((r) => r.rows) as Record<string, unknown>[],
});

const WHOLE_TRANSACTION = /^\s*BEGIN;([\s\S]*?);?\s*COMMIT;?\s*$/i;

/** The job queue's executor over postgres.js: parameters over the extended protocol, several statements over the simple one. */
export function postgresExecutor(client: postgres.Sql): SqlExecutor {
  return {
    backend: "postgres",
    async executeSql(text, values) {
      if (values?.length) {
        // As the pg driver does: undefined is null, a date its ISO text, a plain object its JSON text.
        const params = values.map((v) =>
          v === undefined
            ? null
            : v instanceof Date
              ? v.toISOString()
              : v !== null && typeof v === "object" && !Array.isArray(v) && !ArrayBuffer.isView(v)
                ? JSON.stringify(v)
                : v,
        );
        return { rows: [...(await client.unsafe(text, params as postgres.ParameterOrJSON<never>[]))] };
      }
      // postgres.js keeps a transaction on one connection only through begin(): a string that is one
      // transaction (pg-boss's locked commands) runs inside one.
      const transaction = WHOLE_TRANSACTION.exec(text);
      const result = (transaction
        ? await client.begin((tx) => tx.unsafe(transaction[1] ?? "").simple())
        : await client.unsafe(text).simple()) as unknown as unknown[];
      // One statement answers its rows; several answer one row list each.
      const lists = result.length > 0 && result.every(Array.isArray) ? (result as unknown[][]) : [result];
      return allRows(lists.map((rows) => ({ rows })));
    },
  };
}

/** The job queue's executor over PGlite. */
export function pgliteExecutor(client: PGlite): SqlExecutor {
  return {
    backend: "pglite",
    async executeSql(text, values) {
      if (values?.length) {
        const result = await client.query<Record<string, unknown>>(text, values);
        return { rows: result.rows };
      }
      return allRows(await client.exec(text));
    },
  };
}

export interface CreateDbOptions {
  /** A postgres:// URL. When absent, an embedded PGlite database is used. */
  url?: string | undefined;
  /** Folder for the embedded database; absent means in memory. */
  dataDir?: string | undefined;
  /** Connections in the pool (postgres only). */
  max?: number | undefined;
  /** The connections' `application_name` (postgres only), as pg_stat_activity shows them. */
  applicationName?: string | undefined;
  /**
   * `url` goes through a pooler in transaction mode (PgBouncer; Neon's and Supabase's pooled addresses): a server
   * connection is this client's for one transaction only. So no named prepared statement is made (a later query may
   * run on a server connection that never saw it: PgBouncer before 1.21 keeps none), and migrations, whose advisory
   * lock lives as long as a session, go to `directUrl`.
   */
  pooled?: boolean | undefined;
  /** The database's own address, for migrations: required with `pooled`, else `url` is used. */
  directUrl?: string | undefined;
}

/** Why migrations cannot run over a pooled address alone. */
export const POOLED_MIGRATIONS =
  "migrations need the database's direct address beside a pooled one: a pooler in transaction mode would not keep their lock's session";

/** `true` inside a bundle built by scripts/bundle.mjs (esbuild's define); undeclared, hence undefined, from sources. */
declare const BOOTH_BUNDLED: boolean | undefined;

/**
 * The SQL migrations: packages/db/migrations beside these sources; in a built entry (the edge's dist/main.*.js), the
 * copy its build puts in a `migrations` folder beside it.
 */
export const migrationsFolder = fileURLToPath(
  new URL(typeof BOOTH_BUNDLED !== "undefined" && BOOTH_BUNDLED ? "./migrations" : "../migrations", import.meta.url),
);

export async function createDb(options: CreateDbOptions = {}): Promise<Database> {
  if (options.url) {
    const client = postgres(options.url, {
      max: options.max ?? 10,
      prepare: !options.pooled,
      onnotice: () => {},
      // Named in pg_stat_activity (and PgBouncer's SHOW CLIENTS): which connections are Booth's.
      ...(options.applicationName ? { connection: { application_name: options.applicationName } } : {}),
    });
    const db = drizzlePostgres(client, { schema, casing: "snake_case" });
    const migrateUrl = options.directUrl ?? (options.pooled ? undefined : options.url);
    return {
      db: db as unknown as Db,
      kind: "postgres",
      sql: postgresExecutor(client),
      migrate: async (migrateOptions) => {
        if (!migrateUrl) throw new Error(POOLED_MIGRATIONS);
        await migratePostgresLocked(migrateUrl, migrateOptions?.jobs);
      },
      close: () => client.end({ timeout: 5 }),
    };
  }
  // PGlite and its Drizzle driver are loaded only for the embedded database: over a second of CPU at every start of
  // a process that runs on PostgreSQL otherwise.
  const { PGlite } = await import("@electric-sql/pglite");
  const client = options.dataDir ? new PGlite(options.dataDir) : new PGlite();
  await client.waitReady;
  return pgliteDatabase(client);
}

/** A Database over an open PGlite (one process owns it: its migrations need no lock). */
export async function pgliteDatabase(client: PGlite): Promise<Database> {
  const [{ drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  const db = drizzlePglite(client, { schema, casing: "snake_case" });
  const sql = pgliteExecutor(client);
  return {
    db: db as unknown as Db,
    kind: "pglite",
    sql,
    async migrate(options) {
      await migratePglite(db, { migrationsFolder });
      await migrateJobs(sql, options?.jobs);
    },
    close: () => client.close(),
  };
}

/**
 * Migrations on one connection of their own that holds the advisory lock throughout: an instance that starts while
 * another migrates waits for it, then finds the migrations applied.
 */
async function migratePostgresLocked(url: string, jobs: JobQueueSettings | undefined) {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
    try {
      await migratePostgres(drizzlePostgres(client, { schema, casing: "snake_case" }), { migrationsFolder });
      await migrateJobs(postgresExecutor(client), jobs);
    } finally {
      await client`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`;
    }
  } finally {
    await client.end({ timeout: 5 });
  }
}
