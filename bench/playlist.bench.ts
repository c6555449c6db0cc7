// Search and crate reads through the whole edge, as ratios to the same query run directly with postgres.js in the
// same run (needs a PostgreSQL server: TEST_DATABASE_URL, default the local one). Run with `npm run bench:playlist`.
import { schema } from "@booth/db";
import { createTestApp } from "@booth/edge/testing";
import { sql as drizzleSql } from "drizzle-orm";
import postgres from "postgres";

process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/test";
const DURATION_MS = Number(process.env.BENCH_MS ?? 1500);
const SONGS = 5000;

async function measure(name: string, run: () => Promise<unknown>) {
  for (let i = 0; i < 20; i++) await run();
  let n = 0;
  const started = performance.now();
  while (performance.now() - started < DURATION_MS) {
    await run();
    n++;
  }
  process.stdout.write(`  measured ${name}\n`);
  return n / ((performance.now() - started) / 1000);
}

const t = await createTestApp();
const words = ["night", "city", "neon", "river", "glass", "ocean", "echo", "velvet", "solar", "paper"];
process.stdout.write(`  seeding ${SONGS} songs`);
for (let i = 0; i < SONGS; i += 500) {
  await t.db.insert(schema.songs).values(
    Array.from({ length: 500 }, (_, j) => ({
      shortId: `b${i + j}`,
      trackName: `${words[(i + j) % 10]} ${words[(i + j * 7) % 10]} ${i + j}`,
      artistName: `Artist ${(i + j) % 97}`,
      genre: ["house", "soul", "ambient"][(i + j) % 3],
    })),
  );
  process.stdout.write(".");
}
process.stdout.write("\n");
const { token } = await t.createUser();
const crate = (await t.request("POST", "/api/playlist-service/crate", { token, body: {} })).body.crateUuid as string;
const ids = (await t.db.select({ id: schema.songs.id }).from(schema.songs).limit(200)).map((r) => r.id);
await t.request("POST", `/api/playlist-service/crate/${crate}/songs`, { token, body: { songIds: ids } });

const url = new URL(process.env.TEST_DATABASE_URL);
// The test app made a fresh database for this run; query that same one directly.
const [current] = (await t.db.execute(drizzleSql`select current_database() as name`)) as unknown as { name: string }[];
url.pathname = `/${current?.name}`;
const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });

const rawSearch = () =>
  sql`select s.*, a.title from songs s left join albums a on a.id = s.album_id
      where to_tsvector('simple', s.track_name || ' ' || s.artist_name || ' ' || coalesce(s.genre, '')) @@ to_tsquery('simple', 'neon:* & river:*')
      and s.explicit = false
      order by ts_rank(to_tsvector('simple', s.track_name || ' ' || s.artist_name || ' ' || coalesce(s.genre, '')), to_tsquery('simple', 'neon:* & river:*')) desc, s.track_name, s.id
      limit 20`;
const rawCrate = () =>
  sql`select cs.*, s.*, a.title from crate_songs cs join songs s on s.id = cs.song_id left join albums a on a.id = s.album_id
      where cs.crate_id = ${crate} order by cs.position limit 5000`;

const results = [
  ["search: postgres.js directly", await measure("raw search", rawSearch)],
  [
    "search: GET /search?q=neon river",
    await measure("GET /search", () =>
      t.request("GET", "/api/playlist-service/search", { query: { q: "neon river" } }),
    ),
  ],
  ["crate read: postgres.js directly", await measure("raw crate", rawCrate)],
  [
    "crate read: GET /crate/{id}/songs (200 songs)",
    await measure("GET crate songs", () => t.request("GET", `/api/playlist-service/crate/${crate}/songs`, { token })),
  ],
] as const;
await sql.end();
await t.close();

const [rawS, apiS, rawC, apiC] = results.map(([, v]) => v) as [number, number, number, number];
console.table([
  { case: results[0][0], "req/s": Math.round(rawS), "vs postgres.js": "1.00x" },
  { case: results[1][0], "req/s": Math.round(apiS), "vs postgres.js": `${(apiS / rawS).toFixed(2)}x` },
  { case: results[2][0], "req/s": Math.round(rawC), "vs postgres.js": "1.00x" },
  { case: results[3][0], "req/s": Math.round(apiC), "vs postgres.js": `${(apiC / rawC).toFixed(2)}x` },
]);
