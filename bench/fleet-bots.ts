// The fleet's people (bench/fleet.bench.ts forks a few of these, so the bots do not share an event loop with the
// measuring): every member of the rooms it is given, each a LiveRoomClient of the SDK. It joins them (the DJs first,
// who take the booth and play from their queues), then on the parent's "start" acts at a person's pace: a listener
// votes once on each song (like and dislike in turn, so each vote changes the room and is sent to everyone) and
// chats every 30 to 60 s; a DJ chats too. Every room is wholly in one process, so a vote's send and every member's
// patch are timed on the same clock. Each second it sends the parent what happened since the last report (`tick`);
// on "stop" it stops acting, waits for what is still on its way, and sends the totals (`final`).
import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createBoothClient, LiveRoomClient } from "@booth/sdk";
import type { ServerMessage } from "@booth/sdk/live/protocol";
import { WebSocket } from "ws";

export interface BotPlan {
  partyUrl: string;
  edges: string[];
  rooms: {
    uuid: string;
    slug: string;
    members: { uuid: string; token: string; dj: boolean }[];
  }[];
  /** Seconds between two chat messages of one person: a random time between the two. */
  chatEveryS: [number, number];
  /** Listeners joining at once in this process. */
  joinConcurrency: number;
  /** How long all joins may take. */
  joinTimeoutMs: number;
  /** How long, after the load, what is still on its way may take to arrive before the rest counts as lost. */
  drainMs: number;
}

/** What a bots process reports each second. */
export interface Tick {
  type: "tick";
  /** Wall-clock time of the report (ms). */
  at: number;
  joined: number;
  connected: number;
  votesSent: number;
  chatsSent: number;
  /** Vote patches received (one per member per vote), with their latencies (ms from the vote's send). */
  voteLatencies: number[];
  /** Votes that reached every member of the room since the last report: the time to the last one (ms). */
  voteToAllLatencies: number[];
  chatsReceived: number;
  patchesReceived: number;
  /** Requests to the edge the bots made (the room page's reads). */
  restRequests: number;
  /** This process's event-loop delay since the last report, p99 and max (ms): the bots' own share of the latencies. */
  loopDelayP99: number;
  loopDelayMax: number;
  errors: Record<string, number>;
}

export interface Final {
  type: "final";
  members: number;
  votesSent: number;
  /** Vote patches every member should have received (each vote times the members of its room). */
  voteDeliveriesExpected: number;
  voteDeliveriesReceived: number;
  /** Votes some member never received. */
  votesIncomplete: number;
  chatsSent: number;
  chatDeliveriesExpected: number;
  chatDeliveriesReceived: number;
  patchesReceived: number;
  /** Stateful messages missed (a gap in a member's seq). */
  seqGaps: number;
  reconnects: number;
  /** Per member: votes that should have reached it and votes that did, where they differ. */
  shortMembers: { room: string; member: string; expected: number; received: number }[];
  /** How long after the load's end the last of what was sent took to arrive (or the whole drain, if it did not). */
  drainMs: number;
  errors: Record<string, number>;
}

export type FromBots =
  | Tick
  | Final
  | { type: "joined"; joined: number; of: number }
  | { type: "failed"; error: string };
export type ToBots = { type: "start" } | { type: "stop" };

const plan = JSON.parse(readFileSync(process.argv[2] as string, "utf8")) as BotPlan;
const send = (message: FromBots) => process.send?.(message);
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const between = ([lo, hi]: [number, number]) => (lo + Math.random() * (hi - lo)) * 1000;

// ---- what is counted ----------------------------------------------------------------------------------------------
let tick: Omit<Tick, "type" | "at" | "joined" | "connected" | "loopDelayP99" | "loopDelayMax"> = blankTick();
function blankTick() {
  return {
    votesSent: 0,
    chatsSent: 0,
    voteLatencies: [] as number[],
    voteToAllLatencies: [] as number[],
    chatsReceived: 0,
    patchesReceived: 0,
    restRequests: 0,
    errors: {} as Record<string, number>,
  };
}
const totals = { votesSent: 0, chatsSent: 0, chatsReceived: 0, patches: 0, seqGaps: 0, reconnects: 0 };
const allErrors: Record<string, number> = {};
function error(kind: string) {
  tick.errors[kind] = (tick.errors[kind] ?? 0) + 1;
  allErrors[kind] = (allErrors[kind] ?? 0) + 1;
}
/** The room's refusal, or what went wrong, as a short kind ("vote: 409 Nothing is playing."). */
const kindOf = (what: string, err: unknown) => {
  const e = err as { statusCode?: number; message?: string };
  return `${what}: ${e.statusCode ?? ""} ${String(e.message ?? err).slice(0, 80)}`.replace(/\s+/g, " ");
};

