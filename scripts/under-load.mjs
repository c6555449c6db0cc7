#!/usr/bin/env node
// Runs a command while CPU burners keep the machine busy, as a loaded CI machine is: the way to show a test does not
// depend on the machine's speed (docs/testing.md).
//
//   node scripts/under-load.mjs [--burners N] [--repeat N] -- <command> [args...]
//
// --burners N   busy loops beside the command (default 2, as `stress-ng --cpu 2` or two `yes >/dev/null`)
// --repeat N    runs the command N times in a row (default 1), stopping at nothing: every run's verdict is counted
//
// Each run's verdict is printed as it ends ("run 3/50: passed in 11.2 s, output in ..."), its output kept in the file
// named there; the exit code is 0 only when every run passed. The burners stop with it, whatever happens.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const split = process.argv.indexOf("--");
const { values } = parseArgs({
  args: process.argv.slice(2, split < 0 ? undefined : split),
  options: { burners: { type: "string", default: "2" }, repeat: { type: "string", default: "1" } },
});
const command = split < 0 ? [] : process.argv.slice(split + 1);
const burners = Number(values.burners);
const repeat = Number(values.repeat);
if (command.length === 0 || !Number.isInteger(burners) || burners < 0 || !Number.isInteger(repeat) || repeat < 1) {
  console.error("usage: node scripts/under-load.mjs [--burners N] [--repeat N] -- <command> [args...]");
  process.exit(2);
}

// A burner is a Node process spinning on one core; it dies with this script (its parent's pipe closes).
const spinning = Array.from({ length: burners }, () =>
  spawn(process.execPath, ["-e", "process.stdin.on('close', () => process.exit(0)); for (;;) {}"], {
    stdio: ["pipe", "ignore", "ignore"],
  }),
);
const stopBurners = () => {
  for (const burner of spinning) burner.kill("SIGKILL");
};
process.on("exit", stopBurners);
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    stopBurners();
    process.exit(130);
  });

const logs = mkdtempSync(join(tmpdir(), "under-load-"));
console.log(`== ${command.join(" ")}: ${repeat} run(s) beside ${burners} CPU burner(s)`);
let failed = 0;
for (let run = 1; run <= repeat; run++) {
  const started = performance.now();
  const output = [];
  const code = await new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { stdio: ["ignore", "pipe", "pipe"], shell: false });
    child.stdout.on("data", (d) => output.push(d));
    child.stderr.on("data", (d) => output.push(d));
    child.on("error", (error) => {
      output.push(Buffer.from(String(error)));
      resolve(127);
    });
    child.on("close", (exit) => resolve(exit ?? 1));
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const file = join(logs, `run-${run}.log`);
  writeFileSync(file, Buffer.concat(output));
  if (code !== 0) failed++;
  console.log(
    `run ${run}/${repeat}: ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${seconds} s, output in ${file}`,
  );
}
console.log(`== ${repeat - failed} of ${repeat} passed`);
stopBurners();
process.exit(failed === 0 ? 0 : 1);
