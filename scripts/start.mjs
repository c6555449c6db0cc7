#!/usr/bin/env node
// Starts every app that has a `start` script (or the one named: edge, party, web), side by side, each line of
// output prefixed with the app's name. Ctrl-C stops them all.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

const APPS = { edge: "apps/edge", party: "apps/rooms-party", web: "apps/web" };
const wanted = process.argv[2];
const names = wanted ? [wanted] : Object.keys(APPS);
const runnable = names.filter((name) => {
  const dir = APPS[name];
  if (!dir) throw new Error(`unknown app ${name}; one of ${Object.keys(APPS).join(", ")}`);
  return Boolean(JSON.parse(readFileSync(`${dir}/package.json`, "utf8")).scripts?.start);
});
if (runnable.length === 0) {
  console.error(`${names.join(", ")}: nothing to start yet (no start script)`);
  process.exit(1);
}

/**
 * The web's server calls the edge from this machine's loopback address, passing each visitor's address in
 * X-Forwarded-For: the edge trusts that header from there (TRUST_PROXY), unless TRUST_PROXY is set already.
 */
function envFor(name) {
  if (name !== "edge" || process.env.TRUST_PROXY !== undefined) return process.env;
  return { ...process.env, TRUST_PROXY: "127.0.0.1, ::1" };
}

const children = runnable.map((name) => {
  // Each app in a process group of its own: stopping it stops what npm started under it (tsx, workerd) too, however
  // this script is stopped (Ctrl-C in a terminal, or a signal to it alone).
  const child = spawn("npm", ["run", "start", "--silent", "-w", APPS[name]], {
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    env: envFor(name),
  });
  const prefix = (stream, out) => {
    let rest = "";
    stream.on("data", (chunk) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) out.write(`[${name}] ${line}\n`);
    });
  };
  prefix(child.stdout, process.stdout);
  prefix(child.stderr, process.stderr);
  child.on("exit", (code) => {
    console.log(`[${name}] exited with ${code}`);
    stop(child);
    for (const other of children) if (other !== child) stop(other);
    process.exitCode = code ?? 1;
  });
  return child;
});

/** Stops an app's whole process group. */
function stop(child) {
  try {
    if (child.pid) process.kill(-child.pid, "SIGTERM");
  } catch {
    // gone already
  }
}
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    for (const c of children) stop(c);
  });
