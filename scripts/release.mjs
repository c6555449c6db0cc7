#!/usr/bin/env node
// Makes a release of Booth: `npm run release <version>` (or `node scripts/release.mjs <version> [--root <dir>]`).
//
// Booth has one semantic version for the whole of it. This moves it from the current one (the root package.json's)
// to <version>, which must be a semantic version greater than it, in every place that names it:
//   - every package.json's "version" (the root's and each workspace's), and the ranges by which a workspace depends
//     on another where they name a version ("@booth/sdk": "^0.1.0"; "*" is left alone);
//   - packages/sdk/src/version.ts (BOOTH_VERSION, which the edge's /healthz, the web's footer and the CLI show);
//   - package-lock.json's records of the root and the workspaces, so `npm ci` still takes the lockfile;
//   - CHANGELOG.md: the entries under "## [Unreleased]" become "## [<version>] - <today>" (UTC), under a fresh empty
//     Unreleased heading, and the link references at the bottom compare from the new tag.
// Nothing is written unless everything can be: a refusal (one line on stderr, exit 1) leaves every file as it was.
// It then prints what it changed and what to do next (check, commit, tag v<version>).
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const USAGE = "usage: npm run release <version> (a semantic version greater than the current one, e.g. 0.2.0)";

/** semver.org's own pattern for a version: major.minor.patch, an optional pre-release and build metadata. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** A refusal: its message is the one line the person sees. */
class Refusal extends Error {}

/** Semantic versioning's precedence of a over b: negative, zero or positive (build metadata does not count). */
function compareVersions(a, b) {
  const [ma, mb] = [SEMVER.exec(a), SEMVER.exec(b)];
  if (!ma || !mb) throw new Error(`not semantic versions: ${a}, ${b}`);
  for (let i = 1; i <= 3; i++) if (Number(ma[i]) !== Number(mb[i])) return Number(ma[i]) - Number(mb[i]);
  const [pa, pb] = [ma[4], mb[4]];
  if (pa === undefined || pb === undefined) return (pa === undefined ? 1 : 0) - (pb === undefined ? 1 : 0);
  const [ia, ib] = [pa.split("."), pb.split(".")];
  for (let i = 0; i < Math.min(ia.length, ib.length); i++) {
    const [x, y] = [ia[i], ib[i]];
    if (x === y) continue;
    const [nx, ny] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    if (nx && ny) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1; // numeric identifiers rank below alphanumeric ones
    return x < y ? -1 : 1;
  }
  return ia.length - ib.length;
}

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));
// The shape npm itself writes package.json and package-lock.json in.
const jsonText = (value) => `${JSON.stringify(value, null, 2)}\n`;
const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"];

