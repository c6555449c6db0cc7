import { BOOTH_VERSION } from "@booth/sdk/version";
import { Hono } from "hono";
import { errorBody } from "./lib/errors.ts";

/**
 * The job worker's HTTP (main.worker.ts): GET /healthz answers 200 while its job loop runs, 503 before it starts and
 * once it stops; anything else, 404.
 */
export function workerHealth() {
  let running = false;
  const app = new Hono();
  app.get("/healthz", (c) => {
    c.header("cache-control", "no-store");
    return running
      ? c.json({ status: "ok", version: BOOTH_VERSION })
      : c.json({ status: "unavailable", version: BOOTH_VERSION }, 503);
  });
  app.notFound((c) => c.json(errorBody(404, `Cannot ${c.req.method} ${c.req.path}`), 404));
  return {
    app,
    /** Whether the job loop runs. */
    running(value: boolean) {
      running = value;
    },
  };
}
