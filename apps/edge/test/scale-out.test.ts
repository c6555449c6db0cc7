/**
 * The proof that the edge keeps no state of its own: two edges, one job worker, the live rooms and a local S3 server
 * serve one Booth on one PostgreSQL and one Redis, and a visitor's requests alternate between the edges.
 */
import { createDecipheriv } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LiveRoomClient } from "@booth/sdk";
import { Redis } from "ioredis";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startParty, until } from "../../rooms-party/test/helpers.ts";
import { generateKeys } from "../src/lib/tokens.ts";
import { synthesizeMp3 } from "../src/ports/audio.ts";
import { TEST_FFMPEG } from "../src/testing/app.ts";
import { type ChildRun, spawnChild, waitForServer } from "../src/testing/child-server.ts";
import { startS3 } from "../src/testing/s3.ts";

const serverUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const shared = Boolean(serverUrl && redisUrl);
if (!shared)
  console.warn(
    "scale-out.test.ts skipped: two edges need shared engines; set TEST_DATABASE_URL and TEST_REDIS_URL (PostgreSQL and Redis)",
  );

const edgeDir = new URL("..", import.meta.url).pathname;
const U = "/api/upload-service";
const dbName = `booth_scale_${process.pid}_${Date.now().toString(36)}`;

let admin: postgres.Sql | undefined;
let s3: Awaited<ReturnType<typeof startS3>>;
let party: Awaited<ReturnType<typeof startParty>>;
const children: ChildRun[] = [];
const dirs: string[] = [];
let edges: string[] = [];
const cachePrefix = `scale:${crypto.randomUUID()}:`;

/** An entry of the edge package (main.node.ts, main.worker.ts) in a process of its own, with a data folder of its own. */
async function spawnEntry(entry: string, env: Record<string, string>) {
  const dataDir = await mkdtemp(join(tmpdir(), "booth-scale-"));
  dirs.push(dataDir);
  const run = spawnChild({
    args: ["--import", "tsx", `src/${entry}`],
    cwd: edgeDir,
    env: { ...process.env, INIT_CWD: "", DATA_DIR: dataDir, ...env },
    detached: true,
  });
  children.push(run);
  return run;
}

