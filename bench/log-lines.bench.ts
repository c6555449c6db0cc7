// What a JSON access line a request costs the Node entry over HTTP, as ratios against the same route writing no
// line, in the same run: a small Hono app served by @hono/node-server in a child process whose stdout is a pipe this
// process drains (as a log collector would), loaded by autocannon (10 connections) in a process of its own. The
// route answers pub-key-sized JSON and, per mode, builds the edge's access line only, writes it with console.log
// (a synchronous write to a pipe on Linux), writes it through sonic-boom's asynchronous stream (the Node entry's way
// from 2026-11-27), or logs it with pino over that stream, redaction included (the Node entry's way since #34:
// @booth/sdk/node/logger). Run with `npx tsx bench/log-lines.bench.ts`
// (BENCH_HTTP_SECONDS per turn, BENCH_ROUNDS turns per mode, alternating).
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { freePort } from "../apps/edge/src/testing/child-server.ts";

const MODES = ["none", "built", "console.log", "sonic-boom", "pino"] as const;
type Mode = (typeof MODES)[number];

if (process.argv[2] === "serve") {
  const mode = process.argv[3] as Mode;
  const port = Number(process.argv[4]);
  const { Hono } = await import("hono");
  const { serve } = await import("@hono/node-server");
  const { default: SonicBoom } = await import("sonic-boom");
  const stream = new SonicBoom({ fd: process.stdout.fd, sync: false });
  const { createLogger } = await import("../packages/sdk/src/node/logger.ts");
  const log = mode === "pino" ? createLogger().log : () => {};
  const answer = { alg: "ES256", kid: crypto.randomUUID(), publicKey: "k".repeat(180), jwk: { x: "x".repeat(43) } };
  /** One access line's fields, as the edge logs them. */
  const entry = () => ({
    level: "info",
    requestId: crypto.randomUUID(),
    method: "GET",
    path: "/api/user-service/auth/pub-key",
    status: 200,
    ms: 0,
  });
  const line = () => JSON.stringify({ time: new Date().toISOString(), ...entry() });
  const write: Record<Mode, () => void> = {
    none: () => {},
    built: () => void line(),
    "console.log": () => console.log(line()),
    "sonic-boom": () => stream.write(`${line()}\n`),
    pino: () => log(entry()),
  };
  const app = new Hono().get("/", (c) => {
    write[mode]();
    return c.json(answer);
  });
  serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, () => process.send?.("ready"));
} else {
  const seconds = Number(process.env.BENCH_HTTP_SECONDS ?? 4);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
  const autocannonBin = createRequire(import.meta.url).resolve("autocannon/autocannon.js");
  const self = fileURLToPath(import.meta.url);
  const load = (url: string) =>
    new Promise<number>((resolve, reject) => {
      const child = spawn(process.execPath, [autocannonBin, "-c", "10", "-d", String(seconds), "-j", url], {
        stdio: ["ignore", "pipe", "ignore"],
      });
      let out = "";
      child.stdout.on("data", (chunk) => {
        out += chunk;
      });
      child.on("error", reject);
      child.on("close", () => resolve((JSON.parse(out) as { requests: { average: number } }).requests.average));
    });
  const totals = new Map<Mode, number>();
  let logged = 0;
  console.log(`log lines bench: ${rounds} turns of ${seconds} s per mode, alternating`);
  for (let round = 0; round < rounds; round++)
    for (const mode of MODES) {
      const port = await freePort();
      const server = spawn(process.execPath, ["--import", "tsx", self, "serve", mode, String(port)], {
        stdio: ["ignore", "pipe", "inherit", "ipc"],
      });
      // The log collector: reads every line the server writes, as fast as they come.
      server.stdout?.on("data", (chunk: Buffer) => {
        logged += chunk.length;
      });
      await new Promise((resolve) => server.once("message", resolve));
      await load(`http://127.0.0.1:${port}/`); // warm up
      totals.set(mode, (totals.get(mode) ?? 0) + (await load(`http://127.0.0.1:${port}/`)));
      server.kill();
      process.stdout.write(`  turn ${round + 1}: ${mode}\n`);
    }
  const baseline = totals.get("none") ?? 1;
  console.table(
    MODES.map((mode) => ({
      mode: mode === "none" ? "no line (baseline)" : mode === "built" ? "line built, not written" : mode,
      "req/s": Math.round((totals.get(mode) ?? 0) / rounds),
      "vs baseline": `${((totals.get(mode) ?? 0) / baseline).toFixed(3)}x`,
    })),
  );
  console.log(`(the collector read ${(logged / 1024 / 1024).toFixed(1)} MB of log lines)`);
}
