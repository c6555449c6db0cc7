#!/usr/bin/env node
// `npm run deploy -w @booth/rooms-party -- --env production [wrangler deploy options]`: `wrangler deploy` with the
// edge's public address, read from BOOTH_EDGE_URL in the environment, as the Worker's BOOTH_EDGE_URL variable (the
// rooms read the edge's keys there and call it). An address Cloudflare cannot reach (missing, loopback, not http(s))
// is refused before wrangler starts. `npm run deploy:check -w @booth/rooms-party` is the same with --dry-run: it
// builds and checks what would be uploaded without an account or the network.
//
// wrangler.jsonc's env.production runs this script with --guard as its build step, so `wrangler deploy --env
// production` run directly (which would upload no edge address, and the rooms would call 127.0.0.1) is refused too.
import { spawn } from "node:child_process";
import { BlockList, isIP } from "node:net";
import { fileURLToPath } from "node:url";
import { APP_DIR, wranglerBin } from "./wrangler-dev.mjs";

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("0.0.0.0", "ipv4");
loopback.addAddress("::1", "ipv6");
loopback.addAddress("::", "ipv6");

/** Why `value` cannot be the edge's address for deployed rooms, or null when it can. */
export function edgeUrlProblem(value) {
  if (!value?.trim()) return "BOOTH_EDGE_URL is not set: give the edge's public address (https://api.example.org)";
  let url;
  try {
    url = new URL(value.trim());
  } catch {
    return `BOOTH_EDGE_URL ${value} is not an address: give the edge's public address (https://api.example.org)`;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return `BOOTH_EDGE_URL ${value} is not an http(s) address: give the edge's public address (https://api.example.org)`;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const family = isIP(host);
  const local =
    host === "localhost" ||
    host.endsWith(".localhost") ||
    (family === 4 && loopback.check(host, "ipv4")) ||
    (family === 6 && loopback.check(host, "ipv6"));
  if (local)
    return `BOOTH_EDGE_URL ${value} is this machine's own address, which Cloudflare cannot reach: give the edge's public address (https://api.example.org)`;
  return null;
}

/** The variable wrangler's build step reads to know it runs under this script, with the address it deploys. */
const DEPLOYING = "BOOTH_ROOMS_DEPLOYING_EDGE_URL";

function refuse(message) {
  console.error(`rooms-party: ${message}`);
  process.exit(1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === "--guard") {
    // wrangler's build step for env.production: only a deploy through this script passes the edge's address.
    if (!process.env[DEPLOYING])
      refuse(
        "deploy the rooms with `npm run deploy -w @booth/rooms-party -- --env production` (it sets the Worker's BOOTH_EDGE_URL from yours)",
      );
    const problem = edgeUrlProblem(process.env[DEPLOYING]);
    if (problem) refuse(problem);
    process.exit(0);
  }
  const edgeUrl = process.env.BOOTH_EDGE_URL?.trim() ?? "";
  const problem = edgeUrlProblem(edgeUrl);
  if (problem) refuse(problem);
  const child = spawn(
    process.execPath,
    [wranglerBin(), "deploy", "--var", `BOOTH_EDGE_URL:${edgeUrl.replace(/\/+$/, "")}`, ...args],
    { cwd: APP_DIR, stdio: "inherit", env: { ...process.env, [DEPLOYING]: edgeUrl } },
  );
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
