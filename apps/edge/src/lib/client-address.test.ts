import { type ServerType, serve } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { cacheFrom } from "../bootstrap.ts";
import { openTestApp } from "../testing.ts";
import { parseTrustProxy } from "./client-address.ts";

const GUEST = "/api/user-service/auth/guest";
const GUESTS_PER_ADDRESS = 60;

const t = openTestApp();

/** The app as main.node.ts serves it (the peer from @hono/node-server's conninfo), over a real socket on loopback. */
async function serveApp(trustProxy: string[]) {
  // A cache of its own (memory, or TEST_REDIS_URL under a new prefix), so each server counts from zero.
  const cache = await cacheFrom({ REDIS_URL: process.env.TEST_REDIS_URL }, `test:${crypto.randomUUID()}:`);
  const app = createApp({
    ...t.deps,
    cache,
    config: { ...t.deps.config, trustProxy },
    peerAddress: (c) => getConnInfo(c).remote.address,
  });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const { port } = server.address() as { port: number };
  return {
    guest: (forwardedFor?: string) =>
      fetch(`http://127.0.0.1:${port}${GUEST}`, {
        headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
      }),
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      await cache.close();
    },
  };
}

describe("client address", () => {
  it("ignores X-Forwarded-For from an untrusted peer: forged addresses count against the real one", async () => {
    const edge = await serveApp([]);
    try {
      for (let i = 0; i < GUESTS_PER_ADDRESS; i++) expect((await edge.guest(`203.0.113.${i}`)).status).toBe(200);
      const refused = await edge.guest("198.51.100.1");
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({
        statusCode: 429,
        message: "Too many attempts, please try again later.",
        error: "Too Many Requests",
        code: "TOO_MANY_ATTEMPTS",
      });
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(3500);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(refused.headers.get("ratelimit-limit")).toBe(String(GUESTS_PER_ADDRESS));
      expect(refused.headers.get("ratelimit-remaining")).toBe("0");
      expect(refused.headers.get("ratelimit-reset")).toBe(String(retryAfter));
      // A browser on another origin can read them.
      const exposed = refused.headers.get("access-control-expose-headers")?.toLowerCase() ?? "";
      for (const name of ["retry-after", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"])
        expect(exposed).toContain(name);
    } finally {
      await edge.close();
    }
  });

  it("follows X-Forwarded-For from a trusted proxy: each visitor behind it has their own limit", async () => {
    const edge = await serveApp(["127.0.0.1"]);
    try {
      for (let i = 0; i < GUESTS_PER_ADDRESS; i++) expect((await edge.guest("203.0.113.10")).status).toBe(200);
      expect((await edge.guest("203.0.113.10")).status).toBe(429);
      expect((await edge.guest("203.0.113.11")).status).toBe(200);
      // Only the hop the trusted proxy saw counts: what the visitor wrote to the left of it is theirs to forge.
      expect((await edge.guest("1.1.1.1, 203.0.113.10")).status).toBe(429);
      // An IPv6 visitor holds a whole /64: it is one bucket.
      for (let i = 0; i < GUESTS_PER_ADDRESS; i++)
        expect((await edge.guest(`2001:db8:1:2::${i + 1}`)).status).toBe(200);
      expect((await edge.guest("2001:db8:1:2:ffff::9")).status).toBe(429);
      expect((await edge.guest("2001:db8:1:3::1")).status).toBe(200);
    } finally {
      await edge.close();
    }
  });

  it("walks a chain of trusted proxies to the first address that is not one", async () => {
    const edge = await serveApp(["127.0.0.1", "10.0.0.0/8"]);
    try {
      for (let i = 0; i < GUESTS_PER_ADDRESS; i++)
        expect((await edge.guest(`192.0.2.${i}, 198.51.100.20, 10.1.2.3`)).status).toBe(200);
      expect((await edge.guest("198.51.100.20, 10.9.9.9")).status).toBe(429);
    } finally {
      await edge.close();
    }
  });

  it("takes TRUST_PROXY as exact addresses and CIDR ranges, and names what it cannot read", () => {
    expect(parseTrustProxy(undefined)).toEqual([]);
    expect(parseTrustProxy("127.0.0.1, 10.0.0.0/8 ::1,fd00::/8")).toEqual([
      "127.0.0.1",
      "10.0.0.0/8",
      "::1",
      "fd00::/8",
    ]);
    for (const bad of ["loopback", "*", "10.0.0.0/33", "10.0.0.1/8/8", "example.com"])
      expect(() => parseTrustProxy(`127.0.0.1,${bad}`)).toThrow(
        `TRUST_PROXY: "${bad}" is not an IP address or CIDR range.`,
      );
  });
});
