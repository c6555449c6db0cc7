import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstRow } from "./lib/rows.ts";
import { synthesizeMp3 } from "./ports/audio.ts";
import { pgBossJobs } from "./ports/jobs.ts";
import { localStorage } from "./ports/storage.ts";
import { type ChildRun, freePort, spawnChild } from "./testing/child-server.ts";
import { testLogger } from "./testing/logger.ts";
import { createTestApp, sendAudio, TEST_FFMPEG, type TestApp, until, uploaderOf } from "./testing.ts";

// The job worker in a process of its own (`npm run start:worker`) shares the database with the edge: it needs
// PostgreSQL (the embedded PGlite belongs to one process).
const postgres = Boolean(process.env.TEST_DATABASE_URL);
if (!postgres) console.warn("worker.test.ts skipped: set TEST_DATABASE_URL to run the job worker in its own process");

const edgeDir = new URL("..", import.meta.url).pathname;
const U = "/api/upload-service";
// A job whose worker died counts as lost after this long, and runs again.
const TIMEOUT_SECONDS = 2;

let t: TestApp;
let dataDir: string;
const workers: ChildRun[] = [];
beforeAll(async () => {
  if (!postgres) return;
  dataDir = await mkdtemp(join(tmpdir(), "booth-worker-"));
  // The edge and the worker share the stored files (a folder here; object storage across hosts).
  t = await createTestApp({ storage: localStorage(join(dataDir, "storage")) });
  // This edge only queues jobs (RUN_JOBS=false): the worker processes run them.
  t.deps.jobs = pgBossJobs(t.sql, { timeoutSeconds: TIMEOUT_SECONDS, retryDelaySeconds: 1, logger: testLogger });
});
afterAll(async () => {
  for (const worker of workers) await worker.stop(2000);
  await t?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function startWorker() {
  const run = spawnChild({
    args: ["--import", "tsx", "src/main.worker.ts"],
    cwd: edgeDir,
    env: {
      ...process.env,
      DATABASE_URL: t.databaseUrl,
      DATA_DIR: dataDir,
      REDIS_URL: "",
      INIT_CWD: "",
      JOB_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
      WORKER_PORT: String(await freePort()),
    },
    // Its own group: a kill reaches the ffmpeg it runs too.
    detached: true,
  });
  workers.push(run);
  return run;
}

describe.skipIf(!postgres)("the job worker", () => {
  it("a transcode cut short by a killed worker runs again on the next worker, and the upload becomes playable", async () => {
    const owner = await uploaderOf(t);
    const first = await startWorker();
    await until(async () => first.output().includes("Booth job worker running"), "the worker to start", 60_000);

    const mp3 = await synthesizeMp3({
      ffmpeg: TEST_FFMPEG,
      seconds: 90,
      frequencies: [440, 550],
      title: "Crash Test",
      artist: "Booth",
    });
    const { id, res } = await sendAudio(t, owner.token, mp3, "crash.mp3");
    expect(res.status).toBe(200);

    // In the middle of ffmpeg's run, the worker dies (kill -9: no chance to tidy up).
    const transcoding = async () => {
      const row = await firstRow(t.db, schema.songUploads, eq(schema.songUploads.id, id));
      return row?.transcodingStatus === "TRANSCODING_IN_PROGRESS";
    };
    await until(transcoding, "the transcode to start", 60_000, 50);
    first.kill("SIGKILL");
    await first.exited;
    const stuck = await t.request("GET", `${U}/songs/${id}`, { token: owner.token });
    expect(stuck.body.transcodingStatus).toBe("TRANSCODING_IN_PROGRESS");
    expect(first.output()).not.toContain('"msg":"job done"');

    // A new worker picks the lost job up once its timeout has passed.
    const second = await startWorker();
    const done = await until(
      async () => {
        const res = await t.request("GET", `${U}/songs/${id}`, { token: owner.token });
        return res.body.transcodingStatus !== "TRANSCODING_IN_PROGRESS" && res.body;
      },
      "the upload to settle",
      60_000,
      50,
    );
    expect(done.transcodingStatus).toBe("TRANSCODING_SUCCEED");
    // The worker logs the job done once its handler has returned, just after the upload settled.
    await until(() => second.output().includes('"msg":"job done","kind":"transcode"'), "the job's end in the log");
    const playlist = await t.request("GET", `${U}/songs/${id}/hls-playlist`, { token: owner.token });
    expect(playlist.status).toBe(200);
    expect(String(playlist.body)).toContain("#EXTM3U");
  }, 120_000);
});
