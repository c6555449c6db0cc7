/**
 * Instances started at the same moment on one PostgreSQL (a deploy, a scale-up, a restart of everything) all come up:
 * two edges that work jobs and a job worker, again and again on a fresh database, on one already migrated, and beside
 * the release step. Each answers its health checks, stops on SIGTERM with a clean exit, and prints no uncaught error
 * on the way. Their database work at start (migrations, the job queue's tables and queues, the first admin) is where
 * concurrent starts meet: taking turns under the migrations' advisory lock, or deadlocking.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildEdge } from "../scripts/build.mjs";
import { generateKeys } from "../src/lib/tokens.ts";
import { type ChildRun, freePort, waitForServer } from "../src/testing/child-server.ts";
import { EDGE_DIR, spawnEdgeEntry } from "../src/testing/edge-entry.ts";
import { until } from "../src/testing/until.ts";

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl)
  console.warn(
    "start-together.test.ts skipped: instances sharing one database need PostgreSQL (the embedded PGlite belongs to one process); set TEST_DATABASE_URL",
  );

/** Rounds in a row on a fresh database: a race that loses one start in a few shows up in most runs. */
const ROUNDS = 20;
/**
 * What no process may print: an uncaught error's report or stack, a start that failed, a stop that failed, an error
 * logged (the job queue's, a request's).
 */
const UNCAUGHT =
  /Uncaught|Unhandled|triggerUncaughtException|^\s+at .+:\d+:\d+\)?$|did not start|does not answer|shutdown failed|"level":"error"/m;

let admin: postgres.Sql | undefined;
let env: Record<string, string> = {};
let dataDir = "";
const buildDir = join(EDGE_DIR, `.start-together-${process.pid}`);
let ports: { edges: [number, number]; worker: number };
const runs: ChildRun[] = [];
const databases: string[] = [];

beforeAll(async () => {
  if (!serverUrl) return;
  admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  // What every instance shares besides the database: the secrets, so that none writes a key file at start.
  const { privateJwk } = await generateKeys();
  env = {
    JWT_PRIVATE_KEY: JSON.stringify(privateJwk),
    BOOTH_SERVICE_SECRET: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url"),
    // The demo's catalogue is a job of minutes of ffmpeg: not what this is about.
    SEED_DEMO: "false",
  };
  ports = { edges: [await freePort(), await freePort()], worker: await freePort() };
  built = await buildEdge(buildDir);
  gates = Object.fromEntries(Object.entries(built).map(([name, file]) => [name, packagesOf(file).join(",")]));
  // Nothing is written there (the secrets come from the environment, the database is PostgreSQL): one for all.
  dataDir = await mkdtemp(join(tmpdir(), "booth-together-"));
});

afterAll(async () => {
  for (const run of runs) await run.stop(2000);
  for (const name of databases) await admin?.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin?.end({ timeout: 5 });
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  await rm(buildDir, { recursive: true, force: true });
});

/**
 * The entries as production runs them (`npm run build`: one bundle each, Booth's packages compiled in), built for this
 * file into a folder of its own inside the edge package (where the bundles find node_modules, and where no other
 * test's build rewrites them). Loading the TypeScript sources through tsx took twice the CPU of a start.
 */
let built: Record<string, string> = {};
/** Each built entry's packages for the start gate (BOOTH_START_GATE), read once after the build. */
let gates: Record<string, string> = {};
/**
 * What a built entry imports, in its order (`reflect-metadata` first): the packages it leaves to node_modules and the
 * chunks of the build (by their paths), whose own imports come with them. The start gate loads them before the
 * signal, so only the starts race.
 */
const packagesOf = (file: string) => [
  ...new Set(
    [...readFileSync(file, "utf8").matchAll(/^import (?:[^;]*? from )?"([^"]+)";$/gm)]
      .map((m) => m[1] ?? "")
      .filter((name) => !name.startsWith("node:"))
      .map((name) => (name.startsWith(".") ? join(dirname(file), name) : name)),
  ),
];
const ENTRIES = { edge: "main.node", worker: "main.worker", migrate: "main.migrate" } as const;

/** One process of the edge package on `url`, loaded and held at the gate: an edge, the worker or the release step. */
function spawnHeld(what: keyof typeof ENTRIES, url: string, port = 0) {
  const name = ENTRIES[what];
  const entry = built[name] ?? "";
  const run = spawnEdgeEntry({
    port,
    dataDir,
    args: ["--enable-source-maps", "--import", "./src/testing/start-gate.mjs", entry],
    // Edges work jobs (RUN_JOBS unset), as the embedded instance does.
    env: {
      ...env,
      DATABASE_URL: url,
      WORKER_PORT: String(port),
      BOOTH_START_GATE: gates[name] ?? "",
      // Node's compile cache, shared by the 63 processes of the file: each compiles the same bundle and packages.
      NODE_COMPILE_CACHE: join(buildDir, "compile-cache"),
    },
  });
  runs.push(run);
  return run;
}

