// The edge's hot reads (room list, a batch of 150 profiles, crate songs, search, the room state), as ratios to the
// same data read with the database driver directly (postgres.js on PostgreSQL, PGlite's own query() on PGlite) in
// the same run: first one request at a time in process, then over HTTP with 100 connections (autocannon) against
// the same SQL behind a bare Hono route. Runs on PGlite and, when it answers, on the PostgreSQL server in
// TEST_DATABASE_URL (default the local one). On PostgreSQL a third side reads in process with the client a pooled
// database gets (DATABASE_POOLED=true: every statement unnamed, decision 0023). `npm run bench:reads`; BENCH_DBS=pglite
// or postgres picks one, BENCH_MS the time per side of an in-process case, BENCH_HTTP_S the seconds of one HTTP turn.
import type { AddressInfo } from "node:net";
import { createDb, type Db, schema } from "@booth/db";
import { createTestApp } from "@booth/edge/testing";
import { serve } from "@hono/node-server";
import autocannon from "autocannon";
import { sql as drizzleSql } from "drizzle-orm";
import { Hono } from "hono";
import postgres from "postgres";

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const DURATION_MS = Number(process.env.BENCH_MS ?? 3000);
const HTTP_SECONDS = Number(process.env.BENCH_HTTP_S ?? 3);
const ROUNDS = 5;
const CONNECTIONS = 100;
const SONGS = 5000;
const ROOMS = 300;
const PEOPLE = 150;

/**
 * Requests per second of each side, measured in alternating slices (ROUNDS of each, DURATION_MS in all per side), so
 * the load others put on the machine falls on all alike. A side's `start` runs before each of its slices.
 */
async function compare<K extends string>(
  name: string,
  sides: Record<K, { run: () => Promise<unknown>; start?: () => void }>,
) {
  const entries = Object.entries(sides) as [K, { run: () => Promise<unknown>; start?: () => void }][];
  for (const [, side] of entries) {
    side.start?.();
    for (let i = 0; i < 10; i++) await side.run();
  }
  const done = {} as Record<K, number>;
  const spent = {} as Record<K, number>;
  for (let round = 0; round < ROUNDS; round++)
    for (const [key, side] of entries) {
      side.start?.();
      const started = performance.now();
      while (performance.now() - started < DURATION_MS / ROUNDS) {
        await side.run();
        done[key] = (done[key] ?? 0) + 1;
      }
      spent[key] = (spent[key] ?? 0) + performance.now() - started;
    }
  process.stdout.write(`  measured ${name}\n`);
  return Object.fromEntries(entries.map(([key]) => [key, done[key] / (spent[key] / 1000)])) as Record<K, number>;
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
}

/** Turns pooled: the mean rate, the worst p50 and p99. */
const pooled = (turns: Load[]): Load => ({
  rps: turns.reduce((sum, l) => sum + l.rps, 0) / turns.length,
  p50: Math.max(...turns.map((l) => l.p50)),
  p99: Math.max(...turns.map((l) => l.p99)),
});

