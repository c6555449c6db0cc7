// Votes in a live room of 100, 1000 and 2000 clients, each against a baseline measured in the same run: a storm (every
// vote at once: messages delivered per second) and a steady stream (one vote every 50 ms: how long a vote takes to
// reach each client, p50 and p99), and the size of a vote's message. Every client is a real socket.
//
// In process: the party's own engine (LiveRoom: validation, the reducer, patches, storage) served by `ws` in this
// process, with an in-memory edge, against a plain `ws` server that only rebroadcasts each vote to everyone (and the
// same padded to the room's message), so the ratio is the room's cost over the bare fan-out.
//
// On the Workers runtime: the rooms' Worker under `wrangler dev` (workerd, in its own process), its calls to the edge
// answered by a small HTTP edge here that knows only what a room asks, against a bare Durable Object under a `wrangler
// dev` of its own (apps/rooms-party/bench/bare.ts: the same hibernation API, the room's compatibility date and flags)
// that sends every socket a message of the room's size for each vote: the limit of that runtime, so the ratio is what
// Booth's own work costs on it. Their storms take turns in the same rounds.
//
// Run with `npm run bench:rooms` (BENCH_SIZES=100,1000; BENCH_NODE=0 skips the in-process servers, BENCH_WORKER=0 the
// runtime, BENCH_WORKER_MAX=1000 the largest room it is given; BENCH_PROF=<dir> profiles the runtime's isolates).
// BENCH_BASE=<commit> joins a fourth server beside the three in process: the room's engine as that commit had it, its
// storms taking turns with the others', so a change to the engine is measured against what it changed in the same
// rounds.
import { fork } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { WebSocket, WebSocketServer } from "ws";
import { answers, freePort, startChildServer } from "../apps/edge/src/testing/child-server.ts";
import { APP_DIR, roomsRuntime, wranglerDevArgs, wranglerEnv } from "../apps/rooms-party/scripts/wrangler-dev.mjs";
import type { Edge } from "../apps/rooms-party/src/edge.ts";
import * as rooms from "../apps/rooms-party/src/room.ts";
import * as stores from "../apps/rooms-party/src/storage.ts";
import { ROOM_UUID, settingsFor, songFor, userFor } from "../apps/rooms-party/src/testing.ts";
import { engineOf, shortCommit } from "./engine-of.ts";
import type { ClientAnswer, ClientCommand, ClientReport } from "./rooms-clients.ts";

const SIZES = (process.env.BENCH_SIZES ?? "100,1000,2000").split(",").map(Number);
/** BENCH_BASE: a commit whose engine joins the rounds beside this tree's. */
const BASE = process.env.BENCH_BASE
  ? (() => {
      const commit = shortCommit(process.env.BENCH_BASE);
      const unpacked = engineOf(commit);
      // Removed however the bench ends, a failed measurement included.
      process.once("exit", unpacked.remove);
      return { commit, dir: unpacked.dir };
    })()
  : null;
const VOTERS = Number(process.env.BENCH_VOTERS ?? 200);
/** Storms per measurement (every voter at once each time); the median one is reported. */
const STORMS = Math.max(1, Number(process.env.BENCH_STORMS ?? 5));
const PACED_VOTES = Number(process.env.BENCH_PACED_VOTES ?? 40);
const PACE_MS = 50;
/** Processes the clients are spread over. */
const CLIENT_PROCS = Number(process.env.BENCH_CLIENT_PROCS ?? 2);
/** Joins sent at once (the next batch goes when these are answered). */
const JOIN_BATCH = 100;
/**
 * How long everyone's joins may take. Each join on the runtime asks the edge three times: 2,000 joins took 180 s on
 * an idle 2-core machine, and far longer on a busy one.
 */
const JOIN_WAIT_MS = Number(process.env.BENCH_JOIN_WAIT_MS ?? 300_000);

const settings = settingsFor({ roomSize: 10_000 });
const edge: Edge = {
  roomSettings: async () => settings,
  join: async () => settings,
  profile: async (uuid) => ({ uuid, nickname: `n${uuid.slice(-5)}`, avatarId: "a", color: "#112233", verifiedAt: "x" }),
  presenceJoined: async () => undefined,
  presenceLeft: async () => undefined,
  recordPlay: async () => ({ id: crypto.randomUUID() }),
  awardPoints: async () => undefined,
  upcomingQueue: async () => [],
  song: async () => songFor(1, { duration: 3600 }),
  advanceQueue: async () => [],
  addToLikes: async () => undefined,
  notifyDjFans: async () => undefined,
  reportLiveState: async () => undefined,
};

