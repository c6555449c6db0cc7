import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import {
  createDb,
  type Database,
  JOB_KINDS,
  JOB_POLICIES,
  JOBS_SCHEMA,
  migrationsFolder,
  pgliteDatabase,
} from "./index.ts";

// Instances of the edge started at the same moment on an empty database each migrate it at start; on PostgreSQL
// they take turns under an advisory lock. Needs a server: TEST_DATABASE_URL.
const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) console.warn("migrate.test.ts skipped: set TEST_DATABASE_URL to migrate a PostgreSQL database");

const name = `booth_migrate_${process.pid}_${Date.now().toString(36)}`;
const admin = serverUrl ? postgres(serverUrl, { max: 1, onnotice: () => {} }) : undefined;
afterAll(async () => {
  await admin?.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin?.end({ timeout: 5 });
});

/** The job queue's queues as stored: name, policy and the options Booth sets. */
async function queues(database: Database) {
  const { rows } = await database.sql.executeSql(
    `SELECT name, policy, expire_seconds, retry_limit, retry_delay, retry_backoff, deletion_seconds
       FROM ${JOBS_SCHEMA}.queue ORDER BY name`,
  );
  return rows.map((row) => ({ ...row }));
}

/** Every kind's queue, with a job timeout of `timeoutSeconds` and the other options' defaults. */
const expectedQueues = (timeoutSeconds: number) =>
  [...JOB_KINDS].sort().map((name) => ({
    name,
    policy: JOB_POLICIES[name],
    expire_seconds: timeoutSeconds,
    retry_limit: 4,
    retry_delay: 5,
    retry_backoff: true,
    deletion_seconds: 7 * 24 * 60 * 60,
  }));

describe("the job queue's queues, on the embedded PGlite", () => {
  it("are made by the migration with their options, and brought up to date by the next", async () => {
    const database = await pgliteDatabase(new PGlite());
    try {
      await database.migrate({ jobs: { timeoutSeconds: 30 } });
      expect(await queues(database)).toEqual(expectedQueues(30));
      await database.migrate({ jobs: { timeoutSeconds: 90 } });
      expect(await queues(database)).toEqual(expectedQueues(90));
    } finally {
      await database.close();
    }
  }, 60_000);
});

describe.skipIf(!serverUrl)("migrations on PostgreSQL", () => {
  it("three instances migrating one empty database at once all come up, and each migration runs once", async () => {
    await admin?.unsafe(`CREATE DATABASE "${name}"`);
    const url = new URL(serverUrl ?? "");
    url.pathname = `/${name}`;
    const instances = await Promise.all([1, 2, 3].map(() => createDb({ url: url.toString(), max: 2 })));
    try {
      const results = await Promise.allSettled(instances.map((db) => db.migrate()));
      expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "ok"))).toEqual(["ok", "ok", "ok"]);
      const journal = JSON.parse(readFileSync(join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
        entries: unknown[];
      };
      const { rows } = await instances[0]!.sql.executeSql(
        "SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations",
      );
      expect(rows[0]?.n).toBe(journal.entries.length);
      // The job queue's tables came with them, and its queues.
      const version = await instances[1]!.sql.executeSql(`SELECT version FROM ${JOBS_SCHEMA}.version`);
      expect(version.rows).toHaveLength(1);
      expect(await queues(instances[2]!)).toEqual(expectedQueues(600));
    } finally {
      await Promise.all(instances.map((db) => db.close()));
    }
  }, 60_000);
});
