// `npm run bench:fleet`: a fleet of rooms at once on the real pieces, as production runs them: the rooms' Worker under
// `wrangler dev` (workerd), two edges and a job worker (each a process of the edge's Node entries), on PostgreSQL (a
// fresh database made here and dropped at the end) and Redis (a fresh key prefix). BENCH_ROOMS rooms (100), each of
// BENCH_LISTENERS listeners (20) and BENCH_DJS DJs (2), every one a LiveRoomClient of the SDK in a few bots processes
// of their own (bench/fleet-bots.ts, BENCH_BOT_PROCS, 2): the DJs play short songs from their queues
// (BENCH_SONG_S, 40 s), each listener votes once a song and everyone chats every 30 to 60 s (BENCH_CHAT_S=30,60),
// for BENCH_DURATION_S (300) once everyone is in.
//
// It reports the votes and chat messages sent and delivered (each to every member of its room: any lost is named),
// the time from a vote to every member's patch (p50, p99, and to the last member), the edges' requests a second
// (their /metrics) and CPU (/proc), the database's connections (pg_stat_activity), the errors by kind, and the rooms'
// memory (workerd's resident memory over the idle runtime's, per room), prints a line every 5 s, and draws it all over
// time in docs/performance/fleet.png (BENCH_PICTURE). It stops by itself and cleans up (processes, database, keys)
// also on Ctrl-C or a failure. TEST_DATABASE_URL / TEST_REDIS_URL name the servers (the local ones by default).
import { type ChildProcess, fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createDb, schema } from "@booth/db";
import { Redis } from "ioredis";
import postgres from "postgres";
import { generateKeys, signToken } from "../apps/edge/src/lib/tokens.ts";
import { createAccount } from "../apps/edge/src/services/user/accounts.ts";
import { type ChildRun, spawnChild, waitForServer } from "../apps/edge/src/testing/child-server.ts";
import { freePort, startParty, until } from "../apps/rooms-party/test/helpers.ts";
import type { BotPlan, Final, FromBots, Tick, ToBots } from "./fleet-bots.ts";
import { type Chart, drawChart, type Line } from "./fleet-chart.ts";
import { cpuTicks, pidsOfName, rss, TICKS, treeOf } from "./proc.ts";

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ROOMS = num("BENCH_ROOMS", 100);
const LISTENERS = num("BENCH_LISTENERS", 20);
const DJS = num("BENCH_DJS", 2);
const DURATION_S = num("BENCH_DURATION_S", 300);
const SONG_S = num("BENCH_SONG_S", 40);
const BOT_PROCS = Math.max(1, Math.min(ROOMS, num("BENCH_BOT_PROCS", 2)));
const CHAT_S = (process.env.BENCH_CHAT_S ?? "30,60").split(",").map(Number) as [number, number];
const JOIN_CONCURRENCY = num("BENCH_JOIN_CONCURRENCY", 16);
const JOIN_TIMEOUT_S = num("BENCH_JOIN_TIMEOUT_S", 900);
/** How long what was sent before the load's end may still take to arrive before the rest counts as lost. */
const DRAIN_S = num("BENCH_DRAIN_S", 180);
const SAMPLE_MS = 2000;
const PICTURE = process.env.BENCH_PICTURE ?? join(import.meta.dirname, "../docs/performance/fleet.png");
const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const MEMBERS = ROOMS * (LISTENERS + DJS);
const edgeDir = join(import.meta.dirname, "../apps/edge");

const log = (line: string) => console.log(`[fleet] ${line}`);
const started = Date.now();
const clock = () => `${Math.round((Date.now() - started) / 1000)} s`;

// ---- cleaning up, whatever happens ----------------------------------------------------------------------------
const cleanups: { name: string; run: () => Promise<unknown> }[] = [];
let cleaning: Promise<void> | undefined;
function cleanup() {
  cleaning ??= (async () => {
    for (const { name, run } of cleanups.reverse()) {
      try {
        await Promise.race([run(), new Promise((_, no) => setTimeout(() => no(new Error("took over 20 s")), 20_000))]);
      } catch (err) {
        console.error(`[fleet] cleaning up ${name}: ${(err as Error).message}`);
      }
    }
  })();
  return cleaning;
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
  process.once(signal, () => {
    log(`${signal}: stopping and cleaning up`);
    void cleanup().then(() => {
      log(`cleaned up after ${clock()}`);
      process.exit(130);
    });
  });

// ---- what /proc tells (bench/proc.ts) ---------------------------------------------------------------------
/**
 * CPU ticks a set of processes spent since the last call: each process's own difference (a new one's since it began),
 * so one that ends or begins between two samples does not turn the sum negative.
 */
function cpuMeter() {
  let last = new Map<number, number>();
  return (pids: number[]) => {
    const now = new Map(pids.map((pid) => [pid, cpuTicks(pid)] as const));
    let spent = 0;
    for (const [pid, ticks] of now) spent += Math.max(0, ticks - (last.get(pid) ?? 0));
    last = now;
    return spent;
  };
}
function machineJiffies() {
  const jiffies = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number);
  const total = jiffies.reduce((a, b) => a + b, 0);
  return { busy: total - (jiffies[3] ?? 0) - (jiffies[4] ?? 0), total };
}
const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/** Waits until `check` answers true, every `intervalMs`; a failure it throws ends the wait at once. */
async function waitFor(check: () => boolean, what: string, timeoutMs: number, intervalMs = 500) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

