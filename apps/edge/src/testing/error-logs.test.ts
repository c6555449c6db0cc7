import { Hono } from "hono";
import { describe, it } from "vitest";
import { errorResponse } from "../lib/errors.ts";
import { expectErrorLog } from "./error-logs.ts";
import { testLogger } from "./logger.ts";

// The setup file (vitest-setup.ts) fails a test that logs an error it did not declare: `it.fails` checks that.
// The app below fails as the edge does (its onError, lib/errors.ts), with the test apps' logger.
const app = new Hono();
app.use(async (c, next) => {
  await next();
  testLogger({
    level: c.res.status >= 500 ? "error" : "info",
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
  });
});
app.get("/boom", () => {
  throw new Error("boom");
});
app.get("/unavailable", (c) => c.json({ message: "not configured" }, 503));
app.onError((err, c) => errorResponse(c, err, testLogger));

describe("unexpected error logs", () => {
  it.fails("fail the test that made them", () => {
    console.error("something broke");
  });

  it.fails("fail the test that made the edge answer 500, though it checked nothing", async () => {
    await app.request("/boom");
  });

  it("pass when the test declared them", async () => {
    expectErrorLog("unhandled error");
    await app.request("/boom");
  });

  it("leave out 502 and 503 answers, which are honest", async () => {
    await app.request("/unavailable");
  });
});
