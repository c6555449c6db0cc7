import { type Drainable, drain, onTermination } from "@booth/sdk/node/shutdown";
import { BOOTH_VERSION } from "@booth/sdk/version";
import { getConnInfo } from "@hono/node-server/conninfo";
import { createApp } from "./app.ts";
import { closeDeps, depsFrom, firstAdminNotice, readStart, seedDemoInBackground } from "./bootstrap.ts";
import { sentryFrom } from "./sentry.node.ts";
import { serveEdge } from "./serve-node.ts";
import { exitOnListenError, exitOnStartFailure, startStep } from "./start-failure.ts";
import { startWorker } from "./worker.ts";

// The environment is read here, once: every bad or missing setting is named in one line, and a failed exit
// (config.ts); everything else receives the typed settings.
const exitOnFailure = exitOnStartFailure("Booth edge");
const { settings, logger } = await Promise.resolve()
  .then(() => readStart(process.env, "Booth edge"))
  .catch(exitOnFailure);
const sentry = await sentryFrom(settings, "edge");
// The log (an access line a request) is pino's JSON lines at LOG_LEVEL, through its asynchronous destination: a
// console.log is a synchronous write to a pipe on Linux, and one a request cost a simple route about a fifth to a
// third of its throughput over HTTP (docs/performance.md, "Log lines"). What is still gathered when the process
// exits is written before it does (deps.ts edgeLogger, @booth/sdk/node/logger).
//
// Everything a start can fail at comes before the edge listens (its database, migrations, first admin, job queue): a
// failure is one line naming its step and cause, and a failed exit, never a stack nor a listening edge that dies.
const { deps, port, database } = await depsFrom(settings, logger, sentry).catch(exitOnFailure);
const adminNotice = await (async () => {
  const notice = await startStep("making the first admin", () => firstAdminNotice(deps.db, settings, deps.clock.now()));
  await startStep("starting the job queue", () => deps.jobs.start());
  // The embedded instance works its own jobs; an edge beside a worker (`npm run start:worker`) sets RUN_JOBS=false.
  if (settings.RUN_JOBS) await startStep("starting the job worker", () => startWorker(deps));
  return notice;
})().catch(async (err) => {
  await closeDeps(deps, database);
  return exitOnFailure(err);
});
const app = createApp({ ...deps, peerAddress: (c) => getConnInfo(c).remote.address });
// Keep-alive connections outlast the clients' (60 s), and a refusal given before its request's body was read (a body
// declared too large) reaches a client still sending it: serve-node.ts.
const server = serveEdge({ fetch: app.fetch, port, hostname: settings.HOST }, (info) => {
  console.log(
    `Booth edge ${BOOTH_VERSION} listening on http://127.0.0.1:${info.port} (API docs at /docs, database: ${database.kind})`,
  );
  if (adminNotice) console.log(adminNotice);
  seedDemoInBackground(deps, settings);
});

// A port in use is a setting to change, not a crash: one line, and a failed exit for whoever started the edge.
server.once(
  "error",
  exitOnListenError("Booth edge", port, "PORT; EDGE_PORT under the top-level npm start", () =>
    closeDeps(deps, database),
  ),
);

// SIGTERM (a deploy, a scale-down) or SIGINT: no new connections, requests in flight finish (within
// SHUTDOWN_TIMEOUT_MS), the job worker finishes or hands back its jobs, then the database and the cache close.
onTermination(async (signal) => {
  const timeout = settings.SHUTDOWN_TIMEOUT_MS;
  console.log(`Booth edge: ${signal}, stopping (requests in flight get ${timeout / 1000} s)`);
  const how = await drain(server as unknown as Drainable, timeout);
  await closeDeps(deps, database);
  console.log(`Booth edge stopped (${how === "drained" ? "every request answered" : "cut after the timeout"})`);
});
