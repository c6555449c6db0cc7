#!/usr/bin/env node
// The web's production build (`npm run build -w @booth/web`):
//
//   build/          the Remix app (`remix vite:build`): build/server/index.js and the browser's files in build/client
//   dist/server.js  the web's Node server (server.ts) compiled with its source map, serving ../build
//
// `--server` builds only dist/server.js (the app's build is the slow part, a minute or more).
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundle } from "../../../scripts/bundle.mjs";

export const WEB_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");
export const SERVER = join(WEB_DIR, "dist", "server.js");

/** Compiles server.ts into dist/server.js (its packages stay in node_modules: the web's dependencies). */
export async function buildServer() {
  await bundle({ packageDir: WEB_DIR, entryPoints: { server: "server.ts" }, outdir: join(WEB_DIR, "dist") });
  return SERVER;
}

/** `remix vite:build`, its listing of every file kept back unless it fails. */
export function buildApp() {
  const cli = join(dirname(createRequire(import.meta.url).resolve("@remix-run/dev/package.json")), "dist", "cli.js");
  return new Promise((done, fail) => {
    // NODE_ENV decides React's build: a "development" or "test" left in the shell would ship React's development build.
    const child = spawn(process.execPath, [cli, "vite:build"], {
      cwd: WEB_DIR,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_ENV: "production" },
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", fail);
    child.on("close", (code) => (code === 0 ? done() : fail(new Error(`remix vite:build failed:\n${output}`))));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let started = Date.now();
  if (!process.argv.includes("--server")) {
    await buildApp();
    console.log(`built build/ (remix vite:build) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    started = Date.now();
  }
  await buildServer();
  console.log(`built dist/server.js in ${Date.now() - started} ms`);
}
