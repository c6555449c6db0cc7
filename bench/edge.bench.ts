// Throughput of the edge's request path, as ratios against a baseline measured in the same run: a bare Hono app
// answering the same bytes as GET /auth/pub-key. In process, one request at a time (each answer's body read), then
// over HTTP with autocannon (10 connections, in a process of its own) against both apps served by @hono/node-server.
// Run with `npm run bench:edge` (BENCH_MS per in-process case, BENCH_HTTP_SECONDS per HTTP case).
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { createTestApp } from "@booth/edge/testing";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { argon2, wasmArgon2 } from "../apps/edge/src/lib/password.ts";

const DURATION_MS = Number(process.env.BENCH_MS ?? 1500);
const WARM_UP_MS = 500;

async function measure(name: string, run: () => Promise<unknown>) {
  // Warm up for a while (the first case measured would otherwise carry the JIT's start).
  const warming = performance.now();
  while (performance.now() - warming < WARM_UP_MS) await run();
  let n = 0;
  const started = performance.now();
  while (performance.now() - started < DURATION_MS) {
    await run();
    n++;
  }
  const perSecond = n / ((performance.now() - started) / 1000);
  process.stdout.write(`  measured ${name}\n`);
  return { name, perSecond };
}

const t = await createTestApp();
const { token, email, password } = await t.createUser();
const pubKey = await (await t.app.request("/api/user-service/auth/pub-key")).text();
const bare = new Hono().get("/", (c) => c.body(pubKey, 200, { "content-type": "application/json" }));
// Every case reads its answer's body, as a client does.
const read = async (res: Response | Promise<Response>) => (await res).text();
const stored = await wasmArgon2.hash(password);

console.log(
  `Booth edge bench (${DURATION_MS} ms per case, database: ${process.env.TEST_DATABASE_URL ? "postgres" : "pglite"})`,
);
const baseline = await measure("baseline: bare Hono route, pub-key's bytes", () => read(bare.request("/")));
const cases = [
  await measure("GET /auth/pub-key (middleware stack, no db)", () =>
    read(t.app.request("/api/user-service/auth/pub-key")),
  ),
  await measure("GET unknown route (404 envelope)", () => read(t.app.request("/api/user-service/nope"))),
  await measure("GET /auth/session (cached account, profile query)", () =>
    read(t.app.request("/api/user-service/auth/session", { headers: { authorization: `Bearer ${token}` } })),
  ),
  await measure("POST /auth/login (argon2id verify)", async () => {
    // Lift the per-account login limit, so every call is a real login.
    await t.deps.cache.del(`rl:login:email:${email}`);
    const res = await t.request("POST", "/api/user-service/auth/login", {
      body: { email, password },
      headers: { "x-forwarded-for": crypto.randomUUID() },
    });
    if (res.status !== 200) throw new Error(`login answered ${res.status}`);
  }),
  // The password hash alone, both implementations in the same run (the same stored hash verifies with either).
  await measure("argon2id verify, WebAssembly (hash-wasm: the Deno entry)", () => wasmArgon2.verify(stored, password)),
  await measure("argon2id verify, native (@node-rs/argon2: the Node entry)", async () =>
    (await argon2()).verify(stored, password),
  ),
];

const rows = [baseline, ...cases].map((r) => ({
  case: r.name,
  "req/s": Math.round(r.perSecond),
  "vs baseline": `${(r.perSecond / baseline.perSecond).toFixed(4)}x`,
}));
console.table(rows);

// Over HTTP: autocannon in its own process, 10 connections, against each app served the same way.
const HTTP_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 5);
const autocannonBin = createRequire(import.meta.url).resolve("autocannon/autocannon.js");
function listen(fetch: (req: Request) => Response | Promise<Response>) {
  return new Promise<{ url: string; close: () => void }>((resolve) => {
    const server = serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) =>
      resolve({ url: `http://127.0.0.1:${info.port}`, close: () => server.close() }),
    );
  });
}
async function autocannon(url: string, headers: Record<string, string> = {}) {
  await run(url, headers, 2); // warm up
  return run(url, headers, HTTP_SECONDS);
}
function run(url: string, headers: Record<string, string>, seconds: number) {
  const args = [autocannonBin, "-c", "10", "-d", String(seconds), "-j"];
  for (const [k, v] of Object.entries(headers)) args.push("-H", `${k}=${v}`);
  args.push(url);
  return new Promise<{ requests: { average: number }; latency: { p99: number }; non2xx: number; errors: number }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "ignore"] });
      let out = "";
      child.stdout.on("data", (chunk) => {
        out += chunk;
      });
      child.on("error", reject);
      child.on("close", () => resolve(JSON.parse(out)));
    },
  );
}
const bareServer = await listen(bare.fetch);
const edgeServer = await listen(t.app.fetch);
const http = [
  { name: "baseline: bare Hono route, pub-key's bytes", result: await autocannon(`${bareServer.url}/`) },
  {
    name: "GET /auth/pub-key (middleware stack, no db)",
    result: await autocannon(`${edgeServer.url}/api/user-service/auth/pub-key`),
  },
  {
    name: "GET /auth/session (cached account, profile query)",
    result: await autocannon(`${edgeServer.url}/api/user-service/auth/session`, { authorization: `Bearer ${token}` }),
  },
];
bareServer.close();
edgeServer.close();
await t.close();
const httpBaseline = http[0]?.result.requests.average ?? 1;
console.log(`Over HTTP (autocannon, 10 connections, ${HTTP_SECONDS} s per case)`);
console.table(
  http.map(({ name, result }) => ({
    case: name,
    "req/s": Math.round(result.requests.average),
    "p99 ms": result.latency.p99,
    "not 2xx": result.non2xx + result.errors,
    "vs baseline": `${(result.requests.average / httpBaseline).toFixed(4)}x`,
  })),
);
