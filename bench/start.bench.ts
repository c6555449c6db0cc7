// How long `npm start` (scripts/start.mjs) takes on a fresh data folder until the edge, the live rooms and the web
// all serve: the edge's /readyz (database open and migrated), the rooms' HTTP endpoint (any answer of workerd) and
// the web's room list page (a real page that reaches the edge). Two cases: the web already built (any later start),
// and no web build at all (the first start after `npm install`, which builds it). Baseline in the same run: Node
// spawning a bare HTTP server until it answers (what starting any process costs on this machine right now).
// Run with `npx tsx bench/start.bench.ts` (BENCH_RUNS=2; BENCH_COLD=false skips the first-start case, which removes
// and rebuilds apps/web/build).

import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort, spawnChild } from "../apps/edge/src/testing/child-server.ts";

const repo = resolve(import.meta.dirname, "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const COLD = process.env.BENCH_COLD !== "false";

async function answersAt(url: string, ok: (status: number) => boolean) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.body?.cancel();
    return ok(res.status);
  } catch {
    return false;
  }
}

/** Polls each probe every 100 ms from `started` on; answers the seconds at which each first succeeded. */
async function timeUntil(started: number, probes: Record<string, () => Promise<boolean>>, exited: Promise<unknown>) {
  const times: Record<string, number> = {};
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = started + 240_000;
  while (Object.keys(times).length < Object.keys(probes).length) {
    if (gone) throw new Error("it exited before serving");
    if (performance.now() > deadline) throw new Error(`not serving after 240 s: ${JSON.stringify(times)}`);
    await Promise.all(
      Object.entries(probes)
        .filter(([name]) => !(name in times))
        .map(async ([name, probe]) => {
          if (await probe()) times[name] = (performance.now() - started) / 1000;
        }),
    );
    await new Promise((r) => setTimeout(r, 100));
  }
  return times;
}

async function bareNode() {
  const port = await freePort();
  const started = performance.now();
  const run = spawnChild({
    args: ["-e", `require("node:http").createServer((q, s) => s.end("ok")).listen(${port}, "127.0.0.1")`],
  });
  try {
    const t = await timeUntil(
      started,
      { node: () => answersAt(`http://127.0.0.1:${port}/`, (s) => s === 200) },
      run.exited,
    );
    return t.node ?? 0;
  } finally {
    await run.stop(1000);
  }
}

async function npmStart(dataDir: string) {
  const [edgePort, partyPort, webPort] = [await freePort(), await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    EDGE_PORT: String(edgePort),
    PARTY_PORT: String(partyPort),
    WEB_PORT: String(webPort),
  };
  for (const name of [
    "PORT",
    "WEB_URL",
    "PARTY_URL",
    "BOOTH_PARTY_URL",
    "BOOTH_API_URL",
    "BOOTH_EDGE_URL",
    "NODE_ENV",
    "DATABASE_URL",
  ])
    delete env[name];
  delete env.REDIS_URL;
  const started = performance.now();
  const run = spawnChild({ args: ["scripts/start.mjs"], cwd: repo, env, detached: true });
  try {
    const times = await timeUntil(
      started,
      {
        edge: () => answersAt(`http://127.0.0.1:${edgePort}/readyz`, (s) => s === 200),
        rooms: () => answersAt(`http://127.0.0.1:${partyPort}/parties/main/none`, (s) => s > 0),
        web: () => answersAt(`http://127.0.0.1:${webPort}/`, (s) => s === 200),
      },
      run.exited,
    ).catch((error: Error) => {
      throw new Error(`npm start: ${error.message}\n${run.output().slice(-3000)}`);
    });
    return { ...times, all: Math.max(...Object.values(times)) };
  } finally {
    await run.stop(15_000);
  }
}

const root = await mkdtemp(join(tmpdir(), "booth-start-bench-"));
const rows: { name: string; node: number; times: Record<string, number> }[] = [];
try {
  for (let i = 0; i < RUNS; i++) {
    if (COLD) {
      await rm(join(repo, "apps", "web", "build"), { recursive: true, force: true });
      rows.push({
        name: "first start (no web build)",
        node: await bareNode(),
        times: await npmStart(join(root, `c${i}`)),
      });
      if (!existsSync(join(repo, "apps", "web", "build", "server", "index.js")))
        throw new Error("no web build after it");
    }
    rows.push({ name: "web already built", node: await bareNode(), times: await npmStart(join(root, `w${i}`)) });
  }
} finally {
  await rm(root, { recursive: true, force: true });
}

// Where the edge's part goes: loading its modules (through tsx, as `npm start` runs it), then opening and migrating
// a fresh embedded database (PGlite), each in a process of its own.
async function timed(code: string) {
  const started = performance.now();
  const run = spawnChild({
    args: ["--import", "tsx", "--input-type=module", "-e", code],
    cwd: join(repo, "apps", "edge"),
  });
  const status = await run.exited;
  if (status !== 0) throw new Error(`${code}: ${run.output()}`);
  return (performance.now() - started) / 1000;
}
const scratch = await mkdtemp(join(tmpdir(), "booth-start-bench-db-"));
const split = {
  node: await timed("process.exit(0)"),
  modules: await timed('await import("./src/app.ts"); await import("./src/bootstrap.ts"); process.exit(0)'),
  database: await timed(
    `const { createDb } = await import("@booth/db"); const d = await createDb({ dataDir: ${JSON.stringify(
      join(scratch, "pglite"),
    )} }); await d.migrate(); await d.close(); process.exit(0)`,
  ),
};
await rm(scratch, { recursive: true, force: true });

const s = (n: number | undefined) => (n === undefined ? "" : `${n.toFixed(1)} s`);
console.log("npm start on a fresh DATA_DIR, from spawn to serving (seconds)");
console.log("| case | edge /readyz | rooms | web / | all three | bare node server (baseline) | all vs baseline |");
console.log("|---|---|---|---|---|---|---|");
for (const { name, node, times } of rows)
  console.log(
    `| ${name} | ${s(times.edge)} | ${s(times.rooms)} | ${s(times.web)} | ${s(times.all)} | ${node.toFixed(2)} s | ${(
      (times.all ?? 0) / node
    ).toFixed(0)}x |`,
  );
console.log("\nThe edge's start, each step in a process of its own (seconds)");
console.log("| node with tsx, nothing loaded | + the edge's modules | + a fresh PGlite opened and migrated |");
console.log("|---|---|---|");
console.log(`| ${split.node.toFixed(1)} s | ${split.modules.toFixed(1)} s | ${split.database.toFixed(1)} s |`);
process.exit(0);
