// The live room's engine as a commit had it, for a bench to run beside this tree's (bench/rooms-engine.ts,
// bench/rooms.bench.ts with BENCH_BASE): its apps/rooms-party/src unpacked (git archive) into a temporary directory
// that links this tree's node_modules (and so this tree's @booth/sdk).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "..");

/** What the engine imports from a commit (testing.ts takes its PRNG from the edge's testing helpers). */
const ENGINE_FILES = [
  "package.json",
  "apps/rooms-party/package.json",
  "apps/rooms-party/src",
  "apps/edge/src/testing/prng.ts",
];

/** A commit's short hash, as git names it (`HEAD`, a branch, a hash). */
export function shortCommit(asked: string) {
  return execFileSync("git", ["rev-parse", "--short", asked], { cwd: ROOT }).toString().trim();
}

/** The engine of `commit`, unpacked: its directory, and how to remove it. */
export function engineOf(commit: string) {
  const dir = mkdtempSync(join(tmpdir(), "rooms-engine-"));
  const archive = execFileSync("git", ["archive", commit, ...ENGINE_FILES], { cwd: ROOT, maxBuffer: 1 << 28 });
  execFileSync("tar", ["-x", "-C", dir], { input: archive });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
