/**
 * The edge as production runs it: `npm run build -w @booth/edge` (dist/main.*.js), started with plain Node (no tsx)
 * from a folder outside the repository, on the embedded database and on a fresh PostgreSQL one.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BOOTH_VERSION } from "@booth/sdk/version";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT, missingBuild } from "../../../scripts/need-build.mjs";
import { buildEdge, DIST } from "../scripts/build.mjs";
import { type ChildRun, freePort, spawnChild, waitForServer } from "../src/testing/child-server.ts";
import { until } from "../src/testing/until.ts";

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) console.warn("built.test.ts: the PostgreSQL case skipped: set TEST_DATABASE_URL");

let built: Record<string, string>;
const runs: ChildRun[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  built = await buildEdge();
}, 120_000);
afterAll(async () => {
  for (const run of runs) await run.stop(3000);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function tempDir(prefix: string) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/**
 * A built entry under `node --enable-source-maps`, as start:prod runs it, from a folder of its own (nothing found
 * from the working directory), on the embedded defaults unless `env` says otherwise.
 */
async function startBuilt(entry: string, env: Record<string, string>) {
  const dataDir = await tempDir("booth-built-");
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    REDIS_URL: "",
    INIT_CWD: "",
    SEED_DEMO: "false",
    ...env,
  };
  // Nothing of the test runner's loaders: the file runs as Node finds it.
  delete environment.NODE_OPTIONS;
  const run = spawnChild({ args: ["--enable-source-maps", built[entry] ?? ""], cwd: dataDir, env: environment });
  runs.push(run);
  return run;
}

/** Waits until the built edge on `port` is ready, and answers its /readyz. */
async function ready(run: ChildRun, port: number) {
  return waitForServer(run, {
    name: "the built edge",
    ready: async () => {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      return res.status === 200 ? await res.json() : null;
    },
    timeoutMs: 120_000,
  });
}

describe("the built edge", () => {
  it("serves the API, its docs and its health on the embedded database and cache", async () => {
    const port = await freePort();
    const run = await startBuilt("main.node", { PORT: String(port) });
    const base = `http://127.0.0.1:${port}`;
    expect(await ready(run, port)).toEqual({ status: "ok", database: "ok", cache: "ok" });
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: "ok", version: BOOTH_VERSION });
    // Routes of the API: the key the edge signs its tokens with (made in DATA_DIR at the first start), and a login
    // of the first admin it printed (the database, and the password hashing's native addon from node_modules).
    const key = await fetch(`${base}/api/user-service/auth/pub-key`);
    expect(key.status).toBe(200);
    expect(await key.json()).toMatchObject({ alg: "ES256" });
    const [, email, password] = run.output().match(/First admin created: (\S+) \/ (\S+)/) ?? [];
    expect(email).toBe("admin@booth.local");
    const login = await fetch(`${base}/api/user-service/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    expect(login.status).toBe(200);
    expect((await login.json()).user.roles).toContain("admin");
    // The docs' scripts, which the edge finds in the swagger-ui-dist package from the bundle's folder.
    const swagger = await fetch(`${base}/docs/swagger-ui-bundle.js`);
    expect(swagger.status).toBe(200);
    expect((await swagger.text()).length).toBeGreaterThan(100_000);
    expect(run.output()).toContain("database: pglite");
    await run.stop(10_000);
  }, 180_000);

  it.skipIf(!serverUrl)(
    "migrates a fresh PostgreSQL database, then the edge and the job worker start on it",
    async () => {
      const name = `booth_built_${process.pid}_${Date.now().toString(36)}`;
      const admin = postgres(serverUrl ?? "", { max: 1, onnotice: () => {} });
      await admin.unsafe(`CREATE DATABASE "${name}"`);
      const url = new URL(serverUrl ?? "");
      url.pathname = `/${name}`;
      const database = postgres(url.toString(), { max: 1, onnotice: () => {} });
      try {
        const migrate = await startBuilt("main.migrate", { DATABASE_URL: url.toString() });
        const code = await migrate.exited;
        expect(code, migrate.output()).toBe(0);
        expect(migrate.output()).toMatch(/Database up to date \(\d+ ms\)/);
        // Every migration of the copy beside the bundle is applied, and the job queue's tables are made.
        const journal = JSON.parse(readFileSync(join(DIST, "migrations", "meta", "_journal.json"), "utf8"));
        const [applied] = await database`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`;
        expect(applied?.n).toBe(journal.entries.length);
        const [queue] =
          await database`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'pgboss'`;
        expect(queue?.n).toBeGreaterThan(0);

        const port = await freePort();
        const edge = await startBuilt("main.node", {
          PORT: String(port),
          DATABASE_URL: url.toString(),
          RUN_JOBS: "false",
        });
        const worker = await startBuilt("main.worker", { DATABASE_URL: url.toString() });
        expect(await ready(edge, port)).toMatchObject({ status: "ok", database: "ok" });
        expect(edge.output()).toContain("database: postgres");
        const login = await fetch(`http://127.0.0.1:${port}/api/user-service/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "nobody@booth.test", password: "not the password" }),
        });
        expect(login.status).toBe(401);
        await until(
          () => worker.child.exitCode !== null || worker.output().includes("Booth job worker running"),
          "the built worker's start line",
          60_000,
        );
        expect(worker.output()).toContain(`Booth job worker running (Booth ${BOOTH_VERSION}, database: postgres`);
        await Promise.all([edge.stop(10_000), worker.stop(10_000)]);
      } finally {
        await database.end({ timeout: 5 });
        await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end({ timeout: 5 });
      }
    },
    180_000,
  );

  it("names the TypeScript sources in a stack trace (source maps)", async () => {
    // A DATABASE_URL that is no URL throws inside @booth/db's createDb, called from the migrate entry.
    const run = await startBuilt("main.migrate", { DATABASE_URL: "not a url" });
    expect(await run.exited).not.toBe(0);
    expect(run.output()).toMatch(/at createDb \(.*packages\/db\/src\/index\.ts:\d+:\d+\)/);
    expect(run.output()).toMatch(/apps\/edge\/src\/main\.migrate\.ts:\d+:\d+/);
  });
});

describe("start:prod without a build", () => {
  it("says in one line to run npm run build first", async () => {
    const app = join(await tempDir("booth-unbuilt-"), "edge");
    expect(missingBuild(app)).toMatch(/^edge: .*edge\/dist\/main\.node\.js is missing: run npm run build first$/);
    // The edge as built here has every file start:prod needs.
    expect(BUILT.edge?.length).toBeGreaterThan(0);
    expect(missingBuild(join(DIST, ".."))).toBeNull();
  });
});
