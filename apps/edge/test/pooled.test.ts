/**
 * Booth behind a pooler in transaction mode (decision 0023): a real PgBouncer with two server connections per
 * database in front of the test PostgreSQL, so that one client's consecutive transactions land on different server
 * connections. The release step migrates through DATABASE_DIRECT_URL; the two edges and the job worker reach the
 * database only through the pooler (DATABASE_POOLED=true, MIGRATE_ON_START=false); a visitor's main paths work across
 * them (the scale-out test's), and the hot reads answer a burst from both edges.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasPgBouncer, type PgBouncer, startPgBouncer } from "../src/testing/pgbouncer.ts";
import { type Booth, playAcross, serverUrl, shared, startBooth } from "./one-booth.ts";

const ready = shared && hasPgBouncer();
if (!ready)
  console.warn(
    "pooled.test.ts skipped: it needs PostgreSQL and Redis (TEST_DATABASE_URL, TEST_REDIS_URL) and Debian's pgbouncer",
  );

let bouncer: PgBouncer | undefined;
let booth: Booth | undefined;
const migrations: string[] = [];
beforeAll(async () => {
  if (!ready) return;
  bouncer = await startPgBouncer(serverUrl ?? "");
  const pooled = bouncer;
  booth = await startBooth({
    database: `booth_pooled_${process.pid}_${Date.now().toString(36)}`,
    databaseUrl: (name) => pooled.url(name),
    env: { DATABASE_POOLED: "true", MIGRATE_ON_START: "false" },
    // The release step, as a deployment runs it before the new instances: the pooled address, and the direct one.
    before: async (b) => {
      const release = await b.spawnEntry("main.migrate.ts", { DATABASE_DIRECT_URL: b.directUrl });
      const code = await release.exited;
      migrations.push(release.output());
      expect(code, release.output()).toBe(0);
    },
  });
}, 240_000);
afterAll(async () => {
  await booth?.stop();
  await bouncer?.stop();
});

describe.skipIf(!ready)("Booth through PgBouncer in transaction mode", () => {
  it("migrates through the direct address, then serves a visitor across two edges and the worker", async () => {
    expect(migrations.join("")).toContain("Database up to date");
    const { token, room } = await playAcross(booth!);

    // The hot reads (named prepared statements on a direct connection) from both edges at once, 15 rounds of four.
    const reads = [
      "/api/room-service/rooms/public?limit=20",
      `/api/room-service/rooms/${room.slug}`,
      "/api/playlist-service/search?q=scale",
      "/api/playlist-service/crate/special/queue/songs?limit=20",
    ];
    const answers = await Promise.all(
      Array.from({ length: 15 }, () => reads).flatMap((paths) =>
        paths.map(async (path) => {
          const res = await booth!.call(path, { token });
          return { path, status: res.status, body: await res.text() };
        }),
      ),
    );
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    const publicRooms = answers.filter((a) => a.path.startsWith("/api/room-service/rooms/public"));
    for (const answer of publicRooms)
      expect((JSON.parse(answer.body) as { data: { uuid: string }[] }).data.map((r) => r.uuid)).toContain(room.uuid);
  }, 180_000);

  it("refuses to migrate through the pooler alone, naming the direct address it needs, and changes nothing", async () => {
    const release = await booth!.spawnEntry("main.migrate.ts", { DATABASE_DIRECT_URL: "" });
    expect(await release.exited).toBe(1);
    const lines = release.output().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Booth migrate cannot start: DATABASE_DIRECT_URL is required with DATABASE_POOLED=true/);
  });
});
