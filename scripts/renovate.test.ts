/**
 * renovate.json names real dependencies: a package renamed or dropped from a package.json would otherwise fall out of
 * its group without a word (Renovate does not complain of a pattern that matches nothing), and a misspelt option
 * makes Renovate refuse the whole file.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");

type PackageRule = Record<string, unknown> & { groupName?: string; matchPackageNames?: string[] };
const config = JSON.parse(readFileSync(join(ROOT, "renovate.json"), "utf8")) as Record<string, unknown> & {
  packageRules: PackageRule[];
};

const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const workspaces = ["apps", "packages"].flatMap((dir) =>
  readdirSync(join(ROOT, dir))
    .map((name) => `${dir}/${name}/package.json`)
    .filter((path) => existsSync(join(ROOT, path))),
);
const manifests = ["package.json", ...workspaces].map((path) => JSON.parse(read(path)));

/** The keys of `overrides`, nested ones too (Renovate updates those as well). */
const overrideNames = (overrides: Record<string, unknown>): string[] =>
  Object.entries(overrides).flatMap(([name, value]) =>
    typeof value === "object" && value ? [name, ...overrideNames(value as Record<string, unknown>)] : [name],
  );

/** The Dockerfiles' base images, without their tags. */
const dockerImages = readdirSync(join(ROOT, "deploy"))
  .filter((name) => /(^|\.)Dockerfile$/.test(name))
  .flatMap((name) => [...read(`deploy/${name}`).matchAll(/^FROM\s+(?:--\S+\s+)*([^\s:@]+)/gm)].map((m) => m[1] ?? ""));

/** Every dependency Renovate finds: the package.json files' dependencies, Node.js where it is named, the images. */
const dependencies = new Set<string>([
  ...manifests.flatMap((m) => [
    ...["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"].flatMap((field) =>
      Object.keys(m[field] ?? {}),
    ),
    ...overrideNames(m.overrides ?? {}),
    ...Object.keys(m.engines ?? {}),
  ]),
  ...(existsSync(join(ROOT, ".node-version")) ? ["node"] : []),
  ...dockerImages,
]);

/** Whether one of Renovate's matchPackageNames entries (a name, a glob, or a /regex/) takes `name`. */
function matches(pattern: string, name: string) {
  const regex = pattern.match(/^\/(.*)\/([a-z]*)$/);
  if (regex) return new RegExp(regex[1] ?? "", regex[2]).test(name);
  if (!pattern.includes("*")) return pattern === name;
  const glob = pattern
    .split(/(\*\*|\*)/)
    .map((part) => (part === "**" ? ".*" : part === "*" ? "[^/]*" : part.replace(/[.+?^${}()|[\]\\/]/g, "\\$&")))
    .join("");
  return new RegExp(`^${glob}$`).test(name);
}

/** The options this file may use, as Renovate spells them (its lib/config/options); a new one is checked there first. */
const TOP_LEVEL = ["$schema", "description", "extends", "timezone", "schedule", "lockFileMaintenance", "packageRules"];
const RULE = ["description", "groupName", "matchPackageNames", "matchUpdateTypes", "dependencyDashboardApproval"];

describe("renovate.json", () => {
  it("groups the frameworks' updates, on Renovate's recommended base, with lockfile maintenance and a schedule", () => {
    expect(config.extends).toEqual(["config:recommended"]);
    expect(new Set(config.packageRules.flatMap((r) => (r.groupName ? [r.groupName] : [])))).toEqual(
      new Set([
        "Remix",
        "React",
        "Hono",
        "Drizzle",
        "Sentry",
        "OpenTelemetry",
        "vitest and vite",
        "Cloudflare Workers",
        "pg-boss",
        `Node.js ${read(".node-version").trim().split(".")[0]}`,
      ]),
    );
    expect(config.lockFileMaintenance).toMatchObject({ enabled: true });
    expect(config.schedule).toEqual(expect.arrayContaining([expect.any(String)]));
  });

  it("names in every rule only packages some package.json, .node-version or Dockerfile has", () => {
    const unmatched = config.packageRules.flatMap((rule) =>
      (rule.matchPackageNames ?? [])
        .filter((pattern) => !pattern.startsWith("!"))
        .filter((pattern) => ![...dependencies].some((name) => matches(pattern, name)))
        .map((pattern) => `${rule.groupName ?? rule.description}: ${pattern}`),
    );
    expect(unmatched).toEqual([]);
  });

  it("keeps Node.js in one group wherever it is named, and a new major for a maintainer to approve", () => {
    const node = config.packageRules.filter((r) => r.groupName?.startsWith("Node.js "));
    expect(node).toHaveLength(1);
    const names = node[0]?.matchPackageNames ?? [];
    // .node-version and engines.node are "node" to Renovate; so is each Dockerfile's node image.
    expect(manifests[0]?.engines?.node).toBeTruthy();
    const nodeImages = dockerImages.filter((image) => /(^|\/)node$/.test(image));
    expect(nodeImages.length).toBeGreaterThan(0);
    for (const name of ["node", "@types/node", ...nodeImages])
      expect(
        names.some((pattern) => matches(pattern, name)),
        name,
      ).toBe(true);
    expect(node[0]?.matchUpdateTypes).toEqual(["minor", "patch"]);
    const majors = config.packageRules.find((r) => r.dependencyDashboardApproval === true);
    expect(majors).toMatchObject({ matchPackageNames: names, matchUpdateTypes: ["major"] });
  });

  it("uses only options checked against Renovate's own list", () => {
    expect(Object.keys(config).filter((key) => !TOP_LEVEL.includes(key))).toEqual([]);
    expect(config.packageRules.flatMap((rule) => Object.keys(rule).filter((key) => !RULE.includes(key)))).toEqual([]);
    // Globs and regular expressions in matchPackageNames: the older matchPackagePatterns and matchPackagePrefixes are
    // gone from Renovate, and a rule must say which packages it takes.
    for (const rule of config.packageRules)
      expect(rule.matchPackageNames?.length, rule.description as string).toBeTruthy();
  });
});
