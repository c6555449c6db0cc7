/**
 * Typechecks the workspace's four TypeScript projects at once (the node apps and packages, the rooms' worker, the
 * web app, its service worker): each is its own `tsc -p`, and one after another they took a minute of CI's time on
 * two cores. Each project's errors are printed together, under its name; the exit code is the first failure's.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const projects = [
  "tsconfig.json",
  "apps/web/tsconfig.json",
  "apps/rooms-party/tsconfig.worker.json",
  "apps/web/app/service-worker/tsconfig.json",
];

const results = await Promise.all(
  projects.map(
    (project) =>
      new Promise((resolve) => {
        const started = Date.now();
        const child = spawn(process.execPath, [tsc, "-p", project], { stdio: ["ignore", "pipe", "pipe"] });
        let output = "";
        child.stdout.on("data", (d) => (output += d));
        child.stderr.on("data", (d) => (output += d));
        child.on("close", (code) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          console.log(`tsc -p ${project}: ${code === 0 ? "ok" : "failed"} (${seconds} s)`);
          if (output.trim()) console.log(output.trimEnd());
          resolve(code ?? 1);
        });
      }),
  ),
);
process.exitCode = results.find((code) => code !== 0) ?? 0;
