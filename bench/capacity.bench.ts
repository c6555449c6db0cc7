// What one core of each part serves, for the capacity model (docs/capacity.md). The edge runs as it does in
// production (its Node entry in a process of its own, on PostgreSQL and Redis), and each main route a listener's
// client calls is loaded in turn (autocannon, from a worker thread); for each, the CPU seconds the edge process, the
// database's backends serving this database and the Redis server spent per request, and the database transactions
// and Redis commands a request made. Baseline: a bare Hono route answering the same bytes as `GET /auth/pub-key` in a
// process of its own, in the same run (what a request costs Node and Hono alone). A listener's audio is a song's
// playlists and key from the edge (its segments come from the bucket, a local S3 server here: decision 0024). Then each engine alone at its own
// limit on the same machine: PostgreSQL's select-only pgbench and redis-benchmark's GET/SET/INCR, per CPU second of
// the engine. `npm run bench:capacity`; needs PostgreSQL (TEST_DATABASE_URL, default the local one) and Redis
// (TEST_REDIS_URL, default the local one). BENCH_SECONDS per route (5), BENCH_CONNECTIONS (20).
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDb, schema } from "@booth/db";
import autocannon from "autocannon";
import postgres from "postgres";
import { synthesizeMp3 } from "../apps/edge/src/ports/audio.ts";
import { TEST_FFMPEG } from "../apps/edge/src/testing/app.ts";
import { answers, freePort, spawnChild, waitForServer } from "../apps/edge/src/testing/child-server.ts";
import { spawnEdgeEntry } from "../apps/edge/src/testing/edge-entry.ts";
import { startS3 } from "../apps/edge/src/testing/s3.ts";
import { signIn, uploadedSong } from "./edge-song.ts";
import { cpuSeconds, pidsOfName } from "./proc.ts";

const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ADMIN = { email: "capacity@booth.local", password: "capacity-password-123" };
const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);

function redisCli(...args: string[]) {
  const url = new URL(REDIS_URL);
  return execFileSync("redis-cli", ["-h", url.hostname, "-p", url.port || "6379", ...args], { encoding: "utf8" });
}
const redisCommands = () => Number(/total_commands_processed:(\d+)/.exec(redisCli("info", "stats"))?.[1] ?? 0);

