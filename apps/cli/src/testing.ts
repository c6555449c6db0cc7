// What the CLI's tests share: the edge served over real HTTP, and the CLI bundled as it ships (scripts/build.mjs: one
// file Node starts at once, not the sources through tsx) run as its own process, as a person's shell would.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createTestApp, serveTestApp, type TestApp } from "@booth/edge/testing";
import { buildCli } from "../scripts/build.mjs";

const run = promisify(execFile);

/** Runs `booth <args>` from the bundle at `bin`; a failure is an answer (its exit code and output), not a throw. */
export async function runBooth(bin: string, args: string[], options: { env: NodeJS.ProcessEnv; timeout: number }) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], options);
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

export interface CliWorld {
  /** The bundled CLI. */
  bin: string;
  t: TestApp;
  /** The edge's address. */
  api: string;
  /** The CLI's config home (XDG_CONFIG_HOME), a fresh folder. */
  home: string;
  /** `booth <args>` against this edge, with this config home. */
  booth(...args: string[]): ReturnType<typeof runBooth>;
  close(): Promise<void>;
}

/** An edge on the real clock served at a free port, the CLI bundled, and a config home named `homePrefix...`. */
export async function startCliWorld({
  homePrefix,
  timeout,
  app,
}: {
  homePrefix: string;
  /** How long one `booth` may run. */
  timeout: number;
  app?: Parameters<typeof createTestApp>[0];
}): Promise<CliWorld> {
  const bin = await buildCli();
  const t = await createTestApp(app);
  t.clock.now = () => new Date();
  const server = await serveTestApp(t);
  const api = server.url;
  const home = await mkdtemp(join(tmpdir(), homePrefix));
  return {
    bin,
    t,
    api,
    home,
    booth: (...args) =>
      runBooth(bin, args, { env: { ...process.env, XDG_CONFIG_HOME: home, BOOTH_EDGE_URL: api }, timeout }),
    async close() {
      server.close();
      await t.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}
