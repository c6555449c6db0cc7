import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import postgres from "postgres";
import {
  createDb,
  type Database,
  JOB_POLICIES,
  jobQueueOptions,
  migrateJobs,
  migrationsFolder,
  pgliteDatabase,
  pgliteExecutor,
} from "./index.ts";
import * as schema from "./schema/index.ts";

/**
 * A fresh, migrated database for one test file: a new database on the server in TEST_DATABASE_URL (dropped on
 * close), or an in-memory PGlite when it is unset. Nothing is shared between files: the migrations run once (per
 * version of the migrations folder), into a template each file's database is copied from (testTemplate()).
 */
export async function createTestDatabase(): Promise<Database & { url?: string }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return pgliteFromDump(await pgliteDump());
  const name = `booth_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await retry(async () => {
    const template = await postgresTemplate(serverUrl);
    try {
      await admin.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    } catch (err) {
      // Another checkout's run (other migrations) removed it as stale: make it again.
      if ((err as { code?: string }).code === "3D000") postgresTemplateMade = undefined;
      throw err;
    }
  });
  const url = databaseUrl(serverUrl, name);
  const database = await createDb({ url, max: 5 });
  return {
    ...database,
    /** For a process the test starts on the same database. */
    url,
    async close() {
      await database.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end({ timeout: 5 });
    },
  };
}

/**
 * Makes the migrated template the test databases are copied from, unless it exists: vitest's globalSetup calls it
 * once per run (packages/db/src/testing-setup.ts); createTestDatabase() calls it too, so a run without that setup
 * still works. Templates are keyed by a hash of the migrations folder: a changed migration makes a new one, and the
 * stale ones are removed.
 */
export async function testTemplate(): Promise<string> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  return serverUrl ? postgresTemplate(serverUrl) : pgliteDump();
}

/**
 * The migrations folder's contents, the job queue's queues and PGlite's version (whose data folders a dump holds),
 * hashed.
 */
function migrationsHash() {
  const hash = createHash("sha256");
  hash.update(`pglite ${packageVersion("@electric-sql/pglite")}\npg-boss ${packageVersion("pg-boss")}\n`);
  hash.update(`${JSON.stringify({ queues: JOB_POLICIES, options: jobQueueOptions() })}\n`);
  for (const dir of [migrationsFolder, join(migrationsFolder, "meta")]) {
    for (const file of readdirSync(dir).sort()) {
      if (!file.endsWith(".sql") && file !== "_journal.json") continue;
      hash.update(`${file}\n`).update(readFileSync(join(dir, file)));
    }
  }
  return hash.digest("hex").slice(0, 16);
}

/** The installed version of a package: PGlite's data folders, and the job queue's tables, depend on it. */
function packageVersion(name: string) {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  for (; dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
    if (pkg.name === name) return pkg.version;
  }
  return "unknown";
}

const TEMPLATE_PREFIX = "booth_tpl_";

let postgresTemplateMade: Promise<string> | undefined;
function postgresTemplate(serverUrl: string) {
  postgresTemplateMade ??= makePostgresTemplate(serverUrl);
  return postgresTemplateMade;
}

/** A migrated database on the server, built under a lock by one process and renamed once complete. */
async function makePostgresTemplate(serverUrl: string) {
  const hash = migrationsHash();
  const name = `${TEMPLATE_PREFIX}${hash}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    const exists = async () => (await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`).length > 0;
    if (await exists()) return name;
    const lock = Number.parseInt(hash.slice(0, 8), 16);
    await admin`SELECT pg_advisory_lock(${lock})`;
    try {
      if (await exists()) return name;
      const building = `${name}_building`;
      await admin.unsafe(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.unsafe(`CREATE DATABASE "${building}"`);
      const database = await createDb({ url: databaseUrl(serverUrl, building), max: 1 });
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
      await retry(() => admin.unsafe(`ALTER DATABASE "${building}" RENAME TO "${name}"`));
      await admin.unsafe(`COMMENT ON DATABASE "${name}" IS 'built ${Date.now()}'`);
      // Templates of other migrations are stale: removed when nothing copies from them, and a day old (another
      // checkout on the same server may still be testing its own migrations).
      const dayAgo = Date.now() - 24 * 3600_000;
      const stale = (
        await admin<{ datname: string; note: string | null }[]>`
          SELECT datname, shobj_description(oid, 'pg_database') AS note FROM pg_database
          WHERE datname LIKE ${`${TEMPLATE_PREFIX}%`} AND datname <> ${name}`
      ).filter(({ note }) => Number(note?.replace("built ", "") ?? 0) < dayAgo);
      for (const { datname } of stale) await admin.unsafe(`DROP DATABASE IF EXISTS "${datname}"`).catch(() => {});
      return name;
    } finally {
      await admin`SELECT pg_advisory_unlock(${lock})`;
    }
  } finally {
    await admin.end({ timeout: 5 });
  }
}

let pgliteDumpMade: Promise<string> | undefined;
function pgliteDump() {
  pgliteDumpMade ??= makePgliteDump();
  return pgliteDumpMade;
}

/** A migrated PGlite data folder, as a tar file in the temporary folder (written whole, then renamed in place). */
async function makePgliteDump() {
  const folder = join(tmpdir(), "booth-test-db");
  const file = join(folder, `pglite-${migrationsHash()}.tar`);
  if (existsSync(file)) return file;
  await mkdir(folder, { recursive: true });
  const client = new PGlite();
  try {
    await migratePglite(drizzle(client, { schema, casing: "snake_case" }), { migrationsFolder });
    await migrateJobs(pgliteExecutor(client));
    const dump = await client.dumpDataDir("none");
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 8)}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
  } finally {
    await client.close();
  }
  for (const other of readdirSync(folder))
    if (other.startsWith("pglite-") && join(folder, other) !== file && !other.includes(".tar."))
      await rm(join(folder, other), { force: true });
  return file;
}

/** An in-memory PGlite loaded from the migrated dump. */
async function pgliteFromDump(file: string): Promise<Database> {
  const client = new PGlite({ loadDataDir: new Blob([await readFile(file)]) });
  await client.waitReady;
  return pgliteDatabase(client);
}

function databaseUrl(serverUrl: string, name: string) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** CREATE DATABASE ... TEMPLATE refuses while a connection to the template is still closing: tries again. */
async function retry<T>(action: () => Promise<T>, attempts = 20): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await action();
    } catch (err) {
      const message = String((err as Error)?.message);
      const passing =
        message.includes("being accessed by other users") || /template database .* does not exist/.test(message);
      if (attempt >= attempts || !passing) throw err;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}
