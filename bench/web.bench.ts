// The web app's room page: how long its server render takes and how much JavaScript a browser loads for it, as
// ratios against baselines measured in the same run: `/healthz` (a resource route: Remix's request handling with no
// React render) and `/login` (a page with the root layout and no data of its own). The web runs from its production
// build in this process against a real edge (HTTP, a fresh PGlite database) holding one room with a DJ's queue.
// Run with `npm run bench:web` (BENCH_REQUESTS=200).

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { serve } from "@hono/node-server";
import type { ServerBuild } from "@remix-run/node";
import { createTestApp } from "../apps/edge/src/testing.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = 20;
const webRoot = join(import.meta.dirname, "..", "apps", "web");

const t = await createTestApp();
t.clock.now = () => new Date();
// Node's own Request/Response stay in place: the web's SDK checks responses with instanceof.
const edge = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1", overrideGlobalObjects: false });
await new Promise((r) => edge.once("listening", r));
process.env.BOOTH_API_URL = `http://127.0.0.1:${(edge.address() as { port: number }).port}`;
process.env.SESSION_SECRET = "bench";

const owner = await t.createUser({ nickname: "bench-dj" });
const room = await t.request("POST", "/api/room-service/rooms/infrastructure", {
  token: owner.token,
  body: { name: "Bench room", type: "PUBLIC", numberOfDjs: 5, djType: "EVERYONE" },
});
if (room.status !== 201) throw new Error(`room: ${JSON.stringify(room.body)}`);

const { buildIfStale, createWebHandler } = await import("../apps/web/server.ts");
buildIfStale({ quiet: true });
const handle = await createWebHandler();
const base = "http://127.0.0.1:3000";

// The first room visit fetches a guest token and keeps it in the session cookie: later visits send it back.
const first = await handle(new Request(`${base}/rooms/${room.body.slug}`));
if (first.status !== 200) throw new Error(`room page: ${first.status} ${await first.text()}`);
const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
await first.text();

async function timeRequests(path: string) {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    const started = performance.now();
    const res = await handle(new Request(`${base}${path}`, { headers: { cookie } }));
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
    if (i >= WARMUP) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return { p50: at(0.5), p95: at(0.95), mean };
}

const renders = {
  healthz: await timeRequests("/healthz"),
  login: await timeRequests("/login"),
  room: await timeRequests(`/rooms/${room.body.slug}`),
};

// JavaScript: the modules a first visit loads (the entry, the root and the route, with their static imports), from
// Remix's browser manifest; hls.js is loaded on the first song, so it is counted apart.
const build = (await import(join(webRoot, "build", "server", "index.js"))) as ServerBuild;
const assets = build.assets as unknown as {
  entry: { module: string; imports?: string[] };
  routes: Record<string, { module: string; imports?: string[] }>;
};
async function bytesOf(files: Iterable<string>) {
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const data = await readFile(join(webRoot, "build", "client", file));
    raw += data.length;
    gzip += gzipSync(data, { level: 9 }).length;
  }
  return { raw, gzip };
}
const pageFiles = (routeId: string) => {
  const files = new Set<string>();
  for (const part of [assets.entry, assets.routes.root, assets.routes[routeId]]) {
    if (!part) throw new Error(`no ${routeId} in the manifest`);
    files.add(part.module);
    for (const i of part.imports ?? []) files.add(i);
  }
  return files;
};
const loginJs = await bytesOf(pageFiles("routes/login"));
const roomJs = await bytesOf(pageFiles("routes/rooms.$slug"));
const { readdir } = await import("node:fs/promises");
const hlsFile = (await readdir(join(webRoot, "build", "client", "assets"))).find((f) => /^hls.*\.js$/.test(f));
const hlsJs = hlsFile ? await bytesOf([join("assets", hlsFile)]) : { raw: 0, gzip: 0 };

const ms = (n: number) => `${n.toFixed(2)} ms`;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`server render, ${REQUESTS} sequential requests each (after ${WARMUP} warm-up)`);
console.log("| page | p50 | p95 | mean | mean vs /healthz | mean vs /login |");
console.log("|---|---|---|---|---|---|");
for (const [name, r] of Object.entries(renders))
  console.log(
    `| ${name} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.mean)} | ${(r.mean / renders.healthz.mean).toFixed(1)}x | ${(
      r.mean / renders.login.mean
    ).toFixed(2)}x |`,
  );
console.log("\nJavaScript of a first visit (entry + root + route and their static imports)");
console.log("| page | raw | gzip | gzip vs /login |");
console.log("|---|---|---|---|");
console.log(`| login | ${kb(loginJs.raw)} | ${kb(loginJs.gzip)} | 1.00x |`);
console.log(`| room | ${kb(roomJs.raw)} | ${kb(roomJs.gzip)} | ${(roomJs.gzip / loginJs.gzip).toFixed(2)}x |`);
console.log(`| hls.js light (room, on the first song) | ${kb(hlsJs.raw)} | ${kb(hlsJs.gzip)} | |`);

edge.close();
await t.close();
process.exit(0);