interface Room {
  uuid: string;
  slug: string;
  bots: Bot[];
  /** Each voter's votes the room accepted or may still accept, in order: when each was sent. */
  votes: Map<string, { sentAt: number; received: number; slowest: number; refused?: boolean }[]>;
  chatsSent: number;
}
interface Bot {
  uuid: string;
  token: string;
  dj: boolean;
  room: Room;
  client: LiveRoomClient;
  joined: boolean;
  /** How many of each voter's vote patches this member has received. */
  votesFrom: Map<string, number>;
  votesReceived: number;
  chatsReceived: number;
  lastSeq: number;
  songStart: number | null;
  like: boolean;
  timers: Set<ReturnType<typeof setTimeout>>;
}

let acting = false;
const rooms: Room[] = plan.rooms.map((r) => ({ uuid: r.uuid, slug: r.slug, bots: [], votes: new Map(), chatsSent: 0 }));
const bots: Bot[] = [];

/** Who a vote patch is from: the member whose songVotes it changes. */
const voterOf = (message: { statePatch: { path: string }[] }) => {
  for (const op of message.statePatch) {
    const m = /^\/allUserData\/([^/]+)\//.exec(op.path);
    if (m) return m[1];
  }
  return undefined;
};

function later(bot: Bot, ms: number, act: () => void) {
  const timer = setTimeout(() => {
    bot.timers.delete(timer);
    if (acting) act();
  }, ms);
  bot.timers.add(timer);
}

function onMessage(bot: Bot, message: ServerMessage) {
  const at = now();
  if ("statePatch" in message) {
    totals.patches++;
    tick.patchesReceived++;
    if (bot.lastSeq && message.seq > bot.lastSeq + 1) totals.seqGaps += message.seq - bot.lastSeq - 1;
    if (message.seq > bot.lastSeq) bot.lastSeq = message.seq;
    if (message.name === "votedOnSong") {
      const voter = voterOf(message);
      const sent = voter ? bot.room.votes.get(voter) : undefined;
      const k = voter ? (bot.votesFrom.get(voter) ?? 0) : 0;
      const vote = sent?.filter((v) => !v.refused)[k];
      if (!voter || !vote) {
        error("vote patch matching no vote sent");
        return;
      }
      bot.votesFrom.set(voter, k + 1);
      bot.votesReceived++;
      const ms = at - vote.sentAt;
      tick.voteLatencies.push(ms);
      vote.received++;
      vote.slowest = Math.max(vote.slowest, ms);
      if (vote.received === bot.room.bots.length) tick.voteToAllLatencies.push(vote.slowest);
    }
  } else if ("name" in message && message.name === "chatMessage") {
    if (String(message.params.message.message).startsWith("fleet ")) {
      bot.chatsReceived++;
      totals.chatsReceived++;
      tick.chatsReceived++;
    }
  }
}

/** A new song: a listener votes on it once, a few seconds to most of the song in (as a person would). */
function onSong(bot: Bot) {
  const playing = bot.client.state?.nowPlaying;
  if (!playing || playing.startTime === bot.songStart) return;
  bot.songStart = playing.startTime;
  if (bot.dj || !acting) return;
  const left = playing.endTime - Date.now();
  if (left < 5000) return;
  const start = playing.startTime;
  later(bot, 1000 + Math.random() * Math.min(left - 4000, 0.7 * (playing.endTime - playing.startTime)), () => {
    if (bot.client.state?.nowPlaying?.startTime !== start) return;
    void vote(bot);
  });
}

