/**
 * Serves the built web app: the files of build/client, and every other request through Remix. Run from its sources
 * (`npm start`, through tsx) it builds first when the build is missing or older than the sources, so `npm start`
 * works on a fresh clone. Compiled (`npm run build`: dist/server.js, `npm run start:prod`) it never builds: it serves
 * the build/ folder beside dist/, and stops with one line when there is none.
 *
 * Its settings (app/config.server.ts, docs/configuration.md) are read once, before anything starts: a bad or missing
 * one stops it with one line naming them all. The port is WEB_PORT, else the one of WEB_URL (http://127.0.0.1:3000);
 * the address WEB_HOST (127.0.0.1). PORT and HOST are the edge's (the root's `npm start` hands each app its own port:
 * scripts/start.mjs).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { Server } from "node:http";
import { createRequire } from "node:module";
import { dirname, extname, join, normalize, resolve } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createBrotliCompress, createGzip, constants as zlib } from "node:zlib";
import { closeLingering } from "@booth/sdk/node/lingering-close";
import { type Drainable, drain, onTermination } from "@booth/sdk/node/shutdown";
import { scrubEvent } from "@booth/sdk/privacy";
import { SettingsError } from "@booth/sdk/settings";
import { BOOTH_VERSION } from "@booth/sdk/version";
import { type Http2Bindings, type HttpBindings, serve } from "@hono/node-server";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import * as Sentry from "@sentry/node";
import { type WebConfig, webConfig } from "./app/config.server.ts";
import { activityCookie, crossSiteChange, isActivityRequest } from "./app/lib/discord-activity.server.ts";
import { webLog } from "./app/lib/log.server.ts";
import { SECURITY_HEADERS } from "./app/lib/security.server.ts";
import { asVisitor, requestIdOf } from "./app/lib/visitor.server.ts";

/** `true` in dist/server.js (scripts/bundle.mjs defines it); undeclared, hence undefined, from the sources. */
declare const BOOTH_BUNDLED: boolean | undefined;
const bundled = typeof BOOTH_BUNDLED !== "undefined" && BOOTH_BUNDLED;

/** apps/web: this file's folder, or the one above dist/. */
const root = join(dirname(fileURLToPath(import.meta.url)), bundled ? ".." : ".");
const serverBuild = join(root, "build", "server", "index.js");
const clientDir = join(root, "build", "client");

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds when build/ is missing or older than app/, public/, vite.config.ts or package.json. Vite's listing of every
 * file is kept out of the start output: one line before, one after (`quiet`: none), the whole of it on a failure.
 */
