// The soak's load (bench/soak.ts starts it in a process of its own, so the edge's memory is the edge's): live-room
// clients that join, vote and chat, and REST requests at a steady rate over the hot routes. It prints a progress line
// every 10 s and, at the end, one line `RESULT {json}` with the counts, errors and latencies per kind.
import { readFileSync } from "node:fs";
import { WebSocket } from "ws";

interface Plan {
  partyUrl: string;
  edgeUrl: string;
  rooms: { uuid: string; slug: string; djToken: string }[];
  listeners: { token: string; uuid: string }[];
  durationMs: number;
  restPerSecond: number;
  votesPerSecond: number;
  chatsPerSecond: number;
}
const plan = JSON.parse(readFileSync(process.argv[2] as string, "utf8")) as Plan;

/** Latencies (ms) and failures per kind of operation. */
const kinds = new Map<string, { ms: number[]; errors: number; lastError?: string }>();
const record = (kind: string, ms: number | null, error?: string) => {
  const k = kinds.get(kind) ?? { ms: [], errors: 0 };
  kinds.set(kind, k);
  if (ms !== null) k.ms.push(ms);
  if (error) {
    k.errors++;
    k.lastError = error;
  }
};
const quantile = (values: number[], q: number) => {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
};

/** A live-room client: a socket with request/reply by requestId, timed. */
interface Client {
  ws: WebSocket;
  ask(action: string, params: unknown, kind: string): Promise<void>;
}
let unexpectedCloses = 0;
let stopping = false;
function connect(roomUuid: string, token: string): Promise<Client> {
  const ws = new WebSocket(`${plan.partyUrl.replace(/^http/, "ws")}/parties/main/${roomUuid}?token=${token}`);
  const pending = new Map<string, { kind: string; started: number; done: () => void }>();
  let next = 0;
  ws.on("message", (data) => {
    // Only replies are read whole: the room's broadcasts (a vote's patch to everyone) are most of the traffic, and
    // parsing each would make this process, not the room, the bottleneck.
    const text = String(data);
    if (!text.includes('"requestId"')) return;
    const message = JSON.parse(text) as { requestId?: string; ok?: boolean; message?: string };
    if (message.requestId === undefined) return;
    const waiting = pending.get(String(message.requestId));
    if (!waiting) return;
    pending.delete(String(message.requestId));
    record(waiting.kind, performance.now() - waiting.started, message.ok === false ? message.message : undefined);
    waiting.done();
  });
  ws.on("close", (code) => {
    if (!stopping) {
      unexpectedCloses++;
      record("socket", null, `closed ${code}`);
    }
  });
  ws.on("error", (err) => record("socket", null, String(err)));
  const client: Client = {
    ws,
    ask(action, params, kind) {
      const requestId = String(++next);
      return new Promise((done) => {
        pending.set(requestId, { kind, started: performance.now(), done });
        ws.send(JSON.stringify({ action, params, requestId }));
        setTimeout(() => {
          if (pending.delete(requestId)) {
            record(kind, null, "no reply within 10 s");
            done();
          }
        }, 10_000);
      });
    },
  };
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(client));
    ws.once("error", reject);
  });
}

