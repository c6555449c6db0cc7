import { BOOTH_VERSION } from "@booth/sdk/version";
import { httpInstrumentationMiddleware } from "@hono/otel";
import { type ErrorHandler, Hono } from "hono";
import type { AppDeps } from "./deps.ts";
import { mountDocs } from "./docs.ts";
import type { AppEnv } from "./lib/context.ts";
import { errorBody, errorResponse } from "./lib/errors.ts";
import { sameSecret } from "./lib/hash.ts";
import { serviceStatus } from "./lib/service-status.ts";
import { jwks } from "./lib/tokens.ts";
import { createMetrics } from "./metrics.ts";
import { type BodyLimits, requestPath } from "./request-path.ts";
import { SERVICES } from "./services/index.ts";
import { MAX_UPLOAD_BYTES } from "./services/upload/public.ts";

export type { AppDeps } from "./deps.ts";

/** No request body may be larger; routes that take files set their own, lower, limits (but for the larger ones). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The routes that take more: an upload's audio file (50 MB), which streams to storage rather than into memory. */
const BODY_LIMITS: BodyLimits = {
  maxSize: MAX_BODY_BYTES,
  larger: [{ path: /^\/api\/upload-service\/upload\/song\/[^/]+\/file$/, maxSize: MAX_UPLOAD_BYTES }],
};

/** The whole edge: every service under its gateway prefix, built from the dependencies it is given. */
export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  // A span per request, exported over OTLP, when tracing is set up (ports/tracing.ts).
  if (deps.tracing)
    app.use(httpInstrumentationMiddleware({ tracerProvider: deps.tracing.provider, serviceName: "booth-edge" }));
  const metrics = createMetrics(deps);
  // An error's answer, for the handlers (app.onError below) and for the request path itself (lib/request-path.ts).
  const answerError: ErrorHandler<AppEnv> = (err, c) => {
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
  };

  // Around every request: its id and context, the body limit, the token, the answer's headers, compression, the
  // metrics and the access line (lib/request-path.ts).
  app.use(requestPath(deps, metrics, BODY_LIMITS, answerError));

  for (const service of SERVICES) app.route(service.prefix, service.router);

  app.get("/", (c) =>
    c.json({ name: "booth", docs: "/docs", services: SERVICES.map((s) => ({ name: s.name, prefix: s.prefix })) }),
  );
  // Liveness: the process answers (a restart is the cure when it does not), with the Booth release it runs, so an
  // operator sees which version each instance is on mid-rollout. Readiness: it can serve, its database and cache
  // answer (503 takes it out of a load balancer's rotation until they do).
  app.get("/healthz", (c) => {
    c.header("cache-control", "no-store");
    return c.json({ status: "ok", version: BOOTH_VERSION });
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
  app.onError(answerError);
  return app;
}

export type App = ReturnType<typeof createApp>;
