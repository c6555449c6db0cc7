import { serve } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { createApp } from "./app.ts";
import { depsFromEnv, firstAdminNotice, seedDemoInBackground, writePartyServiceToken } from "./bootstrap.ts";
import { exitOnMissingSettings, isProduction } from "./production.ts";

const { deps, port, database, dataDir } = await depsFromEnv(process.env).catch(exitOnMissingSettings);
// In production the rooms get their BOOTH_SERVICE_TOKEN from their own settings (scripts/service-token.ts).
if (!isProduction(process.env)) await writePartyServiceToken(deps, dataDir);
const adminNotice = await firstAdminNotice(deps.db, process.env, deps.clock.now());
const app = createApp({ ...deps, peerAddress: (c) => getConnInfo(c).remote.address });
const server = serve({ fetch: app.fetch, port, hostname: process.env.HOST ?? "0.0.0.0" }, (info) => {
  console.log(`Booth edge listening on http://127.0.0.1:${info.port} (API docs at /docs, database: ${database.kind})`);
  if (adminNotice) console.log(adminNotice);
  seedDemoInBackground(deps, process.env);
});

const shutdown = () => {
  server.close();
  void Promise.allSettled([database.close(), deps.cache.close()]).then(() => process.exit(0));
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