async function listen(server: WebSocketServer) {
  await new Promise((r) => server.once("listening", r));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A server under test: where clients connect, and how a client makes it ready to receive votes. */
interface Target {
  /** The address client number `user` (1..n) connects to. */
  url(user: number): string;
  /** Messages the setup itself expects back before votes start (joins, the DJ's seat). */
  prepare(clients: Clients): Promise<void>;
  close(): void;
  /** The process that serves it: this one, or the runtime's (with its children). */
  pid: number;
}

/** The room served by `ws`: this tree's engine, or the one unpacked in `engine` (bench/engine-of.ts). */
async function roomTarget(engine?: string): Promise<Target> {
  const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  const url = await listen(server);
  const src = engine ? pathToFileURL(join(engine, "apps/rooms-party/src/")).href : null;
  const { LiveRoom } = src
    ? ((await import(`${src}room.ts`)) as typeof import("../apps/rooms-party/src/room.ts"))
    : rooms;
  const { keyValueStateStore, memoryKeyValue } = src
    ? ((await import(`${src}storage.ts`)) as typeof import("../apps/rooms-party/src/storage.ts"))
    : stores;
  const room = new LiveRoom(
    ROOM_UUID,
    { store: keyValueStateStore(memoryKeyValue()), setAlarm: async () => {}, log: () => {} },
    edge,
    { graceMs: 20_000, timeScale: 1 },
  );
  let ids = 0;
  server.on("connection", (ws, req) => {
    const n = Number(new URL(req.url ?? "", "http://x").searchParams.get("user"));
    const id = `s${++ids}`;
    room.connect({
      id,
      claims: { sub: userFor(n).uuid, type: "user", roles: [], badges: [] },
      token: "t",
      send: (text) => ws.send(text),
      close: (code, reason) => ws.close(code, reason),
    });
    ws.on("message", (d) => void room.message(id, String(d)));
    ws.on("close", () => room.disconnect(id));
  });
  return {
    url: (user) => `${url}?user=${user}`,
    prepare: prepareRoom(ROOM_UUID),
    close: () => server.close(),
    pid: process.pid,
  };
}

/** Everyone joins, and the first client takes the booth with a long song. */
function prepareRoom(roomUuid: string): Target["prepare"] {
  return async (clients) => {
    // A hundred at a time: each join asks the edge three times, and 2,000 at once had the runtime's calls to the
    // bench's edge time out (the joins refused with a 502), which is not what is measured.
    const deadline = Date.now() + JOIN_WAIT_MS;
    for (let from = 0; from < clients.n; from += JOIN_BATCH) {
      const to = Math.min(clients.n, from + JOIN_BATCH);
      await clients.send(
        Array.from({ length: to - from }, (_, k) => ({
          client: from + k,
          text: JSON.stringify({ action: "joinRoom", params: { roomUuid }, requestId: from + k }),
        })),
      );
      await clients.waitFor((r) => r.replies, to, "join replies", false, Math.max(1, deadline - Date.now()));
    }
    const reports = await clients.reports();
    const refused = reports.reduce((sum, r) => sum + r.refused, 0);
    if (refused)
      throw new Error(
        `${refused} of ${clients.n} joins refused: ${reports.find((r) => r.refusal)?.refusal.slice(0, 200)}`,
      );
    await clients.send([
      {
        client: 0,
        text: JSON.stringify({ action: "addDj", params: { song: { songId: songFor(1).songId } }, requestId: "dj" }),
      },
    ]);
    await clients.waitFor((r) => r.replies, clients.n + 1, "join replies");
  };
}

/**
 * The edge as far as a room needs it, over HTTP: its JWKS, admission, settings, profiles, a song, and a 200 for every
 * report (presence, live state, plays). Every room it is asked about has the bench's settings.
 */
async function benchEdge() {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const kid = "bench";
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" }] };
  const reply = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res) => {
    req.resume();
    const path = new URL(req.url ?? "/", "http://edge").pathname;
    const room = path.match(/\/rooms\/(?:service\/room\/)?([0-9a-f-]{36})(?:\/join)?$/)?.[1];
    if (path === "/.well-known/jwks.json") return reply(res, jwks);
    if (room && (path.endsWith("/join") || path.includes("/service/room/")))
      return reply(res, { ...settings, uuid: room, slug: room });
    const profile = path.match(/\/profile\/([0-9a-f-]{36})\/service$/)?.[1];
    if (profile) return reply(res, edgeProfile(profile));
    if (path.includes("/queue/")) return reply(res, { songs: [] });
    if (path.includes("/songs/")) return reply(res, songFor(1, { duration: 3600 }));
    if (path.endsWith("/recent-songs")) return reply(res, { id: crypto.randomUUID() });
    return reply(res, {});
  });
  // Node closes an idle keep-alive connection after 5 s, and workerd may reuse it at that moment ("Network
  // connection lost"): a join then fails. Keep them longer than the runtime does.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 121_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const token = (user: number) =>
    new SignJWT({ type: "user", roles: ["user"], badges: [], ver: 0, purpose: "live" })
      .setProtectedHeader({ alg: "ES256", kid })
      .setIssuer("booth")
      .setSubject(userFor(user).uuid)
      .setIssuedAt()
      .setExpirationTime("2h")
      .sign(privateKey);
  return { url, token, close: () => server.close() };
}

