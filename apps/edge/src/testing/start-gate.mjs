/**
 * Holds an entry of the edge package at its first line until the test says go, for tests that start several
 * processes at the same moment: loaded with `--import` (plain JavaScript, so it runs before a built entry with no tsx),
 * it imports the modules named in BOOTH_START_GATE (comma-separated: packages, resolved from the edge package as a
 * built entry's own imports are, or files relative to the working folder), prints "start gate: ready", and lets the
 * entry run on SIGUSR2. Module loading takes seconds a process and
 * varies with the machine's load; held so, processes started together reach their database within milliseconds of
 * each other, which is what a test of concurrent starts needs.
 */
import { pathToFileURL } from "node:url";

const modules = (process.env.BOOTH_START_GATE ?? "").split(",").filter(Boolean);
const go = new Promise((resolve) => process.once("SIGUSR2", resolve));
// A signal's listener alone does not keep a process running.
const holding = setInterval(() => {}, 60_000);
for (const module of modules)
  await import(module.startsWith(".") || module.startsWith("/") ? pathToFileURL(module).href : module);
console.log("start gate: ready");
await go;
clearInterval(holding);
