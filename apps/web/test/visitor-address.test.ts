/**
 * The web's server passes each visitor's address to the edge, so the edge's per-address limits count visitors apart
 * (the built app in-process, given each visitor's socket address as server.ts is; the real edge over HTTP).
 */
import { createTestApp, type TestApp } from "@booth/edge/testing";
import { type ServerType, serve } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../edge/src/app.ts";
import { buildOnce } from "./harness.ts";

let t: TestApp;
let edge: ServerType;
let handle: (request: Request, peer?: string) => Promise<Response>;
beforeAll(async () => {
  t = await createTestApp();
  // The edge as `npm start` runs it: the web's server, on loopback, is its trusted proxy.
  const app = createApp({
    ...t.deps,
    config: { ...t.deps.config, trustProxy: ["127.0.0.1"] },
    peerAddress: (c) => getConnInfo(c).remote.address,
  });
  edge = await new Promise<ServerType>((resolve) => {
    // overrideGlobalObjects: false: the web handler in this process needs Node's own Response (see server.ts).
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", overrideGlobalObjects: false }, () =>
      resolve(s),
    );
  });
  process.env.BOOTH_EDGE_URL = `http://127.0.0.1:${(edge.address() as { port: number }).port}`;
  process.env.SESSION_SECRET ??= "the visitor-address test's session secret";
  await buildOnce();
  const { createWebHandler } = await import("../server.ts");
  handle = await createWebHandler();
}, 240_000);
afterAll(async () => {
  await new Promise<void>((r) => edge?.close(() => r()));
  await t?.close();
});

/** A visitor without a session asks for a live token: the web fetches them a new guest token from the edge. */
const liveToken = (peer: string, headers: Record<string, string> = {}) =>
  handle(
    new Request("http://127.0.0.1:3000/live-token", { headers: { accept: "application/json", ...headers } }),
    peer,
  );

describe("visitor addresses", () => {
  it("one visitor using up the guest tokens of their address does not stop the next visitor", async () => {
    const first = "203.0.113.1";
    for (let i = 0; i < 60; i++) expect((await liveToken(first)).status).toBe(200);
    const refused = await liveToken(first);
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toBe("Too many attempts, please try again later.");
    // Writing another address into X-Forwarded-For does not help: the web appends the address it saw.
    expect((await liveToken(first, { "x-forwarded-for": "198.51.100.9" })).status).toBe(429);
    const next = await liveToken("203.0.113.2");
    expect(next.status).toBe(200);
    expect((await next.json()).token).toEqual(expect.any(String));
  });
});
