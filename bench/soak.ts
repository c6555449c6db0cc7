// `npm run soak` (`-- --quick` for one minute): the edge and the live rooms under steady load for 5 minutes: 1,000
// live-room clients in 4 rooms (joining, 20 votes and 5 chat messages a second) and 200 REST requests a second over the hot routes (room
// list, a room, the session, a profile batch, search). The edge serves from this process (a fresh database: PGlite,
// or a new one on TEST_DATABASE_URL); the rooms run under `wrangler dev`; the load comes from bench/soak-driver.ts in
// a process of its own. Prints the errors, p50 and p99 per kind, and the edge's and the rooms' memory at the start
// of the load and at its end (goal: 0 errors, memory within 10 %). SOAK_CLIENTS, SOAK_SECONDS, SOAK_REST, SOAK_VOTES change it.
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { schema } from "@booth/db";
import { serve } from "@hono/node-server";
import { partyLiveRooms } from "../apps/edge/src/ports/live-rooms.ts";
import { spawnChild } from "../apps/edge/src/testing/child-server.ts";
import { createTestApp } from "../apps/edge/src/testing.ts";
import { freePort, startParty } from "../apps/rooms-party/test/helpers.ts";

const quick = process.argv.includes("--quick");
const SECONDS = Number(process.env.SOAK_SECONDS ?? (quick ? 60 : 300));
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 1000);
const ROOMS = 4;
const REST = Number(process.env.SOAK_REST ?? 200);

const log = (line: string) => console.log(`[soak] ${line}`);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Resident memory of a process and its children (wrangler's workerd), from /proc. */
function rssOfTree(pid: number): number {
  let total = 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    for (const child of children) total += rssOfTree(Number(child));
  } catch {
    // Gone meanwhile.
  }
  return total;
}

/** The edge's memory: resident, and the live heap after a full collection (run with --expose-gc). */
function edgeMemory() {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return { rss: usage.rss, heap: usage.heapUsed };
}

log(`${CLIENTS} clients in ${ROOMS} rooms and ${REST} REST requests a second for ${SECONDS} s`);
const partyPort = await freePort();
const t = await createTestApp({
  liveRooms: partyLiveRooms({ baseUrl: `http://127.0.0.1:${partyPort}`, serviceToken: () => t.serviceToken() }),
  logger: () => {},
});
t.clock.now = () => new Date();
const edgeServer = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" });
await new Promise((r) => edgeServer.once("listening", r));
const edgeUrl = `http://127.0.0.1:${(edgeServer.address() as { port: number }).port}`;
const persistDir = await mkdtemp(join(tmpdir(), "booth-soak-"));
const party = await startParty({
  port: partyPort,
  persistDir,
  vars: { BOOTH_EDGE_URL: edgeUrl, BOOTH_PRESENCE_GRACE_MS: "20000" },
  secrets: { BOOTH_SERVICE_SECRET: t.serviceSecret },
});
log(`edge at ${edgeUrl}, rooms at ${party.url}`);

