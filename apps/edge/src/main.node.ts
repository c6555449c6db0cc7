import { serve } from "@hono/node-server";
import { createApp } from "./app.ts";
import { depsFromEnv, ensureAdmin, seedDemoInBackground, writePartyServiceToken } from "./bootstrap.ts";

const { deps, port, database, dataDir } = await depsFromEnv(process.env);
await writePartyServiceToken(deps, dataDir);
const admin = await ensureAdmin(deps.db, process.env, deps.clock.now());
const app = createApp(deps);
const server = serve({ fetch: app.fetch, port, hostname: process.env.HOST ?? "0.0.0.0" }, (info) => {
  console.log(`Booth edge listening on http://127.0.0.1:${info.port} (API docs at /docs, database: ${database.kind})`);
  if (admin?.password)
    console.log(`First admin created: ${admin.email} / ${admin.password} (shown once; change it after logging in)`);
  seedDemoInBackground(deps, process.env);
});

const shutdown = () => {
  server.close();
  void Promise.allSettled([database.close(), deps.cache.close()]).then(() => process.exit(0));
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
