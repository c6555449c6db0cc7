#!/usr/bin/env node
// The apps' `start:prod` scripts run this first, in the app's folder: without the files `npm run build` makes there,
// one line says so and the exit code is 1 (rather than Node's stack trace for a module it cannot find).
// scripts/start.mjs --prod asks the same before starting anything.
import { existsSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** What each app's production start needs from `npm run build`, from the app's folder. */
export const BUILT = {
  edge: ["dist/main.node.js", "dist/main.worker.js", "dist/main.migrate.js", "dist/migrations/meta/_journal.json"],
  web: ["dist/server.js", "build/server/index.js"],
};

const REPO = resolve(fileURLToPath(import.meta.url), "..", "..");

/** The line to print when the app in `appDir` (apps/edge, apps/web) lacks its build; null when it has it. */
export function missingBuild(appDir) {
  const app = basename(appDir);
  const missing = (BUILT[app] ?? []).filter((file) => !existsSync(join(appDir, file)));
  if (!missing.length) return null;
  return `${app}: ${relative(REPO, join(appDir, missing[0]))} is missing: run npm run build first`;
}

if (resolve(process.argv[1] ?? "") === fileURLToPath(import.meta.url)) {
  const line = missingBuild(process.cwd());
  if (line) {
    console.error(line);
    process.exit(1);
  }
}