interface Round {
  edges: [ChildRun, ChildRun];
  worker: ChildRun;
  release: ChildRun | undefined;
  drop(): Promise<unknown>;
}

/**
 * A round made ready: a fresh database (or `url`), and two edges, the worker and, when asked, the release step on it,
 * each loaded and held at the gate.
 */
async function prepare(options: { url?: string; release?: boolean } = {}): Promise<Round> {
  let url = options.url;
  let drop = async () => {};
  if (!url) {
    const name = `booth_together_${process.pid}_${Date.now().toString(36)}_${databases.length}`;
    databases.push(name);
    await admin?.unsafe(`CREATE DATABASE "${name}"`);
    const at = new URL(serverUrl ?? "");
    at.pathname = `/${name}`;
    url = at.toString();
    drop = async () => {
      await admin?.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    };
  }
  const round: Round = {
    edges: [spawnHeld("edge", url, ports.edges[0]), spawnHeld("edge", url, ports.edges[1])],
    worker: spawnHeld("worker", url, ports.worker),
    release: options.release ? spawnHeld("migrate", url) : undefined,
    drop,
  };
  for (const run of processes(round))
    await until(
      () => {
        if (run.child.exitCode !== null) throw new Error(`exited at the gate:\n${run.output()}`);
        return run.output().includes("start gate: ready");
      },
      "a process to load its modules",
      120_000,
    );
  return round;
}

const processes = (round: Round) => [...round.edges, round.worker, ...(round.release ? [round.release] : [])];
const NAMES = ["edge 1", "edge 2", "the worker", "the release step"];

/** A probe of a health URL: whether it answers 200 (its body read, so the connection is left idle). */
async function answers200(url: string) {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await res.text();
  return res.status === 200;
}

/**
 * The round itself: every process let go at once; each comes up (the edges' health and readiness, the worker's
 * health; the release step's clean exit), then SIGTERM to each, which must exit 0, none having printed an error.
 */
async function run(round: Round) {
  for (const run of processes(round)) run.kill("SIGUSR2");
  const { edges, worker, release } = round;
  const probe = (run: ChildRun, name: string, ...urls: string[]) =>
    waitForServer(run, {
      name,
      ready: async () => (await Promise.all(urls.map(answers200))).every(Boolean),
      timeoutMs: 90_000,
      intervalMs: 100,
    });
  const edgeUrl = (i: 0 | 1, path: string) => `http://127.0.0.1:${ports.edges[i]}${path}`;
  await Promise.all([
    probe(edges[0], NAMES[0] ?? "", edgeUrl(0, "/healthz"), edgeUrl(0, "/readyz")),
    probe(edges[1], NAMES[1] ?? "", edgeUrl(1, "/healthz"), edgeUrl(1, "/readyz")),
    probe(worker, NAMES[2] ?? "", `http://127.0.0.1:${ports.worker}/healthz`),
  ]);
  if (release) {
    expect(await release.exited, release.output()).toBe(0);
    expect(release.output()).toContain("Database up to date");
  }
  const serving = [...edges, worker];
  for (const run of serving) run.kill("SIGTERM");
  const codes = await Promise.all(
    serving.map((run) => Promise.race([run.exited, new Promise<"hung">((r) => setTimeout(() => r("hung"), 20_000))])),
  );
  expect(codes, serving.map((run) => run.output()).join("\n---\n")).toEqual([0, 0, 0]);
  const printed = processes(round).flatMap((run, i) =>
    UNCAUGHT.test(run.output()) ? [`${NAMES[i]} printed an error:\n${run.output()}`] : [],
  );
  expect(printed).toEqual([]);
  expect(worker.output()).toContain("Booth job worker running");
}

/** Runs the rounds one after another; each next one loads while the one before runs (loading is most of the time). */
async function rounds(made: (() => Promise<Round>)[]) {
  let next = made[0]?.();
  for (let n = 0; next; n++) {
    const round = await next;
    next = made[n + 1]?.();
    try {
      await run(round);
    } catch (err) {
      await next?.catch(() => {});
      throw new Error(`round ${n + 1} of ${made.length}: ${err instanceof Error ? err.message : String(err)}`, {
        cause: err,
      });
    } finally {
      for (const run of processes(round)) await run.stop(2000);
      await round.drop();
    }
  }
}

describe.skipIf(!serverUrl)("instances started together on one PostgreSQL", () => {
  it(`two edges and a worker come up together on a fresh database, ${ROUNDS} rounds in a row`, async () => {
    await rounds(Array.from({ length: ROUNDS }, () => () => prepare()));
  }, 600_000);

  it("beside the release step, and again on the database it migrated", async () => {
    const name = `booth_together_${process.pid}_${Date.now().toString(36)}_migrated`;
    databases.push(name);
    await admin?.unsafe(`CREATE DATABASE "${name}"`);
    const url = new URL(serverUrl ?? "");
    url.pathname = `/${name}`;
    await rounds([
      () => prepare({ url: url.toString(), release: true }),
      // Nothing left to migrate, and the queues there: what most starts are.
      () => prepare({ url: url.toString() }),
    ]);
  }, 300_000);
});