beforeAll(async () => {
  if (!shared) return;
  admin = postgres(serverUrl ?? "", { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${dbName}"`);
  const databaseUrl = new URL(serverUrl ?? "");
  databaseUrl.pathname = `/${dbName}`;
  s3 = await startS3();
  const { privateJwk } = await generateKeys();
  const [portA, portB, partyPort] = [await freePort(), await freePort(), await freePort()];
  edges = [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`];
  const serviceSecret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  // What every instance shares: the engines and the secrets, from the environment.
  const env = {
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: redisUrl ?? "",
    CACHE_PREFIX: cachePrefix,
    JWT_PRIVATE_KEY: JSON.stringify(privateJwk),
    BOOTH_SERVICE_SECRET: serviceSecret,
    BOOTH_PARTY_URL: `http://127.0.0.1:${partyPort}`,
    SEED_DEMO: "false",
    ...s3.env,
  };
  // Both edges start at the same moment on the empty database (they migrate it in turn); neither works jobs.
  const [a, b] = await Promise.all(
    [portA, portB].map((port) => spawnEntry("main.node.ts", { ...env, PORT: String(port), RUN_JOBS: "false" })),
  );
  const worker = await spawnEntry("main.worker.ts", { ...env, WORKER_PORT: String(await freePort()) });
  await Promise.all(
    [a, b].map((run, i) =>
      waitForServer(run!, {
        name: `edge ${i + 1}`,
        ready: async () => (await fetch(`${edges[i]}/readyz`)).status === 200,
        timeoutMs: 90_000,
      }),
    ),
  );
  await until(() => worker.output().includes("Booth job worker running"), "the worker", 60_000);
  const persistDir = await mkdtemp(join(tmpdir(), "booth-scale-party-"));
  dirs.push(persistDir);
  // The rooms call the second edge; the web and clients may reach either.
  party = await startParty({
    port: partyPort,
    persistDir,
    vars: { BOOTH_EDGE_URL: edges[1] ?? "" },
    secrets: { BOOTH_SERVICE_SECRET: serviceSecret },
  });
}, 180_000);

afterAll(async () => {
  await party?.stop();
  for (const run of children) await run.stop(3000);
  await s3?.close();
  if (shared) {
    const redis = new Redis(redisUrl ?? "");
    const keys = await redis.keys(`${cachePrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }
  await admin?.unsafe(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  await admin?.end({ timeout: 5 });
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

let turn = 0;
/** The next edge in turn: every request goes to the other edge than the one before. */
function next() {
  return edges[turn++ % edges.length] ?? "";
}
async function call(path: string, init: RequestInit & { token?: string; json?: unknown; edge?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  if (init.json !== undefined) headers.set("content-type", "application/json");
  const res = await fetch(`${init.edge ?? next()}${path}`, {
    ...init,
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
  return res;
}

describe.skipIf(!shared)("two edges, one worker, the rooms and S3 serve one Booth", () => {
  it("uploads on one edge, transcodes on the worker, plays on the other; limits and rooms hold across them", async () => {
    // An account made on one edge signs in on the other.
    const email = `scale-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const signUp = await call("/api/user-service/users/sign-up", {
      method: "POST",
      json: { email, password: "password123", nickname: "scaler" },
    });
    expect(signUp.status, await signUp.clone().text()).toBeLessThan(300);
    // (What an admin and the emailed code would do: the address verified, uploads allowed.)
    const db = postgres(new URL(`/${dbName}`, serverUrl).toString(), { max: 1, onnotice: () => {} });
    try {
      await db`UPDATE users SET capabilities = ARRAY['uploadMusic'], verified_at = now() WHERE email = ${email}`;
    } finally {
      await db.end({ timeout: 5 });
    }
    const login = await call("/api/user-service/auth/login", {
      method: "POST",
      json: { email, password: "password123" },
    });
    expect(login.status).toBe(200);
    const { accessToken: token } = (await login.json()) as { accessToken: string };

    // A song sent to the first edge...
    const ticket = await call(`${U}/upload/song`, {
      method: "POST",
      token,
      json: { originalFileName: "scale.mp3" },
      edge: edges[0],
    });
    expect(ticket.status).toBe(201);
    const { id, uploadUrl } = (await ticket.json()) as { id: string; uploadUrl: string };
    expect(uploadUrl.startsWith(edges[0] ?? "")).toBe(true);
    const mp3 = await synthesizeMp3({
      ffmpeg: TEST_FFMPEG,
      seconds: 8,
      frequencies: [440, 660],
      title: "Scale Out",
      artist: "Booth",
    });
    const put = await fetch(uploadUrl, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "audio/mpeg" },
      body: mp3 as Uint8Array<ArrayBuffer>,
    });
    expect(put.status).toBe(200);
    // ... is transcoded by the worker (no edge works jobs) ...
    const song = await until(
      async () => {
        const res = await call(`${U}/songs/${id}`, { token });
        const body = (await res.json()) as { transcodingStatus: string };
        return body.transcodingStatus !== "WAITING_FOR_TRANSCODING" &&
          body.transcodingStatus !== "TRANSCODING_IN_PROGRESS"
          ? body
          : null;
      },
      "the worker to transcode",
      60_000,
    );
    expect(song?.transcodingStatus).toBe("TRANSCODING_SUCCEED");
    // ... and played through the second: playlist, key, segment, from the bucket.
    const masterRes = await call(`${U}/songs/${id}/hls-playlist`, { token, edge: edges[1] });
    expect(masterRes.status).toBe(200);
    // The master playlist names the renditions; the first one's playlist names the key and the segments.
    const variant = (await masterRes.text()).split("\n").find((line) => line.includes("rendition=")) ?? "";
    const playlistRes = await call(variant, { token, edge: edges[1] });
    expect(playlistRes.status).toBe(200);
    const playlist = await playlistRes.text();
    const keyUri = /URI="([^"]+)"/.exec(playlist)?.[1] ?? "";
    const ivHex = /IV=0x([0-9a-fA-F]+)/.exec(playlist)?.[1];
    const segmentPath = playlist.split("\n").find((line) => line.endsWith(".ts")) ?? "";
    const keyRes = await fetch(new URL(keyUri, edges[1]), { headers: { authorization: `Bearer ${token}` } });
    expect(keyRes.status).toBe(200);
    const key = new Uint8Array(await keyRes.arrayBuffer());
    expect(key.length).toBe(16);
    const segmentRes = await fetch(new URL(segmentPath, edges[1]), { headers: { authorization: `Bearer ${token}` } });
    expect(segmentRes.status).toBe(200);
    const segment = new Uint8Array(await segmentRes.arrayBuffer());
    // The key decrypts the segment into MPEG-TS packets (sync byte 0x47).
    const iv = ivHex ? Buffer.from(ivHex.padStart(32, "0"), "hex") : Buffer.alloc(16);
    const clear = Buffer.concat([createDecipheriv("aes-128-cbc", key, iv).update(segment)]);
    expect(clear[0]).toBe(0x47);

    // A rate limit reached across both edges holds on each: ten wrong passwords for one account from one address.
    for (let i = 0; i < 10; i++) {
      const res = await call("/api/user-service/auth/login", { method: "POST", json: { email, password: "wrong" } });
      expect(res.status).toBe(401);
    }
    for (const edge of edges) {
      const res = await call("/api/user-service/auth/login", {
        method: "POST",
        json: { email, password: "wrong" },
        edge,
      });
      expect(res.status).toBe(429);
    }

    // A room made on the first edge is joined live, the rooms asking the second edge about it.
    const created = await call("/api/room-service/rooms/infrastructure", {
      method: "POST",
      token,
      json: { name: "Scale room", numberOfDjs: 2, type: "PUBLIC", djType: "EVERYONE" },
      edge: edges[0],
    });
    expect(created.status).toBe(201);
    const room = (await created.json()) as { uuid: string; slug: string };
    const client = new LiveRoomClient({ url: party.url, roomUuid: room.uuid, token });
    try {
      const joined = await client.connect();
      expect(joined.state.settings.slug).toBe(room.slug);
      expect(joined.state.allUsers).toHaveLength(1);
    } finally {
      client.close();
    }
  }, 180_000);
});
