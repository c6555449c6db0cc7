// What listeners' audio costs the edge: N simulated listeners (BENCH_LISTENERS, 20) each play an uploaded song for the
// same wall time (BENCH_SECONDS, 60), fetching its master and medium playlists, its key and then its segments at the
// song's pace, as hls.js does. Three edges, one after the other in the same run, each a process of its own (the Node
// entry, the embedded database) on a local S3 server (s3rver): the segments through the edge from DATA_DIR's folder,
// through the edge from the bucket (the baseline: MEDIA_SEGMENTS=edge), and from the bucket itself (presigned
// addresses, the default with S3_BUCKET). Reported per listener-minute: the edge process's CPU seconds (its
// /proc/<pid>/stat over the listening, less what it spent idle over as long just before) and the bytes it sent the
// listeners (bodies and headers), with the ratio of each to the baseline.
// The edges run on the embedded PGlite, in their own process (so its CPU counts as theirs), unless TEST_DATABASE_URL
// names a PostgreSQL server (each edge then gets a fresh database there, and TEST_REDIS_URL's Redis), as in production.
// Run with `npm run bench:media` (BENCH_LISTENERS=20, BENCH_SECONDS=60, BENCH_SONG_SECONDS=120).

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { synthesizeMp3 } from "../apps/edge/src/ports/audio.ts";
import { TEST_FFMPEG } from "../apps/edge/src/testing/app.ts";
import { answers, freePort, waitForServer } from "../apps/edge/src/testing/child-server.ts";
import { spawnEdgeEntry } from "../apps/edge/src/testing/edge-entry.ts";
import { startS3 } from "../apps/edge/src/testing/s3.ts";
import { signIn, uploadedSong } from "./edge-song.ts";
import { cpuSeconds } from "./proc.ts";