const step = (text: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${text}\n`);

// A fresh database and Redis prefix for the edge.
const name = `booth_capacity_${crypto.randomUUID().slice(0, 8)}`;
const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
await admin.unsafe(`CREATE DATABASE "${name}"`);
const dbUrl = new URL(SERVER_URL);
dbUrl.pathname = `/${name}`;
const dataDir = await mkdtemp(join(tmpdir(), "booth-capacity-"));
const children: { stop: (ms: number) => Promise<unknown> }[] = [];
const s3 = await startS3();
const cleanUp = async () => {
  for (const child of children) await child.stop(5000).catch(() => {});
  await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
  await admin.end({ timeout: 5 });
  const keys = redisCli("--scan", "--pattern", `${name}:*`).split("\n").filter(Boolean);
  for (let i = 0; i < keys.length; i += 500) redisCli("del", ...keys.slice(i, i + 500));
  await rm(dataDir, { recursive: true, force: true });
  await s3.close();
};
process.once("SIGINT", () => void cleanUp().finally(() => process.exit(130)));

interface Row {
  case: string;
  rps: number;
  edgeMs: number;
  dbMs: number;
  xacts: number;
  redisCommands: number;
  redisMs: number;
}
const rows: Row[] = [];

/** Loads one route for SECONDS and divides what each part spent by the requests answered. */
async function measure(label: string, url: string, server: number, headers: Record<string, string> = {}) {
  const db = postgres(dbUrl.toString(), { max: 1, onnotice: () => {} });
  const backends = async () =>
    (await db`SELECT pid FROM pg_stat_activity WHERE datname = ${name} AND pid <> pg_backend_pid()`).map((r) =>
      Number(r.pid),
    );
  const xacts = async () =>
    Number(
      (await db`SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = ${name}`)[0]?.n ?? 0,
    );
  // Warm up (connections opened, statements prepared, caches filled), then measure.
  await autocannon({ url, connections: CONNECTIONS, workers: 1, duration: 1, headers });
  const before = { pids: await backends(), redis: pidsOfName("redis-server") };
  const cpu = {
    edge: cpuSeconds(server),
    db: new Map(before.pids.map((pid) => [pid, cpuSeconds(pid)])),
    redis: cpuOf(before.redis),
  };
  const counts = { xacts: await xacts(), redis: redisCommands() };
  const result = await autocannon({ url, connections: CONNECTIONS, workers: 1, duration: SECONDS, headers });
  const edge = cpuSeconds(server) - cpu.edge;
  const after = await backends();
  const dbCpu = after.reduce((sum, pid) => sum + cpuSeconds(pid) - (cpu.db.get(pid) ?? 0), 0);
  const redis = cpuOf(before.redis) - cpu.redis;
  // The two counters' own queries are taken off.
  const x = (await xacts()) - counts.xacts - 1;
  const commands = redisCommands() - counts.redis - 1;
  await db.end({ timeout: 5 });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad) throw new Error(`${label}: ${bad} failed requests under load`);
  const n = result.requests.total;
  const row = {
    case: label,
    rps: Math.round(result.requests.average),
    edgeMs: (edge * 1000) / n,
    dbMs: (dbCpu * 1000) / n,
    xacts: x / n,
    redisCommands: commands / n,
    redisMs: (redis * 1000) / n,
  };
  rows.push(row);
  step(`${label}: ${row.rps}/s, the edge ${row.edgeMs.toFixed(3)} ms of CPU a request`);
}

try {
  // The baseline: a bare Hono route in a process of its own, answering pub-key's bytes.
  const edgePort = await freePort();
  const edgeUrl = `http://127.0.0.1:${edgePort}`;
  step(`starting the edge on PostgreSQL (${name}) and Redis`);
  const edge = spawnEdgeEntry({
    port: edgePort,
    dataDir,
    env: {
      DATABASE_URL: dbUrl.toString(),
      REDIS_URL,
      CACHE_PREFIX: `${name}:`,
      SEED_DEMO: "false",
      ...s3.env,
      LOG_LEVEL: "warn",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      BOOTH_PUBLIC_EDGE_URL: edgeUrl,
    },
  });
  children.push(edge);
  await waitForServer(edge, { name: "the edge", ready: () => answers(`${edgeUrl}/readyz`), timeoutMs: 120_000 });
  const pubKey = await (await fetch(`${edgeUrl}/api/user-service/auth/pub-key`)).text();

  const barePort = await freePort();
  const bareSource = `
    import { serve } from "@hono/node-server";
    import { Hono } from "hono";
    const body = ${JSON.stringify(pubKey)};
    const app = new Hono().get("/", (c) => c.body(body, 200, { "content-type": "application/json" }));
    serve({ fetch: app.fetch, port: ${barePort}, hostname: "127.0.0.1" });`;
  const bare = spawnChild({
    command: process.execPath,
    args: ["--input-type=module", "-e", bareSource],
    cwd: join(import.meta.dirname, "../apps/edge"),
    env: process.env as Record<string, string>,
  });
  children.push(bare);
  await waitForServer(bare, { name: "the bare route", ready: () => answers(`http://127.0.0.1:${barePort}/`) });

  // What the listeners read: a room among 300, songs to search among 5,000.
  step("seeding 300 rooms and 5,000 songs");
  const token = await signIn(edgeUrl, ADMIN);
  const session = (await (
    await fetch(`${edgeUrl}/api/user-service/auth/session`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { user?: { uuid?: string }; uuid?: string };
  const me = session.user?.uuid ?? session.uuid;
  if (!me) throw new Error(`no user in the session's answer: ${JSON.stringify(session)}`);
  const seed = await createDb({ url: dbUrl.toString(), max: 2 });
  const words = ["night", "city", "neon", "river", "glass", "ocean", "echo", "velvet", "solar", "paper"];
  for (let i = 0; i < 5000; i += 500)
    await seed.db.insert(schema.songs).values(
      Array.from({ length: 500 }, (_, j) => ({
        shortId: `c${i + j}`,
        trackName: `${words[(i + j) % 10]} ${words[(i + j * 7) % 10]} ${i + j}`,
        artistName: `Artist ${(i + j) % 97}`,
      })),
    );
  const rooms = await seed.db
    .insert(schema.rooms)
    .values(
      Array.from({ length: 300 }, (_, i) => ({
        slug: `capacity-room-${i}`,
        name: `Capacity room ${i}`,
        ownerUuid: me,
        type: "PUBLIC" as const,
      })),
    )
    .returning({ uuid: schema.rooms.uuid });
  await seed.close();

  // A song to listen to: uploaded, transcoded by the edge's own job runner, its segments in the bucket.
  step("uploading and transcoding a 120 s song");
  const song = await synthesizeMp3({
    ffmpeg: TEST_FFMPEG,
    seconds: 120,
    frequencies: [220, 330],
    title: "Capacity",
    artist: "Booth",
  });
  const songId = await uploadedSong(edge, edgeUrl, token, song);
  const media = await (
    await fetch(`${edgeUrl}/api/upload-service/songs/${songId}/hls-playlist?rendition=medium`, {
      headers: { authorization: `Bearer ${token}` },
    })
  ).text();
  const keyUrl = new URL(/URI="([^"]+)"/.exec(media)?.[1] ?? "", edgeUrl).toString();
  if (!media.includes("X-Amz-Signature")) throw new Error("the media playlist does not name the bucket's segments");
  if (rooms.length !== 300) throw new Error("the rooms were not seeded");
  const auth = { authorization: `Bearer ${token}` };

  const bareUrl = `http://127.0.0.1:${barePort}/`;
  await measure("bare Hono route (baseline)", bareUrl, bare.child.pid ?? 0);
  const edgePid = edge.child.pid ?? 0;
  const A = `${edgeUrl}/api`;
  await measure("GET /auth/pub-key (no database)", `${A}/user-service/auth/pub-key`, edgePid);
  await measure("GET /auth/session", `${A}/user-service/auth/session`, edgePid, auth);
  await measure("GET /rooms/public (20 of 300)", `${A}/room-service/rooms/public?limit=20`, edgePid);
  await measure("GET /rooms/{slug}", `${A}/room-service/rooms/capacity-room-7`, edgePid, auth);
  await measure("GET /search (20 of 500)", `${A}/upload-service/search?term=neon%20glass&limit=20`, edgePid, auth);
  const U = `${A}/upload-service/songs/${songId}/hls-playlist`;
  await measure("GET /songs/{id}/hls-playlist (master)", U, edgePid, auth);
  await measure("GET /songs/{id}/hls-playlist?rendition=medium", `${U}?rendition=medium`, edgePid, auth);
  await measure("GET /songs/hls/key (the grant's)", keyUrl, edgePid);
  await measure("bare Hono route (baseline, again)", bareUrl, bare.child.pid ?? 0);

  // Each engine alone at its limit, per CPU second of the engine.
  step("PostgreSQL alone: pgbench, select-only, 20 clients");
  const pg = new URL(SERVER_URL);
  const pgArgs = ["-h", pg.hostname, "-p", pg.port || "5432", "-U", pg.username || "postgres", name];
  execFileSync("pgbench", ["-i", "-q", "-s", "10", ...pgArgs], { stdio: "ignore" });
  // pgbench's 20 backends come and go with it: their CPU is read while they run (the last reading of each counts,
  // from zero for one that started meanwhile), and the server's own processes' from before to after.
  const seen = new Map(pidsOfName("postgres").map((pid) => [pid, { from: cpuSeconds(pid), last: cpuSeconds(pid) }]));
  const sample = () => {
    for (const pid of pidsOfName("postgres")) {
      const cpu = cpuSeconds(pid);
      const known = seen.get(pid);
      if (known) known.last = Math.max(known.last, cpu);
      else seen.set(pid, { from: 0, last: cpu });
    }
  };
  const sampler = setInterval(sample, 100);
  const pgOut = await new Promise<string>((resolve, reject) => {
    const run = spawn("pgbench", ["-S", "-c", "20", "-j", "2", "-T", String(SECONDS), "-n", ...pgArgs]);
    let out = "";
    run.stdout.on("data", (d) => {
      out += d;
    });
    run.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`pgbench exited ${code}`))));
  });
  clearInterval(sampler);
  sample();
  const pgCpu = [...seen.values()].reduce((sum, p) => sum + p.last - p.from, 0);
  const tps = Number(/tps = ([\d.]+)/.exec(pgOut)?.[1] ?? 0);
  step("Redis alone: redis-benchmark GET, SET, INCR, 50 clients");
  const redisPids = pidsOfName("redis-server");
  const redisCpuBefore = cpuOf(redisPids);
  const url = new URL(REDIS_URL);
  const started = performance.now();
  const redisOut = await new Promise<string>((resolve, reject) => {
    const run = spawn("redis-benchmark", [
      ...["-h", url.hostname, "-p", url.port || "6379", "-q", "-c", "50", "-n", "300000", "-t", "get,set,incr"],
      ...["-r", "100000"],
    ]);
    let out = "";
    run.stdout.on("data", (d) => {
      out += d;
    });
    run.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`redis-benchmark exited ${code}`))));
  });
  const redisSeconds = (performance.now() - started) / 1000;
  const redisCpu = cpuOf(redisPids) - redisCpuBefore;
  const redisRates = [...redisOut.replaceAll("\r", "\n").matchAll(/^(\w+): ([\d.]+) requests per second/gm)].map(
    (m) => `${m[1]} ${Math.round(Number(m[2])).toLocaleString("en")}/s`,
  );

  // The report.
  const base = rows.filter((r) => r.case.startsWith("bare"));
  const bareMs = base.reduce((sum, r) => sum + r.edgeMs, 0) / base.length;
  console.log(
    "\n| case | requests/s | edge CPU ms a request | requests a second per edge core | vs bare | database CPU ms | transactions | Redis commands | Redis CPU ms |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    const bareRow = r.case.startsWith("bare");
    console.log(
      `| ${r.case} | ${r.rps.toLocaleString("en")} | ${r.edgeMs.toFixed(3)} | ${Math.round(1000 / r.edgeMs).toLocaleString("en")} | ${(bareMs / r.edgeMs).toFixed(2)}x | ${bareRow ? "" : r.dbMs.toFixed(3)} | ${bareRow ? "" : r.xacts.toFixed(2)} | ${bareRow ? "" : r.redisCommands.toFixed(2)} | ${bareRow ? "" : r.redisMs.toFixed(4)} |`,
    );
  }
  console.log(
    `\nPostgreSQL alone (pgbench -S, 20 clients): ${Math.round(tps).toLocaleString("en")} transactions/s, ` +
      `${Math.round((tps * SECONDS) / Math.max(pgCpu, 0.01)).toLocaleString("en")} per CPU second of PostgreSQL`,
  );
  console.log(
    `Redis alone (redis-benchmark, 50 clients): ${redisRates.join(", ")}; ` +
      `${Math.round(900_000 / Math.max(redisCpu, 0.01)).toLocaleString("en")} commands per CPU second of Redis ` +
      `(${redisSeconds.toFixed(1)} s for 900,000)`,
  );
  console.log(`load: ${readFileSync("/proc/loadavg", "utf8").trim()}`);
} finally {
  await cleanUp();
}
process.exit(0);