async function rest(kind: string, path: string, token?: string) {
  const started = performance.now();
  try {
    const res = await fetch(`${plan.edgeUrl}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    await res.arrayBuffer();
    record(kind, performance.now() - started, res.ok ? undefined : `${res.status}`);
  } catch (err) {
    record(kind, null, String(err));
  }
}

const started = Date.now();
const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;

// Everyone joins (a DJ per room takes the booth with a long song), 50 sockets at a time.
const clients: { client: Client; room: number }[] = [];
const djs: Client[] = [];
for (const [i, room] of plan.rooms.entries()) {
  const dj = await connect(room.uuid, room.djToken);
  await dj.ask("joinRoom", { roomUuid: room.uuid }, "join");
  await dj.ask("addDj", {}, "join");
  djs.push(dj);
  void i;
}
for (let i = 0; i < plan.listeners.length; i += 50) {
  await Promise.all(
    plan.listeners.slice(i, i + 50).map(async (listener, j) => {
      const room = (i + j) % plan.rooms.length;
      const roomUuid = plan.rooms[room]?.uuid as string;
      const client = await connect(roomUuid, listener.token);
      await client.ask("joinRoom", { roomUuid }, "join");
      clients.push({ client, room });
    }),
  );
}
console.log(`${elapsed()}: ${clients.length} listeners and ${djs.length} DJs in ${plan.rooms.length} rooms`);

// The steady load until the end: votes and chat over the sockets, REST over the hot routes.
const loadStarted = Date.now();
const likes = new Map<Client, boolean>();
const everyMs = (perSecond: number, act: () => void) => setInterval(act, 1000 / perSecond);
const randomClient = () => clients[Math.floor(Math.random() * clients.length)]?.client as Client;
const timers = [
  everyMs(plan.votesPerSecond, () => {
    const client = randomClient();
    const like = !likes.get(client);
    likes.set(client, like);
    void client.ask("voteOnSong", { songVotes: { like } }, "vote");
  }),
  everyMs(plan.chatsPerSecond, () => {
    void randomClient().ask("sendChatMessage", { message: `soak ${Date.now()}` }, "chat");
  }),
  everyMs(plan.restPerSecond, () => {
    const pick = Math.random();
    const room = plan.rooms[Math.floor(Math.random() * plan.rooms.length)];
    const listener = plan.listeners[Math.floor(Math.random() * plan.listeners.length)];
    if (pick < 0.3) void rest("rest: room list", "/api/room-service/rooms/public?limit=20");
    else if (pick < 0.55) void rest("rest: room", `/api/room-service/rooms/${room?.slug}`);
    else if (pick < 0.75) void rest("rest: session", "/api/user-service/auth/session", listener?.token);
    else if (pick < 0.9)
      void rest(
        "rest: profiles",
        `/api/user-service/users/profiles?users=${plan.listeners
          .slice(0, 50)
          .map((l) => l.uuid)
          .join(",")}`,
      );
    else void rest("rest: search", "/api/upload-service/search?term=soak&limit=20");
  }),
];
const progress = setInterval(() => {
  const all = [...kinds.values()];
  const errors = all.reduce((n, k) => n + k.errors, 0);
  const vote = kinds.get("vote")?.ms ?? [];
  const restMs = [...kinds.entries()].filter(([k]) => k.startsWith("rest")).flatMap(([, v]) => v.ms);
  console.log(
    `${elapsed()}: ${vote.length} votes (p99 ${quantile(vote, 0.99).toFixed(0)} ms), ${restMs.length} REST ` +
      `(p99 ${quantile(restMs, 0.99).toFixed(0)} ms), ${errors} errors`,
  );
}, 10_000);

await new Promise((r) => setTimeout(r, plan.durationMs));
for (const timer of timers) clearInterval(timer);
clearInterval(progress);
await new Promise((r) => setTimeout(r, 1000));
stopping = true;
const seconds = (Date.now() - loadStarted) / 1000;
const result = Object.fromEntries(
  [...kinds.entries()].map(([kind, k]) => [
    kind,
    {
      count: k.ms.length,
      perSecond: Math.round(k.ms.length / seconds),
      errors: k.errors,
      lastError: k.lastError,
      p50: Number(quantile(k.ms, 0.5).toFixed(1)),
      p99: Number(quantile(k.ms, 0.99).toFixed(1)),
    },
  ]),
);
for (const { client } of clients) client.ws.close();
for (const dj of djs) dj.ws.close();
console.log(`RESULT ${JSON.stringify({ result, unexpectedCloses, clients: clients.length + djs.length })}`);
process.exit(0);
