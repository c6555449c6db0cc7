#!/usr/bin/env node
// Compiles the edge's three Node entries to JavaScript with source maps (`npm run build -w @booth/edge`):
//
//   dist/main.node.js     the API server (`npm run start:prod`)
//   dist/main.worker.js   the job worker alone (`npm run start:worker:prod`)
//   dist/main.migrate.js  the release step (`npm run migrate:prod`)
//   dist/migrations/      packages/db's SQL migrations, which the entries apply from beside themselves
//
// Booth's packages (@booth/db, @booth/sdk) and the packages they use are compiled in, but for the few that must stay
// files of their own (scripts/bundle.mjs KEEP_OUT: native addons, PGlite's WebAssembly, Sentry, pino): the entries
// run where `npm ci --omit=dev -w @booth/edge` installed the edge's dependencies (scripts/bundle.mjs checks the
// bundles import nothing else).
import { cp, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundle } from "../../../scripts/bundle.mjs";

export const EDGE_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");
export const DIST = join(EDGE_DIR, "dist");
export const ENTRIES = ["main.node", "main.worker", "main.migrate"];
const MIGRATIONS = join(EDGE_DIR, "..", "..", "packages", "db", "migrations");

/**
 * Builds the entries and copies the migrations beside them; answers the built files by entry name. `outdir` (dist by
 * default) must be inside the edge package, where the bundles' imports find node_modules.
 */
export async function buildEdge(outdir = DIST) {
  await bundle({
    packageDir: EDGE_DIR,
    entryPoints: Object.fromEntries(ENTRIES.map((name) => [name, `src/${name}.ts`])),
    outdir,
    carryPackages: true,
  });
  // Drizzle applies what meta/_journal.json lists; a fresh copy keeps nothing of an older build's.
  await rm(join(outdir, "migrations"), { recursive: true, force: true });
  await cp(MIGRATIONS, join(outdir, "migrations"), { recursive: true });
  return Object.fromEntries(ENTRIES.map((name) => [name, join(outdir, `${name}.js`)]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildEdge();
  console.log(
    `built ${ENTRIES.map((name) => `dist/${name}.js`).join(", ")} and dist/migrations in ${Date.now() - started} ms`,
  );
}
