#!/usr/bin/env node
// Runs the live rooms under `partykit dev` (port 1999 unless PORT says otherwise), next to the edge. The rooms call
// the edge at BOOTH_EDGE_URL with the service token in BOOTH_SERVICE_TOKEN, else the one the edge wrote to
// .data/party-service-token. Room state persists in .data/party (PARTY_PERSIST_DIR).
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const app = resolve(here, "..");
const root = resolve(process.env.INIT_CWD ?? resolve(app, "../.."));
const dataDir = resolve(root, process.env.DATA_DIR ?? ".data");
const tokenFile = join(dataDir, "party-service-token");
/** The token in the edge's file, unless it is missing or expires within the hour. */
function tokenFromFile() {
  if (!existsSync(tokenFile)) return "";
  const token = readFileSync(tokenFile, "utf8").trim();
  try {
    const { exp } = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
    return typeof exp === "number" && exp * 1000 > Date.now() + 3_600_000 ? token : "";
  } catch {
    return "";
  }
}
/** `npm start` starts the edge and the rooms together: give the edge a moment to write a fresh token. */
async function waitForToken(seconds) {
  for (let waited = 0; waited < seconds; waited++) {
    const token = tokenFromFile();
    if (token) return token;
    if (waited === 0) console.log(`rooms-party: waiting for the edge to write ${tokenFile}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  return "";
}
const production = process.env.NODE_ENV === "production" || process.env.BOOTH_ENV === "production";
// In production the edge writes no token file: the token comes from the environment or the rooms do not start.
if (production && !process.env.BOOTH_SERVICE_TOKEN) {
  console.error(
    "rooms-party: in production, set BOOTH_SERVICE_TOKEN (JWT_PRIVATE_KEY=... npx tsx apps/edge/src/scripts/service-token.ts prints one)",
  );
  process.exit(1);
}
const serviceToken =
  process.env.BOOTH_SERVICE_TOKEN || (await waitForToken(Number(process.env.TOKEN_WAIT_SECONDS ?? 90)));
if (!serviceToken)
  console.warn(`rooms-party: no BOOTH_SERVICE_TOKEN and no fresh ${tokenFile}: calls to the edge will be refused`);

const vars = {
  BOOTH_EDGE_URL: process.env.BOOTH_EDGE_URL || "http://127.0.0.1:8787",
  BOOTH_SERVICE_TOKEN: serviceToken,
  BOOTH_PRESENCE_GRACE_MS: process.env.BOOTH_PRESENCE_GRACE_MS ?? "",
  BOOTH_TIME_SCALE: process.env.BOOTH_TIME_SCALE ?? "",
};
/** partykit's CLI, found the way node finds packages (it exports no path to it). */
function partykitBin() {
  for (let dir = app; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", "partykit", "dist", "bin.mjs");
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error("partykit is not installed: run npm ci");
  }
}
const bin = partykitBin();
const port = process.env.PORT || "1999";
/** partykit dev does not stop when its port is taken: it logs workerd's failure and waits. Look first. */
const free = await new Promise((done) => {
  const server = createServer();
  server.once("error", () => done(false));
  server.listen(Number(port), () => server.close(() => done(true)));
});
if (!free) {
  console.error(`rooms-party: port ${port} is in use (PORT; PARTY_PORT under the top-level npm start)`);
  process.exit(1);
}
const args = [
  bin,
  "dev",
  "--port",
  port,
  "--persist",
  process.env.PARTY_PERSIST_DIR ?? join(dataDir, "party"),
  "--disable-request-cf-fetch",
  "--no-hotkeys",
  ...Object.entries(vars)
    .filter(([, v]) => v !== "")
    .flatMap(([k, v]) => ["--var", `${k}=${v}`]),
];
const child = spawn(process.execPath, args, { cwd: app, stdio: ["ignore", "pipe", "pipe"] });
// Taken between the look above and workerd's bind: the rooms would not answer, so stop rather than wait.
for (const [from, to] of [
  [child.stdout, process.stdout],
  [child.stderr, process.stderr],
])
  from.on("data", (chunk) => {
    to.write(chunk);
    if (String(chunk).includes("Address already in use")) {
      console.error(`rooms-party: port ${port} is in use (PORT; PARTY_PORT under the top-level npm start)`);
      child.kill("SIGTERM");
    }
  });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 1));
