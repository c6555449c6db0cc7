import { readFileSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { createDb, JOBS_SCHEMA, migrationsFolder } from "./index.ts";

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
      // The job queue's tables came with them.
      const version = await instances[1]!.sql.executeSql(`SELECT version FROM ${JOBS_SCHEMA}.version`);
      expect(version.rows).toHaveLength(1);
    } finally {
      await Promise.all(instances.map((db) => db.close()));
    }
  }, 60_000);
});