async function vote(bot: Bot) {
  bot.like = !bot.like;
  const like = bot.like;
  const list = bot.room.votes.get(bot.uuid) ?? [];
  bot.room.votes.set(bot.uuid, list);
  const entry = { sentAt: now(), received: 0, slowest: 0 } as (typeof list)[number];
  list.push(entry);
  tick.votesSent++;
  totals.votesSent++;
  try {
    await bot.client.voteOnSong({ like });
  } catch (err) {
    // No answer in time is not a refusal: the room may still take the vote, and its patch is then still counted.
    if ((err as { statusCode?: number }).statusCode !== 504) entry.refused = true;
    error(kindOf("vote", err));
  }
}

/** The first message comes at any time within the longest wait (people do not all chat at once), then one each wait. */
function chat(bot: Bot, first = false) {
  later(bot, first ? Math.random() * plan.chatEveryS[1] * 1000 : between(plan.chatEveryS), () => {
    tick.chatsSent++;
    totals.chatsSent++;
    bot.room.chatsSent++;
    bot.client
      .sendChatMessage({ message: `fleet ${bot.uuid.slice(0, 8)} ${Date.now()}` })
      .catch((err) => {
        // Refused: nobody gets it (no answer in time: it may still go out, and counts as sent).
        if ((err as { statusCode?: number }).statusCode !== 504) bot.room.chatsSent--;
        error(kindOf("chat", err));
      })
      .finally(() => chat(bot));
  });
}

/** What the room page reads from the edge as a person opens it: the room, their session. */
async function openRoomPage(bot: Bot, edge: string) {
  const api = createBoothClient({ baseUrl: edge, token: bot.token, throwOnError: false });
  const reads = [
    api.room.GET("/rooms/{slug}", { params: { path: { slug: bot.room.slug } } }),
    api.user.GET("/auth/session", {}),
  ];
  for (const read of reads) {
    tick.restRequests++;
    try {
      const { response } = await read;
      if (!response.ok) error(`edge: ${response.status} on the room page`);
    } catch (err) {
      error(kindOf("edge", err));
    }
  }
}

async function join(bot: Bot, index: number) {
  await openRoomPage(bot, plan.edges[index % plan.edges.length] as string);
  const client = bot.client;
  client.on("message", (m) => onMessage(bot, m));
  client.on("state", () => onSong(bot));
  client.on("disconnected", ({ code }) => {
    if (!stopping) {
      totals.reconnects++;
      error(`socket closed ${code}`);
    }
  });
  client.on("joined", (result) => {
    // A rejoin takes the full state: the seq starts again from there.
    bot.lastSeq = result.seq;
  });
  const deadline = AbortSignal.timeout(60_000);
  for (let attempt = 1; ; attempt++) {
    try {
      await client.connect();
      bot.joined = true;
      return;
    } catch (err) {
      error(kindOf("join", err));
      if (deadline.aborted || attempt >= 5) throw err;
      await sleep(1000 * attempt);
    }
  }
}

let stopping = false;
const started = Date.now();
try {
  for (const [i, r] of plan.rooms.entries()) {
    const room = rooms[i] as Room;
    for (const m of r.members) {
      const bot: Bot = {
        ...m,
        room,
        client: new LiveRoomClient({
          url: plan.partyUrl,
          roomUuid: r.uuid,
          token: m.token,
          WebSocket: WebSocket as never,
          requestTimeoutMs: 30_000,
        }),
        joined: false,
        votesFrom: new Map(),
        votesReceived: 0,
        chatsReceived: 0,
        lastSeq: 0,
        songStart: null,
        like: Math.random() < 0.5,
        timers: new Set(),
      };
      room.bots.push(bot);
      bots.push(bot);
    }
  }
  const joinedCount = () => bots.filter((b) => b.joined).length;
  const report = setInterval(() => send({ type: "joined", joined: joinedCount(), of: bots.length }), 2000);
  // The DJs first, each room's in turn: they take the booth and their queues play.
  const djs = bots.filter((b) => b.dj);
  for (let i = 0; i < djs.length; i += plan.joinConcurrency) {
    await Promise.all(
      djs.slice(i, i + plan.joinConcurrency).map(async (bot, j) => {
        await join(bot, i + j);
        await bot.client.addDj();
      }),
    );
  }
  // Then the listeners, a few at a time, across the rooms.
  const listeners = bots.filter((b) => !b.dj);
  const order = listeners.map((_, i) => i).sort((a, b) => (a % 20) - (b % 20) || a - b);
  let next = 0;
  const deadline = Date.now() + plan.joinTimeoutMs;
  await Promise.all(
    Array.from({ length: plan.joinConcurrency }, async () => {
      while (next < order.length) {
        if (Date.now() > deadline) throw new Error(`joins took over ${plan.joinTimeoutMs} ms`);
        const i = order[next++] as number;
        await join(listeners[i] as Bot, i);
      }
    }),
  );
  clearInterval(report);
  send({ type: "joined", joined: joinedCount(), of: bots.length });
  console.log(
    `${bots.length} members of ${rooms.length} rooms joined in ${Math.round((Date.now() - started) / 1000)} s`,
  );
} catch (err) {
  send({ type: "failed", error: String((err as Error).stack ?? err) });
  process.exit(1);
}

