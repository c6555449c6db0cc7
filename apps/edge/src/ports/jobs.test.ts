import { pgliteDatabase } from "@booth/db";
import { createTestDatabase } from "@booth/db/testing";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectErrorLog } from "../testing/error-logs.ts";
import { testLogger } from "../testing/logger.ts";
import { until } from "../testing/until.ts";
import { type JobHandlers, type JobKind, type Jobs, type JobsOptions, MissingQueuesError, pgBossJobs } from "./jobs.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const opened: Jobs[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const jobs of opened) await jobs.stop();
  await database?.close();
});

/** A job queue on the test's database (as an instance of Booth has one); stopped after the file. */
function jobQueue(options: Partial<JobsOptions> = {}) {
  const jobs = pgBossJobs(database.sql, { logger: testLogger, pollSeconds: 1, retryDelaySeconds: 1, ...options });
  opened.push(jobs);
  return jobs;
}

/** Handlers that do nothing, with `overrides`. */
const handlers = (overrides: Partial<JobHandlers> = {}): JobHandlers => ({
  async transcode() {},
  async "generate-song"() {},
  async "demo-catalogue"() {},
  async "playlist-import"() {},
  async "discord-announce"() {},
  ...overrides,
});

/** The job once it reached `state`, polled every 50 ms for `timeoutMs`. */
const jobIn = (jobs: Jobs, kind: JobKind, id: string | null, state: string, what: string, timeoutMs = 10_000) =>
  until(
    async () => {
      const job = await jobs.get(kind, id ?? "");
      return job?.state === state ? job : null;
    },
    what,
    timeoutMs,
    50,
  );

describe(`the job queue (pg-boss on the test's database, ${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("runs a job once, retries a failing one with its error kept, and lists both", async () => {
    expectErrorLog(/job failed/);
    const jobs = jobQueue({ retryLimit: 1 });
    const ran: string[] = [];
    await jobs.work(
      handlers({
        async transcode({ uploadId }) {
          ran.push(uploadId);
        },
        async "generate-song"() {
          throw new Error("the provider is down");
        },
      }),
    );
    const ok = await jobs.send("transcode", { uploadId: "u1" });
    const bad = await jobs.send("generate-song", {
      uploadId: "u2",
      holdId: "h",
      prompt: "p",
      duration: 30,
      title: "t",
      artist: "a",
    });
    const done = await jobIn(jobs, "transcode", ok, "completed", "the job to complete");
    expect(done).toMatchObject({ kind: "transcode", attempts: 1, lastError: null, data: { uploadId: "u1" } });
    expect(ran).toEqual(["u1"]);
    // Two runs (the first and one retry), then failed for good with the last error.
    const failed = await jobIn(jobs, "generate-song", bad, "failed", "the job to fail for good");
    expect(failed).toMatchObject({ attempts: 2, lastError: "the provider is down" });
    expect((await jobs.list({ state: "failed", limit: 10 })).map((j) => j.id)).toEqual([bad]);
    expect((await jobs.list({ limit: 10 })).map((j) => j.kind).sort()).toEqual(["generate-song", "transcode"]);
    await jobs.stop();
  }, 30_000);

  it("a job whose worker died runs again once its timeout has passed", async () => {
    const jobs = jobQueue({ timeoutSeconds: 2 });
    const id = await jobs.send("transcode", { uploadId: "lost" });
    // Taken by a worker that then died (kill -9: nothing handed back): active since now, and nobody running it. A
    // worker of a living process fails a job that outlasts its timeout itself; this one only the queue's supervision
    // finds.
    await database.sql.executeSql(
      "UPDATE pgboss.job SET state = 'active', started_on = now(), retry_count = 0 WHERE id = $1",
      [id],
    );
    const ran: string[] = [];
    await jobs.work(
      handlers({
        async transcode({ uploadId }) {
          ran.push(uploadId);
        },
      }),
    );
    const done = await jobIn(jobs, "transcode", id, "completed", "the lost job to run again", 20_000);
    expect(ran).toEqual(["lost"]);
    // The run the dead worker began, and this one.
    expect(done?.attempts).toBe(2);
    await jobs.stop();
  }, 40_000);

  it("with a key, a job is refused while another of that key waits or runs, and taken again once it finished", async () => {
    const jobs = jobQueue();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = await jobs.send("demo-catalogue", { ownerUuid: "o1" }, { key: "demo" });
    expect(first).toBeTruthy();
    // Waiting: refused.
    expect(await jobs.send("demo-catalogue", { ownerUuid: "o2" }, { key: "demo" })).toBeNull();
    await jobs.work(handlers({ "demo-catalogue": () => released }));
    await jobIn(jobs, "demo-catalogue", first, "active", "the keyed job to run");
    // Running: refused.
    expect(await jobs.send("demo-catalogue", { ownerUuid: "o3" }, { key: "demo" })).toBeNull();
    // Another key is another job.
    expect(await jobs.send("demo-catalogue", { ownerUuid: "o4" }, { key: "other" })).toBeTruthy();
    release();
    await jobIn(jobs, "demo-catalogue", first, "completed", "the keyed job to finish");
    expect(await jobs.send("demo-catalogue", { ownerUuid: "o5" }, { key: "demo" })).toBeTruthy();
    // A kind whose queue holds nothing to a key takes none.
    await expect(jobs.send("transcode", { uploadId: "u" }, { key: "k" })).rejects.toThrow(/take no key/);
    await jobs.stop();
  }, 30_000);

  it("an instance starts only once the release step made every queue, and says so", async () => {
    await database.sql.executeSql("SELECT pgboss.delete_queue('playlist-import')");
    const jobs = jobQueue();
    await expect(jobs.start()).rejects.toThrow(MissingQueuesError);
    await expect(jobs.start()).rejects.toThrow(/no queue playlist-import: run the release step \(npm run migrate\)/);
    // A database never migrated: not even the tables.
    const empty = await pgliteDatabase(new PGlite());
    const none = pgBossJobs(empty.sql, { logger: testLogger });
    await expect(none.start()).rejects.toThrow(/the job queue's tables are not there: run the release step/);
    await none.stop();
    await empty.close();
  });
});
