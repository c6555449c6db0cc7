#!/usr/bin/env node
// The `booth` command (package.json "bin"). Installed from the npm package (`npm pack`), where only the bundle is
// shipped, it runs dist/booth.mjs, with its source map, so a stack trace names the TypeScript source. In the
// repository, where the sources are beside it, it runs them through tsx: `npx booth` is the code as it is now,
// without a build.
import { existsSync } from "node:fs";

const sources = new URL("../src/booth.ts", import.meta.url);
if (existsSync(sources)) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(sources.href);
} else {
  process.setSourceMapsEnabled(true);
  await import("../dist/booth.mjs");
}
