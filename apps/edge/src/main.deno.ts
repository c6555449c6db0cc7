// Deno entry: serves the same app as the Node entry.
import { BOOTH_VERSION } from "@booth/sdk/version";
import { getConnInfo } from "hono/deno";
import { createApp } from "./app.ts";
import { closeDeps, depsFrom, firstAdminNotice, readStart, seedDemoInBackground } from "./bootstrap.ts";
import { errorBody } from "./lib/errors.ts";
import { sentryFrom } from "./sentry.deno.ts";
import { exitOnStartFailure, startStep } from "./start-failure.ts";

declare const Deno: {
  env: { toObject(): Record<string, string> };
  addSignalListener(signal: "SIGTERM" | "SIGINT", handler: () => void): void;
  exit(code: number): never;
  serve(
    options: { port: number; hostname: string; onListen?: () => void },
    // The handler's second argument carries remoteAddr, which hono/deno's getConnInfo reads from c.env.
    handler: (req: Request, info: unknown) => Response | Promise<Response>,
  ): { shutdown(): Promise<void> };
};

// A failure before it listens is one line naming its step and cause (every bad setting, read here once), and a failed
// exit (as the Node entry's).
const exitOnFailure = exitOnStartFailure("Booth edge (Deno)");
const { settings, logger } = await Promise.resolve()
  .then(() => readStart(Deno.env.toObject(), "Booth edge (Deno)"))
  .catch(exitOnFailure);
const sentry = sentryFrom(settings, "edge");
const { deps, port, database } = await depsFrom(settings, logger, sentry).catch(exitOnFailure);
const adminNotice = await (async () => {
  const notice = await startStep("making the first admin", () => firstAdminNotice(deps.db, settings, deps.clock.now()));
  await startStep("starting the job queue", () => deps.jobs.start());
  return notice;
})().catch(async (err) => {
  await closeDeps(deps, database);
  return exitOnFailure(err);
});
const app = createApp({ ...deps, peerAddress: (c) => getConnInfo(c).remote.address });
// Requests in flight, counted so that a stop waits for them: Deno's own shutdown() stops reading the bodies of the
// requests it has begun (a half-sent body ends short), so it is called only once they are answered.
let inFlight = 0;
let stopping = false;
let quiet: (() => void) | undefined;
const handler = async (req: Request, info: unknown) => {
  if (stopping)
    return new Response(JSON.stringify(errorBody(503, "The server is stopping; try again.")), {
      status: 503,
      headers: { "content-type": "application/json", connection: "close", "retry-after": "1" },
    });
  inFlight++;
  try {
    return await app.fetch(req, info);
  } finally {
    if (--inFlight === 0) quiet?.();
  }
};
const server = Deno.serve(
  {
    port,
    hostname: settings.HOST,
    onListen: () => {
      console.log(
        `Booth edge (Deno) ${BOOTH_VERSION} listening on http://127.0.0.1:${port} (database: ${database.kind})`,
      );
      if (adminNotice) console.log(adminNotice);
      // Deno Deploy has neither ffmpeg nor a disk: jobs (transcoding, the demo catalogue) wait for a worker
      // (`npm run start:worker` on a host that has them).
      console.log("Jobs are queued for a worker (npm run start:worker); this entry runs none");
      seedDemoInBackground(deps, settings);
    },
  },
  handler,
);

// SIGTERM or SIGINT: new requests are turned away (503, Connection: close), those in flight finish (within
// SHUTDOWN_TIMEOUT_MS), the server shuts down, then the database and the cache close.
const stop = async (signal: string) => {
  if (stopping) Deno.exit(1);
  stopping = true;
  const timeout = settings.SHUTDOWN_TIMEOUT_MS;
  console.log(`Booth edge (Deno): ${signal}, stopping (requests in flight get ${timeout / 1000} s)`);
  const cut = new Promise<"cut">((resolve) => setTimeout(() => resolve("cut"), timeout));
  const answered = inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (quiet = resolve));
  const how = await Promise.race([answered.then(() => "drained" as const), cut]);
  await Promise.race([server.shutdown(), cut]);
  await closeDeps(deps, database);
  console.log(`Booth edge (Deno) stopped (${how === "drained" ? "every request answered" : "cut after the timeout"})`);
  Deno.exit(0);
};
Deno.addSignalListener("SIGTERM", () => void stop("SIGTERM"));
Deno.addSignalListener("SIGINT", () => void stop("SIGINT"));
