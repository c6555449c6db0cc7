// The web app's room page: how long its server render takes and how much JavaScript a browser loads for it, as
// ratios against baselines measured in the same run: `/healthz` (a resource route: Remix's request handling with no
// React render) and `/login` (a page with the root layout and no data of its own). The web runs from its production
// build in this process against a real edge (HTTP, a fresh PGlite database) holding one room with a DJ's queue.
// Then the time to first sound, in Chromium (Debian's, through playwright-core, as the browser tests run it) against
// the whole stack of the browser tests (apps/web/test/harness.ts: the edge, `wrangler dev`, the built web in its own
// process): a visitor opens a room where a DJ plays an HLS song (transcoded like an upload), and the page's
// performance clock (zero at navigation) is read at the audio element's first `playing` event; with a cold cache (a
// new browser profile each time) and a warm one (the same profile, the page opened again), against the page's own
// load event and /login's, measured in the same run.
// Run with `npm run bench:web` (BENCH_REQUESTS=200, BENCH_VISITS=5; BENCH_SOUND=false skips the browser part).

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
process.env.BOOTH_EDGE_URL = `http://127.0.0.1:${(edge.address() as { port: number }).port}`;
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

// JavaScript: the modules a first visit loads, read off the document the server sends (its module scripts and the
// modules it preloads: Remix's entry, the root and the route with their static imports); hls.js is preloaded only by
// a room page whose song is HLS, so it is counted apart. The sign-in screens go out without scripts (decision 0012,
// "Pages without scripts"); what `/login` would carry with them, the app shell every other page carries, is read off
// Remix's browser manifest beside it.
async function documentScripts(path: string) {
  const res = await handle(new Request(`${base}${path}`, { headers: { cookie } }));
  const html = await res.text();
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  // What the browser fetches: the modules preloaded and those the inline module scripts import (the inline route
  // manifest names other routes' modules too, which are not loaded).
  const preloaded = [...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)];
  const imported = [...html.matchAll(/\bimport\b[^"';]*["'](\/assets\/[^"']+\.js)["']/g)];
  return new Set([...preloaded, ...imported].map((m) => m[1] ?? "").filter((f) => f && !/\/hls[^/]*$/.test(f)));
}
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
const withShell = (routeId: string) => {
  const files = new Set<string>();
  for (const part of [assets.entry, assets.routes.root, assets.routes[routeId]]) {
    if (!part) throw new Error(`no ${routeId} in the manifest`);
    files.add(part.module);
    for (const i of part.imports ?? []) files.add(i);
  }
  return files;
};
const loginJs = await bytesOf(await documentScripts("/login"));
const loginShellJs = await bytesOf(withShell("routes/login"));
const roomFiles = await documentScripts(`/rooms/${room.body.slug}`);
const roomJs = await bytesOf(roomFiles);
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
console.log("\nJavaScript of a first visit (the modules its document loads and preloads; gzip -9)");
console.log("| page | raw | gzip | gzip vs the app shell |");
console.log("|---|---|---|---|");
const vsShell = (n: number) => `${(n / loginShellJs.gzip).toFixed(2)}x`;
console.log(`| login (sent without scripts) | ${kb(loginJs.raw)} | ${kb(loginJs.gzip)} | ${vsShell(loginJs.gzip)} |`);
console.log(
  `| login with the app's scripts (the shell: entry, root, route) | ${kb(loginShellJs.raw)} | ${kb(loginShellJs.gzip)} | 1.00x |`,
);
console.log(`| room | ${kb(roomJs.raw)} | ${kb(roomJs.gzip)} | ${vsShell(roomJs.gzip)} |`);
if (process.env.BENCH_LIST)
  for (const file of roomFiles) console.log(`|   room: ${file} | | ${kb((await bytesOf([file])).gzip)} | |`);
console.log(
  `| hls.js light (lazy: preloaded by a room page playing an HLS song) | ${kb(hlsJs.raw)} | ${kb(hlsJs.gzip)} | |`,
);

edge.close();
await t.close();

if (process.env.BENCH_SOUND !== "false") await timeToFirstSound();
process.exit(0);

async function timeToFirstSound() {
  const VISITS = Number(process.env.BENCH_VISITS ?? 5);
  const { schema } = await import("@booth/db");
  const { LiveRoomClient } = await import("@booth/sdk");
  const { isNotNull } = await import("drizzle-orm");
  const { startStack } = await import("../apps/web/test/harness.ts");
  const stack = await startStack({ songs: 1, songSeconds: 240 });
  let dj: InstanceType<typeof LiveRoomClient> | null = null;
  try {
    const st = stack.t;
    const owner = await st.createUser({ nickname: "sound-dj" });
    const made = await st.request("POST", "/api/room-service/rooms/infrastructure", {
      token: owner.token,
      body: { name: "Sound room", type: "PUBLIC", numberOfDjs: 5, djType: "EVERYONE" },
    });
    if (made.status !== 201) throw new Error(`room: ${JSON.stringify(made.body)}`);
    const songs = await st.db
      .select({ id: schema.songs.id, streamUrls: schema.songs.streamUrls })
      .from(schema.songs)
      .where(isNotNull(schema.songs.streamUrls));
    const hls = songs.filter((s) => s.streamUrls.hls).map((s) => s.id);
    if (hls.length === 0) throw new Error("no HLS song in the demo catalogue");
    const queued = await st.request("POST", "/api/playlist-service/crate/special/queue/songs", {
      token: owner.token,
      body: { songIds: hls },
    });
    if (queued.status !== 201) throw new Error(`queue: ${JSON.stringify(queued.body)}`);
    dj = new LiveRoomClient({ url: stack.partyUrl, roomUuid: made.body.uuid, token: owner.token });
    await dj.connect();
    await dj.addDj();

    // Every page of the run records when its audio first plays (media events reach a capturing document listener).
    const instrument = `document.addEventListener("playing", () => {
      if (window.firstSound === undefined) {
        window.firstSound = performance.now();
        performance.mark("first-sound");
      }
    }, true);`;
    interface Visit {
      sound: number;
      load: number;
      /** When the live room's state arrived (the app's own mark). */
      joined: number;
      hlsJs: number;
      playlist: number;
      segment: number;
      transferred: number;
      /** The app's JavaScript the page fetched (as sent: the web server compresses), hls.js apart. */
      js: number;
    }
    const heard = (page: import("playwright-core").Page) =>
      page.waitForFunction(() => (window as unknown as { firstSound?: number }).firstSound !== undefined, null, {
        timeout: 30_000,
      });
    // The page's marks, from its navigation, or from a click when one set `clickedAt` (then only what came after it).
    // A script rather than a function: the bench's transpiler would name inner functions with a helper the page lacks.
    const marks = (page: import("playwright-core").Page) =>
      page.evaluate(`(() => {
        const from = window.clickedAt ?? 0;
        const since = (t) => (t ? t - from : 0);
        const nav = from ? undefined : performance.getEntriesByType("navigation")[0];
        const resources = performance.getEntriesByType("resource").filter((r) => r.startTime >= from);
        const end = (test) => since(resources.find((r) => test(r.name))?.responseEnd);
        return {
          sound: since(window.firstSound),
          joined: since(performance.getEntriesByName("booth:joined")[0]?.startTime),
          load: nav?.loadEventEnd ?? 0,
          hlsJs: end((n) => /\\/assets\\/hls[^/]*\\.js$/.test(n)),
          playlist: end((n) => n.includes("/hls-playlist")),
          segment: end((n) => /\\.ts(\\?|$)/.test(n)),
          transferred: [...(nav ? [nav] : []), ...resources].reduce((sum, r) => sum + r.transferSize, 0),
          js: resources
            .filter((r) => /\\.js$/.test(r.name) && !/\\/assets\\/hls[^/]*\\.js$/.test(r.name))
            .reduce((sum, r) => sum + r.encodedBodySize, 0),
        };
      })()`) as Promise<Visit>;
    const visit = async (page: import("playwright-core").Page, path: string, sound: boolean): Promise<Visit> => {
      await page.goto(path, { waitUntil: "load" });
      if (sound) await heard(page);
      return marks(page);
    };
    const path = `/rooms/${made.body.slug}`;
    // From the room list: the home page, hydrated, then a click on the room (a navigation inside the app, as most
    // visits to a room are); the clock starts at the click.
    const fromList = async (page: import("playwright-core").Page) => {
      await page.goto("/", { waitUntil: "load" });
      await page.waitForFunction(() => "__remixRouter" in window);
      const link = page.locator(`a[href="${path}"]`).first();
      await link.waitFor();
      await page.evaluate(() => Object.assign(window, { clickedAt: performance.now() }));
      await link.click();
      await heard(page);
      return marks(page);
    };
    const listCold: Visit[] = [];
    const listWarm: Visit[] = [];
    const cold: Visit[] = [];
    const warm: Visit[] = [];
    const login: Visit[] = [];
    for (let i = 0; i < VISITS; i++) {
      const context = await stack.browser.newContext({ baseURL: stack.webUrl });
      await context.addInitScript(instrument);
      const page = await context.newPage();
      login.push(await visit(page, "/login", false));
      await context.close();
      const fresh = await stack.browser.newContext({ baseURL: stack.webUrl });
      await fresh.addInitScript(instrument);
      const first = await fresh.newPage();
      cold.push(await visit(first, path, true));
      await first.goto("about:blank");
      warm.push(await visit(first, path, true));
      await fresh.close();
      const browsing = await stack.browser.newContext({ baseURL: stack.webUrl });
      await browsing.addInitScript(instrument);
      const listed = await browsing.newPage();
      listCold.push(await fromList(listed));
      await listed.goto("about:blank");
      listWarm.push(await fromList(listed));
      await browsing.close();
    }
    const median = (list: Visit[], key: keyof Visit) => {
      const sorted = list.map((v) => v[key]).sort((a, b) => a - b);
      return sorted[Math.floor(sorted.length / 2)] ?? 0;
    };
    const loginLoad = median(login, "load");
    console.log(`\nTime to first sound: a visitor opens the room (an HLS song playing), Chromium, median of ${VISITS}`);
    console.log(
      "| cache | first sound | page load event | room joined | hls.js loaded | playlist | first segment | transferred | JavaScript fetched (hls.js apart) | first sound vs the page's load | vs /login's load |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|---|---|");
    for (const [name, list] of [
      ["cold", cold],
      ["warm", warm],
    ] as const)
      console.log(
        `| ${name} | ${ms(median(list, "sound"))} | ${ms(median(list, "load"))} | ${ms(median(list, "joined"))} | ${ms(median(list, "hlsJs"))} | ${ms(
          median(list, "playlist"),
        )} | ${ms(median(list, "segment"))} | ${kb(median(list, "transferred"))} | ${kb(median(list, "js"))} | ${(median(list, "sound") / median(list, "load")).toFixed(2)}x | ${(
          median(list, "sound") / loginLoad
        ).toFixed(2)}x |`,
      );
    console.log(
      `| /login (baseline) | | ${ms(loginLoad)} | | | | | ${kb(median(login, "transferred"))} | ${kb(median(login, "js"))} | | 1.00x |`,
    );
    console.log(
      "\nFrom the room list: the home page hydrated, then a click on the room (the clock starts at the click); a new browser profile for the first, the same one again for the second",
    );
    console.log(
      "| visit | first sound | room joined | hls.js loaded | playlist | first segment | transferred | JavaScript fetched (hls.js apart) |",
    );
    console.log("|---|---|---|---|---|---|---|---|");
    for (const [name, list] of [
      ["first visit", listCold],
      ["again", listWarm],
    ] as const)
      console.log(
        `| ${name} | ${ms(median(list, "sound"))} | ${ms(median(list, "joined"))} | ${ms(median(list, "hlsJs"))} | ${ms(
          median(list, "playlist"),
        )} | ${ms(median(list, "segment"))} | ${kb(median(list, "transferred"))} | ${kb(median(list, "js"))} |`,
      );
  } finally {
    dj?.close();
    await stack.stop();
  }
}
