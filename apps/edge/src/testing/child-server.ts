/**
 * A server (or any program) a test runs in another process: spawned with its output kept, waited for until it
 * answers, and stopped. The edge's, the web's, the rooms' and the CLI's tests share it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

export interface ChildOptions {
  /** The program; Node itself when absent. */
  command?: string | undefined;
  args: readonly string[];
  cwd?: string | undefined;
  /** The whole environment of the child (default: the test's). */
  env?: NodeJS.ProcessEnv | undefined;
  /** Its own process group, stopped as a whole (for programs that start others, like wrangler and workerd). */
  detached?: boolean | undefined;
}

export interface ChildRun {
  child: ChildProcess;
  /** Everything it printed so far, both streams. */
  output(): string;
  /** Its exit code (null after a signal). */
  exited: Promise<number | null>;
  /** SIGTERM (to its group when detached), then SIGKILL after `graceMs` if it is still running. */
  stop(graceMs?: number): Promise<void>;
  /** Sends a signal to it (to its group when detached), unless it has exited. */
  kill(signal?: NodeJS.Signals): void;
}

/**
 * The process groups of detached children not stopped yet. A test that fails before its `stop()` would leave them
 * running after its file ends (a group is not its worker's to take down: vitest's worker goes without an exit event):
 * `wrangler dev`'s workerd, orphaned so, was seen spinning at 70% of a core for the rest of the run. The vitest setup
 * file stops what is left after each test file (`stopLeftoverGroups`).
 */
const liveGroups = new Set<number>();

/** Kills the process groups of the detached children a test file started and did not stop. */
export function stopLeftoverGroups() {
  for (const group of liveGroups) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // gone already
    }
  }
  liveGroups.clear();
}

/** Starts a process and keeps what it prints. */
export function spawnChild(options: ChildOptions): ChildRun {
  const child = spawn(options.command ?? process.execPath, options.args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: options.detached ?? false,
  });
  let output = "";
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const group = options.detached ? child.pid : undefined;
  if (group) liveGroups.add(group);
  const kill = (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      if (group) process.kill(-group, signal);
      else child.kill(signal);
    } catch {
      // gone already
    }
  };
  return {
    child,
    output: () => output,
    exited,
    kill,
    async stop(graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
      // A group may outlive its leader (workerd under wrangler): the kill goes to the group all the same.
      if (group) {
        try {
          process.kill(-group, "SIGKILL");
        } catch {
          // gone already
        }
        liveGroups.delete(group);
      } else kill("SIGKILL");
    },
  };
}

export interface ReadyOptions<T> {
  /** What it is, for error messages ("the web server"). */
  name: string;
  /** Answers a truthy value once the server serves (it may throw meanwhile, e.g. a refused connection). */
  ready: () => Promise<T | undefined | null | false>;
  /** How long it may take to start (default 60 s). */
  timeoutMs?: number | undefined;
  /** Between two probes (default 250 ms). */
  intervalMs?: number | undefined;
}

/**
 * Waits until a started server's `ready` answers, and answers that; throws with its output if it exits first or
 * does not serve in time (and stops it then).
 */
export async function waitForServer<T>(run: ChildRun, options: ReadyOptions<T>): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (run.child.exitCode !== null) throw new Error(`${options.name} exited:\n${run.output()}`);
    try {
      const value = await options.ready();
      if (value) return value;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      await run.stop(1000);
      throw new Error(`${options.name} did not start:\n${run.output()}`);
    }
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 250));
  }
}

/** Starts a server in another process and waits until it serves (see waitForServer). */
export async function startChildServer<T>(options: ChildOptions & ReadyOptions<T>): Promise<ChildRun & { ready: T }> {
  const run = spawnChild(options);
  return { ...run, ready: await waitForServer(run, options) };
}

/** A probe for `ready`: whether a GET of `url` answers `status` (any 2xx when absent) within two seconds. */
export async function answers(url: string, status?: number): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await res.body?.cancel();
  return status === undefined ? res.ok : res.status === status;
}

/**
 * A port for a server a test starts in another process. Picked below the kernel's ephemeral range (32768 and up on
 * Linux): a port the kernel handed out with `listen(0)` and that was then closed can be taken by any outgoing
 * connection (Chromium's, workerd's, the database's) before the other process binds it. Below that range only
 * another listener can take it, so a random pick that binds here is very likely still free a moment later.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
  throw new Error("no free port between 20000 and 32000");
}

function canListen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once("error", () => done(false));
    server.listen(port, "127.0.0.1", () => server.close(() => done(true)));
  });
}
