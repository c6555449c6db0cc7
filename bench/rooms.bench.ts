// Votes in a live room of 100, 1000 and 2000 clients, against a plain `ws` server that only rebroadcasts each vote
// to everyone, measured in the same run: a storm (every vote at once: messages delivered per second) and a steady
// stream (one vote every 50 ms: how long a vote takes to reach each client, p50 and p99), and the size of a vote's
// message. The room is the party's own engine (LiveRoom: validation, the
// reducer, patches, storage) served by `ws` in this process, with an in-memory edge, so the ratio is the room's cost
// over the bare fan-out. Every client is a real socket. The same storm then runs against the real runtime: the rooms'
// Worker under `wrangler dev` (workerd, in its own process), its calls to the edge answered by a small HTTP edge here
// that knows only what a room asks. Run with `npx tsx bench/rooms.bench.ts` (BENCH_SIZES=100,1000; BENCH_WORKER=0
// skips the Worker, BENCH_WORKER_MAX=1000 the largest room it is given).
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { WebSocket, WebSocketServer } from "ws";
import { answers, freePort, startChildServer } from "../apps/edge/src/testing/child-server.ts";
import { APP_DIR, wranglerDevArgs, wranglerEnv } from "../apps/rooms-party/scripts/wrangler-dev.mjs";
import type { Edge } from "../apps/rooms-party/src/edge.ts";
import { LiveRoom } from "../apps/rooms-party/src/room.ts";
import { keyValueStateStore, memoryKeyValue } from "../apps/rooms-party/src/storage.ts";
import { ROOM_UUID, settingsFor, songFor, userFor } from "../apps/rooms-party/src/testing.ts";

const SIZES = (process.env.BENCH_SIZES ?? "100,1000,2000").split(",").map(Number);
const VOTERS = Number(process.env.BENCH_VOTERS ?? 200);
const PACED_VOTES = Number(process.env.BENCH_PACED_VOTES ?? 40);
const PACE_MS = 50;

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

/** Close codes of client sockets the server closed during a measurement (none is expected). */
const closes: number[] = [];

async function openClients(urlOf: (user: number) => string, n: number, onMessage: (i: number, data: string) => void) {
  const sockets: WebSocket[] = [];
  for (let i = 0; i < n; i += 100)
    sockets.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(100, n - i) }, (_, j) => {
          const ws = new WebSocket(urlOf(i + j + 1));
          ws.on("message", (d) => onMessage(i + j, String(d)));
          ws.on("close", (code) => {
            closes.push(code);
          });
          return new Promise<WebSocket>((r) => ws.once("open", () => r(ws)));
        }),
      )),
    );
  return sockets;
}

/** Resolves when `count()` reaches `target`. */
/**
 * Resolves when `count()` reaches `target`; after `waitMs` a lossy wait resolves with what arrived, any other fails
 * naming what was missing.
 */
function reached(count: () => number, target: number, what = "messages", lossy = false, waitMs = 120_000) {
  const deadline = Date.now() + waitMs;
  return new Promise<void>((done, fail) => {
    const check = () => {
      if (count() >= target) return done();
      if (lossy && Date.now() > deadline) return done();
      if (Date.now() > deadline)
        return fail(
          new Error(
            `${what}: ${count()} of ${target} after 120 s; ${closes.length} sockets closed (${[...new Set(closes)]})`,
          ),
        );
      setTimeout(check, 2);
    };
    check();
  });
}

/** A server under test: where clients connect, and how a client makes it ready to receive votes. */
interface Target {
  /** The address client number `user` (1..n) connects to. */
  url(user: number): string;
  /** Messages the setup itself expects back before votes start (joins, the DJ's seat). */
  prepare(sockets: WebSocket[], waitReplies: (n: number) => Promise<void>): Promise<void>;
  close(): void;
}

async function roomTarget(): Promise<Target> {
  const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  const url = await listen(server);
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
  return { url: (user) => `${url}?user=${user}`, prepare: prepareRoom(ROOM_UUID), close: () => server.close() };
}

