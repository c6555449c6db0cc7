/**
 * One version for the whole of Booth: BOOTH_VERSION (what /healthz, the web's footer and `booth --version` show) is
 * every package.json's version, the lockfile's, and the changelog's latest release. A hand bump that forgets one of
 * them fails here; `npm run release <version>` moves them all.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BOOTH_VERSION } from "@booth/sdk/version";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const WORKSPACES = ["apps", "packages"]
  .flatMap((dir) => readdirSync(join(ROOT, dir)).map((name) => `${dir}/${name}`))
  .filter((dir) => existsSync(join(ROOT, dir, "package.json")));
const manifests = Object.fromEntries(
  ["package.json", ...WORKSPACES.map((dir) => `${dir}/package.json`)].map((file) => [file, JSON.parse(read(file))]),
);
const changelog = read("CHANGELOG.md");

describe("Booth's version", () => {
  it("is a semantic version, and every package.json's", () => {
    expect(BOOTH_VERSION).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
    expect(Object.keys(manifests).length).toBeGreaterThan(6);
    const versions = Object.fromEntries(Object.entries(manifests).map(([file, m]) => [file, m.version]));
    expect(versions).toEqual(Object.fromEntries(Object.keys(manifests).map((file) => [file, BOOTH_VERSION])));
  });

  it("is what the workspaces' ranges for one another name, when they name a version", () => {
    const named = Object.entries(manifests).flatMap(([file, m]) =>
      ["dependencies", "devDependencies", "peerDependencies"].flatMap((field) =>
        Object.entries<string>(m[field] ?? {})
          .filter(([name, range]) => name.startsWith("@booth/") && range !== "*")
          .map(([name, range]) => ({ at: `${file} ${name}`, version: range.replace(/^[\^~=]/, "") })),
      ),
    );
    expect(named.length).toBeGreaterThan(0);
    for (const { at, version } of named) expect(version, at).toBe(BOOTH_VERSION);
  });

  it("is the lockfile's, for the root and every workspace", () => {
    const lock = JSON.parse(read("package-lock.json"));
    expect(lock.version).toBe(BOOTH_VERSION);
    for (const path of ["", ...WORKSPACES])
      expect(lock.packages[path]?.version, path || "the root").toBe(BOOTH_VERSION);
  });

  it("is the changelog's latest release, under its Unreleased section, with their links", () => {
    const headings = [...changelog.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    expect(headings[0]).toBe("[Unreleased]");
    expect(headings[1]).toMatch(/^\[[^\]]+\] - \d{4}-\d{2}-\d{2}$/);
    expect(headings[1]?.startsWith(`[${BOOTH_VERSION}] - `)).toBe(true);
    expect(changelog).toMatch(
      new RegExp(`^\\[Unreleased\\]: \\S*compare/v${BOOTH_VERSION.replaceAll(".", "\\.")}\\.\\.\\.HEAD$`, "m"),
    );
    // Every release heading has its link reference.
    for (const heading of headings.slice(1)) {
      const version = heading?.match(/^\[([^\]]+)\]/)?.[1] ?? "";
      expect(changelog, version).toMatch(
        new RegExp(`^\\[${version.replaceAll(".", "\\.")}\\]: \\S+v${version.replaceAll(".", "\\.")}$`, "m"),
      );
    }
  });
});
