import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Who the web server is answering, for the calls it makes to the edge on their behalf: the edge counts its
 * per-address limits (guest tokens, logins, sign-ups) against the visitor, not against the web server. server.ts
 * sets it around each request; sdk.server.ts reads it. Kept under a global symbol because server.ts and the built
 * app (build/server) each load their own copy of this module, and both must see the same store.
 */
const KEY = Symbol.for("booth.web.visitor");
/** One request being answered: the visitor's X-Forwarded-For chain (when known) and the request's id. */
interface Visit {
  forwardedFor?: string;
  requestId?: string;
  /** The request comes from the Discord Activity's frame (discord-activity.server.ts). */
  activity?: boolean;
}

/**
 * The header the web sets on its calls to the edge while answering the Discord Activity: `x-booth-mode: discord`,
 * and the edge applies Discord mode's rules (decision 0028).
 */
export const DISCORD_MODE_HEADER = "x-booth-mode";
const registry = globalThis as { [KEY]?: AsyncLocalStorage<Visit> };
registry[KEY] ??= new AsyncLocalStorage<Visit>();
const store = registry[KEY];

/** What a request id from outside may look like (a proxy's, a load balancer's): else the web makes its own. */
const REQUEST_ID = /^[\w\-=.]{1,128}$/;

/** The id of a request: the one a proxy in front gave it (X-Request-Id), or a new one. */
export const requestIdOf = (incoming: string | null) =>
  incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();

/**
 * Runs `handle` as the answer to a visitor: the X-Forwarded-For to send the edge is what arrived (proxies in front of
 * the web) with the visitor's socket address appended, as every proxy does; the edge decides how far to trust it.
 * `requestId` goes with every call to the edge (X-Request-Id), so the edge's and the live room's log lines of this
 * page carry the same id as the web's.
 */
export function asVisitor<T>(
  peer: string | undefined,
  incomingForwardedFor: string | null,
  handle: () => T,
  requestId?: string,
  activity = false,
): T {
  const chain = peer && (incomingForwardedFor?.trim() ? `${incomingForwardedFor.trim()}, ${peer}` : peer);
  return store.run(
    {
      ...(chain ? { forwardedFor: chain } : {}),
      ...(requestId ? { requestId } : {}),
      ...(activity ? { activity } : {}),
    },
    handle,
  );
}

/** Whether the request being answered comes from the Discord Activity's frame; false outside one. */
export const inActivity = () => store.getStore()?.activity === true;

/** The X-Forwarded-For value for the edge, inside a visitor's request; undefined outside one. */
export const visitorForwardedFor = () => store.getStore()?.forwardedFor;

/** The id of the request being answered; undefined outside one. */
export const currentRequestId = () => store.getStore()?.requestId;

/** fetch for calls to the edge: carries the visitor's X-Forwarded-For and the request's id when there are. */
export const visitorFetch: typeof fetch = (input, init) => {
  const visit = store.getStore();
  if (!visit?.forwardedFor && !visit?.requestId && !visit?.activity) return fetch(input, init);
  // The SDK hands over a Request of its own: its headers can change in place, its body is left untouched.
  const request = input instanceof Request ? input : new Request(input, init);
  if (visit.forwardedFor) request.headers.set("x-forwarded-for", visit.forwardedFor);
  if (visit.requestId) request.headers.set("x-request-id", visit.requestId);
  if (visit.activity) request.headers.set(DISCORD_MODE_HEADER, "discord");
  return fetch(request, input instanceof Request ? init : undefined);
};
