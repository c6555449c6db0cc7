#!/usr/bin/env node
// Starts every app that has a `start` script (or the one named: edge, party, web), side by side, each line of
// output prefixed with the app's name. Ctrl-C stops them all; so does any app that stops by itself.
//
// `--prod` (`npm run start:prod`) starts instead each app's `start:prod`: the edge and the web from what
// `npm run build` compiled (plain Node with source maps, no tsx, no build on the way). The live rooms have none:
// in production they are a Cloudflare Worker (`npm run deploy -w @booth/rooms-party`), found at BOOTH_PARTY_URL.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { missingBuild } from "./need-build.mjs";

export const APPS = { edge: "apps/edge", party: "apps/rooms-party", web: "apps/web" };
const LABELS = { edge: "the edge (API)", party: "the live rooms", web: "the web app" };

/**
 * Each app's port and the others' addresses. The apps started alone read PORT (edge, rooms) and WEB_PORT (web); here
 * PORT means the edge only (EDGE_PORT wins), and the rooms get PARTY_PORT, so moving one app moves no other. An
 * address the environment sets already (BOOTH_EDGE_URL or its old name BOOTH_API_URL, BOOTH_PARTY_URL or its old name
 * PARTY_URL, WEB_URL) is kept: a proxy may stand in front of an app.
 */
export function appEnvironments(env) {
  const port = (value, fallback) => {
    if (value === undefined || value === "") return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`not a port: ${value}`);
    return n;
  };
  const edgePort = port(env.EDGE_PORT || env.PORT, 8787);
  const partyPort = port(env.PARTY_PORT, 1999);
  const webUrlPort = env.WEB_URL ? new URL(env.WEB_URL).port : "";
  const webPort = port(env.WEB_PORT || webUrlPort, 3000);
  const edgeUrl = `http://127.0.0.1:${edgePort}`;
  const partyUrl = env.BOOTH_PARTY_URL || env.PARTY_URL || `http://127.0.0.1:${partyPort}`;
  const webUrl = env.WEB_URL || `http://127.0.0.1:${webPort}`;
  return {
    ports: { edge: edgePort, party: partyPort, web: webPort },
    edge: {
      ...env,
      PORT: String(edgePort),
      BOOTH_PARTY_URL: partyUrl,
      WEB_URL: webUrl,
      // The web's server calls the edge from this machine's loopback address, passing each visitor's address in
      // X-Forwarded-For: the edge trusts that header from there, unless TRUST_PROXY says otherwise.
      TRUST_PROXY: env.TRUST_PROXY ?? "127.0.0.1, ::1",
    },
    party: { ...env, PORT: String(partyPort), BOOTH_EDGE_URL: env.BOOTH_EDGE_URL || edgeUrl },
    web: {
      ...env,
      WEB_PORT: String(webPort),
      // Set under its old name only, the edge's address is left for the web to read (and to say to rename).
      ...(env.BOOTH_EDGE_URL || !env.BOOTH_API_URL ? { BOOTH_EDGE_URL: env.BOOTH_EDGE_URL || edgeUrl } : {}),
      BOOTH_PARTY_URL: env.BOOTH_PARTY_URL || partyUrl,
      WEB_URL: webUrl,
    },
  };
}

/** Whether a port can be listened on, on every address (as the edge and the rooms listen). */
export function portIsFree(port) {
  return new Promise((done) => {
    const server = createServer();
    server.once("error", () => done(false));
    server.listen(port, () => server.close(() => done(true)));
  });
}

