import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { closeLingering } from "@booth/sdk/node/lingering-close";
import { serve } from "@hono/node-server";

/**
 * The edge's HTTP server on Node, as the Node entry (main.node.ts) and the tests that reach the edge over the network
 * (testing/local-server.ts) run it: @hono/node-server serving `fetch` on `hostname:port`, and
 *
 * - a refusal answered before its request's body was read (a body declared larger than its route takes gets its 413
 *   at once) reaches a client that is still sending: the connection closes lingeringly, reading and dropping the rest
 *   of the body (@booth/sdk/node/lingering-close), rather than with the body unread, which resets it;
 * - keep-alive connections last 65 s: Node closes an idle one after 5 s, and a client that reuses it at that moment
 *   (the rooms' runtime, a load balancer) loses its request ("Network connection lost").
 */
export function serveEdge(
  options: { fetch: Parameters<typeof serve>[0]["fetch"]; port: number; hostname: string },
  onListen?: (info: AddressInfo) => void,
): Server {
  // autoCleanupIncoming: false: @hono/node-server's own cleanup of an unread body closes the connection after 500 ms
  // (and its drain stalls on a body stream the app let go of); the lingering close does it instead.
  const server = serve({ ...options, autoCleanupIncoming: false }, onListen) as Server;
  closeLingering(server);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}
