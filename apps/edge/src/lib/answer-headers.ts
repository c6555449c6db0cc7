import type { Context, MiddlewareHandler } from "hono";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/compress";
import { cors } from "hono/cors";

/** What a browser app on another origin may read of an answer: the request id, and when it may try again (rate-limit.ts). */
const EXPOSED = ["x-request-id", "Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];
const EXPOSED_LIST = EXPOSED.join(",");

/** A caller's X-Request-Id is taken when it is at most 255 word characters, dashes and equals signs (as hono's requestId). */
const NOT_A_REQUEST_ID = /[^\w\-=]/;
const REQUEST_ID_MAX = 255;

export const requestIdOf = (given: string | undefined) =>
  given && given.length <= REQUEST_ID_MAX && !NOT_A_REQUEST_ID.test(given) ? given : crypto.randomUUID();

/**
 * Sets a header on the answer as it is. Hono's c.header() on a finished answer copies the whole Response first (and
 * so does touching c.res before the handler has answered), several copies a request; the answer's own headers are
 * mutable unless it came from fetch(), where c.header()'s copy is the way.
 */
export function setHeader(c: Context, name: string, value: string) {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.header(name, value);
  }
}

/**
 * Cross-origin requests are allowed from anywhere, without credentials. A preflight (OPTIONS) is hono's cors
 * middleware's to answer; every other answer gets the same two headers hono's cors would set, but set once on the
 * answer rather than on a placeholder Response made before the handler runs (which hono then copies into the real one).
 */
export const preflight: MiddlewareHandler = cors({ origin: "*", credentials: false, exposeHeaders: EXPOSED });

/** The headers of every answer but a preflight's: its request id and CORS's. */
export function setAnswerHeaders(c: Context, requestId: string) {
  setHeader(c, "x-request-id", requestId);
  setHeader(c, "access-control-allow-origin", "*");
  setHeader(c, "access-control-expose-headers", EXPOSED_LIST);
}

/** Compress's threshold (hono's default): answers of a known, smaller length pass as they are. */
const COMPRESS_THRESHOLD = 1024;
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/i;
const VARIES_ON_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i;

/**
 * Adds `Vary: Accept-Encoding` to an answer hono's compress (app.ts, the next middleware out) may compress, by the
 * same tests it makes, so compress finds it there and need not add it with c.header(), which copies the answer. An
 * answer it leaves alone gets no Vary here either.
 */
export function varyOnEncoding(c: Context) {
  const headers = c.res.headers;
  const length = headers.get("content-length");
  const type = headers.get("content-type");
  const cacheControl = headers.get("cache-control");
  if (
    c.res.status === 206 ||
    headers.has("content-encoding") ||
    headers.has("transfer-encoding") ||
    c.req.method === "HEAD" ||
    (length && Number(length) < COMPRESS_THRESHOLD) ||
    !type ||
    !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type) ||
    (cacheControl && NO_TRANSFORM.test(cacheControl))
  )
    return;
  const vary = headers.get("vary");
  if (vary === "*" || (vary && VARIES_ON_ENCODING.test(vary))) return;
  setHeader(c, "vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
}
