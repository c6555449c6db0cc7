/**
 * One Booth of several processes, as production runs it: two edges, one job worker, the live rooms (`wrangler dev`)
 * and a local S3 server, on one PostgreSQL and one Redis. The edges keep no state of their own (scale-out.test.ts),
 * and the same Booth works through a pooler in transaction mode (pooled.test.ts).
 */
import { createDecipheriv } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LiveRoomClient } from "@booth/sdk";
import { Redis } from "ioredis";
import postgres from "postgres";
import { expect } from "vitest";
import { freePort, startParty, until } from "../../rooms-party/test/helpers.ts";
import { generateKeys } from "../src/lib/tokens.ts";
import { synthesizeMp3 } from "../src/ports/audio.ts";
import { TEST_FFMPEG } from "../src/testing/app.ts";
import { type ChildRun, spawnChild, waitForServer } from "../src/testing/child-server.ts";
import { startS3 } from "../src/testing/s3.ts";

export const serverUrl = process.env.TEST_DATABASE_URL;
export const redisUrl = process.env.TEST_REDIS_URL;
/** Whether this machine has the shared engines several instances need (PostgreSQL and Redis). */
export const shared = Boolean(serverUrl && redisUrl);

const edgeDir = new URL("..", import.meta.url).pathname;
const U = "/api/upload-service";

type CallInit = RequestInit & { token?: string; json?: unknown; edge?: string };

export interface Booth {
  edges: string[];
  partyUrl: string;
  /** The database's own address (the test's direct writes). */
  directUrl: string;
  /** A request to `init.edge`, else to the next edge in turn: consecutive calls alternate between the edges. */
  call(path: string, init?: CallInit): Promise<Response>;
  /** An entry of the edge package in a process of its own, with the Booth's shared settings and `env` besides. */
  spawnEntry(entry: string, env: Record<string, string>): Promise<ChildRun>;
  stop(): Promise<void>;
}

export interface BoothOptions {
  /** The name of a fresh database to make on the test server (and drop at the end). */
  database: string;
  /** The address the instances use for that database (default: the server's direct address of it). */
  databaseUrl?: (database: string) => string;
  /** Settings every instance gets besides the shared ones. */
  env?: Record<string, string>;
  /** Runs before the instances start, given the Booth (the release step, say). */
  before?: (booth: Booth) => Promise<void>;
}

