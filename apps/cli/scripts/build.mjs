#!/usr/bin/env node
// Bundles the CLI into one file, dist/booth.mjs (+ its source map), that Node runs without compiling TypeScript
// first: four times quicker to start than the sources through tsx. It carries everything it imports (the SDK,
// commander, ws...): the npm package (`npm pack`) ships it alone, with no dependencies to install.
// `npm run build -w @booth/cli`; the CLI's tests use it (buildCli, once per run); `--pack` (npm's prepack) also puts
// the repository's LICENSE beside package.json, where npm takes it from.
import { copyFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundle } from "../../../scripts/bundle.mjs";

export const CLI_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");
export const BUNDLE = join(CLI_DIR, "dist", "booth.mjs");

/** Builds the bundle (each file written whole, then moved in place: two builders at once leave complete files). */
export async function buildCli() {
  await bundle({
    packageDir: CLI_DIR,
    entryPoints: { booth: "src/booth.ts" },
    outdir: dirname(BUNDLE),
    extension: ".mjs",
    selfContained: true,
  });
  return BUNDLE;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildCli();
  if (process.argv.includes("--pack")) await copyFile(join(CLI_DIR, "..", "..", "LICENSE"), join(CLI_DIR, "LICENSE"));
  console.log(`built dist/booth.mjs in ${Date.now() - started} ms`);
}
