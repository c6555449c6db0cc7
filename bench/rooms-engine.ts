// What a vote costs the live room's engine alone (LiveRoom: parsing, the reducer, the patch, the broadcast's one
// JSON.stringify, the store's save), with no sockets: each member's socket is a no-op `send`. N members join, the first
// takes the booth with a long song, then V votes (each from another member, after a warm-up) are handled one after the
// other and the room's saves awaited; the bench prints the process's CPU time per vote. It runs the engine of this
// tree and that of a git commit (BENCH_BASE, HEAD by default: what this tree changed), each in a process of its own,
// alternating over BENCH_ROUNDS rounds so that a busy machine weighs on both, and checks that both sent the same bytes.
// The commit's apps/rooms-party/src is unpacked (git archive) into a temporary directory that uses this tree's
// node_modules (and so this tree's @booth/sdk). Run with `npx tsx bench/rooms-engine.ts` (BENCH_SIZES=1000,5000,
// BENCH_VOTES=400, BENCH_WARMUP=200, BENCH_ROUNDS=3); BENCH_PROF=<dir> writes a `--cpu-prof` profile of each run there.
import { fork } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { engineOf, ROOT, shortCommit } from "./engine-of.ts";

interface Run {
  engine: string;
  size: number;
  votes: number;
  warmup: number;
}
interface Measured {
  cpuMsPerVote: number;
  wallMsPerVote: number;
  /** A hash of every message the first socket (the DJ, a listener too) received during the votes. */
  digest: string;
}

/** One run, in this (child) process: join `size` members, then time `votes` votes. */
async function measure({ engine, size, votes, warmup }: Run): Promise<Measured> {
  const src = pathToFileURL(join(engine, "apps/rooms-party/src/")).href;
  const { LiveRoom } = (await import(`${src}room.ts`)) as typeof import("../apps/rooms-party/src/room.ts");
  const { keyValueStateStore, memoryKeyValue } = (await import(
    `${src}storage.ts`
  )) as typeof import("../apps/rooms-party/src/storage.ts");
  const { ROOM_UUID, settingsFor, songFor, userFor } = (await import(
    `${src}testing.ts`
  )) as typeof import("../apps/rooms-party/src/testing.ts");
  type Edge = import("../apps/rooms-party/src/edge.ts").Edge;

  const settings = settingsFor({ roomSize: 100_000 });
  const edge: Edge = {
    roomSettings: async () => settings,
    join: async () => settings,
    profile: async (uuid) => ({
      uuid,
      nickname: `n${uuid.slice(-5)}`,
      avatarId: "a",
      color: "#112233",
      verifiedAt: "x",
    }),
    presenceJoined: async () => undefined,
    presenceLeft: async () => undefined,
    recordPlay: async () => ({ id: "play" }),
    awardPoints: async () => undefined,
    upcomingQueue: async () => [],
    song: async () => songFor(1, { duration: 3600 }),
    advanceQueue: async () => [],
    addToLikes: async () => undefined,
    notifyDjFans: async () => undefined,
    reportLiveState: async () => undefined,
    roomCrate: async () => ({ crateId: null, songs: [] }),
    addToCrate: async () => ({ added: true }),
  };
  let ids = 0;
  const room = new LiveRoom(
    ROOM_UUID,
    { store: keyValueStateStore(memoryKeyValue()), setAlarm: async () => {}, log: (entry) => console.error(entry) },
    edge,
    { graceMs: 20_000, timeScale: 1 },
    () => 1_800_000_000_000,
    () => `id${++ids}`,
  );
  const heard: string[] = [];
  for (let n = 1; n <= size; n++) {
    const uuid = userFor(n).uuid;
    room.connect({
      id: `s${n}`,
      claims: { sub: uuid, type: "user", roles: [], badges: [] },
      token: "t",
      // The DJ's socket keeps what a listener receives; every other send costs nothing.
      send: n === 1 ? (text) => heard.push(text) : () => {},
      close: () => {},
    });
  }
  for (let n = 1; n <= size; n++)
    await room.message(`s${n}`, JSON.stringify({ action: "joinRoom", params: { roomUuid: ROOM_UUID }, requestId: n }));
  await room.message(
    "s1",
    JSON.stringify({ action: "addDj", params: { song: { songId: songFor(1).songId } }, requestId: "dj" }),
  );
  await room.idle();
  heard.length = 0;
  // Vote i comes from member 2 + (i mod (size - 1)); a member's next vote turns their like around.
  const vote = async (i: number) => {
    const voters = size - 1;
    const like = (i % voters) + Math.floor(i / voters);
    await room.message(
      `s${2 + (i % voters)}`,
      JSON.stringify({ action: "voteOnSong", params: { songVotes: { like: like % 2 === 0 } }, requestId: i }),
    );
  };
  for (let i = 0; i < warmup; i++) await vote(i);
  await room.idle();
  heard.length = 0;
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const from = process.hrtime.bigint();
  for (let i = warmup; i < warmup + votes; i++) await vote(i);
  await room.idle();
  const used = process.cpuUsage(cpu);
  const elapsed = performance.now() - wall;
  // The votes' span on the clock of a --cpu-prof profile (microseconds), to read the votes apart from the joins.
  if (process.env.BENCH_PROF) console.log(`  votes from ${from / 1000n} to ${process.hrtime.bigint() / 1000n} us`);
  if (heard.length !== votes) throw new Error(`${votes} votes made ${heard.length} messages: ${heard[0]}`);
  return {
    cpuMsPerVote: (used.user + used.system) / 1000 / votes,
    wallMsPerVote: elapsed / votes,
    digest: createHash("sha256").update(heard.join("\n")).digest("hex").slice(0, 12),
  };
}