const LISTENERS = Number(process.env.BENCH_LISTENERS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const SONG_SECONDS = Number(process.env.BENCH_SONG_SECONDS ?? 120);
const U = "/api/upload-service";
const ADMIN = { email: "bench@booth.local", password: "bench-password-123" };

/** Bytes of an answer as sent: its status line and headers (about) and its body. */
async function received(res: Response) {
  const body = new Uint8Array(await res.arrayBuffer());
  let head = 17;
  res.headers.forEach((value, name) => {
    head += name.length + value.length + 4;
  });
  return { body, bytes: head + body.length };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Tally {
  fromEdge: number;
  fromElsewhere: number;
  segments: number;
  segmentRequestsToEdge: number;
}

/** One listener: plays the song from its start at the song's pace until `until`, then stops; again when it ends. */
async function listen(edge: string, token: string, id: string, until: number, tally: Tally) {
  const get = async (url: string, auth: boolean) => {
    const target = new URL(url, edge);
    const res = await fetch(target, auth ? { headers: { authorization: `Bearer ${token}` } } : {});
    if (!res.ok) throw new Error(`${res.status} for ${target.pathname}`);
    const { body, bytes } = await received(res);
    if (target.origin === new URL(edge).origin) tally.fromEdge += bytes;
    else tally.fromElsewhere += bytes;
    return body;
  };
  while (Date.now() < until) {
    await get(`${U}/songs/${id}/hls-playlist`, true);
    const text = new TextDecoder().decode(await get(`${U}/songs/${id}/hls-playlist?rendition=medium`, true));
    await get(/URI="([^"]+)"/.exec(text)?.[1] ?? "", false);
    const started = Date.now();
    let at = 0;
    const lines = text.split("\n");
    for (let i = 0; i < lines.length && Date.now() < until; i++) {
      const line = lines[i] ?? "";
      if (!line.includes(".ts")) continue;
      // A segment is fetched when the play reaches it (a player keeps about one segment ahead).
      const wait = started + at * 1000 - Date.now();
      if (wait > 0) await sleep(wait);
      if (Date.now() >= until) break;
      if (new URL(line, edge).origin === new URL(edge).origin) tally.segmentRequestsToEdge++;
      await get(line, false);
      tally.segments++;
      at += Number(/#EXTINF:([\d.]+)/.exec(lines[i - 1] ?? "")?.[1] ?? 0);
    }
  }
}

const serverUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

/** A fresh database on TEST_DATABASE_URL's server for one edge, and TEST_REDIS_URL under a prefix; none without. */
async function engines() {
  if (!serverUrl) return { env: {}, drop: async () => {} };
  const name = `booth_media_bench_${crypto.randomUUID().slice(0, 8)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const env = {
    DATABASE_URL: url.toString(),
    ...(redisUrl ? { REDIS_URL: redisUrl, CACHE_PREFIX: `${name}:` } : {}),
  };
  return {
    env,
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end({ timeout: 5 });
    },
  };
}

async function measure(name: string, env: Record<string, string>) {
  const dataDir = await mkdtemp(join(tmpdir(), "booth-media-bench-"));
  const engine = await engines();
  const port = await freePort();
  const edge = `http://127.0.0.1:${port}`;
  const run = spawnEdgeEntry({
    port,
    dataDir,
    env: {
      SEED_DEMO: "false",
      LOG_LEVEL: "warn",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      BOOTH_PUBLIC_EDGE_URL: edge,
      ...engine.env,
      ...env,
    },
  });
  try {
    await waitForServer(run, {
      name: `the edge (${name})`,
      ready: () => answers(`${edge}/readyz`),
      timeoutMs: 120_000,
    });
    const token = await signIn(edge, ADMIN);
    const id = await uploadedSong(run, edge, token, song);
    const pid = run.child.pid ?? 0;
    const tally: Tally = { fromEdge: 0, fromElsewhere: 0, segments: 0, segmentRequestsToEdge: 0 };
    // What the edge spends with nobody listening (its job queue's polling, timers), over as long: taken off.
    const idleFrom = cpuSeconds(pid);
    await sleep(SECONDS * 1000);
    const idle = cpuSeconds(pid) - idleFrom;
    const cpuBefore = cpuSeconds(pid);
    const until = Date.now() + SECONDS * 1000;
    await Promise.all(Array.from({ length: LISTENERS }, () => listen(edge, token, id, until, tally)));
    const cpu = Math.max(0, cpuSeconds(pid) - cpuBefore - idle);
    const minutes = (LISTENERS * SECONDS) / 60;
    return { name, cpu: cpu / minutes, idle, bytes: tally.fromEdge / minutes, tally };
  } finally {
    await run.stop(5000);
    await engine.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const song = await synthesizeMp3({
  ffmpeg: TEST_FFMPEG,
  seconds: SONG_SECONDS,
  frequencies: [220, 277, 330],
  noise: 0.1,
  title: "Bench",
  artist: "Booth",
});
const s3 = await startS3();
try {
  const results = [
    await measure("DATA_DIR: segments through the edge", {}),
    await measure("S3: segments through the edge (baseline)", { ...s3.env, MEDIA_SEGMENTS: "edge" }),
    await measure("S3: segments from the bucket (presigned)", { ...s3.env }),
  ];
  const baseline = results[1] ?? results[0];
  if (!baseline) throw new Error("no result");
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(3)}x` : "-");
  console.log(
    `${serverUrl ? "PostgreSQL and Redis" : "PGlite, in the edge's process"}; ${LISTENERS} listeners, ${SECONDS} s each, a ${SONG_SECONDS} s song at its medium rendition (128 kb/s); per listener-minute:`,
  );
  console.log(
    "| edge | CPU seconds | vs baseline | bytes the edge sent | vs baseline | segments (through the edge) | idle CPU s |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const r of results)
    console.log(
      `| ${r.name} | ${r.cpu.toFixed(3)} | ${ratio(r.cpu, baseline.cpu)} | ${kb(r.bytes)} | ${ratio(r.bytes, baseline.bytes)} | ${r.tally.segments} (${r.tally.segmentRequestsToEdge}) | ${r.idle.toFixed(2)} |`,
    );
} finally {
  await s3.close();
}
