import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../edge/src/free-port.ts";

const app = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export { freePort };

function partykitBin() {
  for (let dir = app; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", "partykit", "dist", "bin.mjs");
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error("partykit is not installed");
  }
}

/** `partykit dev` on a port, with the room's variables; resolves once it answers HTTP. */
export async function startParty(options: { port: number; persistDir: string; vars: Record<string, string> }) {
  const args = [
    partykitBin(),
    "dev",
    "--port",
    String(options.port),
    "--persist",
    options.persistDir,
    "--disable-request-cf-fetch",
    "--no-hotkeys",
    ...Object.entries(options.vars).flatMap(([k, v]) => ["--var", `${k}=${v}`]),
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: app,
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so stopping it stops workerd too.
    detached: true,
  });
  let output = "";
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`partykit dev exited:\n${output}`);
    try {
      const res = await fetch(`${url}/parties/main/00000000-0000-4000-8000-000000000000`, {
        signal: AbortSignal.timeout(2000),
      });
      await res.body?.cancel();
      if (res.status === 401) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`partykit dev did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    url,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      const group = (signal: NodeJS.Signals) => {
        try {
          if (child.pid) process.kill(-child.pid, signal);
        } catch {
          // gone already
        }
      };
      group("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      group("SIGKILL");
      // workerd is its child: make sure the port is free again.
      await new Promise((r) => setTimeout(r, 500));
    },
  };
}

/** Waits until `check` holds (it may throw meanwhile). */
export async function until<T>(check: () => T | Promise<T>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ""}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
