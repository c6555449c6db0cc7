/**
 * Which of an app's source files read the environment (`process.env`, or a Worker's `env.NAME` bindings): each app's
 * test checks that only its config module and its entry do (issue #36). Tests and what only they use (test/, testing/,
 * testing.ts), declarations, build output and dependencies are not the app's sources.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const NOT_SOURCE =
  /(^|\/)(node_modules|build|dist|\.wrangler|test|testing)\/|(^|\/)testing\.ts$|\.test\.[a-z]+$|\.d\.m?ts$/;
const PROCESS_ENV = /\bprocess\.env\b/;

/** The files under `appDir` (from the repository's root) whose code matches `reads`, sorted, from the root. */
export function environmentReaders(appDir: string, reads: RegExp = PROCESS_ENV): string[] {
  return readdirSync(join(ROOT, appDir), { recursive: true, encoding: "utf8" })
    .map((entry) => join(appDir, entry))
    .filter((path) => SOURCE.test(path) && !NOT_SOURCE.test(relative(appDir, path)))
    .filter((path) => reads.test(readFileSync(join(ROOT, path), "utf8")))
    .sort();
}
