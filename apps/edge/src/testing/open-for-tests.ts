import { afterAll, beforeAll } from "vitest";

/**
 * Opens what `open` answers (an app, a cache, a fake: anything with `close()`) before the tests of the file or
 * `describe` it is called in, hands it to `take`, and closes it after those tests:
 *
 *   let cache: Cache;
 *   openForTests(() => redisCache(url, prefix), (opened) => (cache = opened));
 */
export function openForTests<T extends { close(): unknown }>(open: () => Promise<T>, take: (opened: T) => void): void {
  let opened: T | undefined;
  beforeAll(async () => {
    opened = await open();
    take(opened);
  });
  afterAll(async () => {
    await opened?.close();
  });
}
