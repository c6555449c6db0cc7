import { httpInstrumentationMiddleware } from "@hono/otel";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { compress } from "hono/compress";
import { contextStorage } from "hono/context-storage";
import { secureHeaders } from "hono/secure-headers";
import type { AppDeps } from "./deps.ts";
import { mountDocs } from "./docs.ts";
import { preflight, requestIdOf, setAnswerHeaders, setHeader, varyOnEncoding } from "./lib/answer-headers.ts";
import { readToken } from "./lib/auth.ts";
import type { AppEnv } from "./lib/context.ts";
import { errorBody, errorResponse } from "./lib/errors.ts";
import { sameSecret } from "./lib/hash.ts";
import { jwks } from "./lib/tokens.ts";
import { createMetrics } from "./metrics.ts";
import { SERVICES } from "./services/index.ts";
import { serviceStatus } from "./services/status.ts";
import { MAX_UPLOAD_BYTES } from "./services/upload/uploads.ts";

export type { AppDeps } from "./deps.ts";

/** No request body may be larger; routes that take files set their own, lower, limits (but for BODY_LIMITS). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The routes that take more: an upload's audio file (50 MB), which streams to storage rather than into memory. */
const BODY_LIMITS: { path: RegExp; maxSize: number }[] = [
  { path: /^\/api\/upload-service\/upload\/song\/[^/]+\/file$/, maxSize: MAX_UPLOAD_BYTES },
];

/** The whole edge: every service under its gateway prefix, built from the dependencies it is given. */
export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  // The request's id (the caller's X-Request-Id when it is a plausible one, else a new uuid), which the answer carries
  // with CORS's headers (lib/answer-headers.ts: set on the answer once it is made, never on a placeholder).
  app.use(async (c, next) => {
    const id = requestIdOf(c.req.header("x-request-id"));
    c.set("requestId", id);
    await next();
    setAnswerHeaders(c, id);
  });
  // A span per request, exported over OTLP, when tracing is set up (ports/tracing.ts).
  if (deps.tracing)
    app.use(httpInstrumentationMiddleware({ tracerProvider: deps.tracing.provider, serviceName: "booth-edge" }));
  // The request's context wherever its handling goes (lib/context.ts currentRequestId: log lines, calls to the rooms).
  app.use(contextStorage());
  // The API's answers are data, never pages to frame or sniff. Other origins load its images, audio and HLS (the web
  // app, embeds): resources are cross-origin; the browser's CORS rules stay as they are (lib/answer-headers.ts).
  app.use(
    secureHeaders({
      crossOriginResourcePolicy: "cross-origin",
      crossOriginOpenerPolicy: false,
      crossOriginEmbedderPolicy: false,
    }),
  );
  // JSON and text shrink several times over; audio, images and HLS segments are already compressed and pass as
  // they are (compress only touches compressible types above 1 KiB).
  app.use(compress());
  const metrics = createMetrics(deps);
  const limit = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: (c) => c.json(errorBody(413, `The request body is larger than ${maxSize / 1024 / 1024} MB.`), 413),
    });
  const limits = BODY_LIMITS.map((entry) => ({ ...entry, check: limit(entry.maxSize) }));
  const general = limit(MAX_BODY_BYTES);
  app.use(async (c, next) => {
    // A browser's preflight is answered here, by hono's cors (the other answers get their CORS headers above).
    if (c.req.method === "OPTIONS") return preflight(c, next);
    c.set("deps", deps);
    const started = performance.now();
    const path = c.req.path;
    const sent = c.req.header("content-length") ?? c.req.header("transfer-encoding");
    const method = c.req.method;
    // A GET or HEAD that announces no body has none to limit (asking the request for its body would make Node's
    // server build a whole Request for nothing).
    if (!sent && (method === "GET" || method === "HEAD")) await next();
    else {
      // The limit's refusal (413) is its answer, as a middleware's return is.
      const refused = await (limits.find((entry) => entry.path.test(path))?.check ?? general)(c, next);
      if (refused instanceof Response) c.res = refused;
    }
    // A refusal that never read the request's body (413, an early 401 or 404) leaves the rest of that body on the
    // connection, where a keep-alive client's next request would be taken for it and hang: such an answer closes the
    // connection instead, and the client's next request opens a new one.
    if (sent && sent !== "0" && !c.req.raw.bodyUsed) setHeader(c, "connection", "close");
    varyOnEncoding(c);
    const ms = performance.now() - started;
    const status = c.res.status;
    metrics.observe(c, ms / 1000);
    deps.logger({
      level: status >= 500 ? "error" : "info",
      requestId: c.get("requestId"),
      method,
      path,
      status,
      ms: Math.round(ms),
    });
  });
  app.use(readToken);

  for (const service of SERVICES) app.route(service.prefix, service.router);

  app.get("/", (c) =>
    c.json({ name: "booth", docs: "/docs", services: SERVICES.map((s) => ({ name: s.name, prefix: s.prefix })) }),
  );
  // Liveness: the process answers (a restart is the cure when it does not). Readiness: it can serve, its database
  // and cache answer (503 takes it out of a load balancer's rotation until they do).
  app.get("/healthz", (c) => {
    c.header("cache-control", "no-store");
    return c.json({ status: "ok" });
  });
  app.get("/readyz", async (c) => {
    const { status, database, cache } = await serviceStatus(deps, "edge", "");
    c.header("cache-control", "no-store");
    return c.json({ status, database, cache }, status === "ok" ? 200 : 503);
  });
  // Prometheus's scrape: with METRICS_TOKEN as its bearer token, or an admin's token.
  app.get("/metrics", async (c) => {
    const bearer = c.req.header("authorization")?.replace(/^Bearer\s+/i, "") ?? "";
    const scraper = !!deps.config.metricsToken && sameSecret(bearer, deps.config.metricsToken);
    const auth = c.get("auth");
    if (!scraper && !auth) return c.json(errorBody(401, "Unauthorized"), 401);
    if (!scraper && !auth?.roles.includes("admin")) return c.json(errorBody(403, "Forbidden"), 403);
    c.header("cache-control", "no-store");
    return c.body(await metrics.registry.metrics(), 200, { "content-type": metrics.registry.contentType });
  });
  // The keys that verify the edge's tokens, by kid (RFC 7517): the live rooms read them, and read them again when a
  // token names a key they have not seen, so a rotated key needs no redeploy of the rooms.
  app.get("/.well-known/jwks.json", (c) => {
    c.header("cache-control", "public, max-age=300");
    return c.json(jwks(deps.keys));
  });
  mountDocs(
    app,
    SERVICES.map((s) => ({ title: s.title, url: `${s.prefix}/openapi.json` })),
  );

  app.notFound((c) => c.json(errorBody(404, `Cannot ${c.req.method} ${c.req.path}`), 404));
  app.onError((err, c) => {
    const res = errorResponse(c, err, deps.logger);
    // What the edge could not handle goes to its operator (Sentry, or the error_reports table), with the request.
    if (res.status === 500)
      void deps.errorReporter
        .report(err instanceof Error ? err : new Error(String(err)), {
          service: "edge",
          requestId: c.get("requestId"),
          method: c.req.method,
          path: c.req.path,
        })
        .catch((e) => deps.logger({ level: "warn", msg: "error report failed", err: String(e) }));
    return res;
  });
  return app;
}

export type App = ReturnType<typeof createApp>;