function runChild(run: Run, prof: string | undefined, label: string): Promise<Measured> {
  const execArgv = ["--import", "tsx"];
  if (prof) {
    mkdirSync(prof, { recursive: true });
    execArgv.push(
      "--cpu-prof",
      `--cpu-prof-dir=${prof}`,
      `--cpu-prof-name=${label}-${run.size}-${Date.now()}.cpuprofile`,
    );
  }
  return new Promise((done, fail) => {
    const child = fork(import.meta.filename, ["child"], { execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let answer: Measured | undefined;
    child.on("message", (m: Measured) => {
      answer = m;
      child.disconnect();
    });
    child.on("error", fail);
    child.on("exit", (code) => (answer ? done(answer) : fail(new Error(`${label} run exited with ${code}`))));
    child.send(run);
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

async function main() {
  const sizes = (process.env.BENCH_SIZES ?? "1000,5000").split(",").map(Number);
  const votes = Number(process.env.BENCH_VOTES ?? 400);
  const warmup = Number(process.env.BENCH_WARMUP ?? 200);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const prof = process.env.BENCH_PROF ? resolve(process.env.BENCH_PROF) : undefined;
  const asked = process.env.BENCH_BASE ?? "HEAD";
  const base = asked === "none" ? "" : shortCommit(asked);
  const unpacked = base ? engineOf(base) : null;
  const dir = unpacked?.dir;
  const engines = dir ? { [base]: dir, "this tree": ROOT } : { "this tree": ROOT };
  console.log(`engine per vote: ${votes} votes after ${warmup}, ${rounds} rounds, load ${loadavg()}`);
  try {
    for (const size of sizes) {
      const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(engines).map((l) => [l, []]));
      const wall: Record<string, number[]> = Object.fromEntries(Object.keys(engines).map((l) => [l, []]));
      const digests = new Set<string>();
      for (let r = 0; r < rounds; r++)
        // Alternate which goes first, so neither always runs on the busier half.
        for (const [label, engine] of r % 2 ? Object.entries(engines).reverse() : Object.entries(engines)) {
          const m = await runChild({ engine, size, votes, warmup }, prof, label.replace(/\s/g, "-"));
          cpu[label]?.push(m.cpuMsPerVote);
          wall[label]?.push(m.wallMsPerVote);
          digests.add(m.digest);
          console.log(
            `  ${size} members, ${label}: ${m.cpuMsPerVote.toFixed(3)} ms CPU, ${m.wallMsPerVote.toFixed(3)} ms wall per vote`,
          );
        }
      const line = Object.keys(engines).map(
        (l) => `${l} ${median(cpu[l] ?? []).toFixed(3)} ms (wall ${median(wall[l] ?? []).toFixed(3)})`,
      );
      const ratio = dir
        ? ` (this tree / ${base}: ${(median(cpu["this tree"] ?? []) / median(cpu[base] ?? [])).toFixed(2)}x)`
        : "";
      console.log(
        `${size} members: median CPU per vote ${line.join(", ")}${ratio}; ${digests.size === 1 ? "same messages" : "MESSAGES DIFFER"}`,
      );
    }
    console.log(`load at the end ${loadavg()}`);
  } finally {
    unpacked?.remove();
  }
}

/** The machine's load average over 1, 5 and 15 minutes: the machine is shared. */
function loadavg() {
  return existsSync("/proc/loadavg") ? readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ") : "?";
}

if (process.argv[2] === "child")
  process.once("message", async (run: Run) => {
    const m = await measure(run);
    process.send?.(m);
  });
else await main();