export function buildIfStale(options: { quiet?: boolean } = {}) {
  const sources = Math.max(
    newestSource(join(root, "app")),
    newestSource(join(root, "public")),
    statSync(join(root, "vite.config.ts")).mtimeMs,
    statSync(join(root, "package.json")).mtimeMs,
  );
  if (existsSync(serverBuild) && statSync(serverBuild).mtimeMs >= sources) return;
  const print = options.quiet ? () => undefined : (line: string) => console.log(line);
  print("web: building the app (its sources are newer than build/; this takes a minute)");
  const started = Date.now();
  const cli = join(dirname(createRequire(import.meta.url).resolve("@remix-run/dev/package.json")), "dist", "cli.js");
  // NODE_ENV decides React's build: a test runner's "test" would ship React's development build.
  const result = spawnSync(process.execPath, [cli, "vite:build"], {
    cwd: root,
    stdio: "pipe",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) throw new Error(`the web build failed\n${result.stdout ?? ""}${result.stderr ?? ""}`);
  const files = readdirSync(clientDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  print(`web: built in ${((Date.now() - started) / 1000).toFixed(1)} s (${files} files in build/client)`);
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".woff2": "font/woff2",
  ".map": "application/json",
  ".txt": "text/plain; charset=utf-8",
};

/** A file of build/client, or null. Hashed assets are cached for a year, the rest an hour; the service worker is checked each time. */
async function staticFile(request: Request): Promise<Response | null> {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const { pathname } = new URL(request.url);
  if (pathname === "/" || pathname.endsWith("/")) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const path = normalize(join(clientDir, decoded));
  if (!path.startsWith(`${clientDir}/`) || !existsSync(path) || !statSync(path).isFile()) return null;
  const body = await readFile(path);
  return new Response(request.method === "HEAD" ? null : body, {
    headers: {
      "content-type": TYPES[extname(path)] ?? "application/octet-stream",
      "cache-control": pathname.startsWith("/assets/")
        ? "public, max-age=31536000, immutable"
        : // The service worker is asked again at each visit, so a new one reaches browsers at once.
          pathname === "/sw.js"
          ? "no-cache"
          : "public, max-age=3600",
    },
  });
}

/** The handler; `peer` is the visitor's socket address, passed on to the edge (app/lib/visitor.server.ts). */
export async function createWebHandler() {
  const build = (await import(pathToFileURL(serverBuild).href)) as ServerBuild;
  const remix = createRequestHandler(build, "production");
  return async (request: Request, peer?: string) => {
    const requestId = requestIdOf(request.headers.get("x-request-id"));
    // The Discord Activity's requests (app/lib/discord-activity.server.ts): its cookies are a third-party frame's, so
    // another site's form posts carry them too and are refused here.
    const activity = isActivityRequest(request, webConfig());
    if (activity && crossSiteChange(request))
      return new Response("Cross-site requests are refused.", { status: 403, headers: { "x-request-id": requestId } });
    const response = await asVisitor(
      peer,
      request.headers.get("x-forwarded-for"),
      async () => compressed(request, hardened((await staticFile(request)) ?? (await remix(request)), activity)),
      requestId,
      activity,
    );
    response.headers.set("x-request-id", requestId);
    if (activity) response.headers.append("set-cookie", activityCookie());
    return response;
  };
}

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/;

/**
 * A text answer compressed for a client that accepts it (brotli, else gzip), flushed write by write so a streamed
 * page (Remix's deferred data) still reaches the browser as it is written. Small, empty or already encoded answers,
 * audio and images pass as they are.
 */
export function compressed(request: Request, response: Response): Response {
  if (!response.body || request.method === "HEAD" || response.headers.has("content-encoding")) return response;
  const type = response.headers.get("content-type") ?? "";
  // An event stream passes as it is: each event must reach the browser the moment it is written.
  if (!COMPRESSIBLE.test(type) || type.startsWith("text/event-stream")) return response;
  if (Number(response.headers.get("content-length") ?? Number.POSITIVE_INFINITY) < 1024) return response;
  const accepts = request.headers.get("accept-encoding") ?? "";
  const encoding = /\bbr\b/.test(accepts) ? "br" : /\bgzip\b/.test(accepts) ? "gzip" : null;
  if (!encoding) return response;
  const zip =
    encoding === "br"
      ? createBrotliCompress({
          flush: zlib.BROTLI_OPERATION_FLUSH,
          params: { [zlib.BROTLI_PARAM_QUALITY]: 5 },
        })
      : createGzip({ flush: zlib.Z_SYNC_FLUSH });
  const source = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>);
  const headers = new Headers(response.headers);
  headers.set("content-encoding", encoding);
  headers.delete("content-length");
  headers.append("vary", "Accept-Encoding");
  return new Response(Readable.toWeb(source.pipe(zip)) as ReadableStream<Uint8Array>, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/** Every answer, files and data too, carries the hardening headers; pages add their policy in entry.server. */
function hardened(response: Response, activity = false) {
  // A copy: a response built with Response.redirect() or fetch() has headers that cannot change.
  const out = new Response(response.body, response);
  // Discord frames the Activity's pages: their policy's frame-ancestors says by whom (entry.server.tsx).
  for (const [name, value] of Object.entries(SECURITY_HEADERS))
    if (!out.headers.has(name) && !(activity && name === "x-frame-options")) out.headers.set(name, value);
  return out;
}

if (resolve(process.argv[1] ?? "") === fileURLToPath(import.meta.url)) {
  let config: WebConfig;
  try {
    config = webConfig();
  } catch (err) {
    if (!(err instanceof SettingsError)) throw err;
    console.error(`web: ${err.problems.join("; ")}`);
    process.exit(1);
  }
  const { settings } = config;
  // Compiled, the server never builds: the build tools are development dependencies, absent where it runs.
  if (bundled && !existsSync(serverBuild)) {
    console.error(`web: no build at ${join(root, "build")}: run npm run build first`);
    process.exit(1);
  }
  // Errors to Sentry when SENTRY_DSN is set: the SDK's handlers take what escapes, entry.server's handleError the
  // loaders' and actions' bugs. Nothing personal: no default PII, and each event scrubbed (@booth/sdk/privacy).
  if (settings.SENTRY_DSN)
    Sentry.init({
      dsn: settings.SENTRY_DSN,
      environment: config.sentryEnvironment,
      release: settings.SENTRY_RELEASE || BOOTH_VERSION,
      serverName: "web",
      tracesSampleRate: 0,
      sendDefaultPii: false,
      beforeSend: (event) => scrubEvent(event),
    });
  if (!bundled) buildIfStale();
  const { port } = config;
  const hostname = settings.WEB_HOST;
  const handle = await createWebHandler();
  const log = webLog();
  // Each request gets its access line once its answer starts (pino's JSON lines at LOG_LEVEL, lib/log.server.ts):
  // the path keeps its query, whose codes and tokens (a magic link's, an OAuth callback's) the logger censors.
  const fetch = async (request: Request, env: HttpBindings | Http2Bindings) => {
    const started = performance.now();
    const response = await handle(request, env.incoming.socket.remoteAddress);
    const url = request.url;
    const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
    log({
      level: response.status >= 500 ? "error" : "info",
      requestId: response.headers.get("x-request-id"),
      method: request.method,
      path,
      status: response.status,
      ms: Math.round(performance.now() - started),
    });
    return response;
  };
  // overrideGlobalObjects: false keeps Node's own Response, which the SDK (openapi-fetch) checks with instanceof.
  // A refusal answered before its request's body was read (an upload declared too large) reaches a browser still
  // sending it: the connection closes lingeringly (@booth/sdk/node/lingering-close), which @hono/node-server's own
  // cleanup of an unread body would cut short (autoCleanupIncoming: false).
  const server = serve({ fetch, port, hostname, overrideGlobalObjects: false, autoCleanupIncoming: false }, (info) => {
    console.log(`web: Booth is at http://${hostname}:${info.port} (Booth ${BOOTH_VERSION}; open it in a browser)`);
  });
  closeLingering(server as Server);
  // A port in use is a setting to change, not a crash: one line, and a failed exit for whoever started the web.
  server.once("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EADDRINUSE") throw err;
    console.error(`web: port ${port} is in use (WEB_PORT)`);
    process.exit(1);
  });
  // SIGTERM or SIGINT: no new connections; the pages and actions in flight finish (within SHUTDOWN_TIMEOUT_MS).
  onTermination(async (signal) => {
    const timeout = settings.SHUTDOWN_TIMEOUT_MS;
    console.log(`web: ${signal}, stopping (requests in flight get ${timeout / 1000} s)`);
    const how = await drain(server as unknown as Drainable, timeout);
    console.log(`web: stopped (${how === "drained" ? "every request answered" : "cut after the timeout"})`);
  });
}
