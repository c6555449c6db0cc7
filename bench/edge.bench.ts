// Throughput of the edge's request path, in process, as ratios against a baseline measured in the same run:
// a bare Hono route answering JSON. Run with `npm run bench`.
import { createTestApp } from "@booth/edge/testing";
import { Hono } from "hono";
import { argon2, wasmArgon2 } from "../apps/edge/src/lib/password.ts";

const DURATION_MS = Number(process.env.BENCH_MS ?? 1500);

async function measure(name: string, run: () => Promise<unknown>) {
  for (let i = 0; i < 20; i++) await run(); // warm up
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
const bare = new Hono().get("/", (c) => c.json({ ok: true }));
const stored = await wasmArgon2.hash(password);

console.log(
  `Booth edge bench (${DURATION_MS} ms per case, database: ${process.env.TEST_DATABASE_URL ? "postgres" : "pglite"})`,
);
const baseline = await measure("baseline: bare Hono JSON route", () => bare.request("/"));
const cases = [
  await measure("GET /auth/pub-key (middleware stack, no db)", () =>
    t.request("GET", "/api/user-service/auth/pub-key"),
  ),
  await measure("GET unknown route (404 envelope)", () => t.request("GET", "/api/user-service/nope")),
  await measure("GET /auth/session (token verify + 2 queries + sign)", () =>
    t.request("GET", "/api/user-service/auth/session", { token }),
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
await t.close();

const rows = [baseline, ...cases].map((r) => ({
  case: r.name,
  "req/s": Math.round(r.perSecond),
  "vs baseline": `${(r.perSecond / baseline.perSecond).toFixed(4)}x`,
}));
console.table(rows);
