import { type Cache, memoryCache, redisCache } from "../ports/cache.ts";

/**
 * Two edges' caches over one store, as production instances share theirs: one memory cache held by both (the
 * embedded default is one process), and, with TEST_REDIS_URL, two Redis connections under one fresh key prefix. For
 * `describe.each`: a test that what one edge does reaches the other through the cache.
 */
export function sharedCaches(): [string, () => Promise<[Cache, Cache]>][] {
  const pairs: [string, () => Promise<[Cache, Cache]>][] = [
    [
      "memory cache (one process)",
      async () => {
        const cache = memoryCache();
        return [cache, cache];
      },
    ],
  ];
  const redisUrl = process.env.TEST_REDIS_URL;
  if (redisUrl)
    pairs.push([
      "Redis",
      async () => {
        const prefix = `test:${crypto.randomUUID()}:`;
        return [await redisCache(redisUrl, prefix), await redisCache(redisUrl, prefix)];
      },
    ]);
  return pairs;
}
