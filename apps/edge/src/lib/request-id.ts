import { tryGetContext } from "hono/context-storage";

/**
 * The id of the request being answered (hono's requestId(): the caller's X-Request-Id, the web server's for a page,
 * else a new one), from anywhere in its handling, through hono's context storage (app.ts): the logger writes it on
 * every line, and the calls to the live rooms pass it on. Undefined outside a request (a job, the start).
 */
export function currentRequestId(): string | undefined {
  const id = tryGetContext()?.get("requestId" as never) as unknown;
  return typeof id === "string" ? id : undefined;
}
