import type { Context, ErrorHandler, MiddlewareHandler, Next } from "hono";
import { bodyLimit } from "hono/body-limit";
import { compress } from "hono/compress";
import { contextStorage } from "hono/context-storage";
import { secureHeaders } from "hono/secure-headers";
import type { AppDeps } from "./deps.ts";
import { preflight, requestIdOf, setAnswerHeaders, setHeader, varyOnEncoding } from "./lib/answer-headers.ts";
import { authenticate } from "./lib/auth.ts";
import type { AppEnv } from "./lib/context.ts";
import { errorBody } from "./lib/errors.ts";
import type { Metrics } from "./metrics.ts";
import { readAccount } from "./services/user/public.ts";

/** How large a request's body may be: `maxSize` bytes, but for the routes whose path matches one of `larger`. */
export type BodyLimits = { maxSize: number; larger: { path: RegExp; maxSize: number }[] };

/** The `next` of hono's middleware called below: they run on an answer that is already made. */
const nothingNext = async () => {};

/**
 * Everything the edge does around each request, as one middleware (docs/decisions/0009-edge-request-path.md): the
 * request id, the request's context wherever its handling goes, the body limit, the caller's token, and on the
 * answer the request id's, CORS's and the security headers, compression, the metrics and the access line.
 *
 * Each piece is hono's own where hono has one (context storage, body limit, CORS's preflight, compress, secure
 * headers), called here in the order they stood as separate middleware, outermost last on the way out. One place
 * reads more easily than seven; the dispatch steps it spares were worth little (decision 0009, last section): what a
 * request with no database pays for is mostly its answer's headers.
 */
export function requestPath(
  deps: AppDeps,
  metrics: Metrics,
  bodyLimits: BodyLimits,
  answerError: ErrorHandler<AppEnv>,
): MiddlewareHandler<AppEnv> {
  const keepContext = contextStorage();
  // The API's answers are data, never pages to frame or sniff: the headers OWASP's REST Security Cheat Sheet asks of
  // an API (nosniff, no framing, HSTS) and no referrer. Other origins load its images, audio and HLS (the web app,
  // embeds): resources are cross-origin; the browser's CORS rules stay as they are (answer-headers.ts). The headers
  // only an HTML page or a retired browser reads are not sent: each costs every answer (decision 0019).
  const secure = secureHeaders({
    crossOriginResourcePolicy: "cross-origin",
    crossOriginOpenerPolicy: false,
    crossOriginEmbedderPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    removePoweredBy: false,
  });
  // JSON and text shrink several times over; audio, images and HLS segments are already compressed and pass as they
  // are (compress only touches compressible types above 1 KiB).
  const shrink = compress();
  const limit = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: (c) => c.json(errorBody(413, `The request body is larger than ${maxSize / 1024 / 1024} MB.`), 413),
    });
  const limits = bodyLimits.larger.map((entry) => ({ ...entry, check: limit(entry.maxSize) }));
  const general = limit(bodyLimits.maxSize);

  // The account a token names, as the user service reads it (requireUser asks it: lib/auth.ts).
  const accountOf = (uuid: string, now: Date) => readAccount(deps, uuid, now);

  const handle = async (c: Context<AppEnv>, next: Next): Promise<void> => {
    // A browser's preflight is answered here, by hono's cors (the other answers get their CORS headers below).
    if (c.req.method === "OPTIONS") {
      const answer = await preflight(c, next);
      if (answer instanceof Response) c.res = answer;
      return;
    }
    c.set("deps", deps);
    c.set("readAccount", accountOf);
    const started = performance.now();
    const path = c.req.path;
    const sent = c.req.header("content-length") ?? c.req.header("transfer-encoding");
    const method = c.req.method;
    try {
      await authenticate(c);
      // A GET or HEAD that announces no body has none to limit (asking the request for its body would make Node's
      // server build a whole Request for nothing).
      if (!sent && (method === "GET" || method === "HEAD")) await next();
      else {
        // The limit's refusal (413) is its answer, as a middleware's return is.
        const refused = await (limits.find((entry) => entry.path.test(path))?.check ?? general)(c, next);
        if (refused instanceof Response) c.res = refused;
      }
    } catch (err) {
      // What fails here, before the handler (reading the token), is answered as a handler's failure is (the
      // handler's own are answered inside next()), and the answer goes on through the rest of the path.
      const error = err instanceof Error ? err : new Error(String(err));
      c.error = error;
      c.res = await answerError(error, c);
    }
    // A refusal that never read the request's body (413, an early 401 or 404) leaves the rest of that body on the
    // connection, where a keep-alive client's next request would be taken for it and hang: such an answer closes the
    // connection instead, and the client's next request opens a new one. On Node the close lingers, reading and
    // dropping the rest of the body, so that a client still sending it reads this answer rather than a reset
    // (serve-node.ts).
    if (sent && sent !== "0" && !c.req.raw.bodyUsed) setHeader(c, "connection", "close");
    varyOnEncoding(c);
    const ms = performance.now() - started;
    const status = c.res.status;
    metrics.observe(c, ms / 1000);
    // The path with its query, whose secret parameters (?code=, ?token=, ...) the logger censors.
    const query = c.req.url.indexOf("?");
    deps.logger({
      level: status >= 500 ? "error" : "info",
      requestId: c.get("requestId"),
      method,
      path: query === -1 ? path : `${path}${c.req.url.slice(query)}`,
      status,
      ms: Math.round(ms),
    });
  };

  return async (c, next) => {
    // The request's id: the caller's X-Request-Id when it is a plausible one, else a new uuid.
    const id = requestIdOf(c.req.header("x-request-id"));
    c.set("requestId", id);
    // The request's context wherever its handling goes (request-id.ts currentRequestId: log lines, calls to the rooms).
    await keepContext(c, () => handle(c, next));
    await shrink(c, nothingNext);
    await secure(c, nothingNext);
    // Set on the answer once it is made, never on a placeholder (answer-headers.ts).
    setAnswerHeaders(c, id);
  };
}
