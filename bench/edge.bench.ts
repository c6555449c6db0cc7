// Throughput of the edge's request path, as ratios against a baseline measured in the same run: a bare Hono app
// answering the same bytes as GET /auth/pub-key, and beside it the same bare app whose answer carries every header the
// edge's answer does. In process, one request at a time (each answer's body read; the cheap cases in alternating
// slices), then over HTTP with autocannon (10 connections, in a process of its own) against the apps served by
// @hono/node-server. Run with `npm run bench:edge` (BENCH_MS per in-process case, BENCH_HTTP_SECONDS per HTTP case).
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
const pubKeyAnswer = await t.app.request("/api/user-service/auth/pub-key");
const pubKey = await pubKeyAnswer.text();
const bare = new Hono().get("/", (c) => c.body(pubKey, 200, { "content-type": "application/json" }));
// The second reference: a bare route whose answer carries every header the edge's answer does (its security, CORS and
// request id headers), so what the headers cost is told apart from what the rest of the stack costs.
const edgeHeaders = Object.fromEntries(pubKeyAnswer.headers);
const withHeaders = new Hono().get("/", (c) => c.body(pubKey, 200, edgeHeaders));
// Every case reads its answer's body, as a client does.
const read = async (res: Response | Promise<Response>) => (await res).text();
const stored = await wasmArgon2.hash(password);

console.log(
  `Booth edge bench (${DURATION_MS} ms per case, database: ${process.env.TEST_DATABASE_URL ? "postgres" : "pglite"})`,
);
// The cheap cases in alternating slices (ROUNDS of each in turn), so a change in the machine's load falls on the
// baseline and the cases alike; the ratios are then of the same moments.
const ROUNDS = 10;
async function interleaved(cases: { name: string; run: () => Promise<unknown> }[]) {
  const counts = cases.map(() => 0);
  const spent = cases.map(() => 0);
  for (const c of cases) {
    const warming = performance.now();
    while (performance.now() - warming < WARM_UP_MS) await c.run();
  }
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, c] of cases.entries()) {
      const started = performance.now();
      while (performance.now() - started < DURATION_MS / ROUNDS) {
        await c.run();
        counts[i] = (counts[i] ?? 0) + 1;
      }
      spent[i] = (spent[i] ?? 0) + performance.now() - started;
    }
  return cases.map((c, i) => {
    process.stdout.write(`  measured ${c.name}\n`);
    return { name: c.name, perSecond: (counts[i] ?? 0) / ((spent[i] ?? 1) / 1000) };
  });
}
const [baseline, ...cheap] = await interleaved([
  { name: "baseline: bare Hono route, pub-key's bytes", run: () => read(bare.request("/")) },
  { name: "bare Hono route, pub-key's bytes and the edge's answer headers", run: () => read(withHeaders.request("/")) },
  {
    name: "GET /auth/pub-key (middleware stack, no db)",
    run: () => read(t.app.request("/api/user-service/auth/pub-key")),
  },
  { name: "GET unknown route (404 envelope)", run: () => read(t.app.request("/api/user-service/nope")) },
]);
if (!baseline) throw new Error("no baseline");
const cases = [
  ...cheap,
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
const headersServer = await listen(withHeaders.fetch);
const edgeServer = await listen(t.app.fetch);
const http = [
  { name: "baseline: bare Hono route, pub-key's bytes", result: await autocannon(`${bareServer.url}/`) },
  {
    name: "bare Hono route, pub-key's bytes and the edge's answer headers",
    result: await autocannon(`${headersServer.url}/`),
  },
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
headersServer.close();
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