const edgeProfile = (uuid: string) => ({
  uuid,
  nickname: `n${uuid.slice(-5)}`,
  avatarId: "a",
  color: "#112233",
  verifiedAt: "x",
});

/** BENCH_PROF=<dir>: a CPU profile of each runtime's isolate over its counted storms (open it in Chrome's DevTools). */
const PROF_DIR = process.env.BENCH_PROF;

/**
 * The runtime's JavaScript profiler, through the inspector `wrangler dev` serves on `port`: `start` begins a CPU
 * profile of the Worker's isolate (where its Durable Objects run), `stop` writes it to `file` and prints the functions
 * that took the most of it.
 */
async function profilerOf(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error(`no inspector target at port ${port}`);
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let ids = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  ws.on("message", (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve) => {
      const id = ++ids;
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: 200 });
  return {
    start: () => call("Profiler.start"),
    /** `votes`: how many votes the profiled storms sent, for the time per vote. */
    async stop(file: string, votes: number) {
      const { profile } = (await call("Profiler.stop")) as {
        profile: {
          nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
          samples: number[];
        };
      };
      writeFileSync(file, JSON.stringify(profile));
      const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
      const self = new Map<string, number>();
      for (const sample of profile.samples) {
        const frame = byNode.get(sample)?.callFrame;
        const name = frame
          ? `${frame.functionName || "(anonymous)"} ${frame.url.split("/").pop()}:${frame.lineNumber}`
          : "?";
        self.set(name, (self.get(name) ?? 0) + 1);
      }
      const total = profile.samples.length;
      const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25);
      const { startTime, endTime } = profile as unknown as { startTime: number; endTime: number };
      const busyMs = ((endTime - startTime) / 1000) * (1 - (self.get("(idle) :-1") ?? 0) / total);
      process.stdout.write(
        `  profile ${file}: ${busyMs.toFixed(0)} ms not idle, ${(busyMs / votes).toFixed(3)} ms a vote:\n${top.map(([name, n]) => `    ${((n / total) * 100).toFixed(1).padStart(5)}% ${name}`).join("\n")}\n`,
      );
      ws.close();
    },
  };
}

/**
 * What `wrangler dev` prints is kept by the runner as one string, and at 2,000 clients it printed more than a string
 * can hold (the bench died with "Invalid string length"): count it instead, and keep its beginning and its end.
 */
function countPrinted(run: { child: import("node:child_process").ChildProcess }) {
  let printed = 0;
  let head = "";
  let tail = "";
  for (const stream of [run.child.stdout, run.child.stderr]) {
    stream?.removeAllListeners("data");
    stream?.on("data", (d: Buffer) => {
      printed += d.length;
      if (head.length < 2000) head += String(d).slice(0, 2000 - head.length);
      tail = (tail + String(d)).slice(-2000);
    });
  }
  /** Bytes wrangler dev printed so far, the first of them and the last. */
  return () => ({ bytes: printed, head, tail });
}

/** The rooms' Worker under `wrangler dev`, with a fresh room for each target. */
async function workerRuntime() {
  const edge = await benchEdge();
  const port = await freePort();
  const persistTo = await mkdtemp(join(tmpdir(), "booth-rooms-bench-"));
  const inspectorPort = await freePort();
  const run = await startChildServer({
    name: "wrangler dev",
    args: wranglerDevArgs({
      port,
      persistTo,
      inspectorPort,
      vars: { BOOTH_EDGE_URL: edge.url, BOOTH_PRESENCE_GRACE_MS: "20000" },
      secrets: { BOOTH_SERVICE_SECRET: crypto.randomUUID() + crypto.randomUUID() },
    }),
    cwd: APP_DIR,
    env: { ...wranglerEnv(), WRANGLER_LOG_LEVEL: "warn" },
    detached: true,
    ready: () => answers(`http://127.0.0.1:${port}/parties/main/${ROOM_UUID}`, 401),
    timeoutMs: 90_000,
    intervalMs: 500,
  });
  const printed = countPrinted(run);
  const tokens = new Map<number, string>();
  return {
    printed,
    profiler: () => profilerOf(inspectorPort),
    async target(n: number): Promise<Target> {
      for (let user = 1; user <= n; user++) if (!tokens.has(user)) tokens.set(user, await edge.token(user));
      const roomUuid = crypto.randomUUID();
      return {
        url: (user) => `ws://127.0.0.1:${port}/parties/main/${roomUuid}?token=${tokens.get(user)}`,
        prepare: prepareRoom(roomUuid),
        close: () => undefined,
        pid: run.child.pid as number,
      };
    },
    async stop() {
      await run.stop(5000);
      edge.close();
      await rm(persistTo, { recursive: true, force: true });
    },
  };
}

