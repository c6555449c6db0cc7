import { Redis as UpstashRedis } from "@upstash/redis";

/** The small Redis-shaped port: rate limits, short-lived values, counters. */
export interface Cache {
  readonly kind: "memory" | "redis" | "upstash";
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  del(key: string): Promise<void>;
  /** Increments a counter and returns the new value; the ttl is set when the counter is created. */
  incr(key: string, ttlSeconds: number): Promise<number>;
  close(): Promise<void>;
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
    async close() {},
  };
}