/** Makes the database and starts the instances; `stop()` ends them and drops it. */
export async function startBooth(options: BoothOptions): Promise<Booth> {
  const children: ChildRun[] = [];
  const dirs: string[] = [];
  const cachePrefix = `booth:${crypto.randomUUID()}:`;
  const admin = postgres(serverUrl ?? "", { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${options.database}"`);
  const direct = new URL(serverUrl ?? "");
  direct.pathname = `/${options.database}`;
  const directUrl = direct.toString();
  const s3 = await startS3();
  const { privateJwk } = await generateKeys();
  const [portA, portB, partyPort] = [await freePort(), await freePort(), await freePort()];
  const edges = [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`];
  const serviceSecret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  // What every instance shares: the engines and the secrets, from the environment.
  const env = {
    DATABASE_URL: options.databaseUrl?.(options.database) ?? directUrl,
    REDIS_URL: redisUrl ?? "",
    CACHE_PREFIX: cachePrefix,
    JWT_PRIVATE_KEY: JSON.stringify(privateJwk),
    BOOTH_SERVICE_SECRET: serviceSecret,
    BOOTH_PARTY_URL: `http://127.0.0.1:${partyPort}`,
    SEED_DEMO: "false",
    ...s3.env,
    ...options.env,
  };
  let turn = 0;
  let party: Awaited<ReturnType<typeof startParty>> | undefined;
  const booth: Booth = {
    edges,
    partyUrl: `http://127.0.0.1:${partyPort}`,
    directUrl,
    async call(path, init = {}) {
      const headers = new Headers(init.headers);
      if (init.token) headers.set("authorization", `Bearer ${init.token}`);
      if (init.json !== undefined) headers.set("content-type", "application/json");
      return fetch(`${init.edge ?? edges[turn++ % edges.length]}${path}`, {
        ...init,
        headers,
        body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
      });
    },
    async spawnEntry(entry, extra) {
      const dataDir = await mkdtemp(join(tmpdir(), "booth-instance-"));
      dirs.push(dataDir);
      const run = spawnChild({
        args: ["--import", "tsx", `src/${entry}`],
        cwd: edgeDir,
        env: { ...process.env, INIT_CWD: "", DATA_DIR: dataDir, ...env, ...extra },
        detached: true,
      });
      children.push(run);
      return run;
    },
    async stop() {
      await party?.stop();
      for (const run of children) await run.stop(3000);
      await s3.close();
      const redis = new Redis(redisUrl ?? "");
      const keys = await redis.keys(`${cachePrefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
      await admin.unsafe(`DROP DATABASE IF EXISTS "${options.database}" WITH (FORCE)`);
      await admin.end({ timeout: 5 });
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    await startInstances();
  } catch (err) {
    await booth.stop();
    throw err;
  }
  return booth;

  async function startInstances() {
    await options.before?.(booth);
    // Both edges start at the same moment (on an empty database they migrate it in turn); neither works jobs.
    const [a, b] = await Promise.all(
      [portA, portB].map((port) => booth.spawnEntry("main.node.ts", { PORT: String(port), RUN_JOBS: "false" })),
    );
    const worker = await booth.spawnEntry("main.worker.ts", { WORKER_PORT: String(await freePort()) });
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
    const persistDir = await mkdtemp(join(tmpdir(), "booth-party-"));
    dirs.push(persistDir);
    // The rooms call the second edge; the web and clients may reach either.
    party = await startParty({
      port: partyPort,
      persistDir,
      vars: { BOOTH_EDGE_URL: edges[1] ?? "" },
      secrets: { BOOTH_SERVICE_SECRET: serviceSecret },
    });
  }
}

/**
 * What a visitor does across the Booth, each request to the other edge than the one before: signs up and in, uploads
 * a song on one edge that the worker transcodes and the other plays (playlist, key, segment from the bucket), meets
 * a rate limit held on both edges, and joins a room made on one edge live, the rooms asking the other about it.
 * Answers the visitor's token and the room.
 */
export async function playAcross(booth: Booth): Promise<{ token: string; room: { uuid: string; slug: string } }> {
  // An account made on one edge signs in on the other.
  const email = `scale-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const signUp = await booth.call("/api/user-service/users/sign-up", {
    method: "POST",
    json: { email, password: "password123", nickname: "scaler" },
  });
  expect(signUp.status, await signUp.clone().text()).toBeLessThan(300);
  // (What an admin and the emailed code would do: the address verified, uploads allowed.)
  const db = postgres(booth.directUrl, { max: 1, onnotice: () => {} });
  try {
    await db`UPDATE users SET capabilities = ARRAY['uploadMusic'], verified_at = now() WHERE email = ${email}`;
  } finally {
    await db.end({ timeout: 5 });
  }
  const login = await booth.call("/api/user-service/auth/login", {
    method: "POST",
    json: { email, password: "password123" },
  });
  expect(login.status).toBe(200);
  const { accessToken: token } = (await login.json()) as { accessToken: string };

  // A song sent to the first edge...
  const ticket = await booth.call(`${U}/upload/song`, {
    method: "POST",
    token,
    json: { originalFileName: "scale.mp3" },
    edge: booth.edges[0],
  });
  expect(ticket.status).toBe(201);
  const { id, uploadUrl } = (await ticket.json()) as { id: string; uploadUrl: string };
  expect(uploadUrl.startsWith(booth.edges[0] ?? "")).toBe(true);
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
      const res = await booth.call(`${U}/songs/${id}`, { token });
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
  const masterRes = await booth.call(`${U}/songs/${id}/hls-playlist`, { token, edge: booth.edges[1] });
  expect(masterRes.status).toBe(200);
  // The master playlist names the renditions; the first one's playlist names the key and the segments.
  const variant = (await masterRes.text()).split("\n").find((line) => line.includes("rendition=")) ?? "";
  const playlistRes = await booth.call(variant, { token, edge: booth.edges[1] });
  expect(playlistRes.status).toBe(200);
  const playlist = await playlistRes.text();
  const keyUri = /URI="([^"]+)"/.exec(playlist)?.[1] ?? "";
  const ivHex = /IV=0x([0-9a-fA-F]+)/.exec(playlist)?.[1];
  // The first segment's address: the bucket's own, presigned (its query ends the line), not an edge's.
  const segmentPath = playlist.split("\n").find((line) => !line.startsWith("#") && line.includes(".ts")) ?? "";
  expect(booth.edges).not.toContain(new URL(segmentPath, booth.edges[1]).origin);
  const keyRes = await fetch(new URL(keyUri, booth.edges[1]), { headers: { authorization: `Bearer ${token}` } });
  expect(keyRes.status).toBe(200);
  const key = new Uint8Array(await keyRes.arrayBuffer());
  expect(key.length).toBe(16);
  // (Fetched as the player does, without the token.)
  const segmentRes = await fetch(new URL(segmentPath, booth.edges[1]));
  expect(segmentRes.status).toBe(200);
  const segment = new Uint8Array(await segmentRes.arrayBuffer());
  // The key decrypts the segment into MPEG-TS packets (sync byte 0x47).
  const iv = ivHex ? Buffer.from(ivHex.padStart(32, "0"), "hex") : Buffer.alloc(16);
  const clear = Buffer.concat([createDecipheriv("aes-128-cbc", key, iv).update(segment)]);
  expect(clear[0]).toBe(0x47);

  // A rate limit reached across both edges holds on each: ten wrong passwords for one account from one address.
  for (let i = 0; i < 10; i++) {
    const res = await booth.call("/api/user-service/auth/login", {
      method: "POST",
      json: { email, password: "wrong" },
    });
    expect(res.status).toBe(401);
  }
  for (const edge of booth.edges) {
    const res = await booth.call("/api/user-service/auth/login", {
      method: "POST",
      json: { email, password: "wrong" },
      edge,
    });
    expect(res.status).toBe(429);
  }

  // A room made on the first edge is joined live, the rooms asking the second edge about it.
  const created = await booth.call("/api/room-service/rooms/infrastructure", {
    method: "POST",
    token,
    json: { name: "Scale room", numberOfDjs: 2, type: "PUBLIC", djType: "EVERYONE" },
    edge: booth.edges[0],
  });
  expect(created.status).toBe(201);
  const room = (await created.json()) as { uuid: string; slug: string };
  const client = new LiveRoomClient({ url: booth.partyUrl, roomUuid: room.uuid, token });
  try {
    const joined = await client.connect();
    expect(joined.state.settings.slug).toBe(room.slug);
    expect(joined.state.allUsers).toHaveLength(1);
  } finally {
    client.close();
  }
  return { token, room };
}
