// How the rooms run locally: `wrangler dev` (workerd, offline) with the room's settings. Shared by scripts/dev.mjs
// (npm start), the rooms' integration tests, the browser tests and the rooms bench.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const APP_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** wrangler's CLI, found the way node finds packages. */
export function wranglerBin() {
  for (let dir = APP_DIR; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", "wrangler", "bin", "wrangler.js");
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error("wrangler is not installed: run npm ci");
  }
}

/**
 * The arguments for `node <wrangler> dev`: the port on `ip` (127.0.0.1 unless given), room storage persisted under `persistTo`, the
 * room's variables, and its secrets in a file only its owner reads (`--env-file`), so they never show in a process
 * list. `defines`: globals replaced in the build (`--define`), for tests only (BOOTH_TEST_FAULTS, src/server.ts).
 */
export function wranglerDevArgs({ port, ip = "127.0.0.1", persistTo, vars = {}, secrets = {}, defines = {} }) {
  mkdirSync(persistTo, { recursive: true });
  const args = [
    wranglerBin(),
    "dev",
    "--config",
    join(APP_DIR, "wrangler.jsonc"),
    "--ip",
    ip,
    "--port",
    String(port),
    "--persist-to",
    persistTo,
    "--inspector-port",
    "0",
    "--show-interactive-dev-session=false",
    // "log" shows the rooms' own console lines (a room starting, its warnings) beside wrangler's.
    "--log-level",
    process.env.WRANGLER_LOG_LEVEL ?? "log",
    ...Object.entries(vars)
      .filter(([, v]) => v !== undefined && v !== "")
      .flatMap(([k, v]) => ["--var", `${k}:${v}`]),
    ...Object.entries(defines).flatMap(([k, v]) => ["--define", `${k}:${v}`]),
  ];
  const filled = Object.entries(secrets).filter(([, v]) => v);
  if (filled.length) {
    const file = join(persistTo, "rooms.env");
    writeFileSync(file, filled.map(([k, v]) => `${k}=${v}\n`).join(""), { mode: 0o600 });
    args.push("--env-file", file);
  }
  return args;
}

/** What wrangler needs in its environment to stay offline and quiet. */
export function wranglerEnv(env = process.env) {
  return {
    ...env,
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    // Its request.cf data comes from Cloudflare's network, which a local room does not need.
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    NO_UPDATE_NOTIFIER: "1",
    // Where wrangler keeps its own logs and caches: beside the rooms' storage, not in the home directory.
    WRANGLER_LOG_PATH: env.WRANGLER_LOG_PATH ?? join(APP_DIR, ".wrangler", "logs"),
  };
}

/** Starts `wrangler dev` in its own process group (so stopping it stops workerd too). */
export function spawnWranglerDev(options, stdio = ["ignore", "pipe", "pipe"]) {
  return spawn(process.execPath, wranglerDevArgs(options), {
    cwd: APP_DIR,
    env: wranglerEnv(options.env),
    stdio,
    detached: options.detached ?? false,
  });
}
