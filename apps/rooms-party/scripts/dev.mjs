#!/usr/bin/env node
// Runs the live rooms under `wrangler dev` (port 1999 unless PORT says otherwise), next to the edge at
// BOOTH_EDGE_URL. The rooms sign their calls to the edge with BOOTH_SERVICE_SECRET, else with the secret the edge
// keeps in DATA_DIR/service-secret. Room storage persists in DATA_DIR/party (PARTY_PERSIST_DIR). The settings are
// read first (src/config.ts, docs/configuration.md): a bad or missing one stops it with one line naming them all.
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { SettingsError } from "@booth/sdk/settings";
import { readRoomsSettings } from "../src/config.ts";
import { APP_DIR, spawnWranglerDev } from "./wrangler-dev.mjs";

let settings;
try {
  settings = readRoomsSettings(process.env);
} catch (err) {
  if (!(err instanceof SettingsError)) throw err;
  console.error(err.message);
  process.exit(1);
}
// DATA_DIR is relative to where npm was started, as for the edge.
const root = resolve(process.env.INIT_CWD ?? resolve(APP_DIR, "../.."));
const dataDir = resolve(root, settings.DATA_DIR);
const secretFile = join(dataDir, "service-secret");

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

// In production the edge writes no secret file: the secret comes from the environment or the rooms do not start
// (the settings' check, src/config.ts).
const secret = settings.BOOTH_SERVICE_SECRET || (await secretFromFile(settings.TOKEN_WAIT_SECONDS));
if (!secret)
  console.warn(`rooms-party: no BOOTH_SERVICE_SECRET and no ${secretFile}: calls to the edge will be refused`);

const port = String(settings.PORT);
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
  ip: settings.PARTY_HOST,
  persistTo: resolve(root, settings.PARTY_PERSIST_DIR ?? join(dataDir, "party")),
  vars: {
    BOOTH_EDGE_URL: settings.BOOTH_EDGE_URL,
    BOOTH_PRESENCE_GRACE_MS: settings.BOOTH_PRESENCE_GRACE_MS?.toString(),
    BOOTH_TIME_SCALE: settings.BOOTH_TIME_SCALE?.toString(),
    // Errors to Sentry when set (src/server.ts); SENTRY_ENVIRONMENT names the deployment.
    SENTRY_DSN: settings.SENTRY_DSN,
    SENTRY_ENVIRONMENT: settings.SENTRY_ENVIRONMENT,
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
