#!/usr/bin/env node
// Runs the live rooms under `wrangler dev` (port 1999 unless PORT says otherwise), next to the edge at
// BOOTH_EDGE_URL. The rooms sign their calls to the edge with BOOTH_SERVICE_SECRET, else with the secret the edge
// keeps in DATA_DIR/service-secret. Room storage persists in DATA_DIR/party (PARTY_PERSIST_DIR).
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { APP_DIR, spawnWranglerDev } from "./wrangler-dev.mjs";

const root = resolve(process.env.INIT_CWD ?? resolve(APP_DIR, "../.."));
const dataDir = resolve(root, process.env.DATA_DIR ?? ".data");
const secretFile = join(dataDir, "service-secret");
const production = process.env.NODE_ENV === "production" || process.env.BOOTH_ENV === "production";

/** `npm start` starts the edge and the rooms together: give the edge a moment to write its secret. */
async function secretFromFile(seconds) {
  for (let waited = 0; waited < seconds; waited++) {
    if (existsSync(secretFile)) {
      const secret = readFileSync(secretFile, "utf8").trim();
      if (secret) return secret;
    }
    if (waited === 0) console.log(`rooms-party: waiting for the edge to write ${secretFile}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  return "";
}

// In production the edge writes no secret file: the secret comes from the environment or the rooms do not start.
if (production && !process.env.BOOTH_SERVICE_SECRET) {
  console.error("rooms-party: in production, set BOOTH_SERVICE_SECRET (the same value as the edge's)");
  process.exit(1);
}
const secret = process.env.BOOTH_SERVICE_SECRET || (await secretFromFile(Number(process.env.TOKEN_WAIT_SECONDS ?? 90)));
if (!secret)
  console.warn(`rooms-party: no BOOTH_SERVICE_SECRET and no ${secretFile}: calls to the edge will be refused`);

const port = process.env.PORT || "1999";
/** workerd does not stop wrangler when its port is taken: look first, and say which setting moves it. */
const free = await new Promise((done) => {
  const server = createServer();
  server.once("error", () => done(false));
  server.listen(Number(port), "127.0.0.1", () => server.close(() => done(true)));
});
if (!free) {
  console.error(`rooms-party: port ${port} is in use (PORT; PARTY_PORT under the top-level npm start)`);
  process.exit(1);
}

const child = spawnWranglerDev({
  port,
  // PARTY_HOST: the address to listen on (127.0.0.1; 0.0.0.0 in a container).
  ip: process.env.PARTY_HOST || "127.0.0.1",
  persistTo: resolve(root, process.env.PARTY_PERSIST_DIR ?? join(dataDir, "party")),
  vars: {
    BOOTH_EDGE_URL: process.env.BOOTH_EDGE_URL || "http://127.0.0.1:8787",
    BOOTH_PRESENCE_GRACE_MS: process.env.BOOTH_PRESENCE_GRACE_MS,
    BOOTH_TIME_SCALE: process.env.BOOTH_TIME_SCALE,
    // Errors to Sentry when set (src/server.ts); SENTRY_ENVIRONMENT names the deployment.
    SENTRY_DSN: process.env.SENTRY_DSN,
    SENTRY_ENVIRONMENT: process.env.SENTRY_ENVIRONMENT,
  },
  secrets: { BOOTH_SERVICE_SECRET: secret },
});
for (const [from, to] of [
  [child.stdout, process.stdout],
  [child.stderr, process.stderr],
])
  from.on("data", (chunk) => {
    to.write(chunk);
    if (/Address already in use|EADDRINUSE/.test(String(chunk))) {
      console.error(`rooms-party: port ${port} is in use (PORT; PARTY_PORT under the top-level npm start)`);
      child.kill("SIGTERM");
    }
  });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 1));
