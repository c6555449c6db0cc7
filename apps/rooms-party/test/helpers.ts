import { answers, freePort, startChildServer } from "../../edge/src/testing/child-server.ts";
import { until } from "../../edge/src/testing/until.ts";
import { APP_DIR, wranglerDevArgs, wranglerEnv } from "../scripts/wrangler-dev.mjs";

export { freePort, until };

/**
 * The rooms under `wrangler dev` on a port, with the room's variables and secrets (BOOTH_SERVICE_SECRET); resolves
 * once it answers HTTP.
 */
export async function startParty(options: {
  port: number;
  persistDir: string;
  vars: Record<string, string>;
  secrets?: Record<string, string>;
  /** Globals replaced in the build (`--define`): BOOTH_TEST_FAULTS (src/server.ts). */
  defines?: Record<string, string>;
}) {
  const url = `http://127.0.0.1:${options.port}`;
  const run = await startChildServer({
    name: "wrangler dev",
    args: wranglerDevArgs({
      port: options.port,
      persistTo: options.persistDir,
      vars: options.vars,
      secrets: options.secrets ?? {},
      defines: options.defines ?? {},
    }),
    cwd: APP_DIR,
    env: wranglerEnv(),
    // Its own process group, so stopping it stops workerd too.
    detached: true,
    ready: () => answers(`${url}/parties/main/00000000-0000-4000-8000-000000000000`, 401),
    timeoutMs: 90_000,
    intervalMs: 500,
  });
  return {
    url,
    child: run.child,
    output: run.output,
    async stop() {
      if (run.child.exitCode !== null) return;
      await run.stop(5000);
      // workerd is its child: make sure the port is free again.
      await new Promise((r) => setTimeout(r, 500));
    },
  };
}
