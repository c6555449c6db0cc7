#!/usr/bin/env node
// `npm run build`: compiles every app for production, one after the other, one line each with its time; a part that
// fails prints its output and stops the build (exit 1).
//
//   edge   apps/edge/dist/main.node.js, main.worker.js, main.migrate.js (+ .map) and dist/migrations
//   web    apps/web/build/ (the Remix app) and apps/web/dist/server.js (+ .map)
//   cli    apps/cli/dist/booth.mjs (+ .map)
//   rooms  apps/rooms-party/dist/server.js (wrangler's bundle of the Worker, as `wrangler deploy` would upload it)
import { spawn } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PARTS = [
  ["edge", "apps/edge"],
  ["web", "apps/web"],
  ["cli", "apps/cli"],
  ["rooms", "apps/rooms-party"],
];

const total = Date.now();
for (const [name, dir] of PARTS) {
  const started = Date.now();
  const { code, output } = await new Promise((done) => {
    const child = spawn("npm", ["run", "build", "--silent", "-w", dir], {
      cwd: REPO,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.stderr.on("data", (d) => (text += d));
    child.on("close", (exit) => done({ code: exit, output: text }));
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (code !== 0) {
    console.error(`build: ${name} (${dir}) failed after ${seconds} s:\n${output.trimEnd()}`);
    process.exit(1);
  }
  console.log(`build: ${name} (${dir}) built in ${seconds} s`);
}
console.log(`build: done in ${((Date.now() - total) / 1000).toFixed(1)} s`);
