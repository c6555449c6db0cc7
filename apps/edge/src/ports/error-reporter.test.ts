import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { firstRow } from "../lib/rows.ts";
import { sentryFrom } from "../sentry.node.ts";
import { expectErrorLog } from "../testing/error-logs.ts";
import { hasFrameIn, sentryIngest } from "../testing/sentry.ts";
import { createTestApp, openTestApp } from "../testing.ts";
import { reported } from "../worker.ts";
import { type SentrySdk, sentryReporter } from "./error-reporter.ts";
import type { JobHandlers } from "./jobs.ts";

const t = openTestApp();

describe("error reporting", () => {
  it("POST /sentry-testing puts a test error in the outbox, for admins only", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const user = await t.createUser();
    const res = await t.request("POST", "/api/upload-service/sentry-testing", { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.reporter).toBe("outbox");
    const row = await firstRow(t.db, schema.errorReports, eq(schema.errorReports.id, res.body.reportId));
    expect(row).toMatchObject({ service: "upload", message: "Test error from the upload service, sent by an admin" });
    expect((await t.request("POST", "/api/upload-service/sentry-testing", { token: user.token })).status).toBe(403);
    expect((await t.request("POST", "/api/upload-service/sentry-testing")).status).toBe(401);
  });

  it("through Sentry's Node SDK, sends a 500's error with its stack frames and request id, and a failed job's", async () => {
    const ingest = await sentryIngest();
    const sentry = await sentryFrom({ SENTRY_DSN: ingest.dsn }, "edge");
    const app = await createTestApp({ errorReporter: sentryReporter(sentry as SentrySdk) });
    try {
      const user = await app.createUser();
      expectErrorLog("the clock broke");
      app.clock.now = () => {
        throw new Error("the clock broke");
      };
      const res = await app.request("GET", "/api/room-service/rooms/public", { token: user.token });
      expect(res.status).toBe(500);
      const event = await ingest.event((e) => e.exception.values[0]?.value === "the clock broke");
      expect(hasFrameIn(event, "error-reporter.test.ts")).toBe(true);
      expect(event.tags).toMatchObject({ service: "edge", request_id: res.headers.get("x-request-id") });
      expect(event.extra).toMatchObject({ method: "GET", path: "/api/room-service/rooms/public" });

      const failing = reported(app.deps, {
        transcode: async () => {
          throw new Error("ffmpeg gave up");
        },
      } as unknown as JobHandlers);
      await expect(failing.transcode({ uploadId: "x" })).rejects.toThrow("ffmpeg gave up");
      const job = await ingest.event((e) => e.exception.values[0]?.value === "ffmpeg gave up");
      expect(job.tags).toMatchObject({ service: "jobs" });
      expect(job.extra).toMatchObject({ job: "transcode" });
    } finally {
      await app.close();
      ingest.close();
    }
  });
});
