#!/usr/bin/env node
// Copies a workspace's production dependencies, any further packages named, and everything they load, into another
// folder at the same paths:
//
//   node deploy/copy-packages.mjs <to> <workspace folder> [package...]
//
// The rooms' image runs `wrangler dev`, and wrangler is a development dependency of @booth/rooms-party: an install
// without development dependencies lacks it, and npm's `--omit=dev --workspace` still installs every package of the
// workspaces the rooms' tests name (the edge's: about 460 MB), one with them about 800 MB. The image's build stage
// installs everything, then this copies the rooms' dependencies and wrangler with what it loads (miniflare, workerd
// with its binary for this platform, esbuild...) for the runtime stage.
//
// A package is found as Node finds it (`node_modules/<name>` in the folder, then in each folder above) and brings its
// dependencies, optional dependencies and peer dependencies that are installed; an optional or peer dependency that
// is not installed (another platform's binary) is skipped, a missing dependency is an error.
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** Where `name` is installed for code in `dir`, or null. */
function installed(name, dir) {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(at) === at) return null;
  }
}

const manifestOf = (dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));

/**
 * The folders of `names` (looked up from `from`) and of every package they load, each once. Paths are absolute.
 */
export function packageClosure(from, names) {
  const found = new Set();
  const visit = (name, dir, required) => {
    const at = installed(name, dir);
    if (!at) {
      if (required) throw new Error(`${name} is not installed for ${dir} (run npm ci first)`);
      return;
    }
    if (found.has(at)) return;
    found.add(at);
    // A workspace's link (node_modules/@booth/sdk): its own packages are found from where it is.
    const real = realpathSync(at);
    const manifest = manifestOf(real);
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, real, true);
    for (const dep of Object.keys(manifest.optionalDependencies ?? {})) visit(dep, real, false);
    for (const dep of Object.keys(manifest.peerDependencies ?? {})) visit(dep, real, false);
  };
  for (const name of names) visit(name, resolve(from), true);
  return [...found].sort();
}

/**
 * Copies each package of the closure of `workspace`'s production dependencies and of `names` from under `root` to
 * the same path under `to`, without its own node_modules (what of them is loaded is in the closure). A workspace's
 * link stays a link: the workspace's files are the image's to copy. Returns the paths copied, relative to root.
 */
export function copyPackages({ root, to, workspace, names = [] }) {
  const copied = [];
  const dependencies = Object.keys(manifestOf(workspace).dependencies ?? {});
  for (const dir of packageClosure(workspace, [...dependencies, ...names])) {
    const path = relative(root, dir);
    if (path.startsWith("..")) throw new Error(`${dir} is outside ${root}`);
    mkdirSync(dirname(join(to, path)), { recursive: true });
    cpSync(dir, join(to, path), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (source) => !relative(dir, source).split(sep).includes("node_modules"),
    });
    copied.push(path);
  }
  return copied;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [to, workspace, ...names] = process.argv.slice(2);
  if (!to || !workspace) {
    console.error("usage: node deploy/copy-packages.mjs <to> <workspace folder> [package...]");
    process.exit(2);
  }
  const copied = copyPackages({ root: process.cwd(), to: resolve(to), workspace: resolve(workspace), names });
  console.log(`copied ${copied.length} packages to ${to}`);
}
