/**
 * `npm run release <version>` on a copy of the repository's own files: it moves every place that names Booth's version
 * and nothing else, npm still takes the lockfile, the changelog's Unreleased entries become the release's, and a
 * version it must not make is refused in one line with every file left as it was.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const SCRIPT = join(ROOT, "scripts", "release.mjs");
const WORKSPACES = ["apps", "packages"].flatMap((dir) =>
  readdirSync(join(ROOT, dir)).map((name) => `${dir}/${name}/package.json`),
);
const MANIFESTS = ["package.json", ...WORKSPACES];
const FILES = [...MANIFESTS, "package-lock.json", "packages/sdk/src/version.ts", "CHANGELOG.md"];
const CURRENT: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/** A temporary copy of the files a release touches, with `unreleased` the whole of the changelog's Unreleased. */
function copyOfRepository(unreleased = "### Added\n\n- Crates can be shared by a link.\n") {
  const dir = mkdtempSync(join(tmpdir(), "booth-release-"));
  copies.push(dir);
  for (const file of FILES) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  const changelog = readFileSync(join(dir, "CHANGELOG.md"), "utf8");
  // Whatever the repository's own Unreleased lists now is replaced: the test decides what the release moves.
  writeFileSync(
    join(dir, "CHANGELOG.md"),
    changelog.replace(
      /## \[Unreleased\]\n[\s\S]*?(?=## \[)/,
      `## [Unreleased]\n\n${unreleased}${unreleased ? "\n" : ""}`,
    ),
  );
  return dir;
}

const release = (dir: string, ...args: string[]) =>
  spawnSync(process.execPath, [SCRIPT, ...args, "--root", dir], { encoding: "utf8" });
const text = (dir: string, file: string) => readFileSync(join(dir, file), "utf8");
const json = (dir: string, file: string) => JSON.parse(text(dir, file));
const snapshot = (dir: string) => Object.fromEntries(FILES.map((file) => [file, text(dir, file)]));
const utcToday = () => new Date().toISOString().slice(0, 10);

/** The workspaces' dependencies on one another, as "file name range". */
function internalRanges(dir: string) {
  return MANIFESTS.flatMap((file) => {
    const manifest = json(dir, file);
    return ["dependencies", "devDependencies", "peerDependencies"].flatMap((field) =>
      Object.entries<string>(manifest[field] ?? {})
        .filter(([name]) => name.startsWith("@booth/"))
        .map(([name, range]) => `${file} ${name} ${range}`),
    );
  });
}

/** `npm ci`'s check of the lockfile against the package.json files, without installing anything. */
const npmCiAccepts = (dir: string) =>
  spawnSync("npm", ["ci", "--dry-run", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], {
    cwd: dir,
    encoding: "utf8",
  });