const quantile = (values: number[], q: number) => {
  if (!values.length) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
};
const ms = (v: number) => (Number.isNaN(v) ? "-" : `${v.toFixed(v < 10 ? 1 : 0)} ms`);
const n = (v: number) => Math.round(v).toLocaleString("en-US");

// ---- the pieces ------------------------------------------------------------------------------------------------
log(
  `${ROOMS} rooms of ${LISTENERS} listeners and ${DJS} DJs (${n(MEMBERS)} clients in ${BOT_PROCS} bots processes), ` +
    `songs of ~${SONG_S} s, ${DURATION_S} s of load; machine load ${loadavg()}, open files limit ${
      /Max open files\s+(\d+)/.exec(readFileSync("/proc/self/limits", "utf8"))?.[1]
    }`,
);
const database = `booth_fleet_${process.pid}_${Date.now().toString(36)}`;
const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
const direct = new URL(SERVER_URL);
direct.pathname = `/${database}`;
const cachePrefix = `booth:fleet:${crypto.randomUUID()}:`;
const metricsToken = crypto.randomUUID();
const serviceSecret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
const dirs: string[] = [];
const children: ChildRun[] = [];

try {
  cleanups.push({
    name: "the folders",
    run: async () => {
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    },
  });
  await admin.unsafe(`CREATE DATABASE "${database}"`);
  cleanups.push({
    name: "the database",
    run: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.end({ timeout: 5 });
    },
  });
  cleanups.push({
    name: "the Redis keys",
    run: async () => {
      const redis = new Redis(REDIS_URL);
      try {
        let cursor = "0";
        do {
          const [next, keys] = await redis.scan(cursor, "MATCH", `${cachePrefix}*`, "COUNT", 1000);
          cursor = next;
          if (keys.length) await redis.del(...keys);
        } while (cursor !== "0");
      } finally {
        redis.disconnect();
      }
    },
  });
  cleanups.push({
    name: "the processes",
    run: async () => {
      for (const run of children.reverse()) await run.stop(3000);
    },
  });

  const { keys, privateJwk } = await generateKeys();
  const [portA, portB, partyPort] = [await freePort(), await freePort(), await freePort()];
  const edges = [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`];
  const env = {
    DATABASE_URL: direct.toString(),
    REDIS_URL,
    CACHE_PREFIX: cachePrefix,
    JWT_PRIVATE_KEY: JSON.stringify(privateJwk),
    BOOTH_SERVICE_SECRET: serviceSecret,
    BOOTH_PARTY_URL: `http://127.0.0.1:${partyPort}`,
    METRICS_TOKEN: metricsToken,
    SEED_DEMO: "false",
    // A line per request would be the parent's to read: warnings and errors only (what a line costs: bench:log).
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
  };
  const spawnEntry = async (entry: string, extra: Record<string, string>) => {
    const dataDir = await mkdtemp(join(tmpdir(), "booth-fleet-"));
    dirs.push(dataDir);
    const run = spawnChild({
      args: ["--import", "tsx", `src/${entry}`],
      cwd: edgeDir,
      env: { ...process.env, INIT_CWD: "", DATA_DIR: dataDir, ...env, ...extra },
      detached: true,
    });
    children.push(run);
    return run;
  };
  // Both edges at once (on the empty database they migrate it in turn); neither works jobs: the worker does.
  const edgeRuns = await Promise.all(
    [portA, portB].map((port) => spawnEntry("main.node.ts", { PORT: String(port), RUN_JOBS: "false" })),
  );
  const worker = await spawnEntry("main.worker.ts", { WORKER_PORT: String(await freePort()) });
  await Promise.all(
    edgeRuns.map((run, i) =>
      waitForServer(run, {
        name: `edge ${i + 1}`,
        ready: async () => (await fetch(`${edges[i]}/readyz`)).status === 200,
        timeoutMs: 120_000,
      }),
    ),
  );
  await until(() => worker.output().includes("Booth job worker running"), "the worker", 90_000);
  const persistDir = await mkdtemp(join(tmpdir(), "booth-fleet-party-"));
  dirs.push(persistDir);
  // The rooms call the second edge; the people's own requests go to either.
  const party = await startParty({
    port: partyPort,
    persistDir,
    vars: { BOOTH_EDGE_URL: edges[1] as string, BOOTH_PRESENCE_GRACE_MS: "20000" },
    secrets: { BOOTH_SERVICE_SECRET: serviceSecret },
  });
  children.push({
    child: party.child,
    output: party.output,
    exited: new Promise(() => {}),
    kill: () => {},
    stop: () => party.stop(),
  });
  const partyPid = party.child.pid as number;
  log(`${clock()}: edges at ${edges.join(" and ")}, the worker, the rooms at ${party.url}; database ${database}`);

  // ---- the people, their songs and rooms -----------------------------------------------------------------------
  const db = await createDb({ url: direct.toString(), max: 8 });
  cleanups.push({ name: "the seeding connection", run: () => db.close() });
  const nowSeconds = Math.floor(Date.now() / 1000);
  const makeUser = async (nickname: string) => {
    const { user } = await db.db.transaction((tx) =>
      createAccount(tx, { email: `${nickname}@fleet.example`, nickname, emailStatus: "VERIFIED", now: new Date() }),
    );
    const token = await signToken(
      keys,
      { sub: user.uuid, type: "user", roles: user.roles, badges: user.badges, ver: user.tokenVersion },
      nowSeconds,
    );
    return { uuid: user.uuid, token };
  };
  const people: { uuid: string; token: string; dj: boolean; room: number }[] = [];
  const wanted = Array.from({ length: ROOMS }, (_, room) =>
    Array.from({ length: DJS + LISTENERS }, (_, i) => ({ room, dj: i < DJS, nickname: `fleet${room}x${i}` })),
  ).flat();
  for (let i = 0; i < wanted.length; i += 16)
    people.push(
      ...(await Promise.all(
        wanted.slice(i, i + 16).map(async (w) => ({ ...(await makeUser(w.nickname)), dj: w.dj, room: w.room })),
      )),
    );
  const songs = await db.db
    .insert(schema.songs)
    .values(
      Array.from({ length: 60 }, (_, i) => ({
        shortId: `fleet${i}x${Date.now().toString(36)}`,
        trackName: `Fleet song ${i}`,
        artistName: "The Fleet",
        // Short songs, so they change during the run: SONG_S give or take a quarter.
        duration: Math.round(SONG_S * (0.75 + Math.random() * 0.5)),
      })),
    )
    .returning({ id: schema.songs.id });
  // A season running, as on a live Booth: the DJs' points at each song's end are awarded in it.
  await db.db.insert(schema.seasons).values({
    name: "Fleet season",
    start: new Date(Date.now() - 86_400_000),
    end: new Date(Date.now() + 30 * 86_400_000),
  });
  const call = async (edge: string, path: string, token: string, body: unknown) => {
    const res = await fetch(`${edge}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const rooms: BotPlan["rooms"] = [];
  for (let r = 0; r < ROOMS; r += 8)
    rooms.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(8, ROOMS - r) }, async (_, j) => {
          const room = r + j;
          const members = people.filter((p) => p.room === room);
          const owner = members[0] as (typeof members)[number];
          const edge = edges[room % 2] as string;
          const made = await call(edge, "/api/room-service/rooms/infrastructure", owner.token, {
            name: `Fleet room ${room}`,
            type: "PUBLIC",
            roomSize: Math.max(50, 2 * members.length),
            numberOfDjs: Math.max(1, DJS),
            djType: "EVERYONE",
          });
          for (const dj of members.filter((m) => m.dj))
            await call(edge, "/api/playlist-service/crate/special/queue/songs", dj.token, {
              songIds: Array.from({ length: 4 }, () => songs[Math.floor(Math.random() * songs.length)]?.id)
                .filter((id, k, all) => all.indexOf(id) === k)
                .map(String),
            });
          return {
            uuid: String(made.uuid),
            slug: String(made.slug),
            members: members.map((m) => ({ uuid: m.uuid, token: m.token, dj: m.dj })),
          };
        }),
      )),
    );
  log(`${clock()}: ${n(people.length)} people, ${songs.length} songs, ${rooms.length} rooms made`);

  // ---- sampling --------------------------------------------------------------------------------------------------
  const edgePids = edgeRuns.map((run) => run.child.pid as number);
  const idleRoomsRss = treeOf(partyPid).reduce((a, pid) => a + rss(pid), 0);
  interface Sample {
    at: number;
    edgeCpu: number[];
    edgeRps: number[];
    edge5xx: number;
    edge4xx: number;
    roomsCpu: number;
    workerCpu: number;
    botsCpu: number;
    postgresCpu: number;
    machineBusy: number;
    dbConnections: number;
    dbActive: number;
    roomsRss: number;
    connected: number;
  }
  const samples: Sample[] = [];
  const edgeErrors: Record<string, number> = {};
  const edge4xxByRoute: Record<string, number> = {};
  const meters = {
    edges: edgeRuns.map(() => cpuMeter()),
    rooms: cpuMeter(),
    worker: cpuMeter(),
    bots: cpuMeter(),
    postgres: cpuMeter(),
  };
  let previous:
    | { at: number; edgeReqs: number[]; edge5xx: number; edge4xx: number; machine: ReturnType<typeof machineJiffies> }
    | undefined;
  /** Requests each edge has answered (not counting the scrapes), and the 4xx and 5xx by route. */
  const scrape = async (edge: string) => {
    const res = await fetch(`${edge}/metrics`, {
      headers: { authorization: `Bearer ${metricsToken}` },
      signal: AbortSignal.timeout(5000),
    });
    const text = await res.text();
    let total = 0;
    let e5 = 0;
    let e4 = 0;
    for (const m of text.matchAll(/^booth_http_requests_total\{([^}]*)\} (\d+)/gm)) {
      const labels = Object.fromEntries([...(m[1] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
      if (labels.route === "/metrics") continue;
      const count = Number(m[2]);
      total += count;
      const status = Number(labels.status);
      const key = `${edge === edges[0] ? "edge 1" : "edge 2"}: ${status} ${labels.method} ${labels.route}`;
      if (status >= 500) {
        e5 += count;
        edgeErrors[key] = count;
      } else if (status >= 400) {
        e4 += count;
        edge4xxByRoute[key] = count;
      }
    }
    return { total, e5, e4 };
  };
  let botPids: number[] = [];
  let connected = 0;
  const sampleOnce = async () => {
    const at = Date.now();
    const scraped = await Promise.all(edges.map((e) => scrape(e).catch(() => ({ total: Number.NaN, e5: 0, e4: 0 }))));
    const edgeTicks = edgePids.map((pid, i) => meters.edges[i]?.([pid]) ?? 0);
    const ticks = {
      rooms: meters.rooms(treeOf(partyPid)),
      worker: meters.worker([worker.child.pid as number]),
      bots: meters.bots(botPids),
      postgres: meters.postgres(pidsOfName("postgres")),
    };
    const now = {
      at,
      edgeReqs: scraped.map((s) => s.total),
      edge5xx: scraped.reduce((a, s) => a + s.e5, 0),
      edge4xx: scraped.reduce((a, s) => a + s.e4, 0),
      machine: machineJiffies(),
    };
    const activity = await admin<{ state: string | null; count: number }[]>`
      SELECT state, count(*)::int AS count FROM pg_stat_activity WHERE datname = ${database} GROUP BY state`;
    if (previous) {
      const seconds = (at - previous.at) / 1000;
      const share = (spent: number) => (100 * spent) / TICKS / seconds;
      samples.push({
        at,
        edgeCpu: edgeTicks.map(share),
        edgeRps: now.edgeReqs.map((r, i) => Math.max(0, r - (previous?.edgeReqs[i] ?? 0)) / seconds),
        edge5xx: now.edge5xx - previous.edge5xx,
        edge4xx: now.edge4xx - previous.edge4xx,
        roomsCpu: share(ticks.rooms),
        workerCpu: share(ticks.worker),
        botsCpu: share(ticks.bots),
        postgresCpu: share(ticks.postgres),
        machineBusy: (100 * (now.machine.busy - previous.machine.busy)) / (now.machine.total - previous.machine.total),
        dbConnections: activity.reduce((a, r) => a + r.count, 0),
        dbActive: activity.filter((r) => r.state === "active").reduce((a, r) => a + r.count, 0),
        roomsRss: treeOf(partyPid).reduce((a, pid) => a + rss(pid), 0),
        connected,
      });
    }
    previous = now;
  };
  await sampleOnce();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await new Promise((r) => setTimeout(r, SAMPLE_MS));
      try {
        await sampleOnce();
      } catch (err) {
        console.error(`[fleet] a sample failed: ${(err as Error).message}`);
      }
    }
  })();
  cleanups.push({
    name: "the sampler",
    run: async () => {
      sampling = false;
      await sampler;
    },
  });

  // ---- the bots ------------------------------------------------------------------------------------------------
  const planDir = await mkdtemp(join(tmpdir(), "booth-fleet-plan-"));
  dirs.push(planDir);
  const procs: ChildProcess[] = [];
  const joined = new Map<number, { joined: number; of: number }>();
  const ticks: Tick[] = [];
  /** Each bots process's latest report. */
  const lastTick: Tick[] = [];
  const finals: Final[] = [];
  let failure: string | undefined;
  for (let p = 0; p < BOT_PROCS; p++) {
    const plan: BotPlan = {
      partyUrl: party.url,
      edges,
      rooms: rooms.filter((_, i) => i % BOT_PROCS === p),
      chatEveryS: CHAT_S,
      joinConcurrency: JOIN_CONCURRENCY,
      joinTimeoutMs: JOIN_TIMEOUT_S * 1000,
      drainMs: DRAIN_S * 1000,
    };
    const file = join(planDir, `plan-${p}.json`);
    await writeFile(file, JSON.stringify(plan));
    const proc = fork(join(import.meta.dirname, "fleet-bots.ts"), [file], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    proc.on("message", (message: FromBots) => {
      if (message.type === "joined") joined.set(p, message);
      else if (message.type === "tick") {
        ticks.push(message);
        lastTick[p] = message;
      } else if (message.type === "final") finals.push(message);
      else if (message.type === "failed") failure = `bots process ${p + 1}: ${message.error}`;
    });
    proc.on("exit", (code) => {
      if (code && !failure) failure = `bots process ${p + 1} exited with ${code}`;
    });
    procs.push(proc);
  }
  botPids = procs.map((p) => p.pid as number);
  cleanups.push({
    name: "the bots",
    run: async () => {
      for (const proc of procs) if (proc.exitCode === null) proc.kill("SIGKILL");
    },
  });
  const tell = (message: ToBots) => {
    for (const proc of procs) proc.send(message);
  };
  const joinsStarted = Date.now();
  const totalJoined = () => [...joined.values()].reduce((a, j) => a + j.joined, 0);
  let lastLine = 0;
  await waitFor(
    () => {
      if (failure) throw new Error(failure);
      connected = totalJoined();
      if (Date.now() - lastLine >= 5000) {
        lastLine = Date.now();
        const s = samples.at(-1);
        log(
          `${clock()}: joining, ${n(connected)} of ${n(MEMBERS)} in; edges ${s?.edgeRps.map((r) => n(r)).join(" + ")} req/s, ` +
            `CPU edges ${s?.edgeCpu.map((c) => `${n(c)}%`).join(" ")}, rooms ${n(s?.roomsCpu ?? 0)}%, machine ${n(s?.machineBusy ?? 0)}%`,
        );
      }
      return joined.size === BOT_PROCS && totalJoined() === MEMBERS;
    },
    "every member to join",
    JOIN_TIMEOUT_S * 1000 + 60_000,
    500,
  );
  const joinSeconds = (Date.now() - joinsStarted) / 1000;
  const joinedRss = treeOf(partyPid).reduce((a, pid) => a + rss(pid), 0);
  log(`${clock()}: all ${n(MEMBERS)} in after ${joinSeconds.toFixed(0)} s; the load begins`);

  // ---- the load ----------------------------------------------------------------------------------------------------
  const loadStarted = Date.now();
  tell({ type: "start" });
  const progress = setInterval(() => {
    const recent = ticks.filter((t) => t.at > Date.now() - 5000);
    const lat = recent.flatMap((t) => t.voteLatencies);
    const s = samples.at(-1);
    const errors = ticks.reduce((a, t) => a + Object.values(t.errors).reduce((x, y) => x + y, 0), 0);
    connected = lastTick.reduce((a, x) => a + x.connected, 0);
    log(
      `${clock()}: ${n(connected)} connected; last 5 s: ${n(recent.reduce((a, t) => a + t.votesSent, 0))} votes ` +
        `(to a member p50 ${ms(quantile(lat, 0.5))}, p99 ${ms(quantile(lat, 0.99))}), ` +
        `${n(recent.reduce((a, t) => a + t.chatsSent, 0))} chats, bots' loop delay p99 ${ms(Math.max(0, ...recent.map((t) => t.loopDelayP99)))}; edges ${s?.edgeRps.map((r) => n(r)).join(" + ")} req/s, ` +
        `CPU edges ${s?.edgeCpu.map((c) => `${n(c)}%`).join(" ")}, rooms ${n(s?.roomsCpu ?? 0)}%, ` +
        `db ${s?.dbConnections} conns, machine ${n(s?.machineBusy ?? 0)}%; ${errors} errors so far`,
    );
  }, 5000);
  await waitFor(
    () => {
      if (failure) throw new Error(failure);
      return Date.now() - loadStarted >= DURATION_S * 1000;
    },
    "the load's end",
    DURATION_S * 1000 + 60_000,
    500,
  );
  clearInterval(progress);
  const loadEnded = Date.now();
  tell({ type: "stop" });
  await waitFor(
    () => {
      if (failure) throw new Error(failure);
      return finals.length === BOT_PROCS;
    },
    "the bots' totals",
    DRAIN_S * 1000 + 60_000,
    250,
  );
  sampling = false;
  await sampler;

  // ---- the report ------------------------------------------------------------------------------------------------
  const sum = <K extends keyof Final>(k: K) => finals.reduce((a, f) => a + (f[k] as number), 0);
  const allLat = ticks.flatMap((t) => t.voteLatencies);
  const toAll = ticks.flatMap((t) => t.voteToAllLatencies);
  const loadSamples = samples.filter((s) => s.at > loadStarted && s.at <= loadEnded + SAMPLE_MS);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
  const errors: Record<string, number> = {};
  for (const f of finals) for (const [k, v] of Object.entries(f.errors)) errors[k] = (errors[k] ?? 0) + v;
  for (const [k, v] of Object.entries(edgeErrors)) errors[k] = v;
  const lostVotes = sum("voteDeliveriesExpected") - sum("voteDeliveriesReceived");
  const lostChats = sum("chatDeliveriesExpected") - sum("chatDeliveriesReceived");
  const endRss = samples.at(-1)?.roomsRss ?? joinedRss;
  const seconds = (loadEnded - loadStarted) / 1000;
  console.log(
    `\nFleet: ${ROOMS} rooms of ${LISTENERS} listeners and ${DJS} DJs (${n(MEMBERS)} clients), ${n(seconds)} s of load\n`,
  );
  console.log("| | result |\n|---|---|");
  const row = (k: string, v: string) => console.log(`| ${k} | ${v} |`);
  row("joins (everyone, before the load)", `${n(joinSeconds)} s (${n(MEMBERS / joinSeconds)} a second)`);
  row("votes sent (the room accepted)", `${n(sum("votesSent"))} (${(sum("votesSent") / seconds).toFixed(1)} a second)`);
  row(
    "vote patches delivered / expected",
    `${n(sum("voteDeliveriesReceived"))} / ${n(sum("voteDeliveriesExpected"))}: ${lostVotes === 0 ? "**every one**" : `**${n(lostVotes)} LOST** (${sum("votesIncomplete")} votes missed someone)`}`,
  );
  row(
    "chat messages delivered / expected",
    `${n(sum("chatDeliveriesReceived"))} / ${n(sum("chatDeliveriesExpected"))} (${n(sum("chatsSent"))} sent): ${lostChats === 0 ? "**every one**" : `**${n(lostChats)} LOST**`}`,
  );
  row("state patches received, all kinds (gaps in seq)", `${n(sum("patchesReceived"))} (${sum("seqGaps")} missed)`);
  row(
    "after the load's end, the last of it arrived within",
    `${n(Math.max(...finals.map((f) => f.drainMs)) / 1000)} s${Math.max(...finals.map((f) => f.drainMs)) >= DRAIN_S * 1000 ? ` (**not all**: the bench waits ${DRAIN_S} s, BENCH_DRAIN_S)` : ""}`,
  );
  row("a vote to a member's patch, p50 / p99", `**${ms(quantile(allLat, 0.5))} / ${ms(quantile(allLat, 0.99))}**`);
  row("a vote to its room's last member, p50 / p99", `${ms(quantile(toAll, 0.5))} / ${ms(quantile(toAll, 0.99))}`);
  const loadTicks = ticks.filter((x) => x.at > loadStarted);
  row(
    "the bots' event-loop delay over the load, p99 of the seconds' p99 / max (their own share of the above)",
    `${ms(
      quantile(
        loadTicks.map((x) => x.loopDelayP99),
        0.99,
      ),
    )} / ${ms(Math.max(0, ...loadTicks.map((x) => x.loopDelayMax)))}`,
  );
  for (const [i] of edges.entries())
    row(
      `edge ${i + 1}: requests a second, CPU (mean over the load)`,
      `${n(mean(loadSamples.map((s) => s.edgeRps[i] ?? 0)))} req/s, ${n(mean(loadSamples.map((s) => s.edgeCpu[i] ?? 0)))}% of a core`,
    );
  row("the worker's CPU", `${n(mean(loadSamples.map((s) => s.workerCpu)))}% of a core`);
  row("the rooms' CPU (wrangler and workerd)", `${n(mean(loadSamples.map((s) => s.roomsCpu)))}% of a core`);
  row(
    "PostgreSQL's CPU (every backend on the machine)",
    `${n(mean(loadSamples.map((s) => s.postgresCpu)))}% of a core`,
  );
  row("the bots' CPU", `${n(mean(loadSamples.map((s) => s.botsCpu)))}% of a core`);
  row(
    "the machine busy (2 cores: 100% is both)",
    `${n(mean(loadSamples.map((s) => s.machineBusy)))}%, load ${loadavg()}`,
  );
  row(
    "database connections in use (mean / max; active mean)",
    `${n(mean(loadSamples.map((s) => s.dbConnections)))} / ${Math.max(0, ...loadSamples.map((s) => s.dbConnections))}; ${mean(loadSamples.map((s) => s.dbActive)).toFixed(1)}`,
  );
  row(
    "rooms' memory (workerd and wrangler resident)",
    `${n(idleRoomsRss / 2 ** 20)} MB idle, ${n(joinedRss / 2 ** 20)} MB with everyone in, ${n(endRss / 2 ** 20)} MB at the end: **${n((endRss - idleRoomsRss) / ROOMS / 1024)} KB a room** (${n((endRss - idleRoomsRss) / MEMBERS / 1024)} KB a member)`,
  );
  row("socket closes (the client reconnected)", `${sum("reconnects")}`);
  row("the edges' 4xx answers during the load", `${n(loadSamples.reduce((a, s) => a + s.edge4xx, 0))}`);
  const refusals = Object.entries(edge4xxByRoute).sort((x, y) => y[1] - x[1]);
  if (refusals.length)
    console.log(`\nThe edges' 4xx answers over the whole run (refusals the rooms or the setup met; not errors):`);
  for (const [k, v] of refusals) console.log(`- ${k}: ${n(v)}`);
  const errorTotal = Object.values(errors).reduce((a, b) => a + b, 0);
  console.log(`\nErrors: ${errorTotal === 0 ? "none" : ""}`);
  for (const [k, v] of Object.entries(errors).sort((a, b) => b[1] - a[1])) console.log(`- ${k}: ${n(v)}`);
  const short = finals.flatMap((f) => f.shortMembers);
  for (const s of short.slice(0, 5))
    console.log(`- short: ${s.member} in ${s.room} got ${s.received} of ${s.expected} votes`);
  if (short.length > 5) console.log(`- (and ${short.length - 5} more members short of votes)`);

  // ---- the picture -----------------------------------------------------------------------------------------------
  const t = (at: number) => (at - joinsStarted) / 1000;
  const bucketMs = Math.max(2000, Math.round((loadEnded - joinsStarted) / 120 / 1000) * 1000);
  const buckets = new Map<number, Tick[]>();
  for (const tk of ticks) {
    const b = Math.floor((tk.at - joinsStarted) / bucketMs);
    buckets.set(b, [...(buckets.get(b) ?? []), tk]);
  }
  /** A value per bucket of seconds; a bucket with nothing to tell (no vote arrived in it) is left out. */
  const perBucket = (f: (ts: Tick[]) => number): [number, number][] =>
    [...buckets.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([b, ts]): [number, number] => [((b + 0.5) * bucketMs) / 1000, f(ts)])
      .filter(([, v]) => !Number.isNaN(v));
  const perSecond = (f: (t: Tick) => number) => perBucket((ts) => ts.reduce((a, x) => a + f(x), 0) / (bucketMs / 1000));
  const line = (label: string, color: string, points: [number, number][]): Line => ({ label, color, points });
  const sampled = (f: (s: Sample) => number): [number, number][] => samples.map((s) => [t(s.at), f(s)]);
  const colors = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#4b5563"];
  const chart: Chart = {
    title: `Booth: a fleet of ${ROOMS} rooms of ${LISTENERS} listeners and ${DJS} DJs (${n(MEMBERS)} clients)`,
    subtitle:
      `joins from 0 s, the load from ${n(t(loadStarted))} s to ${n(t(loadEnded))} s; 2 edges, a worker, workerd, PostgreSQL and Redis on one 2-core machine; ` +
      `${lostVotes === 0 ? "every vote delivered" : `${n(lostVotes)} vote patches lost`}, vote to a member p99 ${ms(quantile(allLat, 0.99))}`,
    seconds: Math.ceil(Math.max(t(loadEnded), t(ticks.at(-1)?.at ?? loadEnded)) + SAMPLE_MS / 1000),
    panels: [
      {
        title: "clients connected",
        lines: [
          line(
            "connected",
            colors[0] as string,
            sampled((s) => s.connected),
          ),
        ],
      },
      {
        title: `a second: votes sent, vote patches delivered / ${LISTENERS + DJS} (the room's members), chat messages sent`,
        lines: [
          line(
            "votes",
            colors[0] as string,
            perSecond((x) => x.votesSent),
          ),
          line(
            "vote patches / members",
            colors[1] as string,
            perSecond((x) => x.voteLatencies.length / (LISTENERS + DJS)),
          ),
          line(
            "chat messages",
            colors[2] as string,
            perSecond((x) => x.chatsSent),
          ),
        ],
      },
      {
        title: "a vote to a member's patch, ms",
        lines: [
          line(
            "p50",
            colors[0] as string,
            perBucket((ts) =>
              quantile(
                ts.flatMap((x) => x.voteLatencies),
                0.5,
              ),
            ),
          ),
          line(
            "p99",
            colors[1] as string,
            perBucket((ts) =>
              quantile(
                ts.flatMap((x) => x.voteLatencies),
                0.99,
              ),
            ),
          ),
          line(
            "bots' event-loop delay, p99",
            colors[4] as string,
            perBucket((ts) => Math.max(0, ...ts.map((x) => x.loopDelayP99))),
          ),
          line(
            "p99 to the room's last",
            colors[3] as string,
            perBucket((ts) =>
              quantile(
                ts.flatMap((x) => x.voteToAllLatencies),
                0.99,
              ),
            ),
          ),
        ],
      },
      {
        title: "edges: requests a second",
        lines: edges.map((_, i) =>
          line(
            `edge ${i + 1}`,
            colors[i] as string,
            sampled((s) => s.edgeRps[i] ?? 0),
          ),
        ),
      },
      {
        title: "CPU, % of one core (the machine: % of both)",
        lines: [
          ...edges.map((_, i) =>
            line(
              `edge ${i + 1}`,
              colors[i] as string,
              sampled((s) => s.edgeCpu[i] ?? 0),
            ),
          ),
          line(
            "rooms (workerd)",
            colors[2] as string,
            sampled((s) => s.roomsCpu),
          ),
          line(
            "PostgreSQL",
            colors[3] as string,
            sampled((s) => s.postgresCpu),
          ),
          line(
            "bots",
            colors[4] as string,
            sampled((s) => s.botsCpu),
          ),
          line(
            "worker",
            colors[5] as string,
            sampled((s) => s.workerCpu),
          ),
          line(
            "machine, % of 2 cores",
            colors[6] as string,
            sampled((s) => s.machineBusy),
          ),
        ],
      },
      {
        title: "database connections",
        lines: [
          line(
            "in all",
            colors[0] as string,
            sampled((s) => s.dbConnections),
          ),
          line(
            "active",
            colors[1] as string,
            sampled((s) => s.dbActive),
          ),
        ],
      },
      {
        title: "the rooms' memory: workerd's resident MB, and KB a room over the idle runtime's",
        lines: [
          line(
            "MB in all",
            colors[0] as string,
            sampled((s) => s.roomsRss / 2 ** 20),
          ),
          line(
            "KB a room",
            colors[1] as string,
            sampled((s) => (s.roomsRss - idleRoomsRss) / ROOMS / 1024),
          ),
        ],
      },
      {
        title: "errors (bots' refusals and closes; edges' 5xx)",
        lines: [
          line(
            "bots",
            colors[1] as string,
            perBucket((ts) => ts.reduce((a, x) => a + Object.values(x.errors).reduce((p, q) => p + q, 0), 0)),
          ),
          line(
            "edges' 5xx",
            colors[3] as string,
            sampled((s) => s.edge5xx),
          ),
        ],
      },
    ],
  };
  await mkdir(dirname(PICTURE), { recursive: true });
  const samplesFile = join(tmpdir(), `fleet-samples-${process.pid}.json`);
  await writeFile(samplesFile, JSON.stringify({ chart, samples }));
  await drawChart(chart, PICTURE);
  log(`the picture: ${PICTURE} (samples: ${samplesFile})`);
  process.exitCode = lostVotes === 0 && lostChats === 0 && !failure ? 0 : 1;
} catch (err) {
  console.error(`[fleet] failed: ${(err as Error).stack ?? err}`);
  for (const run of children)
    if (run.child.exitCode !== null) console.error(`[fleet] a child exited early:\n${run.output().slice(-3000)}`);
  process.exitCode = 1;
} finally {
  await cleanup();
  log(`cleaned up after ${clock()}`);
}
// Whatever handle is left (a keep-alive socket), the bench is over.
process.exit(process.exitCode ?? 0);
