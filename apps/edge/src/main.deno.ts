// Deno entry: serves the same app as the Node entry.
import { createApp } from "./app.ts";
import { depsFromEnv, ensureAdmin, seedDemoInBackground } from "./bootstrap.ts";

declare const Deno: {
  env: { toObject(): Record<string, string> };
  serve(
    options: { port: number; hostname: string; onListen?: () => void },
    handler: (req: Request) => Response | Promise<Response>,
  ): unknown;
};

const env = Deno.env.toObject();
const { deps, port, database } = await depsFromEnv(env);
const admin = await ensureAdmin(deps.db, env, deps.clock.now());
const app = createApp(deps);
Deno.serve(
  {
    port,
    hostname: env.HOST ?? "0.0.0.0",
    onListen: () => {
      console.log(`Booth edge (Deno) listening on http://127.0.0.1:${port} (database: ${database.kind})`);
      if (admin?.password) console.log(`First admin created: ${admin.email} / ${admin.password} (shown once)`);
      seedDemoInBackground(deps, env);
    },
  },
  app.fetch,
);
