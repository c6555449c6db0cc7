import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { codeFor, type ErrorCode, errorMessage } from "./error-codes.ts";

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

export const statusText = (status: number) => STATUS_TEXT[status] ?? "Generic Error";

export interface ErrorBody {
  statusCode: number;
  message: string | string[];
  error: string;
  /** The stable machine code (lib/error-codes.ts): the one given, else the message's, else the status's. */
  code: string;
}

export const errorBody = (status: number, message: string | string[], code?: ErrorCode): ErrorBody => ({
  statusCode: status,
  message,
  error: statusText(status),
  code: codeFor(status, message, code),
});

/** Thrown anywhere in a handler; the app's error handler turns it into the one error envelope. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string | string[],
    /** The answer's code when its message alone does not name it (lib/error-codes.ts). */
    readonly code?: ErrorCode,
    /** Response headers that go with the refusal (Retry-After and the RateLimit fields on a 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(Array.isArray(message) ? message.join("; ") : message);
    this.messages = message;
  }
  readonly messages: string | string[];
}

export const badRequest = (message: string | string[]) => new HttpError(400, message);
export const unauthorized = (message = "Unauthorized") => new HttpError(401, message);
export const forbidden = (message = "Forbidden") => new HttpError(403, message);
export const notFound = (message = "Not Found") => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

/** The spec's answer when the user a request names does not exist. */
export const USER_NOT_FOUND = errorMessage("USER_NOT_FOUND");

/** The row a route asked for, or a 404 with `message` when there is none. */
export function found<T>(row: T | null | undefined, message = "Not Found"): T {
  if (row === null || row === undefined) throw notFound(message);
  return row;
}
export const TOO_MANY_ATTEMPTS = errorMessage("TOO_MANY_ATTEMPTS");
export const tooManyRequests = (message = TOO_MANY_ATTEMPTS, headers?: Record<string, string>) =>
  new HttpError(429, message, undefined, headers);
export const unavailable = (message: string) => new HttpError(503, message);

/** The SQLSTATE of a database error, looked for through the wrappers (Drizzle puts the driver's error in `cause`). */
function sqlState(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * PostgreSQL cannot store a NUL character in text (22021 in a string, 22P05 in JSON): whatever route it came through,
 * that is the client's input, not our failure.
 */
const NUL_TEXT_STATES = new Set(["22021", "22P05"]);
export const NUL_TEXT_MESSAGE = errorMessage("NUL_IN_TEXT");

export function errorResponse(c: Context, err: unknown, log: (entry: Record<string, unknown>) => void) {
  if (err instanceof HttpError) {
    return c.json(errorBody(err.status, err.messages, err.code), err.status, err.headers);
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const message = err.message || statusText(status);
    return c.json(errorBody(status, message), status);
  }
  const state = sqlState(err);
  if (state && NUL_TEXT_STATES.has(state)) return c.json(errorBody(400, NUL_TEXT_MESSAGE), 400);
  const fault = databaseFault(err, state);
  if (fault) {
    // The client hears what kind of refusal it was, never the SQL; the log keeps the database's own words. A value
    // the database refused is a gap in the route's validation (an error to fix); an unreachable database is an outage.
    log({
      level: fault.status === 503 ? "warn" : "error",
      msg: fault.status === 503 ? "database unavailable" : "database refused a value validation let through",
      requestId: c.get("requestId"),
      sqlState: state,
      err: String(err),
      cause: String((err as { cause?: unknown })?.cause ?? ""),
    });
    return c.json(errorBody(fault.status, fault.message), fault.status, fault.headers);
  }
  log({
    level: "error",
    msg: "unhandled error",
    requestId: c.get("requestId"),
    err: String(err),
    stack: (err as Error)?.stack,
  });
  return c.json(errorBody(500, "Internal Server Error"), 500);
}

export const DATABASE_UNAVAILABLE = errorMessage("DATABASE_UNAVAILABLE");
export const VALUE_REFUSED = errorMessage("VALUE_REFUSED");
export const CONFLICTING_CHANGE = errorMessage("CONFLICTING_CHANGE");

/** Driver errors that mean the connection, not the statement, failed (postgres.js, PGlite, Node's sockets). */
const CONNECTION_ERRORS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

function connectionError(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && CONNECTION_ERRORS.has(code)) return true;
  }
  return false;
}

/**
 * A database error that reached the error handler, as the client should hear it: 400 when the database refused a value
 * (class 22, data exceptions: out of range, malformed, too long), 409 when a constraint refused the change (class 23,
 * two requests racing), 503 with Retry-After when the database cannot be reached or is shutting down (classes 08,
 * 53, 57). Undefined for anything else (a real 500).
 */
export function databaseFault(
  err: unknown,
  state = sqlState(err),
): { status: 400 | 409 | 503; message: string; headers?: Record<string, string> } | undefined {
  const unavailable = { status: 503 as const, message: DATABASE_UNAVAILABLE, headers: { "Retry-After": "5" } };
  if (connectionError(err)) return unavailable;
  if (!state) return undefined;
  const klass = state.slice(0, 2);
  if (klass === "22") return { status: 400, message: VALUE_REFUSED };
  if (klass === "23") return { status: 409, message: CONFLICTING_CHANGE };
  if (klass === "08" || klass === "53" || klass === "57") return unavailable;
  return undefined;
}
