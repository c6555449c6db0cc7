// The job worker alone (`npm run start:worker`): transcoding, generated songs and the demo catalogue, on a host with
// ffmpeg, beside any number of edges started with RUN_JOBS=false. Its only HTTP is its health: GET /healthz on
// WORKER_PORT (8790 unless set), for a container's or an orchestrator's check.
import { type Drainable, drain, onTermination } from "@booth/sdk/node/shutdown";
import { BOOTH_VERSION } from "@booth/sdk/version";
import { serve } from "@hono/node-server";
import { closeDeps, depsFrom, readStart } from "./bootstrap.ts";
import { sentryFrom } from "./sentry.node.ts";
import { exitOnListenError, exitOnStartFailure, startStep } from "./start-failure.ts";
import { startWorker } from "./worker.ts";
import { workerHealth } from "./worker-health.ts";

const exitOnFailure = exitOnStartFailure("Booth job worker");
// The environment, read once: every bad or missing setting (WORKER_PORT among them) named in one line (config.ts).
const { settings, logger } = await Promise.resolve()
  .then(() => readStart(process.env, "Booth job worker"))
  .catch(exitOnFailure);
const port = settings.WORKER_PORT;

const sentry = await sentryFrom(settings, "worker");
const { deps, database } = await depsFrom(settings, logger, sentry).catch(exitOnFailure);
const health = workerHealth();
// The health port first (a port in use fails the start before any job is taken), then the job loop; the start line
// once both are up.
const server = serve({ fetch: health.app.fetch, port, hostname: settings.HOST }, (info) => {
  startStep("starting the job worker", () => startWorker(deps)).then(
    () => {
      health.running(true);
      console.log(
        `Booth job worker running (Booth ${BOOTH_VERSION}, database: ${database.kind}, storage: ${deps.storage.kind}; health at http://127.0.0.1:${info.port}/healthz)`,
      );
    },
    async (err) => {
      await closeDeps(deps, database);
      exitOnFailure(err);
    },
  );
});
server.once(
  "error",
  exitOnListenError("Booth job worker", port, "WORKER_PORT", () => closeDeps(deps, database)),
);

// SIGTERM or SIGINT: the health check answers 503, the jobs running finish (or go back to the queue after a few
// seconds), then the database and the health port close.
onTermination(async (signal) => {
  console.log(`Booth job worker: ${signal}, stopping`);
  health.running(false);
  await closeDeps(deps, database);
  await drain(server as unknown as Drainable, 1000);
  console.log("Booth job worker stopped");
});