let ticker: ReturnType<typeof setInterval> | undefined;
process.on("message", async (message: ToBots) => {
  if (message.type === "start") {
    acting = true;
    tick = blankTick();
    for (const bot of bots) {
      bot.songStart = null;
      onSong(bot);
      chat(bot, true);
    }
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    ticker = setInterval(() => {
      const t = tick;
      tick = blankTick();
      const [loopDelayP99, loopDelayMax] = [loop.percentile(99) / 1e6, loop.max / 1e6];
      loop.reset();
      send({
        type: "tick",
        at: Date.now(),
        loopDelayP99,
        loopDelayMax,
        joined: bots.filter((b) => b.joined).length,
        connected: bots.filter((b) => b.client.connected).length,
        ...t,
      });
    }, 1000);
  } else if (message.type === "stop") {
    acting = false;
    for (const bot of bots) for (const timer of bot.timers) clearTimeout(timer);
    // What was sent last is still on its way: wait until it has arrived (or 10 s).
    const settled = () =>
      rooms.every(
        (r) =>
          [...r.votes.values()].flat().every((v) => v.refused || v.received >= r.bots.length) &&
          r.bots.reduce((a, b) => a + b.chatsReceived, 0) >= r.chatsSent * r.bots.length,
      );
    const draining = Date.now();
    while (Date.now() - draining < plan.drainMs && !settled()) await sleep(250);
    const drainMs = Date.now() - draining;
    await sleep(1000);
    if (ticker) clearInterval(ticker);
    stopping = true;
    let expected = 0;
    let received = 0;
    let incomplete = 0;
    let chatExpected = 0;
    const shortMembers: Final["shortMembers"] = [];
    for (const room of rooms) {
      const ok = [...room.votes.values()].flat().filter((v) => !v.refused);
      expected += ok.length * room.bots.length;
      incomplete += ok.filter((v) => v.received < room.bots.length).length;
      chatExpected += room.chatsSent * room.bots.length;
      for (const bot of room.bots) {
        received += bot.votesReceived;
        if (bot.votesReceived !== ok.length && shortMembers.length < 20)
          shortMembers.push({ room: room.slug, member: bot.uuid, expected: ok.length, received: bot.votesReceived });
      }
    }
    send({
      type: "final",
      members: bots.length,
      votesSent: rooms.reduce((a, r) => a + [...r.votes.values()].flat().filter((v) => !v.refused).length, 0),
      voteDeliveriesExpected: expected,
      voteDeliveriesReceived: received,
      votesIncomplete: incomplete,
      chatsSent: rooms.reduce((a, r) => a + r.chatsSent, 0),
      chatDeliveriesExpected: chatExpected,
      chatDeliveriesReceived: totals.chatsReceived,
      patchesReceived: totals.patches,
      seqGaps: totals.seqGaps,
      reconnects: totals.reconnects,
      shortMembers,
      drainMs,
      errors: allErrors,
    });
    for (const bot of bots) bot.client.close();
    setTimeout(() => process.exit(0), 500);
  }
});
// The parent gone (a Ctrl-C, a failure): go too.
process.on("disconnect", () => process.exit(0));
