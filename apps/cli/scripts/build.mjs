#!/usr/bin/env node
// Bundles the CLI into one file (apps/cli/dist/booth.mjs) that Node runs without compiling TypeScript first: four
// times quicker to start than bin/booth.mjs, which runs the sources through tsx. `npm run build -w @booth/cli`; the
// CLI's tests use it (buildCli, once per run).
import { rename } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const CLI_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");
export const BUNDLE = join(CLI_DIR, "dist", "booth.mjs");

/** Builds the bundle (written whole, then moved in place, so two builders at once leave a complete file). */
export async function buildCli() {
  const partial = `${BUNDLE}.${process.pid}.${Math.random().toString(36).slice(2, 8)}`;
  await build({
    stdin: {
      contents: 'import { main } from "./src/main.ts";\nprocess.exitCode = await main(process.argv);\n',
      resolveDir: CLI_DIR,
      sourcefile: "booth.ts",
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    target: "node22",
    format: "esm",
    outfile: partial,
    logLevel: "warning",
    // Some dependencies are CommonJS and call require; the bundle is a module.
    banner: {
      js: "import { createRequire as __boothRequire } from 'node:module'; const require = __boothRequire(import.meta.url);",
    },
  });
  await rename(partial, BUNDLE);
  return BUNDLE;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildCli();
  console.log(`built ${BUNDLE} in ${Date.now() - started} ms`);
}