/**
 * The baseline on the rooms' own runtime: a bare Durable Object (apps/rooms-party/bench/bare.ts) under a `wrangler
 * dev` of its own, started as the room's is, on the room's compatibility date and flags. Each vote it gets, it sends
 * every socket a message of `bytes` bytes (the room's vote message) with the same hibernation API as the room.
 */
async function bareRuntime() {
  const port = await freePort();
  const persistTo = await mkdtemp(join(tmpdir(), "booth-rooms-bench-bare-"));
  const { compatibilityDate, compatibilityFlags } = roomsRuntime();
  const inspectorPort = await freePort();
  const run = await startChildServer({
    name: "wrangler dev (bare Durable Object)",
    args: wranglerDevArgs({
      port,
      persistTo,
      inspectorPort,
      config: join(APP_DIR, "bench", "wrangler.jsonc"),
      extra: [
        "--compatibility-date",
        compatibilityDate,
        ...compatibilityFlags.flatMap((flag) => ["--compatibility-flags", flag]),
      ],
    }),
    cwd: APP_DIR,
    env: { ...wranglerEnv(), WRANGLER_LOG_LEVEL: "warn" },
    detached: true,
    ready: () => answers(`http://127.0.0.1:${port}/bare/ready`, 426),
    timeoutMs: 90_000,
    intervalMs: 500,
  });
  const printed = countPrinted(run);
  return {
    printed,
    profiler: () => profilerOf(inspectorPort),
    target(bytes: number): Target {
      const name = crypto.randomUUID();
      return {
        url: () => `ws://127.0.0.1:${port}/bare/${name}?bytes=${bytes}`,
        prepare: async () => {},
        close: () => undefined,
        pid: run.child.pid as number,
      };
    },
    async stop() {
      await run.stop(5000);
      await rm(persistTo, { recursive: true, force: true });
    },
  };
}

/**
 * The bare fan-out: each vote rebroadcast as it came. With `bytes`, each message is padded to that size (the room's
 * own vote message), so the fan-out's cost per byte is the same on both sides and the ratio is the room's own work.
 */
async function baselineTarget(bytes = 0): Promise<Target> {
  const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  const url = await listen(server);
  server.on("connection", (ws) => {
    ws.on("message", (d) => {
      const message = { name: "votedOnSong", vote: JSON.parse(String(d)) };
      const plain = JSON.stringify(message);
      // `,"pad":""` is 9 characters; the pad fills the rest.
      const text =
        bytes > plain.length + 9 ? JSON.stringify({ ...message, pad: "x".repeat(bytes - plain.length - 9) }) : plain;
      for (const client of server.clients) client.send(text);
    });
  });
  return { url: () => url, prepare: async () => {}, close: () => server.close(), pid: process.pid };
}

const vote = (v: number, like: boolean) =>
  JSON.stringify({ action: "voteOnSong", params: { songVotes: { like } }, requestId: `v${v}` });

/** The clients of one measurement, spread over processes of their own (bench/rooms-clients.ts). */
interface Clients {
  n: number;
  /** Messages from clients (0..n-1), each sent by the process that holds it. */
  send(messages: { client: number; text: string }[], paced?: number): Promise<void>;
  reports(): Promise<ClientReport[]>;
  /** Resolves when `pick` summed over the processes reaches `target`; a lossy wait resolves after `waitMs` anyway. */
  waitFor(
    pick: (r: ClientReport) => number,
    target: number,
    what: string,
    lossy?: boolean,
    waitMs?: number,
  ): Promise<void>;
  reset(): Promise<void>;
  times(): Promise<{ received: number[][]; sent: Map<number, number> }>;
  close(): void;
}

