/**
 * Typechecks the workspace's four TypeScript projects at once (the node apps and packages, the rooms' worker, the
 * web app, its service worker): each is its own `tsc -p`, and one after another they took a minute of CI's time on
 * two cores. Each project's errors are printed together, under its name; the exit code is the first failure's.
 *
 * The checker is TypeScript 7, the native compiler (the `typescript-native` alias of typescript@7): the four projects
 * took about 76 CPU-seconds against 148 with TypeScript 5.9's, and CI runs them beside the tests. TypeScript 5.9
 * stays the `typescript` package, for the tools that call its JavaScript API (openapi-typescript, Remix's dev tools),
 * which TypeScript 7 does not have.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

// Its package exports no bin path: found from its package.json.
const tsc = join(dirname(createRequire(import.meta.url).resolve("typescript-native/package.json")), "bin", "tsc");
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
