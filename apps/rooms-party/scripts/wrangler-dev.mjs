// How the rooms run locally: `wrangler dev` (workerd, offline) with the room's settings. Shared by scripts/dev.mjs
// (npm start), the rooms' integration tests, the browser tests and the rooms bench.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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

/** The rooms' Worker configuration. */
export const ROOMS_CONFIG = join(APP_DIR, "wrangler.jsonc");

/**
 * The runtime settings of the rooms' Worker (its wrangler.jsonc): the compatibility date and flags, which the rooms
 * bench gives its bare Durable Object too (bench/wrangler.jsonc), so both run on the same runtime.
 */
export function roomsRuntime() {
  const config = JSON.parse(withoutComments(readFileSync(ROOMS_CONFIG, "utf8")));
  return { compatibilityDate: config.compatibility_date, compatibilityFlags: config.compatibility_flags ?? [] };
}

/** JSONC without its `//` comments (the ones outside strings): what JSON.parse reads. */
function withoutComments(text) {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else out += c;
  }
  return out;
}

/**
 * The arguments for `node <wrangler> dev`: the port on `ip` (127.0.0.1 unless given), room storage persisted under `persistTo`, the
 * room's variables, and its secrets in a file only its owner reads (`--env-file`), so they never show in a process
 * list. `defines`: globals replaced in the build (`--define`), for tests only (BOOTH_TEST_FAULTS, src/server.ts).
 * `config`: another Worker's configuration than the rooms' (the rooms bench's bare Durable Object), `extra`: more
 * arguments for wrangler, `inspectorPort`: where the runtime's inspector listens (a free port unless given: the rooms
 * bench profiles through it).
 */
export function wranglerDevArgs({
  port,
  ip = "127.0.0.1",
  persistTo,
  vars = {},
  secrets = {},
  defines = {},
  config = ROOMS_CONFIG,
  extra = [],
  inspectorPort = 0,
}) {
  mkdirSync(persistTo, { recursive: true });
  const args = [
    wranglerBin(),
    "dev",
    "--config",
    config,
    "--ip",
    ip,
    "--port",
    String(port),
    "--persist-to",
    persistTo,
    "--inspector-port",
    String(inspectorPort),
    "--show-interactive-dev-session=false",
    // "log" shows the rooms' own console lines (a room starting, its warnings) beside wrangler's.
    "--log-level",
    process.env.WRANGLER_LOG_LEVEL ?? "log",
    ...Object.entries(vars)
      .filter(([, v]) => v !== undefined && v !== "")
      .flatMap(([k, v]) => ["--var", `${k}:${v}`]),
    ...Object.entries(defines).flatMap(([k, v]) => ["--define", `${k}:${v}`]),
    ...extra,
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
