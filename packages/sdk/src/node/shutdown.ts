/**
 * Graceful shutdown for Booth's Node servers (the edge's Node entry and the web server), both served by
 * @hono/node-server: on SIGTERM (or SIGINT) they stop accepting connections, let the requests in flight finish, cut
 * what is still running after a bound, close what they hold (the database, the cache, the job worker) and exit.
 *
 *   onTermination(async () => {
 *     await drain(server, 10_000);
 *     await closeDeps(deps, database);
 *   });
 */

/** What drain needs of a server: Node's http.Server has it (and @hono/node-server's serve() returns one). */
export interface Drainable {
  close(callback?: (err?: Error) => void): unknown;
  closeIdleConnections(): void;
  closeAllConnections(): void;
}

/**
 * Stops a server: it accepts no new connection, the requests in flight finish, each keep-alive connection is closed as
 * soon as it is idle, and whatever still runs after `timeoutMs` is cut. Answers "drained" or "cut".
 */
export function drain(server: Drainable, timeoutMs: number): Promise<"drained" | "cut"> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (how: "drained" | "cut") => {
      if (done) return;
      done = true;
      clearInterval(idle);
      clearTimeout(bound);
      resolve(how);
    };
    // A connection that answered its last request is idle: close it rather than wait for its client.
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const bound = setTimeout(() => {
      server.closeAllConnections();
      finish("cut");
    }, timeoutMs);
    server.close(() => finish("drained"));
    server.closeIdleConnections();
  });
}

/** SHUTDOWN_TIMEOUT_MS: how long requests in flight get to finish (10 s unless set). */
export function shutdownTimeout(env: Record<string, string | undefined>): number {
  const value = Number(env.SHUTDOWN_TIMEOUT_MS);
  return Number.isFinite(value) && value >= 0 ? value : 10_000;
}

/**
 * Runs `stop` once, on the first SIGTERM or SIGINT, then exits: 0 when it stopped cleanly, 1 when `stop` failed. A
 * second signal while stopping exits at once (1).
 */
export function onTermination(stop: (signal: NodeJS.Signals) => Promise<void>) {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    stop(signal).then(
      () => process.exit(0),
      (err) => {
        console.error("shutdown failed:", err);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", handle);
  process.on("SIGINT", handle);
}