async function startClients(n: number, url: (user: number) => string): Promise<Clients> {
  const count = Math.max(1, Math.min(CLIENT_PROCS, n));
  const procs = Array.from({ length: count }, () =>
    fork(join(import.meta.dirname, "rooms-clients.ts"), [], { execArgv: ["--import", "tsx"], stdio: "inherit" }),
  );
  const waiting = procs.map(() => [] as { resolve: (a: ClientAnswer) => void; reject: (e: Error) => void }[]);
  // An error answers the command it came from (a socket the runtime would not open: the measurement reports it).
  for (const [i, proc] of procs.entries())
    proc.on("message", (a: ClientAnswer) => {
      const asked = waiting[i]?.shift();
      if (a.type === "error") asked?.reject(new Error(`client process ${i}: ${a.message}`));
      else asked?.resolve(a);
    });
  const ask = <T extends ClientAnswer>(i: number, command: ClientCommand) =>
    new Promise<T>((resolve, reject) => {
      waiting[i]?.push({ resolve: resolve as (a: ClientAnswer) => void, reject });
      procs[i]?.send(command);
    });
  // Client i lives in process i % count, as its (i / count)-th client.
  await Promise.all(
    procs.map((_, p) =>
      ask(p, {
        type: "open",
        urls: Array.from({ length: n }, (_, i) => i)
          .filter((i) => i % count === p)
          .map((i) => url(i + 1)),
      }),
    ),
  ).catch((err: Error) => {
    for (const proc of procs) proc.send({ type: "close" } satisfies ClientCommand);
    throw err;
  });
  const reports = () => Promise.all(procs.map((_, p) => ask<ClientReport>(p, { type: "report" })));
  return {
    n,
    async send(messages, paced) {
      await Promise.all(
        procs.map((_, p) => {
          const mine = messages
            .filter((m) => m.client % count === p)
            .map((m) => ({ client: Math.floor(m.client / count), text: m.text }));
          return mine.length
            ? ask(p, { type: "send", messages: mine, ...(paced === undefined ? {} : { paced }) })
            : null;
        }),
      );
    },
    reports,
    async waitFor(pick, target, what, lossy = false, waitMs = 120_000) {
      const deadline = Date.now() + waitMs;
      for (;;) {
        const all = await reports();
        const got = all.reduce((sum, r) => sum + pick(r), 0);
        if (got >= target) return;
        if (Date.now() > deadline) {
          if (lossy) return;
          const closes = all.flatMap((r) => r.closes);
          throw new Error(
            `${what}: ${got} of ${target} after ${waitMs / 1000} s; ${closes.length} sockets closed (${[...new Set(closes)]})`,
          );
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async reset() {
      await Promise.all(procs.map((_, p) => ask(p, { type: "reset" })));
    },
    async times() {
      const all = await Promise.all(
        procs.map((_, p) =>
          ask<{ type: "times"; received: number[][]; sent: [number, number][] }>(p, { type: "times" }),
        ),
      );
      const received: number[][] = [];
      for (let i = 0; i < n; i++) received.push(all[i % count]?.received[Math.floor(i / count)] ?? []);
      return { received, sent: new Map(all.flatMap((a) => a.sent)) };
    },
    close() {
      for (const proc of procs) proc.send({ type: "close" } satisfies ClientCommand);
    },
  };
}

/** CPU time (ms) and resident memory (bytes) of a process and its children, from /proc. */
function usageOfTree(pid: number): { cpuMs: number; rss: number } {
  let cpuMs = 0;
  let rss = 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime, in clock ticks (100 a second on Linux).
    cpuMs += (Number(fields[11]) + Number(fields[12])) * 10;
    rss += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
    for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) {
      const u = usageOfTree(Number(child));
      cpuMs += u.cpuMs;
      rss += u.rss;
    }
  } catch {
    // Gone meanwhile.
  }
  return { cpuMs, rss };
}

// A full collection before each memory reading of this process (the bench is not started with --expose-gc).
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** The server's own CPU time so far (ms) and its memory after a collection (bytes); the bench's process or the runtime's. */
function serverUsage(pid: number) {
  if (pid !== process.pid) return { ...usageOfTree(pid), heap: Number.NaN };
  gc();
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  return { cpuMs: (cpu.user + cpu.system) / 1000, rss: memory.rss, heap: memory.heapUsed + memory.external };
}

interface Result {
  /** Vote messages delivered per second during the storm. */
  perSecond: number;
  /** The share of the storm's wall time the server spent on a CPU (1 = one core all along: it was the bottleneck). */
  serverBusy: number;
  /** The share of the storm's and the stream's vote messages that reached their clients (1 = all). */
  delivered: number;
  /** Votes the room refused, and the first refusal's message. */
  refused: number;
  refusal: string;
  p50: number;
  p99: number;
  /** The largest vote message a client received, in bytes, and its statePatch alone. */
  bytes: number;
  patchBytes: number;
  /** The server's memory per connected client (joined, in the room): resident, and the JS heap (in process only). */
  rssPerClient: number;
  heapPerClient: number;
}

/** A server under measurement with its clients joined: its storms, run one at a time, and then its steady stream. */
interface Side {
  /** One storm: every voter at once (each turns their vote around after the first, or the room would send nothing). */
  storm(counted?: boolean): Promise<void>;
  /** The storms counted so far, in order. */
  storms: { perSecond: number; serverBusy: number }[];
  /** The largest vote message a client has received, in bytes. */
  largestBytes(): Promise<number>;
  /** The steady stream, and the result (its storm: the median of the counted ones). */
  finish(): Promise<Result>;
  close(): void;
}

async function openSide(makeTarget: () => Promise<Target>, n: number, lossy = false): Promise<Side> {
  const target = await makeTarget();
  const empty = serverUsage(target.pid);
  const clients = await startClients(n, target.url);
  try {
    await target.prepare(clients);
  } catch (error) {
    clients.close();
    target.close();
    throw error;
  }
  const full = serverUsage(target.pid);
  await clients.reset();
  const voters = Math.min(VOTERS, n - 1);
  const likes = Array.from({ length: voters + 1 }, (_, v) => v % 3 !== 0);
  const storms: Side["storms"] = [];
  let stormVotes = 0;
  let stormsRun = 0;
  return {
    storms,
    async storm(counted = true) {
      if (stormsRun++ > 0) for (let v = 1; v <= voters; v++) likes[v] = !likes[v];
      await clients.reset();
      const cpuBefore = serverUsage(target.pid).cpuMs;
      await clients.send(
        Array.from({ length: voters }, (_, i) => ({ client: i + 1, text: vote(i + 1, likes[i + 1] ?? true) })),
      );
      await clients.waitFor((r) => r.votes, stormVotes + voters * n, "storm votes", lossy, 60_000);
      const reports = await clients.reports();
      const cpuAfter = serverUsage(target.pid).cpuMs;
      const started = Math.min(...reports.map((r) => r.firstSentAt || Number.POSITIVE_INFINITY));
      const ended = Math.max(...reports.map((r) => r.lastVoteAt));
      const votesNow = reports.reduce((sum, r) => sum + r.votes, 0);
      if (counted)
        storms.push({
          perSecond: (votesNow - stormVotes) / ((ended - started) / 1000),
          serverBusy: (cpuAfter - cpuBefore) / (ended - started),
        });
      stormVotes = votesNow;
    },
    async largestBytes() {
      return Math.max(...(await clients.reports()).map((r) => r.bytes));
    },
    async finish() {
      const { perSecond, serverBusy } = [...storms].sort((a, b) => a.perSecond - b.perSecond)[
        Math.floor(storms.length / 2)
      ] ?? { perSecond: 0, serverBusy: 0 };
      if (process.env.BENCH_VERBOSE)
        console.log(`  storms: ${storms.map((r) => Math.round(r.perSecond)).join(", ")} msg/s`);

      // The steady stream: voters turn their vote around, one every PACE_MS (a vote that changes nothing sends
      // nothing); each client's k-th message after the storm is vote k.
      await clients.reset();
      for (let k = 0; k < PACED_VOTES; k++) {
        const v = 1 + (k % voters);
        likes[v] = !likes[v];
        const next = new Promise((r) => setTimeout(r, PACE_MS));
        await clients.send([{ client: v, text: vote(v, likes[v] ?? true) }], k);
        await next;
      }
      await clients.waitFor((r) => r.votes, stormVotes + PACED_VOTES * n, "paced votes", lossy, 60_000);
      const last = await clients.reports();
      const votes = last.reduce((sum, r) => sum + r.votes, 0);
      const delivered = votes / (stormsRun * voters * n + PACED_VOTES * n);
      const closes = last.flatMap((r) => r.closes);
      if (closes.length)
        process.stdout.write(`  ${closes.length} client sockets closed by the server (${[...new Set(closes)]})\n`);
      const { received, sent } = await clients.times();
      const latencies = received.flatMap((times) => times.map((t, k) => t - (sent.get(k) ?? t))).sort((a, b) => a - b);
      const at = (q: number) =>
        latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
      const largest = last.reduce((a, b) => (b.bytes > a.bytes ? b : a));
      // BENCH_VERBOSE=1 shows the largest vote message as it went over the wire.
      if (process.env.BENCH_VERBOSE) console.log(largest.sample);
      const refused = last.reduce((sum, r) => sum + r.refused, 0);
      const refusal = last.find((r) => r.refusal)?.refusal ?? "";
      return {
        perSecond,
        serverBusy,
        delivered,
        refused,
        refusal,
        p50: at(0.5),
        p99: at(0.99),
        bytes: largest.bytes,
        patchBytes: largest.patchBytes,
        rssPerClient: (full.rss - empty.rss) / n,
        heapPerClient: (full.heap - empty.heap) / n,
      };
    },
    close() {
      clients.close();
      target.close();
    },
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/**
 * The room, the bare broadcast and the bare broadcast of the room's bytes, all three joined at once, their storms
 * taking turns (the order turned around every round), so whatever else the machine does falls on all three alike.
 * The ratios are the medians of each round's own (room / baseline in the same round).
 */
async function measureTogether(n: number) {
  const sides: Side[] = [];
  try {
    const room = await openSide(() => roomTarget(), n);
    sides.push(room);
    // Two first storms, not counted: they warm the room and tell the size of its vote message (the second turns
    // every vote around, as the counted ones do).
    await room.storm(false);
    await room.storm(false);
    const bytes = await room.largestBytes();
    const plain = await openSide(() => baselineTarget(), n);
    sides.push(plain);
    const padded = await openSide(() => baselineTarget(bytes), n);
    sides.push(padded);
    await plain.storm(false);
    await padded.storm(false);
    const before = BASE ? await openSide(() => roomTarget(BASE.dir), n) : null;
    if (before) {
      sides.push(before);
      await before.storm(false);
      await before.storm(false);
    }
    for (let round = 0; round < STORMS; round++)
      for (const side of round % 2 ? [...sides].reverse() : sides) await side.storm();
    const ratio = (a: Side, b: Side) => median(a.storms.map((s, i) => s.perSecond / (b.storms[i]?.perSecond ?? 0)));
    const vsPlain = ratio(room, plain);
    const vsPadded = ratio(room, padded);
    const rounds = (side: Side) =>
      side.storms.map((s, i) => (s.perSecond / (plain.storms[i]?.perSecond ?? 0)).toFixed(2)).join(", ");
    if (process.env.BENCH_VERBOSE) console.log(`  rounds, room / bare: ${rounds(room)}`);
    // The commit's engine in the same rounds: its ratio, each round's, and this tree's over it round by round.
    const older = before && { vsPlain: ratio(before, plain), rounds: rounds(before), gain: ratio(room, before) };
    const live = await room.finish();
    const base = await plain.finish();
    const sameBytes = await padded.finish();
    return { live, base, sameBytes, vsPlain, vsPadded, older };
  } finally {
    for (const side of sides) side.close();
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * The room's Worker and the bare Durable Object, each under a `wrangler dev` of its own, both joined at once, their
 * storms taking turns (the order turned around every round); the ratio is the median of each round's own. Lossy: a
 * vote message that never arrives is counted, not waited for. Where the local runtime cannot take the room at all
 * (its joins do not complete), that is the measurement.
 */
async function measureOnWorkers(n: number) {
  // Fresh runtimes for each size, as a room of its own would have.
  const worker = await workerRuntime();
  const bare = await bareRuntime().catch(async (err) => {
    await worker.stop();
    throw err;
  });
  const sides: Side[] = [];
  try {
    const room = await openSide(() => worker.target(n), n, true);
    sides.push(room);
    // Two first storms, not counted, warm the room and tell the size of its vote message.
    await room.storm(false);
    await room.storm(false);
    const bytes = await room.largestBytes();
    const plain = await openSide(async () => bare.target(bytes), n, true);
    sides.push(plain);
    await plain.storm(false);
    await plain.storm(false);
    const profilers = PROF_DIR ? await Promise.all([worker.profiler(), bare.profiler()]) : [];
    for (const profiler of profilers) await profiler.start();
    for (let round = 0; round < STORMS; round++)
      for (const side of round % 2 ? [...sides].reverse() : sides) await side.storm();
    for (const [i, profiler] of profilers.entries())
      await profiler.stop(
        join(PROF_DIR ?? "", `rooms-${n}-${i ? "bare" : "room"}.cpuprofile`),
        STORMS * Math.min(VOTERS, n - 1),
      );
    const vsBare = median(room.storms.map((s, i) => s.perSecond / (plain.storms[i]?.perSecond ?? 0)));
    const rounds = room.storms.map((s, i) => (s.perSecond / (plain.storms[i]?.perSecond ?? 0)).toFixed(2)).join(", ");
    const live = await room.finish();
    const base = await plain.finish();
    return { live, base, vsBare, rounds };
  } finally {
    for (const side of sides) side.close();
    await new Promise((r) => setTimeout(r, 1000));
    for (const [name, runtime] of [
      ["the room's", worker],
      ["the bare Durable Object's", bare],
    ] as const) {
      const { bytes, head, tail } = runtime.printed();
      if (bytes > 10_000_000 || process.env.BENCH_VERBOSE)
        process.stdout.write(
          `  ${name} wrangler dev printed ${kb(bytes)}, beginning with:\n${head}\n  ending with:\n${tail}\n`,
        );
    }
    await Promise.all([worker.stop(), bare.stop()]);
  }
}

/** BENCH_NODE=0 skips the room's engine served by `ws` in this process and its baselines. */
const withNode = process.env.BENCH_NODE !== "0";
const withWorker = process.env.BENCH_WORKER !== "0";
// wrangler dev is one local workerd: how far it goes on this machine is part of what is measured.
const WORKER_MAX = Number(process.env.BENCH_WORKER_MAX ?? 5000);

const rows: string[] = [];
const ms = (x: number) => `${x.toFixed(1).padStart(6)} ms`;
const rate = (x: number) => Math.round(x).toString().padStart(7);
const kb = (x: number) => `${(x / 1024).toFixed(1)} KB`;
const busy = (x: number) => `server busy ${Math.round(x * 100)}%`;
for (const n of SIZES) {
  let nodeBase: Result | null = null;
  if (withNode) {
    // The room and the bare broadcast, and the same fan-out sending messages as long as the room's (what is left of
    // the gap is the room's own work), their storms taking turns.
    const { live, base, sameBytes, vsPlain, vsPadded, older } = await measureTogether(n);
    nodeBase = base;
    rows.push(
      `${String(n).padStart(5)} clients | storm: room ${rate(live.perSecond)} msg/s (${busy(live.serverBusy)}), ws ${rate(base.perSecond)} msg/s (${busy(base.serverBusy)}), ratio ${vsPlain.toFixed(2)}x | one vote every ${PACE_MS} ms: room p50 ${ms(live.p50)} p99 ${ms(live.p99)}, ws p50 ${ms(
        base.p50,
      )} p99 ${ms(base.p99)}, p99 ratio ${(live.p99 / base.p99).toFixed(2)}x | largest vote: patch ${
        live.patchBytes
      } bytes, message ${live.bytes} bytes (ws ${base.bytes}) | ws sending ${sameBytes.bytes} bytes: ${rate(sameBytes.perSecond)} msg/s (${busy(sameBytes.serverBusy)}), room vs it ${vsPadded.toFixed(2)}x, p99 ${ms(sameBytes.p99)} | per client: room ${kb(live.rssPerClient)} resident, ${kb(live.heapPerClient)} heap; ws ${kb(base.rssPerClient)} resident, ${kb(base.heapPerClient)} heap${
        older && BASE
          ? ` | the engine of ${BASE.commit} in the same rounds: ratio ${older.vsPlain.toFixed(2)}x (${older.rounds}); this tree over it ${older.gain.toFixed(2)}x`
          : ""
      }`,
    );
    process.stdout.write(`  measured ${n} clients in process: ${rows.at(-1)}\n`);
  }
  if (withWorker && n <= WORKER_MAX) {
    const measured = await measureOnWorkers(n).catch((err: Error) => err);
    if (measured instanceof Error) {
      rows.push(`${String(n).padStart(5)} clients | Worker: ${measured.message.split("\n")[0]} (wrangler dev)`);
      process.stdout.write(`  ${rows.at(-1)}\n`);
      continue;
    }
    const { live: real, base: bare, vsBare, rounds } = measured;
    rows.push(
      `${String(n).padStart(5)} clients | storm: Worker room ${rate(real.perSecond)} msg/s (${busy(real.serverBusy)}), bare Durable Object ${rate(bare.perSecond)} msg/s (${busy(bare.serverBusy)}), ratio ${vsBare.toFixed(2)}x (rounds ${rounds})${
        nodeBase ? `, vs the ws broadcast in process ${(real.perSecond / nodeBase.perSecond).toFixed(2)}x` : ""
      } | one vote every ${PACE_MS} ms: Worker room p50 ${ms(real.p50)} p99 ${ms(real.p99)}, bare Durable Object p50 ${ms(bare.p50)} p99 ${ms(bare.p99)}, p99 ratio ${(
        real.p99 / bare.p99
      ).toFixed(
        2,
      )}x | message ${real.bytes} bytes (bare ${bare.bytes}) | delivered ${(real.delivered * 100).toFixed(1)}% (bare ${(bare.delivered * 100).toFixed(1)}%)${
        real.refused ? `, ${real.refused} votes refused (${real.refusal.slice(0, 120)})` : ""
      } | per client: ${kb(real.rssPerClient)} resident (bare ${kb(bare.rssPerClient)}; wrangler dev and workerd)`,
    );
    process.stdout.write(`  measured ${n} clients on the Workers runtime: ${rows.at(-1)}\n`);
  }
}
console.log(
  `votes in one room; throughput ratio = room / its baseline (in process: a plain ws broadcast; on the Workers runtime: a bare Durable Object sending the room's bytes), the median of ${STORMS} rounds in which their storms took turns (higher is better, 1.00x = as fast as the bare fan-out); clients in ${CLIENT_PROCS} processes of their own:\n${rows.join("\n")}`,
);
