import { describe, expect, it } from "vitest";
import { openDemo } from "../../bootstrap.ts";
import { DEMO_ARTISTS } from "../../seed/demo-catalogue.ts";
import { createTestApp, openTestApp } from "../../testing.ts";
import { DEMO_PROGRESS_KEY } from "./demo-progress.ts";

const t = openTestApp();

const progress = async () => {
  const res = await t.request("GET", "/api/upload-service/demo/progress");
  expect(res.status).toBe(200);
  return res.body as { loading: boolean; done: number; total: number };
};

describe("the demo catalogue's progress, for the home page", () => {
  it("answers the songs loaded so far while the demo loads, and not loading once it is done", async () => {
    expect(await progress()).toEqual({ loading: false, done: 0, total: 0 });
    const total = DEMO_ARTISTS.length;
    const seen: unknown[] = [];
    await openDemo(t.deps, () => {}, {
      perArtist: 1,
      seconds: 2,
      progress: async () => {
        seen.push(await progress());
      },
    });
    expect(seen).toEqual(Array.from({ length: total }, (_, i) => ({ loading: i + 1 < total, done: i + 1, total })));
    expect(await progress()).toEqual({ loading: false, done: total, total });
    // Kept in the shared cache, where every edge instance reads it, not in this process.
    expect(JSON.parse((await t.deps.cache.get(DEMO_PROGRESS_KEY)) ?? "null")).toEqual({ done: total, total });
  }, 120_000);

  it("stops announcing the loading when it fails, so the home page does not wait for songs that never come", async () => {
    const fresh = await createTestApp();
    try {
      const put = fresh.deps.storage.put.bind(fresh.deps.storage);
      // The second track's file cannot be stored.
      let originals = 0;
      fresh.deps.storage.put = async (key, ...rest) => {
        if (key.endsWith("/original") && ++originals > 1) throw new Error("disk full");
        return put(key, ...rest);
      };
      const seen: unknown[] = [];
      const read = async () => (await fresh.request("GET", "/api/upload-service/demo/progress")).body;
      await expect(
        openDemo(fresh.deps, () => {}, {
          perArtist: 1,
          seconds: 2,
          progress: async () => {
            seen.push(await read());
          },
        }),
      ).rejects.toThrow("disk full");
      // Tracks are made a few at once (DEMO_CONCURRENCY): the failure may come before or after the first is done.
      for (const step of seen) expect(step).toMatchObject({ loading: true, total: DEMO_ARTISTS.length });
      expect(seen.length).toBeLessThan(DEMO_ARTISTS.length);
      expect(await read()).toEqual({ loading: false, done: 0, total: 0 });
    } finally {
      await fresh.close();
    }
  }, 120_000);

  it("reads another instance's progress from the cache, and ignores what it cannot read", async () => {
    await t.deps.cache.set(DEMO_PROGRESS_KEY, JSON.stringify({ done: 7, total: 20 }));
    expect(await progress()).toEqual({ loading: true, done: 7, total: 20 });
    await t.deps.cache.set(DEMO_PROGRESS_KEY, "not json");
    expect(await progress()).toEqual({ loading: false, done: 0, total: 0 });
    await t.deps.cache.del(DEMO_PROGRESS_KEY);
    expect(await progress()).toEqual({ loading: false, done: 0, total: 0 });
  });
});
