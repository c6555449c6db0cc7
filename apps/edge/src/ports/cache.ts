import { Redis as UpstashRedis } from "@upstash/redis";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { LimitState } from "../lib/rate-limit.ts";

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
  /**
   * Tells every listener of `channel`, on every edge sharing this cache, the message (fire and forget: a listener
   * that is not connected at that moment never hears it, so what it tells must also be readable from the database).
   */
  publish(channel: string, message: string): Promise<void>;
  /** Listens to `channel` until the returned function is called; resolves once listening has begun. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Listeners by channel, in one process: the memory cache's pub/sub, and one Redis connection's fan-out to its own. */
function channels() {
  const listeners = new Map<string, Set<(message: string) => void>>();
  return {
    /** Adds a listener; true when it is the channel's first. */
    add(channel: string, listener: (message: string) => void) {
      let set = listeners.get(channel);
      const first = !set;
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
      }
      set.add(listener);
      return first;
    },
    /** Removes a listener; true when the channel has none left. */
    remove(channel: string, listener: (message: string) => void) {
      const set = listeners.get(channel);
      if (!set?.delete(listener) || set.size > 0) return false;
      listeners.delete(channel);
      return true;
    },
    deliver(channel: string, message: string) {
      for (const listener of [...(listeners.get(channel) ?? [])]) {
        try {
          listener(message);
        } catch {
          // One listener's failure (a closed stream) does not keep the message from the others.
        }
      }
    },
    clear: () => listeners.clear(),
  };
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
  const subscribers = channels();
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
    async publish(channel, message) {
      subscribers.deliver(channel, message);
    },
    async subscribe(channel, listener) {
      subscribers.add(channel, listener);
      return async () => {
        subscribers.remove(channel, listener);
      };
    },
    async close() {
      store.clear();
      subscribers.clear();
    },
  };
}

export async function redisCache(url: string, prefix = ""): Promise<Cache> {
  const { Redis } = await import("ioredis");
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await client.connect();
  const k = (key: string) => prefix + key;
  const subscribers = channels();
  let subscriber: InstanceType<typeof Redis> | undefined;
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
    async publish(channel, message) {
      await client.publish(k(channel), message);
    },
    async subscribe(channel, listener) {
      // A connection in subscriber mode runs no other command: one more per edge, opened at the first listener,
      // subscribed once per channel however many listeners this edge has on it.
      if (!subscriber) {
        subscriber = client.duplicate();
        subscriber.on("message", (channel: string, message: string) =>
          subscribers.deliver(channel.slice(prefix.length), message),
        );
      }
      if (subscribers.add(channel, listener)) await subscriber.subscribe(k(channel));
      return async () => {
        if (subscribers.remove(channel, listener) && subscriber?.status === "ready")
          await subscriber.unsubscribe(k(channel));
      };
    },
    async close() {
      subscribers.clear();
      subscriber?.disconnect();
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
    async publish(channel, message) {
      await client.publish(k(channel), message);
    },
    async subscribe(channel, listener) {
      // Upstash streams a subscription over one HTTP request of its REST API, one per listener.
      const subscription = client.subscribe<string>(k(channel));
      subscription.on("message", ({ message }) => listener(String(message)));
      await new Promise<void>((resolve, reject) => {
        subscription.on("subscribe", () => resolve());
        subscription.on("error", reject);
      });
      return async () => {
        await subscription.unsubscribe();
      };
    },
    async close() {},
  };
}