/** Everyone joins, and the first client takes the booth with a long song. */
function prepareRoom(roomUuid: string): Target["prepare"] {
  return async (sockets, waitReplies) => {
    for (const [i, ws] of sockets.entries())
      ws.send(JSON.stringify({ action: "joinRoom", params: { roomUuid }, requestId: i }));
    await waitReplies(sockets.length);
    sockets[0]?.send(
      JSON.stringify({ action: "addDj", params: { song: { songId: songFor(1).songId } }, requestId: "dj" }),
    );
    await waitReplies(sockets.length + 1);
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

/** The rooms' Worker under `wrangler dev`, with a fresh room for each target. */
async function workerRuntime() {
  const edge = await benchEdge();
  const port = await freePort();
  const persistTo = await mkdtemp(join(tmpdir(), "booth-rooms-bench-"));
  const run = await startChildServer({
    name: "wrangler dev",
    args: wranglerDevArgs({
      port,
      persistTo,
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
  const tokens = new Map<number, string>();
  return {
    async target(n: number): Promise<Target> {
      for (let user = 1; user <= n; user++) if (!tokens.has(user)) tokens.set(user, await edge.token(user));
      const roomUuid = crypto.randomUUID();
      return {
        url: (user) => `ws://127.0.0.1:${port}/parties/main/${roomUuid}?token=${tokens.get(user)}`,
        prepare: prepareRoom(roomUuid),
        close: () => undefined,
      };
    },
    async stop() {
      await run.stop(5000);
      edge.close();
      await rm(persistTo, { recursive: true, force: true });
    },
  };
}

async function baselineTarget(): Promise<Target> {
  const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  const url = await listen(server);
  server.on("connection", (ws) => {
    ws.on("message", (d) => {
      const text = JSON.stringify({ name: "votedOnSong", vote: JSON.parse(String(d)) });
      for (const client of server.clients) client.send(text);
    });
  });
  return { url: () => url, prepare: async () => {}, close: () => server.close() };
}

const vote = (v: number, like: boolean) =>
  JSON.stringify({ action: "voteOnSong", params: { songVotes: { like } }, requestId: `v${v}` });

interface Result {
  /** Vote messages delivered per second during the storm. */
  perSecond: number;
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
}

async function measure(makeTarget: () => Promise<Target>, n: number, lossy = false): Promise<Result> {
  const target = await makeTarget();
  // Closes of an earlier measurement's sockets arrive late: only this one's count.
  await new Promise((r) => setTimeout(r, 500));
  closes.length = 0;
  let votes = 0;
  let replies = 0;
  let refused = 0;
  let refusal = "";
  let bytes = 0;
  let sample = "";
  let patchBytes = 0;
  // The time each client received each vote (in order: a socket delivers in order, the room handles one at a time).
  const received: number[][] = Array.from({ length: n }, () => []);
  const sockets = await openClients(target.url, n, (i, data) => {
    if (data.includes('"votedOnSong"')) {
      votes++;
      if (Buffer.byteLength(data) > bytes) {
        sample = data;
        const patch = (JSON.parse(data) as { statePatch?: unknown }).statePatch;
        patchBytes = patch ? Buffer.byteLength(JSON.stringify(patch)) : 0;
      }
      bytes = Math.max(bytes, Buffer.byteLength(data));
      received[i]?.push(performance.now());
    } else if (data.includes('"requestId"')) {
      replies++;
      if (data.includes('"ok":false')) {
        refused++;
        refusal ||= data;
      }
    }
  });
  await target.prepare(sockets, (k) => reached(() => replies, k, "join replies"));

  // The storm: every voter at once.
  const voters = Math.min(VOTERS, n - 1);
  const started = performance.now();
  const likes = Array.from({ length: voters + 1 }, (_, v) => v % 3 !== 0);
  for (let v = 1; v <= voters; v++) sockets[v]?.send(vote(v, likes[v] ?? true));
  await reached(() => votes, voters * n, "storm votes", lossy, 60_000);
  const stormVotes = votes;
  const perSecond = stormVotes / ((performance.now() - started) / 1000);

  // The steady stream: voters turn their vote around, one every PACE_MS (a vote that changes nothing sends nothing);
  // each client's k-th message after the storm is vote k.
  for (const r of received) r.length = 0;
  const sent: number[] = [];
  const before = votes;
  for (let k = 0; k < PACED_VOTES; k++) {
    sent.push(performance.now());
    const v = 1 + (k % voters);
    likes[v] = !likes[v];
    sockets[v]?.send(vote(v, likes[v] ?? true));
    await new Promise((r) => setTimeout(r, PACE_MS));
  }
  await reached(() => votes, before + PACED_VOTES * n, "paced votes", lossy, 60_000);
  const delivered = votes / (voters * n + PACED_VOTES * n);
  if (closes.length)
    process.stdout.write(`  ${closes.length} client sockets closed by the server (${[...new Set(closes)]})\n`);
  const latencies = received.flatMap((times) => times.map((t, k) => t - (sent[k] ?? t))).sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  for (const ws of sockets) ws.terminate();
  target.close();
  // BENCH_VERBOSE=1 shows the largest vote message as it went over the wire.
  if (process.env.BENCH_VERBOSE) console.log(sample);
  return { perSecond, delivered, refused, refusal, p50: at(0.5), p99: at(0.99), bytes, patchBytes };
}

const withWorker = process.env.BENCH_WORKER !== "0";
// wrangler dev is one local workerd: past a thousand clients it only measures its own saturation.
const WORKER_MAX = Number(process.env.BENCH_WORKER_MAX ?? 1000);

const rows: string[] = [];
const ms = (x: number) => `${x.toFixed(1).padStart(6)} ms`;
const rate = (x: number) => Math.round(x).toString().padStart(7);
for (const n of SIZES) {
  const base = await measure(baselineTarget, n);
  const live = await measure(roomTarget, n);
  rows.push(
    `${String(n).padStart(5)} clients | storm: room ${rate(live.perSecond)} msg/s, ws ${rate(base.perSecond)} msg/s, ratio ${(
      live.perSecond / base.perSecond
    ).toFixed(2)}x | one vote every ${PACE_MS} ms: room p50 ${ms(live.p50)} p99 ${ms(live.p99)}, ws p50 ${ms(
      base.p50,
    )} p99 ${ms(base.p99)}, p99 ratio ${(live.p99 / base.p99).toFixed(2)}x | largest vote: patch ${
      live.patchBytes
    } bytes, message ${live.bytes} bytes (ws ${base.bytes})`,
  );
  process.stdout.write(`  measured ${n} clients in process\n`);
  if (withWorker && n <= WORKER_MAX) {
    // A fresh runtime for each size, as a room of its own would have.
    const worker = await workerRuntime();
    // Lossy: a vote message that never arrives is counted, not waited for.
    const real = await measure(() => worker.target(n), n, true).finally(() => worker.stop());
    rows.push(
      `${String(n).padStart(5)} clients | storm: Worker ${rate(real.perSecond)} msg/s, ratio ${(
        real.perSecond / base.perSecond
      ).toFixed(2)}x | one vote every ${PACE_MS} ms: Worker p50 ${ms(real.p50)} p99 ${ms(real.p99)}, p99 ratio ${(
        real.p99 / base.p99
      ).toFixed(2)}x | delivered ${(real.delivered * 100).toFixed(1)}%${
        real.refused ? `, ${real.refused} votes refused (${real.refusal.slice(0, 120)})` : ""
      } (wrangler dev, workerd in its own process)`,
    );
    process.stdout.write(`  measured ${n} clients on the Worker\n`);
  }
}
console.log(
  `votes in one room; throughput ratio = room / plain ws broadcast (higher is better, 1.00x = as fast as the bare fan-out):\n${rows.join("\n")}`,
);
