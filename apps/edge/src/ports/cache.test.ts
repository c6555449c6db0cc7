import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeServer, listenLocally, requestText } from "../testing/local-server.ts";
import { openForTests } from "../testing/open-for-tests.ts";
import { type Cache, memoryCache, redisCache, upstashCache } from "./cache.ts";

/**
 * Upstash's REST API (single commands as a JSON array body on POST /, transactions on POST /multi-exec and
 * /pipeline, with the token as a bearer), each command run by `run`; it keeps the paths it was asked.
 */
function upstashRest(token: string, run: (cmd: unknown[]) => unknown) {
  const requests: string[] = [];
  const server = createServer(async (req, res) => {
    const body = await requestText(req);
    requests.push(req.url ?? "");
    res.setHeader("content-type", "application/json");
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.statusCode = 401;
      res.end(JSON.stringify({ error: "Unauthorized" }));
      return;
    }
    const parsed = JSON.parse(body);
    try {
      if (req.url === "/multi-exec" || req.url === "/pipeline") {
        const results = [];
        for (const cmd of parsed as unknown[][]) results.push({ result: await run(cmd) });
        res.end(JSON.stringify(results));
      } else res.end(JSON.stringify({ result: await run(parsed) }));
    } catch (err) {
      res.statusCode = 400;
      res.end(JSON.stringify({ error: String(err) }));
    }
  });
  return { server, requests };
}

/** A local stand-in for Upstash's REST API backed by a map: enough to run the cache contract over real HTTP. */
function fakeUpstash(token: string) {
  const store = new Map<string, { value: string; expiresAt: number | null }>();
  const live = (k: string) => {
    const e = store.get(k);
    if (e && e.expiresAt !== null && e.expiresAt <= Date.now()) store.delete(k);
    return store.get(k) ?? null;
  };
  const run = (cmd: unknown[]): unknown => {
    const [name, key = "", ...args] = cmd.map(String);
    switch (name?.toLowerCase()) {
      case "get":
        return live(key)?.value ?? null;
      case "set": {
        const ex = args.findIndex((a) => a.toLowerCase() === "ex");
        store.set(key, { value: args[0] ?? "", expiresAt: ex >= 0 ? Date.now() + Number(args[ex + 1]) * 1000 : null });
        return "OK";
      }
      case "del":
        return store.delete(key) ? 1 : 0;
      case "incr": {
        const e = live(key);
        const value = String(Number(e?.value ?? 0) + 1);
        store.set(key, { value, expiresAt: e?.expiresAt ?? null });
        return Number(value);
      }
      case "expire": {
        const e = live(key);
        if (!e || (args[1]?.toLowerCase() === "nx" && e.expiresAt !== null)) return 0;
        e.expiresAt = Date.now() + Number(args[0]) * 1000;
        return 1;
      }
      default:
        throw new Error(`fake upstash: unsupported ${name}`);
    }
  };
  return upstashRest(token, run);
}

