/**
 * A real PgBouncer (Debian's `pgbouncer` package) in transaction mode in front of the test PostgreSQL, on a free port,
 * for the tests that prove Booth correct behind a pooler (decision 0023). Its pool is small on purpose: with two
 * server connections per database, consecutive transactions of one client land on different server connections, as
 * under a busy managed pooler.
 */
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { type ChildRun, freePort, spawnChild, waitForServer } from "./child-server.ts";

/** Where Debian installs it (not on a non-root PATH); PGBOUNCER_PATH names another. */
export const PGBOUNCER = process.env.PGBOUNCER_PATH ?? "/usr/sbin/pgbouncer";
export const hasPgBouncer = () => existsSync(PGBOUNCER);

export interface PgBouncer {
  /** The pooled address of `database` (the same user as the server's URL). */
  url(database: string): string;
  /** What it printed (its log). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts PgBouncer in transaction mode in front of the server `serverUrl` names (trust authentication, as in CI). */
export async function startPgBouncer(serverUrl: string, poolSize = 2): Promise<PgBouncer> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || "postgres");
  const dir = await mkdtemp(join(tmpdir(), "booth-pgbouncer-"));
  // PgBouncer refuses to run as root: started as root it drops to the server's user, which must read its files.
  await chmod(dir, 0o755);
  const port = await freePort();
  await writeFile(join(dir, "users.txt"), `"${user}" ""\n`);
  await writeFile(
    join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${server.hostname} port=${server.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${join(dir, "users.txt")}`,
      "pool_mode = transaction",
      `default_pool_size = ${poolSize}`,
      "max_client_conn = 500",
      // postgres.js sends it at connect; PgBouncer refuses a startup parameter it does not know unless told to ignore it.
      "ignore_startup_parameters = extra_float_digits",
      "",
    ].join("\n"),
  );
  await chmod(join(dir, "users.txt"), 0o644);
  await chmod(join(dir, "pgbouncer.ini"), 0o644);
  const asRoot = process.getuid?.() === 0;
  const run: ChildRun = spawnChild({
    command: PGBOUNCER,
    args: [...(asRoot ? ["-u", user] : []), join(dir, "pgbouncer.ini")],
  });
  const url = (database: string) => {
    const pooled = new URL(serverUrl);
    pooled.hostname = "127.0.0.1";
    pooled.port = String(port);
    pooled.pathname = `/${database}`;
    return pooled.toString();
  };
  await waitForServer(run, {
    name: "PgBouncer",
    ready: async () => {
      const probe = postgres(url(server.pathname.slice(1) || "postgres"), { max: 1, onnotice: () => {} });
      try {
        return (await probe`SELECT 1 AS one`)[0]?.one === 1;
      } finally {
        await probe.end({ timeout: 1 });
      }
    },
  });
  return {
    url,
    output: () => run.output(),
    async stop() {
      await run.stop(3000);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