/** The workspaces' folders, relative to the root, from the root package.json's "workspaces" ("apps/*", or a folder). */
function workspaceDirs(root, manifest) {
  return (manifest.workspaces ?? [])
    .flatMap((pattern) => {
      if (!pattern.endsWith("/*")) return [pattern];
      const parent = pattern.slice(0, -2);
      if (!existsSync(join(root, parent))) return [];
      return readdirSync(join(root, parent), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${parent}/${entry.name}`);
    })
    .filter((dir) => existsSync(join(root, dir, "package.json")))
    .sort();
}

/** A range naming `from` ("0.1.0", "^0.1.0", "~0.1.0", "=0.1.0") moved to `to`; any other range is left as it is. */
function movedRange(range, from, to) {
  const match = /^([\^~=]?)(.*)$/.exec(range);
  return match && match[2] === from ? `${match[1]}${to}` : range;
}

/** The CHANGELOG with the Unreleased entries released as `version` on `date`, and its links moved on. */
function releasedChangelog(text, from, version, date) {
  const unreleased = /^## \[Unreleased\][^\n]*\n/m.exec(text);
  if (!unreleased) throw new Refusal('CHANGELOG.md has no "## [Unreleased]" heading to release from');
  const start = unreleased.index + unreleased[0].length;
  const next = /^## \[/m.exec(text.slice(start));
  const end = next ? start + next.index : text.length;
  const latest = next ? /^## \[([^\]]+)\]/.exec(text.slice(end))?.[1] : undefined;
  if (latest !== from)
    throw new Refusal(`CHANGELOG.md's latest release is ${latest ?? "missing"}, not ${from} (the package.json files')`);
  const entries = text.slice(start, end).trim();
  if (!/^\s*[-*] /m.test(entries))
    throw new Refusal("CHANGELOG.md's Unreleased section lists no change: write down what this release changes first");
  const link = /^\[Unreleased\]: (.*)compare\/v(\S+)\.\.\.HEAD$/m.exec(text);
  if (!link || link[2] !== from) throw new Refusal(`CHANGELOG.md's [Unreleased] link does not compare v${from}...HEAD`);
  const base = link[1];
  const released = `${text.slice(0, start)}\n## [${version}] - ${date}\n\n${entries}\n\n${text.slice(end)}`;
  return released.replace(
    link[0],
    `[Unreleased]: ${base}compare/v${version}...HEAD\n[${version}]: ${base}compare/v${from}...v${version}`,
  );
}

/**
 * What the release changes: each file's new text, by path relative to `root`, and a line per change for the person.
 * Reads only; throws a Refusal when the release cannot be made.
 */
function planRelease(root, version, date) {
  if (!version) throw new Refusal(USAGE);
  if (/^v\d/.test(version))
    throw new Refusal(`give the version without its "v" (${version.slice(1)}): the tag gets it`);
  if (!SEMVER.test(version)) throw new Refusal(`${version} is not a semantic version (major.minor.patch, e.g. 0.2.0)`);
  const rootManifestFile = join(root, "package.json");
  if (!existsSync(rootManifestFile)) throw new Refusal(`${root} has no package.json: is it Booth's root?`);
  const rootManifest = readJson(rootManifestFile);
  const from = rootManifest.version;
  if (typeof from !== "string" || !SEMVER.test(from))
    throw new Refusal(`the root package.json's version (${from}) is not a semantic version`);
  if (compareVersions(version, from) <= 0)
    throw new Refusal(`${version} is not greater than the current version, ${from}`);

  const files = new Map();
  const changes = [];
  const manifests = [".", ...workspaceDirs(root, rootManifest)].map((dir) => ({
    dir,
    file: dir === "." ? "package.json" : `${dir}/package.json`,
    manifest: dir === "." ? rootManifest : readJson(join(root, dir, "package.json")),
  }));
  const internal = new Set(manifests.slice(1).map((m) => m.manifest.name));
  for (const { file, manifest } of manifests)
    if (manifest.version !== from)
      throw new Refusal(`${file} is at ${manifest.version}, not ${from} as the root is: bring them together first`);

  for (const { file, manifest } of manifests) {
    manifest.version = version;
    const moved = [];
    for (const field of DEPENDENCY_FIELDS)
      for (const [name, range] of Object.entries(manifest[field] ?? {})) {
        if (!internal.has(name)) continue;
        const next = movedRange(range, from, version);
        if (next !== range) {
          manifest[field][name] = next;
          moved.push(`${name} ${next}`);
        }
      }
    files.set(file, jsonText(manifest));
    changes.push(`${file}: version ${version}${moved.length ? `; ${moved.join(", ")}` : ""}`);
  }

  const versionFile = "packages/sdk/src/version.ts";
  const versionText = readFileSync(join(root, versionFile), "utf8");
  const declared = /export const BOOTH_VERSION = "([^"]*)";/.exec(versionText);
  if (!declared) throw new Refusal(`${versionFile} declares no BOOTH_VERSION`);
  if (declared[1] !== from)
    throw new Refusal(`${versionFile} says ${declared[1]}, not ${from}: bring them together first`);
  files.set(versionFile, versionText.replace(declared[0], `export const BOOTH_VERSION = "${version}";`));
  changes.push(`${versionFile}: BOOTH_VERSION ${version}`);

  const lockFile = "package-lock.json";
  if (existsSync(join(root, lockFile))) {
    const lock = readJson(join(root, lockFile));
    lock.version = version;
    for (const { dir, manifest } of manifests) {
      const record = lock.packages?.[dir === "." ? "" : dir];
      if (!record) throw new Refusal(`${lockFile} has no record of ${dir}: run npm install first`);
      record.version = version;
      for (const field of DEPENDENCY_FIELDS)
        for (const name of Object.keys(record[field] ?? {}))
          if (internal.has(name) && manifest[field]?.[name]) record[field][name] = manifest[field][name];
    }
    files.set(lockFile, jsonText(lock));
    changes.push(`${lockFile}: the root's and the ${manifests.length - 1} workspaces' records`);
  }

  const changelogFile = "CHANGELOG.md";
  if (!existsSync(join(root, changelogFile))) throw new Refusal(`${root} has no ${changelogFile}`);
  files.set(changelogFile, releasedChangelog(readFileSync(join(root, changelogFile), "utf8"), from, version, date));
  changes.push(`${changelogFile}: the Unreleased entries are now [${version}] - ${date}, with their links`);
  return { from, version, files, changes };
}

function main(argv) {
  const args = [...argv];
  let root = resolve(fileURLToPath(new URL("..", import.meta.url)));
  const positional = [];
  while (args.length) {
    const arg = args.shift();
    if (arg === "--help" || arg === "-h") {
      console.log(USAGE);
      return 0;
    }
    if (arg === "--root") root = resolve(args.shift() ?? "");
    else if (arg.startsWith("--root=")) root = resolve(arg.slice("--root=".length));
    else if (arg.startsWith("-")) throw new Refusal(`unknown option ${arg}; ${USAGE}`);
    else positional.push(arg);
  }
  if (positional.length > 1) throw new Refusal(`one version at a time (${positional.join(", ")}); ${USAGE}`);
  const date = new Date().toISOString().slice(0, 10);
  const plan = planRelease(root, positional[0], date);
  for (const [file, text] of plan.files) writeFileSync(join(root, file), text);

  const where = relative(process.cwd(), root) || ".";
  console.log(`Booth ${plan.from} -> ${plan.version}${where === "." ? "" : ` in ${where}`}:`);
  for (const change of plan.changes) console.log(`  ${change}`);
  console.log(`Next:
  1. Read CHANGELOG.md's [${plan.version}] section, and check: npm ci && npm test (or bash .ci/run)
  2. Commit:  git commit -am "Release ${plan.version}"
  3. Tag:     git tag -a v${plan.version} -m "Booth ${plan.version}" && git push origin HEAD v${plan.version}`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    console.error(`release: ${err.message}`);
    process.exitCode = 1;
  }
}
