/**
 * The proof that the edge keeps no state of its own: two edges, one job worker, the live rooms and a local S3 server
 * serve one Booth on one PostgreSQL and one Redis, and a visitor's requests alternate between the edges.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { type Booth, playAcross, shared, startBooth } from "./one-booth.ts";

if (!shared)
  console.warn(
    "scale-out.test.ts skipped: two edges need shared engines; set TEST_DATABASE_URL and TEST_REDIS_URL (PostgreSQL and Redis)",
  );

let booth: Booth | undefined;
beforeAll(async () => {
  if (shared) booth = await startBooth({ database: `booth_scale_${process.pid}_${Date.now().toString(36)}` });
}, 180_000);
afterAll(() => booth?.stop());

describe.skipIf(!shared)("two edges, one worker, the rooms and S3 serve one Booth", () => {
  it("uploads on one edge, transcodes on the worker, plays on the other; limits and rooms hold across them", async () => {
    await playAcross(booth!);
  }, 180_000);
});
