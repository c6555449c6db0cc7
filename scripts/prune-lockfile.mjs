#!/usr/bin/env node
// The npm registry this project installs from lacks some platform builds (darwin, windows, musl, ...) of packages
// that list them as optional dependencies. `npm install` skips them, but `npm ci` then refuses the lockfile because
// an optional dependency named by a package has no entry. This drops such names from the lockfile's records, so
// the lockfile describes what the registry really serves. Run it after every `npm install` that changes the lock.
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
const packages = lock.packages ?? {};

/** Where npm would find `name` when required from the package at `path` (node_modules lookup upwards). */
function resolves(path, name) {
  let dir = path;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return true;
    if (!dir) return false;
    const cut = dir.lastIndexOf("/node_modules/");
    dir = cut === -1 ? "" : dir.slice(0, cut);
  }
}

let dropped = 0;
for (const [path, entry] of Object.entries(packages)) {
  if (!entry.optionalDependencies) continue;
  for (const name of Object.keys(entry.optionalDependencies)) {
    if (!resolves(path, name)) {
      delete entry.optionalDependencies[name];
      dropped++;
    }
  }
  if (Object.keys(entry.optionalDependencies).length === 0) delete entry.optionalDependencies;
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`prune-lockfile: dropped ${dropped} optional dependencies the registry does not serve`);
