import { Redis as UpstashRedis } from "@upstash/redis";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";

/** Where one key stands against a limit after an attempt. */
export interface LimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the key's window ends and its attempts are forgotten. */
  resetSeconds: number;
}

/** A limit of `points` attempts per key per window, kept in the cache so every edge instance counts together. */
export interface Limiter {
  /** Counts one attempt; `allowed` is false once the key has used up its window. */
  consume(key: string): Promise<LimitState>;
  /** Gives one attempt back (an attempt that turned out not to count, such as a right password). */
  reward(key: string): Promise<void>;
  /** Forgets the key's attempts. */
  reset(key: string): Promise<void>;
}

/** The small Redis-shaped port: rate limits, short-lived values, counters. */
export interface Cache {
  readonly kind: "memory" | "redis" | "upstash";
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  del(key: string): Promise<void>;
  /** Increments a counter and returns the new value; the ttl is set when the counter is created. */
  incr(key: string, ttlSeconds: number): Promise<number>;
  /** The limiter for `points` attempts per `windowSeconds`, on this cache's store. */
  limiter(points: number, windowSeconds: number): Limiter;
  close(): Promise<void>;
}

/**
 * Limits are rate-limiter-flexible's: the same fixed-window counter in memory (RateLimiterMemory) and in Redis, where
 * one Lua script increments and sets the expiry atomically (RateLimiterRedis, over ioredis or Upstash's REST client).
 */
function limiters(make: (options: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract) {
  const made = new Map<string, Limiter>();
  return (points: number, windowSeconds: number): Limiter => {
    const name = `rl:${points}/${windowSeconds}`;
    let limiter = made.get(name);
    if (!limiter) {
      limiter = wrapLimiter(make({ keyPrefix: name, points, duration: windowSeconds }), points);
      made.set(name, limiter);
    }
    return limiter;
  };
}

function wrapLimiter(limiter: RateLimiterAbstract, points: number): Limiter {
  const state = (res: RateLimiterRes, allowed: boolean): LimitState => ({
    allowed,
    limit: points,
    remaining: res.remainingPoints,
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  });
  return {
    async consume(key) {
      try {
        return state(await limiter.consume(key), true);
      } catch (err) {
        // The limiter refuses by rejecting with where the key stands; anything else is the store failing.
        if (err instanceof RateLimiterRes) return state(err, false);
        throw err;
      }
    },
    async reward(key) {
      await limiter.reward(key, 1);
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}

/**
 * RateLimiterRedis speaks node-redis's calling convention when told to (useRedisPackage); these three calls are all
 * it makes, mapped onto Upstash's REST client, so Upstash runs the very script a TCP Redis runs.
 */
function upstashLimiterClient(client: UpstashRedis) {
  return {
    eval: (script: string, options: { keys: string[]; arguments: string[] }) =>
      client.eval(script, options.keys, options.arguments),
    multi() {
      const tx = client.multi();
      const chain = {
        get(key: string) {
          tx.get(key);
          return chain;
        },
        pTTL(key: string) {
          tx.pttl(key);
          return chain;
        },
        exec: () => tx.exec(),
      };
      return chain;
    },
    del: (key: string) => client.del(key),
  };
}

export function memoryCache(now: () => number = Date.now): Cache {
  const store = new Map<string, { value: string; expiresAt: number | null }>();
  const live = (key: string) => {
    const entry = store.get(key);
    if (!entry) return null;
    if (entry.expiresAt !== null && entry.expiresAt <= now()) {
      store.delete(key);
      return null;
    }
    return entry;
  };
  return {
    kind: "memory",
    async get(key) {
      return live(key)?.value ?? null;
    },
    async set(key, value, ttlSeconds) {
      store.set(key, { value, expiresAt: ttlSeconds ? now() + ttlSeconds * 1000 : null });
    },
    async del(key) {
      store.delete(key);
    },
    async incr(key, ttlSeconds) {
      const entry = live(key);
      const value = entry ? Number(entry.value) + 1 : 1;
      store.set(key, { value: String(value), expiresAt: entry?.expiresAt ?? now() + ttlSeconds * 1000 });
      return value;
    },
    limiter: limiters((options) => new RateLimiterMemory(options)),
    async close() {
      store.clear();
    },
  };
}

export async function redisCache(url: string, prefix = ""): Promise<Cache> {
  const { Redis } = await import("ioredis");
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await client.connect();
  const k = (key: string) => prefix + key;
  return {
    kind: "redis",
    get: (key) => client.get(k(key)),
    async set(key, value, ttlSeconds) {
      if (ttlSeconds) await client.set(k(key), value, "EX", ttlSeconds);
      else await client.set(k(key), value);
    },
    async del(key) {
      await client.del(k(key));
    },
    async incr(key, ttlSeconds) {
      const [[, value]] = (await client.multi().incr(k(key)).expire(k(key), ttlSeconds, "NX").exec()) as [
        [null, number],
      ];
      return value;
    },
    limiter: limiters(
      (options) => new RateLimiterRedis({ ...options, keyPrefix: k(options.keyPrefix), storeClient: client }),
    ),
    async close() {
      await client.quit();
    },
  };
}

export function upstashCache(url: string, token: string, prefix = ""): Cache {
  const client = new UpstashRedis({ url, token, automaticDeserialization: false });
  const k = (key: string) => prefix + key;
  return {
    kind: "upstash",
    async get(key) {
      const value = await client.get<string>(k(key));
      return value ?? null;
    },
    async set(key, value, ttlSeconds) {
      if (ttlSeconds) await client.set(k(key), value, { ex: ttlSeconds });
      else await client.set(k(key), value);
    },
    async del(key) {
      await client.del(k(key));
    },
    async incr(key, ttlSeconds) {
      const [value] = await client.multi().incr(k(key)).expire(k(key), ttlSeconds, "NX").exec<[number, number]>();
      return value;
    },
    limiter: limiters(
      (options) =>
        new RateLimiterRedis({
          ...options,
          keyPrefix: k(options.keyPrefix),
          storeClient: upstashLimiterClient(client),
          useRedisPackage: true,
        }),
    ),
    async close() {},
  };
}