describe("npm run release", () => {
  it("moves Booth's version everywhere it is named, and the changelog's Unreleased entries into the release", () => {
    const dir = copyOfRepository();
    const before = snapshot(dir);
    const dayBefore = utcToday();
    const run = release(dir, "0.2.0");
    const day = [dayBefore, utcToday()];
    expect(run.status, run.stderr).toBe(0);

    // Every package.json: its version, and the ranges by which it names another workspace's version ("*" stays).
    const expected = (file: string) => {
      const manifest = JSON.parse(before[file] ?? "");
      manifest.version = "0.2.0";
      for (const field of ["dependencies", "devDependencies", "peerDependencies"])
        for (const [name, range] of Object.entries<string>(manifest[field] ?? {}))
          if (name.startsWith("@booth/") && range !== "*") manifest[field][name] = range.replace(CURRENT, "0.2.0");
      return manifest;
    };
    for (const file of MANIFESTS) expect(json(dir, file), file).toEqual(expected(file));
    const ranges = internalRanges(dir);
    expect(ranges).toContain("apps/web/package.json @booth/sdk ^0.2.0");
    expect(ranges).toContain("apps/rooms-party/package.json @booth/sdk ^0.2.0");
    expect(ranges).toContain("apps/cli/package.json @booth/sdk *");
    expect(text(dir, "packages/sdk/src/version.ts")).toBe(
      before["packages/sdk/src/version.ts"]?.replace(`BOOTH_VERSION = "${CURRENT}"`, 'BOOTH_VERSION = "0.2.0"'),
    );

    // The lockfile's records of the root and the workspaces follow their package.json files, nothing else in it
    // changes, and npm takes it.
    const lock = JSON.parse(before["package-lock.json"] ?? "");
    lock.version = "0.2.0";
    for (const file of MANIFESTS) {
      const record = lock.packages[file === "package.json" ? "" : dirname(file)];
      const manifest = expected(file);
      record.version = "0.2.0";
      for (const field of ["dependencies", "devDependencies", "peerDependencies"])
        for (const name of Object.keys(record[field] ?? {}))
          if (name.startsWith("@booth/")) record[field][name] = manifest[field][name];
    }
    expect(json(dir, "package-lock.json")).toEqual(lock);
    expect(json(dir, "package-lock.json").packages["apps/web"].dependencies["@booth/sdk"]).toBe("^0.2.0");
    const npm = npmCiAccepts(dir);
    expect(npm.status, npm.stderr).toBe(0);

    // The changelog: a fresh empty Unreleased, the entries under the release's heading, the links moved on.
    const changelog = text(dir, "CHANGELOG.md");
    const headings = [...changelog.matchAll(/^## .*$/gm)].map((m) => m[0]);
    expect(headings.slice(0, 3)).toEqual([
      "## [Unreleased]",
      expect.stringMatching(new RegExp(`^## \\[0\\.2\\.0\\] - (${day.join("|")})$`)),
      expect.stringMatching(new RegExp(`^## \\[${CURRENT.replaceAll(".", "\\.")}\\] - \\d{4}-\\d{2}-\\d{2}$`)),
    ]);
    expect(changelog).toMatch(
      /## \[Unreleased\]\n\n## \[0\.2\.0\] - [\d-]+\n\n### Added\n\n- Crates can be shared by a link\.\n\n## \[/,
    );
    expect(changelog).toContain(
      `[Unreleased]: ../../compare/v0.2.0...HEAD\n[0.2.0]: ../../compare/v${CURRENT}...v0.2.0\n[${CURRENT}]: `,
    );

    // It says what it changed and what to do next.
    expect(run.stdout).toContain(`Booth ${CURRENT} -> 0.2.0`);
    for (const file of [...MANIFESTS, "package-lock.json", "packages/sdk/src/version.ts", "CHANGELOG.md"])
      expect(run.stdout).toContain(`  ${file}: `);
    expect(run.stdout).toContain('git commit -am "Release 0.2.0"');
    expect(run.stdout).toContain("git tag -a v0.2.0");

    // The next release chains on: its link compares from this one, and an older or equal version is refused.
    writeFileSync(
      join(dir, "CHANGELOG.md"),
      text(dir, "CHANGELOG.md").replace("## [Unreleased]\n", "## [Unreleased]\n\n### Fixed\n\n- A fix.\n"),
    );
    expect(release(dir, "0.2.1-rc.1").status).toBe(0);
    expect(text(dir, "CHANGELOG.md")).toContain(
      "[Unreleased]: ../../compare/v0.2.1-rc.1...HEAD\n[0.2.1-rc.1]: ../../compare/v0.2.0...v0.2.1-rc.1\n[0.2.0]: ",
    );
    expect(json(dir, "apps/rooms-party/package.json").dependencies["@booth/sdk"]).toBe("^0.2.1-rc.1");
  });

  it("refuses, in one line and touching nothing, a version that is not a semantic version greater than the current", () => {
    const dir = copyOfRepository();
    const before = snapshot(dir);
    const refusals: [string[], RegExp][] = [
      [[], /^release: usage: npm run release <version>/],
      [[CURRENT], new RegExp(`^release: ${CURRENT.replaceAll(".", "\\.")} is not greater than the current version`)],
      [["0.0.9"], /^release: 0\.0\.9 is not greater than the current version/],
      [[`${CURRENT}-rc.1`], /is not greater than the current version/],
      [["v0.2.0"], /^release: give the version without its "v" \(0\.2\.0\)/],
      [["0.2"], /^release: 0\.2 is not a semantic version/],
      [["banana"], /^release: banana is not a semantic version/],
      [["0.2.0", "0.3.0"], /^release: one version at a time/],
      [["--dry"], /^release: unknown option --dry/],
    ];
    for (const [args, message] of refusals) {
      const run = release(dir, ...args);
      expect(run.status, args.join(" ")).toBe(1);
      expect(run.stderr, args.join(" ")).toMatch(message);
      expect(run.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(run.stdout).toBe("");
    }
    expect(snapshot(dir)).toEqual(before);
  });

  it("refuses a release whose changelog lists nothing, and versions that disagree, touching nothing", () => {
    const empty = copyOfRepository("");
    const emptyBefore = snapshot(empty);
    const nothing = release(empty, "0.2.0");
    expect(nothing.status).toBe(1);
    expect(nothing.stderr).toMatch(/^release: CHANGELOG\.md's Unreleased section lists no change/);
    expect(snapshot(empty)).toEqual(emptyBefore);

    // A hand bump that forgot a workspace: the release names it rather than moving the others past it.
    const apart = copyOfRepository();
    const sdk = json(apart, "packages/sdk/package.json");
    writeFileSync(
      join(apart, "packages/sdk/package.json"),
      `${JSON.stringify({ ...sdk, version: "0.1.9" }, null, 2)}\n`,
    );
    const apartBefore = snapshot(apart);
    const refused = release(apart, "0.2.0");
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(`release: packages/sdk/package.json is at 0.1.9, not ${CURRENT} as the root is`);
    expect(snapshot(apart)).toEqual(apartBefore);
  });

  it("leaves a lockfile npm refuses when a workspace's version moves without the ranges (what the lock check catches)", () => {
    const dir = copyOfRepository();
    const sdk = json(dir, "packages/sdk/package.json");
    writeFileSync(join(dir, "packages/sdk/package.json"), `${JSON.stringify({ ...sdk, version: "0.2.0" }, null, 2)}\n`);
    expect(npmCiAccepts(dir).status).not.toBe(0);
  });
});
