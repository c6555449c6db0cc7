// Votes in a live room of 100, 1000 and 2000 clients, against a plain `ws` server that only rebroadcasts each vote
// to everyone, measured in the same run: a storm (every vote at once: messages delivered per second) and a steady
// stream (one vote every 50 ms: how long a vote takes to reach each client, p50 and p99), and the size of a vote's
// message. The room is the party's own engine (LiveRoom: validation, the
// reducer, patches, storage) served by `ws` in this process, with an in-memory edge, so the ratio is the room's cost
// over the bare fan-out. Every client is a real socket. Run with `npx tsx bench/rooms.bench.ts` (BENCH_SIZES=100,1000).
import type { AddressInfo } from "node:net";
import { WebSocket, WebSocketServer } from "ws";
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

async function openClients(url: string, n: number, onMessage: (i: number, data: string) => void) {
  const sockets: WebSocket[] = [];
  for (let i = 0; i < n; i += 100)
    sockets.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(100, n - i) }, (_, j) => {
          const ws = new WebSocket(`${url}?user=${i + j + 1}`);
          ws.on("message", (d) => onMessage(i + j, String(d)));
          return new Promise<WebSocket>((r) => ws.once("open", () => r(ws)));
        }),
      )),
    );
  return sockets;
}

/** Resolves when `count()` reaches `target`. */
function reached(count: () => number, target: number) {
  return new Promise<void>((done) => {
    const check = () => (count() >= target ? done() : setTimeout(check, 2));
    check();
  });
}

/** A server under test: where clients connect, and how a client makes it ready to receive votes. */
interface Target {
  url: string;
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
  return {
    url,
    async prepare(sockets, waitReplies) {
      for (const [i, ws] of sockets.entries())
        ws.send(JSON.stringify({ action: "joinRoom", params: { roomUuid: ROOM_UUID }, requestId: i }));
      await waitReplies(sockets.length);
      sockets[0]?.send(
        JSON.stringify({ action: "addDj", params: { song: { songId: songFor(1).songId } }, requestId: "dj" }),
      );
      await waitReplies(sockets.length + 1);
    },
    close: () => server.close(),
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
  return { url, prepare: async () => {}, close: () => server.close() };
}

const vote = (v: number, like: boolean) =>
  JSON.stringify({ action: "voteOnSong", params: { songVotes: { like } }, requestId: `v${v}` });

interface Result {
  /** Vote messages delivered per second during the storm. */
  perSecond: number;
  p50: number;
  p99: number;
  /** The largest vote message a client received, in bytes, and its statePatch alone. */
  bytes: number;
  patchBytes: number;
}

async function measure(makeTarget: () => Promise<Target>, n: number): Promise<Result> {
  const target = await makeTarget();
  let votes = 0;
  let replies = 0;
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
    } else if (data.includes('"requestId"')) replies++;
  });
  await target.prepare(sockets, (k) => reached(() => replies, k));

  // The storm: every voter at once.
  const voters = Math.min(VOTERS, n - 1);
  const started = performance.now();
  const likes = Array.from({ length: voters + 1 }, (_, v) => v % 3 !== 0);
  for (let v = 1; v <= voters; v++) sockets[v]?.send(vote(v, likes[v] ?? true));
  await reached(() => votes, voters * n);
  const perSecond = (voters * n) / ((performance.now() - started) / 1000);

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
  await reached(() => votes, before + PACED_VOTES * n);
  const latencies = received.flatMap((times) => times.map((t, k) => t - (sent[k] ?? t))).sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  for (const ws of sockets) ws.terminate();
  target.close();
  // BENCH_VERBOSE=1 shows the largest vote message as it went over the wire.
  if (process.env.BENCH_VERBOSE) console.log(sample);
  return { perSecond, p50: at(0.5), p99: at(0.99), bytes, patchBytes };
}

const rows: string[] = [];
for (const n of SIZES) {
  const base = await measure(baselineTarget, n);
  const live = await measure(roomTarget, n);
  const ms = (x: number) => `${x.toFixed(1).padStart(6)} ms`;
  rows.push(
    `${String(n).padStart(5)} clients | storm: room ${Math.round(live.perSecond).toString().padStart(7)} msg/s, ws ${Math.round(
      base.perSecond,
    )
      .toString()
      .padStart(
        7,
      )} msg/s, ratio ${(live.perSecond / base.perSecond).toFixed(2)}x | one vote every ${PACE_MS} ms: room p50 ${ms(
      live.p50,
    )} p99 ${ms(live.p99)}, ws p50 ${ms(base.p50)} p99 ${ms(base.p99)}, p99 ratio ${(live.p99 / base.p99).toFixed(
      2,
    )}x | largest vote: patch ${live.patchBytes} bytes, message ${live.bytes} bytes (ws ${base.bytes})`,
  );
  process.stdout.write(`  measured ${n} clients\n`);
}
console.log(
  `votes in one room; throughput ratio = room / plain ws broadcast (higher is better, 1.00x = as fast as the bare fan-out):\n${rows.join("\n")}`,
);
