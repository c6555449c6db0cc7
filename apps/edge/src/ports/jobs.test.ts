import { createTestDatabase } from "@booth/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectErrorLog } from "../testing/error-logs.ts";
import { testLogger } from "../testing/logger.ts";
import { until } from "../testing/until.ts";
import { type JobHandlers, type JobKind, type Jobs, pgBossJobs } from "./jobs.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let jobs: Jobs;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await jobs?.stop();
  await database?.close();
});

describe("the job queue (pg-boss on the test's database)", () => {
  it("runs a job once, retries a failing one with its error kept, and lists both", async () => {
    expectErrorLog(/job failed/);
    jobs = pgBossJobs(database.sql, { logger: testLogger, retryLimit: 1, retryDelaySeconds: 1, pollSeconds: 1 });
    const ran: string[] = [];
    const handlers: JobHandlers = {
      async transcode({ uploadId }) {
        ran.push(uploadId);
      },
      async "generate-song"() {
        throw new Error("the provider is down");
      },
      async "demo-catalogue"() {},
      async "playlist-import"() {},
    };
    await jobs.work(handlers);
    const ok = await jobs.send("transcode", { uploadId: "u1" });
    const bad = await jobs.send("generate-song", {
      uploadId: "u2",
      holdId: "h",
      prompt: "p",
      duration: 30,
      title: "t",
      artist: "a",
    });
    /** The job once it reached `state`, polled every 50 ms for 10 s. */
    const jobIn = (kind: JobKind, id: string | null, state: "completed" | "failed", what: string) =>
      until(
        async () => {
          const job = await jobs.get(kind, id ?? "");
          return job?.state === state && job;
        },
        what,
        10_000,
        50,
      );
    const done = await jobIn("transcode", ok, "completed", "the job to complete");
    expect(done).toMatchObject({ kind: "transcode", attempts: 1, lastError: null, data: { uploadId: "u1" } });
    expect(ran).toEqual(["u1"]);
    // Two runs (the first and one retry), then failed for good with the last error.
    const failed = await jobIn("generate-song", bad, "failed", "the job to fail for good");
    expect(failed).toMatchObject({ attempts: 2, lastError: "the provider is down" });
    expect((await jobs.list({ state: "failed", limit: 10 })).map((j) => j.id)).toEqual([bad]);
    expect((await jobs.list({ limit: 10 })).map((j) => j.kind).sort()).toEqual(["generate-song", "transcode"]);
  }, 30_000);
});
