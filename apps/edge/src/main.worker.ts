// The job worker alone (`npm run start:worker`): transcoding, generated songs and the demo catalogue, on a host with
// ffmpeg, beside any number of edges started with RUN_JOBS=false. It serves no HTTP.
import { closeDeps, depsFromEnv } from "./bootstrap.ts";
import { exitOnMissingSettings } from "./production.ts";
import { startWorker } from "./worker.ts";

const { deps, database } = await depsFromEnv(process.env).catch(exitOnMissingSettings);
await startWorker(deps);
console.log(`Booth job worker running (database: ${database.kind}, storage: ${deps.storage.kind})`);

let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  void closeDeps(deps, database).then(() => process.exit(0));
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
