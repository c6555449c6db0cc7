/**
 * The proof that the edge keeps no state of its own: two edges, one job worker, the live rooms and a local S3 server
 * serve one Booth on one PostgreSQL and one Redis, and a visitor's requests alternate between the edges.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Booth, playAcross, shared, startBooth } from "./one-booth.ts";

/** Each instance's pool, smaller than the default so that the burst below would pass it without the setting. */
const POOL_MAX = 3;

if (!shared)
  console.warn(
    "scale-out.test.ts skipped: two edges need shared engines; set TEST_DATABASE_URL and TEST_REDIS_URL (PostgreSQL and Redis)",
  );

let booth: Booth | undefined;
beforeAll(async () => {
  if (shared)
    booth = await startBooth({
      database: `booth_scale_${process.pid}_${Date.now().toString(36)}`,
      env: { DATABASE_POOL_MAX: String(POOL_MAX) },
    });
}, 180_000);
afterAll(() => booth?.stop());

describe.skipIf(!shared)("two edges, one worker, the rooms and S3 serve one Booth", () => {
  it("uploads on one edge, transcodes on the worker, plays on the other; limits and rooms hold across them", async () => {
    const { token, room } = await playAcross(booth!);

    // 80 reads at once, half on each edge: each instance keeps to DATABASE_POOL_MAX connections, named "booth".
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => [
        "/api/room-service/rooms/public?limit=20",
        `/api/room-service/rooms/${room.slug}`,
        "/api/playlist-service/search?q=scale",
        "/api/playlist-service/crate/special/queue/songs?limit=20",
      ])
        .flat()
        .map(async (path) => (await booth!.call(path, { token })).status),
    );
    expect(answers.filter((status) => status !== 200)).toEqual([]);
    const admin = postgres(booth!.directUrl, { max: 1, onnotice: () => {} });
    try {
      const [row] = await admin<{ n: number }[]>`
        SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'booth'`;
      // Two edges and the worker.
      expect(row?.n).toBeGreaterThan(0);
      expect(row?.n).toBeLessThanOrEqual(3 * POOL_MAX);
    } finally {
      await admin.end({ timeout: 5 });
    }
  }, 180_000);
});