function contract(name: string, make: () => Promise<Cache>) {
  describe(`${name} cache`, () => {
    let cache: Cache;
    openForTests(make, (opened) => (cache = opened));

    it("stores, reads and deletes values", async () => {
      await cache.set("a", "1");
      expect(await cache.get("a")).toBe("1");
      await cache.del("a");
      expect(await cache.get("a")).toBeNull();
    });

    it("counts, and forgets a counter after its window", async () => {
      expect(await cache.incr("n", 1)).toBe(1);
      expect(await cache.incr("n", 1)).toBe(2);
      await new Promise((r) => setTimeout(r, 1100));
      expect(await cache.incr("n", 1)).toBe(1);
    });

    it("expires values set with a ttl", async () => {
      await cache.set("t", "x", 1);
      expect(await cache.get("t")).toBe("x");
      await new Promise((r) => setTimeout(r, 1100));
      expect(await cache.get("t")).toBeNull();
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The limiter every cache serves: the same counting whatever the store. */
function limiterContract(name: string, make: () => Promise<Cache>, makeTwin?: () => Promise<Cache>) {
  describe(`${name} limiter`, () => {
    let cache: Cache;
    openForTests(make, (opened) => (cache = opened));

    it("allows its points per key, then refuses with the time left, and forgets the key after the window", async () => {
      const limiter = cache.limiter(2, 1);
      const key = crypto.randomUUID();
      expect(await limiter.consume(key)).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
      expect(await limiter.consume(key)).toMatchObject({ allowed: true, remaining: 0 });
      expect(await limiter.consume(key)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 1 });
      expect((await limiter.consume(`${key}-other`)).allowed).toBe(true);
      await sleep(1100);
      expect(await limiter.consume(key)).toMatchObject({ allowed: true, remaining: 1 });
    });

    it("gives an attempt back, forgets a key on demand, and keeps limits of different sizes apart", async () => {
      const key = crypto.randomUUID();
      const one = cache.limiter(1, 60);
      expect((await one.consume(key)).allowed).toBe(true);
      const refused = await one.consume(key);
      expect(refused.allowed).toBe(false);
      expect(refused.resetSeconds).toBeGreaterThan(55);
      expect((await cache.limiter(3, 60).consume(key)).allowed).toBe(true);
      await one.reward(key);
      await one.reward(key);
      expect((await one.consume(key)).allowed).toBe(true);
      await one.reset(key);
      expect((await one.consume(key)).allowed).toBe(true);
      expect((await one.consume(key)).allowed).toBe(false);
    });

    if (makeTwin)
      it("counts together with another instance on the same store (limits are shared, not per process)", async () => {
        const twin = await makeTwin();
        try {
          const key = crypto.randomUUID();
          expect((await cache.limiter(2, 60).consume(key)).allowed).toBe(true);
          expect((await twin.limiter(2, 60).consume(key)).allowed).toBe(true);
          expect((await cache.limiter(2, 60).consume(key)).allowed).toBe(false);
        } finally {
          await twin.close();
        }
      });
  });
}

/**
 * Upstash's REST API in front of a real Redis: each command is run as it is (EVAL included), so the limiter's
 * script goes through the Upstash client over HTTP and runs on Redis, as it does on Upstash.
 */
function upstashOverRedis(redisUrl: string, token: string) {
  let redis: import("ioredis").Redis | undefined;
  const run = async (cmd: unknown[]) => {
    redis ??= new (await import("ioredis")).Redis(redisUrl);
    const [name, ...args] = cmd.map(String);
    return redis.call(name ?? "", ...args);
  };
  return { ...upstashRest(token, run), close: () => redis?.quit() };
}

/** Publish and subscribe: what one edge publishes reaches the listeners of every edge on the cache, and only them. */
function pubSubContract(name: string, makeTwins: () => Promise<[Cache, Cache]>) {
  describe(`${name} cache pub/sub`, () => {
    let one: Cache;
    let other: Cache;
    beforeAll(async () => {
      [one, other] = await makeTwins();
    });
    afterAll(async () => {
      await Promise.all([...new Set([one, other])].map((cache) => cache?.close()));
    });

    it("delivers a message to every listener of its channel, on either edge, until they stop listening", async () => {
      const channel = `chan:${crypto.randomUUID()}`;
      const heard: string[] = [];
      const heardElsewhere: string[] = [];
      const otherChannel: string[] = [];
      const stop = await other.subscribe(channel, (m) => heard.push(`a:${m}`));
      const stopSecond = await other.subscribe(channel, (m) => heard.push(`b:${m}`));
      const stopOne = await one.subscribe(channel, (m) => heardElsewhere.push(m));
      const stopUnrelated = await other.subscribe(`${channel}:x`, (m) => otherChannel.push(m));
      await one.publish(channel, "hello");
      await expect.poll(() => heard.sort()).toEqual(["a:hello", "b:hello"]);
      await expect.poll(() => heardElsewhere).toEqual(["hello"]);
      await stop();
      await one.publish(channel, "again");
      await expect.poll(() => heard.sort()).toEqual(["a:hello", "b:again", "b:hello"]);
      await Promise.all([stopSecond(), stopOne(), stopUnrelated()]);
      await one.publish(channel, "nobody");
      await new Promise((r) => setTimeout(r, 50));
      expect(heard).toHaveLength(3);
      expect(heardElsewhere).toEqual(["hello", "again"]);
      expect(otherChannel).toEqual([]);
    });
  });
}

const prefix = `cache-test:${crypto.randomUUID()}:`;
contract("memory", async () => memoryCache());
limiterContract("memory", async () => memoryCache());
pubSubContract("memory", async () => {
  const cache = memoryCache();
  return [cache, cache];
});
if (process.env.TEST_REDIS_URL) {
  const url = process.env.TEST_REDIS_URL;
  contract("redis", () => redisCache(url, prefix));
  limiterContract(
    "redis",
    () => redisCache(url, prefix),
    () => redisCache(url, prefix),
  );
  pubSubContract("redis", async () => [await redisCache(url, prefix), await redisCache(url, prefix)]);
  const proxy = upstashOverRedis(url, "secret");
  let proxyUrl = "";
  beforeAll(async () => {
    proxyUrl = await listenLocally(proxy.server);
  });
  afterAll(async () => {
    await proxy.close();
    await closeServer(proxy.server);
  });
  limiterContract(
    "upstash (REST, over a real Redis)",
    async () => upstashCache(proxyUrl, "secret", `${prefix}upstash:`),
    async () => upstashCache(proxyUrl, "secret", `${prefix}upstash:`),
  );
}

let fake: ReturnType<typeof fakeUpstash> | undefined;
let fakeUrl = "";
beforeAll(async () => {
  fake = fakeUpstash("secret");
  fakeUrl = await listenLocally(fake.server);
});
afterAll(() => fake && closeServer(fake.server));
contract("upstash", async () => upstashCache(fakeUrl, "secret", prefix));

it("the upstash adapter speaks HTTP to the configured URL", () => {
  expect(fake?.requests.length).toBeGreaterThan(0);
});