try {
  // Rooms with a DJ each, a long song in their queue; the listeners.
  const rooms: { uuid: string; slug: string; djToken: string }[] = [];
  for (let i = 0; i < ROOMS; i++) {
    const dj = await t.createUser({ nickname: `soak-dj-${i}` });
    const room = await t.request("POST", "/api/room-service/rooms/infrastructure", {
      token: dj.token,
      body: { name: `Soak room ${i}`, type: "PUBLIC", roomSize: 1000 },
    });
    if (room.status !== 201) throw new Error(`room: ${room.status} ${JSON.stringify(room.body)}`);
    const [song] = await t.db
      .insert(schema.songs)
      .values({ shortId: `soak${i}${Date.now()}`, trackName: `Soak song ${i}`, artistName: "Soak", duration: 7200 })
      .returning();
    await t.request("POST", "/api/playlist-service/crate/special/queue/songs", {
      token: dj.token,
      body: { songId: song?.id },
    });
    rooms.push({ uuid: room.body.uuid, slug: room.body.slug, djToken: dj.token });
  }
  const listeners: { token: string; uuid: string }[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const user = await t.createUser({ nickname: `soak${i}` });
    listeners.push({ token: user.token, uuid: user.user.uuid });
    if ((i + 1) % 250 === 0) log(`${i + 1} of ${CLIENTS} listeners made`);
  }
  const planFile = join(persistDir, "plan.json");
  await writeFile(
    planFile,
    JSON.stringify({
      partyUrl: party.url,
      edgeUrl,
      rooms,
      listeners,
      durationMs: SECONDS * 1000,
      restPerSecond: REST,
      // A listener votes once or twice a song: 1,000 of them make a few votes a second; this is several times that.
      votesPerSecond: Number(process.env.SOAK_VOTES ?? 20),
      chatsPerSecond: 5,
    }),
  );

  const driver = spawnChild({
    command: process.execPath,
    args: ["--import", "tsx", join(import.meta.dirname, "soak-driver.ts"), planFile],
  });
  let printed = 0;
  let start: { edge: ReturnType<typeof edgeMemory>; rooms: number } | undefined;
  const echo = setInterval(() => {
    const lines = driver.output().split("\n");
    for (const line of lines.slice(printed, -1)) {
      if (!line.startsWith("RESULT ")) log(line);
      // The load has begun once everyone is in: the memory at the start is taken then.
      if (!start && /listeners and \d+ DJs/.test(line))
        start = { edge: edgeMemory(), rooms: rssOfTree(party.child.pid as number) };
    }
    printed = Math.max(printed, lines.length - 1);
  }, 500);
  const code = await driver.exited;
  clearInterval(echo);
  const end = { edge: edgeMemory(), rooms: rssOfTree(party.child.pid as number) };
  const resultLine = driver
    .output()
    .split("\n")
    .find((line) => line.startsWith("RESULT "));
  if (code !== 0 || !resultLine) throw new Error(`the load driver failed (${code}):\n${driver.output()}`);
  const { result, unexpectedCloses, clients } = JSON.parse(resultLine.slice(7)) as {
    result: Record<
      string,
      { count: number; perSecond: number; errors: number; lastError?: string; p50: number; p99: number }
    >;
    unexpectedCloses: number;
    clients: number;
  };

  console.log(`\nSoak: ${clients} live-room clients, ${SECONDS} s\n`);
  console.log("| kind | count | per second | errors | p50 ms | p99 ms |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const [kind, k] of Object.entries(result))
    console.log(`| ${kind} | ${k.count} | ${k.perSecond} | ${k.errors} | ${k.p50} | ${k.p99} |`);
  const change = (a: number, b: number) => `${(((b - a) / a) * 100).toFixed(1)} %`;
  if (start) {
    console.log(`\n| memory | at the start | at the end | change |\n|---|---:|---:|---:|`);
    console.log(
      `| edge heap (after GC) | ${mb(start.edge.heap)} | ${mb(end.edge.heap)} | ${change(start.edge.heap, end.edge.heap)} |`,
    );
    console.log(
      `| edge resident | ${mb(start.edge.rss)} | ${mb(end.edge.rss)} | ${change(start.edge.rss, end.edge.rss)} |`,
    );
    console.log(
      `| rooms resident (workerd) | ${mb(start.rooms)} | ${mb(end.rooms)} | ${change(start.rooms, end.rooms)} |`,
    );
  }
  const errors = Object.values(result).reduce((n, k) => n + k.errors, 0) + unexpectedCloses;
  for (const [kind, k] of Object.entries(result)) if (k.errors) console.log(`${kind}: last error: ${k.lastError}`);
  console.log(`\n${errors === 0 ? "No errors." : `${errors} errors.`}`);
  process.exitCode = errors === 0 ? 0 : 1;
} finally {
  await party.stop();
  edgeServer.close();
  await t.close();
  await rm(persistDir, { recursive: true, force: true });
}
