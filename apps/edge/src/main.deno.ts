// Deno entry: serves the same app as the Node entry.
import { getConnInfo } from "hono/deno";
import { createApp } from "./app.ts";
import { depsFromEnv, firstAdminNotice, seedDemoInBackground } from "./bootstrap.ts";
import { exitOnMissingSettings } from "./production.ts";

declare const Deno: {
  env: { toObject(): Record<string, string> };
  serve(
    options: { port: number; hostname: string; onListen?: () => void },
    // The handler's second argument carries remoteAddr, which hono/deno's getConnInfo reads from c.env.
    handler: (req: Request, info: unknown) => Response | Promise<Response>,
  ): unknown;
};

const env = Deno.env.toObject();
const { deps, port, database } = await depsFromEnv(env).catch(exitOnMissingSettings);
const adminNotice = await firstAdminNotice(deps.db, env, deps.clock.now());
const app = createApp({ ...deps, peerAddress: (c) => getConnInfo(c).remote.address });
Deno.serve(
  {
    port,
    hostname: env.HOST ?? "0.0.0.0",
    onListen: () => {
      console.log(`Booth edge (Deno) listening on http://127.0.0.1:${port} (database: ${database.kind})`);
      if (adminNotice) console.log(adminNotice);
      // Deno Deploy has neither ffmpeg nor a disk: jobs (transcoding, the demo catalogue) wait for a worker
      // (`npm run start:worker` on a host that has them).
      console.log("Jobs are queued for a worker (npm run start:worker); this entry runs none");
      seedDemoInBackground(deps, env);
    },
  },
  app.fetch,
);
