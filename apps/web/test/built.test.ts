/**
 * The web as production runs it: the Remix build (build/, shared with the other tests: buildOnce) served by the
 * compiled server, dist/server.js, under plain Node (no tsx) started from a folder outside the repository.
 */
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ChildRun, freePort, spawnChild, waitForServer } from "../../edge/src/testing/child-server.ts";
import { buildServer } from "../scripts/build.mjs";
import { buildOnce, webRoot } from "./harness.ts";

// The edge the pages would call, as far as /readyz asks: it is up.
const edge = createServer((req, res) => {
  res.writeHead(req.url === "/readyz" ? 200 : 404, { "content-type": "application/json" });
  res.end("{}");
});
let server: string;
const runs: ChildRun[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  await new Promise<void>((done) => edge.listen(0, "127.0.0.1", done));
  await buildOnce();
  server = await buildServer();
}, 240_000);
afterAll(async () => {
  for (const run of runs) await run.stop(3000);
  edge.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** `node --enable-source-maps <file>` as start:prod runs dist/server.js, from a folder of its own. */
async function startServer(file: string, port: number) {
  const cwd = await mkdtemp(join(tmpdir(), "booth-web-built-"));
  dirs.push(cwd);
  // Nothing of the test runner's loaders (NODE_OPTIONS); production mode, as start:prod is run.
  const { NODE_OPTIONS: _loaders, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    NODE_ENV: "production",
    SESSION_SECRET: "the built web test's session secret",
    WEB_PORT: String(port),
    DATA_DIR: cwd,
    INIT_CWD: "",
    BOOTH_EDGE_URL: `http://127.0.0.1:${(edge.address() as AddressInfo).port}`,
  };
  const run = spawnChild({ args: ["--enable-source-maps", file], cwd, env });
  runs.push(run);
  return run;
}

it("serves the pages and the browser's files of build/ from dist/server.js", async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const run = await startServer(server, port);
  await waitForServer(run, { name: "the built web server", ready: async () => (await fetch(`${base}/healthz`)).ok });
  expect(run.output()).toContain(`web: Booth is at http://127.0.0.1:${port}`);
  // It never builds: nothing of Vite's in its output.
  expect(run.output()).not.toContain("building");
  // A page rendered by build/server, naming the stylesheets of build/client, which it serves.
  const page = await fetch(`${base}/login`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain("<form");
  const stylesheet = html.match(/href="(\/assets\/[\w.-]+\.css)"/)?.[1];
  expect(stylesheet).toBeDefined();
  const css = await fetch(`${base}${stylesheet}`);
  expect(css.status).toBe(200);
  expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
  expect(css.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  // Its routes reach the edge at BOOTH_EDGE_URL.
  expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: "ok", edge: "ok" });
  await run.stop(10_000);
}, 120_000);

it("without build/ beside it, stops with one line saying to build", async () => {
  // A copy of dist/server.js in a folder of the web app with no build/ (its packages still found in node_modules).
  await mkdir(join(webRoot, ".cache"), { recursive: true });
  const root = await mkdtemp(join(webRoot, ".cache", "built-"));
  dirs.push(root);
  await mkdir(join(root, "dist"));
  await copyFile(server, join(root, "dist", "server.js"));
  const run = await startServer(join(root, "dist", "server.js"), await freePort());
  expect(await run.exited).toBe(1);
  expect(run.output().trim()).toBe(`web: no build at ${join(root, "build")}: run npm run build first`);
});
