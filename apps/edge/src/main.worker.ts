// The job worker alone (`npm run start:worker`): transcoding, generated songs and the demo catalogue, on a host with
// ffmpeg, beside any number of edges started with RUN_JOBS=false. It serves no HTTP.
import { onTermination } from "@booth/sdk/node/shutdown";
import { BOOTH_VERSION } from "@booth/sdk/version";
import { closeDeps, depsFromEnv } from "./bootstrap.ts";
import { exitOnMissingSettings } from "./production.ts";
import { sentryFromEnv } from "./sentry.node.ts";
import { startWorker } from "./worker.ts";

const sentry = sentryFromEnv(process.env, "worker");
const { deps, database } = await depsFromEnv(process.env, undefined, sentry).catch(exitOnMissingSettings);
await startWorker(deps);
console.log(
  `Booth job worker running (Booth ${BOOTH_VERSION}, database: ${database.kind}, storage: ${deps.storage.kind})`,
);

// SIGTERM or SIGINT: the jobs running finish (or go back to the queue after the bound), then the database closes.
onTermination(async (signal) => {
  console.log(`Booth job worker: ${signal}, stopping`);
  await closeDeps(deps, database);
  console.log("Booth job worker stopped");
});