/** A line of an app's output as this terminal shows it: no cursor moves, and no colours when it is not a terminal. */
export function cleanLine(line, terminal) {
  if (!terminal) return stripVTControlCharacters(line);
  // Cursor moves and erasures would wipe out the prefixes of earlier lines; colours stay.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what this removes
  return line.replace(/\x1b\[[0-9;?]*[A-Za-ln-z]|\r/g, "");
}

async function main() {
  const args = process.argv.slice(2);
  const prod = args.includes("--prod");
  const script = prod ? "start:prod" : "start";
  const wanted = args.find((arg) => !arg.startsWith("--"));
  const names = wanted ? [wanted] : Object.keys(APPS);
  const runnable = names.filter((name) => {
    const dir = APPS[name];
    if (!dir) throw new Error(`unknown app ${name}; one of ${Object.keys(APPS).join(", ")}`);
    return Boolean(JSON.parse(readFileSync(`${dir}/package.json`, "utf8")).scripts?.[script]);
  });
  if (runnable.length === 0) {
    console.error(`${names.join(", ")}: nothing to start (no ${script} script)`);
    process.exit(1);
  }
  if (prod) {
    // The first missing file is enough to say what to do.
    const unbuilt = runnable.map((name) => missingBuild(resolve(APPS[name]))).find(Boolean);
    if (unbuilt) {
      console.error(`booth: ${unbuilt}`);
      process.exit(1);
    }
    if (!wanted)
      console.log(
        `booth: the live rooms are not started here: in production they run as a Cloudflare Worker (BOOTH_PARTY_URL)`,
      );
  }
  let environments;
  try {
    environments = appEnvironments(process.env);
  } catch (err) {
    console.error(`booth: ${err.message} (EDGE_PORT, PORT, PARTY_PORT, WEB_PORT take a number from 1 to 65535)`);
    process.exit(1);
  }
  const SETTING = { edge: "EDGE_PORT", party: "PARTY_PORT", web: "WEB_PORT" };
  const taken = [];
  for (const name of runnable)
    if (!(await portIsFree(environments.ports[name])))
      taken.push(
        `port ${environments.ports[name]} (${LABELS[name]}) is in use: stop what holds it, or set ${SETTING[name]}`,
      );
  if (taken.length) {
    console.error(`booth: nothing started. ${taken.join("; ")}.`);
    process.exit(1);
  }

  const terminal = Boolean(process.stdout.isTTY);
  let stopping = false;
  const children = runnable.map((name) => {
    // Piped output is read by a program or kept in a file: the apps write it without colours.
    const colours = terminal ? {} : { NO_COLOR: "1", FORCE_COLOR: "0" };
    // Each app in a process group of its own: stopping it stops what npm started under it (tsx, workerd) too, however
    // this script is stopped (Ctrl-C in a terminal, or a signal to it alone).
    const child = spawn("npm", ["run", script, "--silent", "-w", APPS[name]], {
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
      env: { ...environments[name], ...colours },
    });
    const prefix = (stream, out) => {
      let rest = "";
      stream.on("data", (chunk) => {
        const lines = (rest + chunk).split("\n");
        rest = lines.pop() ?? "";
        for (const line of lines) {
          const clean = cleanLine(line, terminal);
          if (clean.trim()) out.write(`[${name}] ${clean}\n`);
        }
      });
    };
    prefix(child.stdout, process.stdout);
    prefix(child.stderr, process.stderr);
    child.on("exit", (code, signal) => {
      stop(child);
      if (stopping) return;
      // An app that stops unasked, even with 0, leaves Booth without it: everything stops, loudly.
      stopping = true;
      const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
      const others = children.filter((other) => other !== child && other.exitCode === null && !other.signalCode);
      console.error(
        `booth: ${LABELS[name]} (${name}) ${how}; see its lines above.${others.length ? " Stopping the others." : ""}`,
      );
      for (const other of others) stop(other);
      process.exitCode = code || 1;
    });
    return child;
  });

  /** Stops an app's whole process group. */
  function stop(child, signal = "SIGTERM") {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // gone already
    }
    // An app that does not stop within 10 s is made to.
    if (signal === "SIGTERM") setTimeout(() => stop(child, "SIGKILL"), 10_000).unref();
  }
  for (const signal of ["SIGINT", "SIGTERM"])
    process.on(signal, () => {
      stopping = true;
      for (const c of children) stop(c);
    });
}

if (resolve(process.argv[1] ?? "") === fileURLToPath(import.meta.url)) await main();