async function load(base: string, path: string, token?: string): Promise<Load> {
  const result = await autocannon({
    url: base + path,
    connections: CONNECTIONS,
    // The load comes from a worker thread, not the event loop that serves the edge.
    workers: 1,
    duration: HTTP_SECONDS,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad) throw new Error(`${path}: ${bad} failed requests under load`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const words = ["night", "city", "neon", "river", "glass", "ocean", "echo", "velvet", "solar", "paper"];
// A title is words[k % 10] then words[7k % 10]: "neon glass" starts 500 of them.

async function benchOn(kind: "pglite" | "postgres") {
  if (kind === "postgres") process.env.TEST_DATABASE_URL = POSTGRES_URL;
  else delete process.env.TEST_DATABASE_URL;
  const t = await createTestApp();
  process.stdout.write(`${kind}: seeding ${SONGS} songs, ${ROOMS} rooms, ${PEOPLE} people`);
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
  const me = await t.createUser();
  const { token } = me;
  const people: string[] = [];
  for (let i = 0; i < PEOPLE; i++) people.push((await t.createUser({ nickname: `listener${i}` })).user.uuid);
  const now = t.clock.now();
  const rooms = await t.db
    .insert(schema.rooms)
    .values(
      Array.from({ length: ROOMS }, (_, i) => ({
        slug: `bench-room-${i}`,
        name: `Bench room ${i}`,
        ownerUuid: people[i % PEOPLE] as string,
        type: i % 10 === 0 ? ("PRIVATE" as const) : ("PUBLIC" as const),
        createdAt: new Date(now.getTime() - i * 1000),
        updatedAt: now,
      })),
    )
    .returning({ uuid: schema.rooms.uuid });
  await t.db.insert(schema.roomPresence).values(
    people.slice(0, 120).map((userUuid, i) => ({
      roomUuid: rooms[i % 40]?.uuid as string,
      userUuid,
      joinedAt: now,
    })),
  );
  await t.db
    .insert(schema.roomFavorites)
    .values(rooms.slice(1, 6).map((r) => ({ userUuid: me.user.uuid, roomUuid: r.uuid, createdAt: now })));
  const liveRoom = rooms[1]?.uuid as string;
  (t.deps.liveRooms as unknown as { states: Map<string, unknown> }).states.set(liveRoom, {
    djs: people.slice(0, 4),
    nowPlaying: { songId: crypto.randomUUID(), startTime: now.toISOString() },
    votes: { likes: 12, dislikes: 1, stars: 3 },
  });
  const crate = (await t.request("POST", "/api/playlist-service/crate", { token, body: {} })).body.crateUuid as string;
  const ids = (await t.db.select({ id: schema.songs.id }).from(schema.songs).limit(200)).map((r) => r.id);
  await t.request("POST", `/api/playlist-service/crate/${crate}/songs`, { token, body: { songIds: ids } });
  process.stdout.write("\n");

  // The driver directly, on the test app's own database: postgres.js (prepared, as it prepares by default) or PGlite.
  let raw: (text: string, params: unknown[]) => Promise<unknown[]>;
  let closeRaw = async () => {};
  // The edge's own database client, and (PostgreSQL) the one a pooled database gets: no named statement.
  const named: Db = t.deps.db;
  let unnamed: { db: Db; close(): Promise<void> } | undefined;
  if (kind === "postgres") {
    const url = new URL(POSTGRES_URL);
    const [current] = (await t.db.execute(drizzleSql`select current_database() as name`)) as unknown as {
      name: string;
    }[];
    url.pathname = `/${current?.name}`;
    const client = postgres(url.toString(), { max: 5, onnotice: () => {} });
    raw = (text, params) => client.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true });
    closeRaw = () => client.end();
    unnamed = await createDb({ url: url.toString(), pooled: true });
  } else raw = async (text, params) => (await t.sql.executeSql(text, params)).rows;

  const profileIds = people.join(",");
  const q = (text: string, params: unknown[]) => ({ text, params });
  const cases = [
    {
      name: "room list (GET /rooms/public, 20 of 270)",
      path: "/api/room-service/rooms/public?limit=20&offset=0",
      query: q(
        `select r.*, (select count(*)::int from room_presence p where p.room_uuid = r.uuid) as users,
             count(*) over () as total,
             exists (select 1 from room_favorites f where f.user_uuid = $3 and f.room_uuid = r.uuid) as favorited
           from rooms r where r.type = 'PUBLIC' and r.unlisted = false
           order by users desc, r.created_at desc, r.uuid limit $1 offset $2`,
        [20, 0, me.user.uuid],
      ),
    },
    {
      name: `profile batch (GET /users/profiles, ${PEOPLE})`,
      path: `/api/user-service/users/profiles?users=${profileIds}`,
      query: q(
        `select u.*, p.* from users u join profiles p on p.user_uuid = u.uuid
           where u.uuid = any($1::uuid[]) and u.deactivated_at is null`,
        [people],
      ),
    },
    {
      name: "crate songs (GET /crate/{id}/songs, 200)",
      path: `/api/playlist-service/crate/${crate}/songs`,
      query: q(
        `select cs.*, s.*, a.title from crate_songs cs join songs s on s.id = cs.song_id
           left join albums a on a.id = s.album_id where cs.crate_id = $1 order by cs.position limit 5000`,
        [crate],
      ),
    },
    {
      name: "search (GET /search?q=neon glass, 20 of 500)",
      path: "/api/playlist-service/search?q=neon%20glass",
      query: q(
        `select s.*, a.title from songs s left join albums a on a.id = s.album_id
           where to_tsvector('simple', s.track_name || ' ' || s.artist_name || ' ' || coalesce(s.genre, '')) @@ to_tsquery('simple', $1)
           and s.explicit = false
           order by ts_rank(to_tsvector('simple', s.track_name || ' ' || s.artist_name || ' ' || coalesce(s.genre, '')), to_tsquery('simple', $1)) desc, s.track_name, s.id
           limit 20`,
        ["neon:* & glass:*"],
      ),
    },
    {
      name: "room state (GET /rooms/room-state/{id})",
      path: `/api/room-service/rooms/room-state/${liveRoom}`,
      query: q("select * from rooms where uuid = $1", [liveRoom]),
    },
  ].map((c) => ({ ...c, sql: () => raw(c.query.text, c.query.params) }));

  // BENCH_EXPLAIN=1: the plans of the driver's queries (the same tables, joins and indexes as the routes'), then on.
  if (process.env.BENCH_EXPLAIN)
    for (const c of cases) {
      const plan = (await raw(`explain (analyze, costs off, timing off) ${c.query.text}`, c.query.params)) as {
        "QUERY PLAN": string;
      }[];
      console.log(`${kind}: ${c.name}\n${plan.map((l) => `    ${l["QUERY PLAN"]}`).join("\n")}`);
    }

  // Each route must answer 200 before it is measured, or the bench measures refusals.
  for (const c of cases) {
    const res = await t.request("GET", c.path, { token });
    if (res.status !== 200) throw new Error(`${c.path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  }

  const inProcess = [];
  for (const c of cases) {
    const edge = () =>
      t.app.request(c.path, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.arrayBuffer());
    const pooledDb = unnamed?.db;
    const measured = await compare(c.name, {
      driver: { run: c.sql },
      edge: { run: edge, start: () => (t.deps.db = named) },
      ...(pooledDb ? { unnamed: { run: edge, start: () => (t.deps.db = pooledDb) } } : {}),
    });
    t.deps.db = named;
    inProcess.push({ case: c.name, ...measured });
  }
  await unnamed?.close();

  // Over HTTP: the edge, and a bare Hono route answering the driver's rows as JSON, on one server each.
  const bare = new Hono();
  cases.forEach((c, i) => {
    bare.get(`/raw/${i}`, async (ctx) => ctx.json(await c.sql()));
  });
  // One server per case, drained before the next: autocannon leaves requests in flight when its time is up, and
  // on PGlite (one query at a time) they would delay the next case.
  async function served(fetch: (req: Request) => Response | Promise<Response>, run: (base: string) => Promise<Load>) {
    let inFlight = 0;
    const counted = async (req: Request) => {
      inFlight++;
      try {
        return await fetch(req);
      } finally {
        inFlight--;
      }
    };
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: counted, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
    });
    try {
      return await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    } finally {
      while (inFlight > 0) await new Promise((r) => setTimeout(r, 20));
      await new Promise((done) => server.close(done));
    }
  }
  // Over HTTP, the bare route and the edge in turn, twice each (HTTP_SECONDS a turn), the turns pooled.
  const overHttp = [];
  for (const [i, c] of cases.entries()) {
    const turns: { driver: Load[]; edge: Load[] } = { driver: [], edge: [] };
    for (let round = 0; round < 2; round++) {
      turns.driver.push(await served(bare.fetch, (base) => load(base, `/raw/${i}`)));
      turns.edge.push(await served(t.app.fetch, (base) => load(base, c.path, token)));
    }
    process.stdout.write(`  loaded ${c.name}\n`);
    overHttp.push({ case: c.name, driver: pooled(turns.driver), edge: pooled(turns.edge) });
  }
  await closeRaw();
  await t.close();

  console.log(
    `\n${kind}: one request at a time, in process (${DURATION_MS} ms per side and case, in ${ROUNDS} alternating slices)`,
  );
  console.table(
    inProcess.map((r) => ({
      case: r.case,
      "driver req/s": Math.round(r.driver),
      "edge req/s": Math.round(r.edge),
      "edge vs driver": `${(r.edge / r.driver).toFixed(2)}x`,
      ...("unnamed" in r ? { "pooled (unnamed) vs edge": `${((r.unnamed as number) / r.edge).toFixed(2)}x` } : {}),
    })),
  );
  console.log(
    `${kind}: over HTTP, ${CONNECTIONS} connections, 2 turns of ${HTTP_SECONDS} s per side and case (the worst turn's p50 and p99)`,
  );
  console.table(
    overHttp.map((r) => ({
      case: r.case,
      "bare route req/s": Math.round(r.driver.rps),
      "edge req/s": Math.round(r.edge.rps),
      "edge vs bare": `${(r.edge.rps / r.driver.rps).toFixed(2)}x`,
      "bare p50/p99 ms": `${r.driver.p50} / ${r.driver.p99}`,
      "edge p50/p99 ms": `${r.edge.p50} / ${r.edge.p99}`,
    })),
  );
}

const wanted = (process.env.BENCH_DBS ?? "pglite,postgres").split(",");
for (const kind of ["pglite", "postgres"] as const) {
  if (!wanted.includes(kind)) continue;
  if (kind === "postgres") {
    const probe = postgres(POSTGRES_URL, { max: 1, onnotice: () => {}, connect_timeout: 2 });
    const up = await probe`select 1`.then(
      () => true,
      () => false,
    );
    await probe.end();
    if (!up) {
      console.log(`postgres: ${POSTGRES_URL} does not answer; skipped`);
      continue;
    }
  }
  await benchOn(kind);
}
