import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Who the web server is answering, for the calls it makes to the edge on their behalf: the edge counts its
 * per-address limits (guest tokens, logins, sign-ups) against the visitor, not against the web server. server.ts
 * sets it around each request; sdk.server.ts reads it. Kept under a global symbol because server.ts and the built
 * app (build/server) each load their own copy of this module, and both must see the same store.
 */
const KEY = Symbol.for("booth.web.visitor");
const registry = globalThis as { [KEY]?: AsyncLocalStorage<string> };
registry[KEY] ??= new AsyncLocalStorage<string>();
const store = registry[KEY];

/**
 * Runs `handle` as the answer to a visitor: the X-Forwarded-For to send the edge is what arrived (proxies in front of
 * the web) with the visitor's socket address appended, as every proxy does; the edge decides how far to trust it.
 */
export function asVisitor<T>(peer: string | undefined, incomingForwardedFor: string | null, handle: () => T): T {
  if (!peer) return handle();
  const chain = incomingForwardedFor?.trim() ? `${incomingForwardedFor.trim()}, ${peer}` : peer;
  return store.run(chain, handle);
}

/** The X-Forwarded-For value for the edge, inside a visitor's request; undefined outside one. */
export const visitorForwardedFor = () => store.getStore();

/** fetch for calls to the edge: carries the visitor's X-Forwarded-For when there is one. */
export const visitorFetch: typeof fetch = (input, init) => {
  const forwardedFor = visitorForwardedFor();
  if (!forwardedFor) return fetch(input, init);
  // The SDK hands over a Request of its own: its headers can change in place, its body is left untouched.
  const request = input instanceof Request ? input : new Request(input, init);
  request.headers.set("x-forwarded-for", forwardedFor);
  return fetch(request, input instanceof Request ? init : undefined);
};
