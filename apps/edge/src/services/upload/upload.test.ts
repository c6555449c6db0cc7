import { execFile } from "node:child_process";
import { createDecipheriv } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstRow } from "../../lib/rows.ts";
import { ffmpegPath, synthesizeMp3 } from "../../ports/audio.ts";
import { until } from "../../testing/until.ts";
import {
  createTestApp,
  expectRefusal,
  ok,
  sendAudio,
  settledUpload,
  TEST_FFMPEG,
  type TestApp,
  uploaderOf,
} from "../../testing.ts";
import { HEARING_MESSAGES, KEY_GRANT_TTL } from "./hearing.ts";

let t: TestApp;
let mp3: Uint8Array<ArrayBuffer>;
let untagged: Uint8Array<ArrayBuffer>;
beforeAll(async () => {
  t = await createTestApp();
  mp3 = (await synthesizeMp3({
    ffmpeg: TEST_FFMPEG,
    seconds: 8,
    frequencies: [440, 660],
    noise: 0.2,
    title: "Test Tone",
    artist: "Booth Band",
    genre: "ambient",
    year: 2026,
  })) as Uint8Array<ArrayBuffer>;
  untagged = (await synthesizeMp3({
    ffmpeg: TEST_FFMPEG,
    seconds: 3,
    frequencies: [330],
    title: "",
    artist: "",
  })) as Uint8Array<ArrayBuffer>;
}, 60_000);
afterAll(() => t.close());

const U = "/api/upload-service";

/** How many seconds of audio ffmpeg decodes from an MPEG-TS file (as 16-bit mono at 8 kHz: 16,000 bytes a second). */
async function decodedSeconds(ts: Uint8Array) {
  const dir = await mkdtemp(join(tmpdir(), "booth-rendition-"));
  try {
    await writeFile(join(dir, "all.ts"), ts);
    const { stdout } = await promisify(execFile)(
      ffmpegPath(TEST_FFMPEG),
      ["-v", "error", "-i", join(dir, "all.ts"), "-f", "s16le", "-ac", "1", "-ar", "8000", "-"],
      { encoding: "buffer", maxBuffer: 64 * 1024 * 1024 },
    );
    return stdout.length / 16_000;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const uploader = () => uploaderOf(t);
const sendFile = (token: string, bytes: Uint8Array<ArrayBuffer>, name = "tone.mp3") => sendAudio(t, token, bytes, name);
const settled = (id: string, token: string) => settledUpload(t, id, token);

describe("uploads", () => {
  it("takes a real MP3 to one HLS master playlist of three renditions, each of which decrypts with the served key and plays", async () => {
    const { token } = await uploader();
    const { id, res, body } = await sendFile(token, mp3);
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      status: "VERIFIED",
      contentType: "audio/mpeg",
      tags: { title: "Test Tone", artist: "Booth Band" },
    });
    const done = await settled(id, token);
    expect(done.transcodingStatus).toBe("TRANSCODING_SUCCEED");
    expect(done.duration).toBe(8);

    // The uploader hears their own upload. The master playlist names the three renditions, lightest first, with
    // their bandwidths (the bit rate and the container's share), each a playlist of the edge's own.
    const auth = { headers: { authorization: `Bearer ${token}` } };
    const master = await t.app.request(`${U}/songs/${id}/hls-playlist`, auth);
    expect(master.status).toBe(200);
    expect(master.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    const masterText = await master.text();
    expect(masterText).not.toContain("#EXT-X-KEY");
    const variants = [...masterText.matchAll(/#EXT-X-STREAM-INF:BANDWIDTH=(\d+)[^\n]*\n(.+)/g)].map((m) => ({
      bandwidth: Number(m[1]),
      uri: m[2] ?? "",
    }));
    expect(variants.map((v) => v.uri)).toEqual(
      ["low", "medium", "high"].map((r) => `${U}/songs/${id}/hls-playlist?rendition=${r}`),
    );
    expect(variants.map((v) => v.bandwidth)).toEqual([70_400, 140_800, 281_600]);
    expect(masterText).toContain('CODECS="mp4a.40.2"');

    // Each rendition plays: its key URI carries the uploader's grant, which alone opens the key; its segments
    // decrypt with it and decode to the whole song, at about the rendition's bit rate.
    const bytes: number[] = [];
    for (const variant of variants) {
      const playlist = await t.app.request(variant.uri, auth);
      expect(playlist.status).toBe(200);
      const text = await playlist.text();
      expect(text).toContain("#EXT-X-KEY:METHOD=AES-128");
      const keyUri = text.match(/URI="([^"]+)"/)?.[1] ?? "";
      expect(keyUri).toMatch(new RegExp(`^${U}/songs/hls/key\\?songId=${id}&grant=`));
      expect((await t.app.request(`${U}/songs/hls/key?songId=${id}`)).status).toBe(401);
      const key = new Uint8Array(await (await t.app.request(keyUri)).arrayBuffer());
      expect(key).toHaveLength(16);
      const iv = Buffer.from(text.match(/IV=0x([0-9a-fA-F]{32})/)?.[1] ?? "0".repeat(32), "hex");
      const segments = text.split("\n").filter((l) => l.endsWith(".ts"));
      expect(segments.length).toBeGreaterThan(0);
      const plain: Buffer[] = [];
      for (const segment of segments) {
        const res = await t.app.request(segment);
        expect(res.status).toBe(200);
        const decipher = createDecipheriv("aes-128-cbc", key, iv);
        const cipher = new Uint8Array(await res.arrayBuffer());
        plain.push(Buffer.concat([decipher.update(cipher), decipher.final()]));
      }
      expect(plain[0]?.[0]).toBe(0x47); // MPEG-TS sync byte
      const ts = Buffer.concat(plain);
      bytes.push(ts.length);
      expect(await decodedSeconds(ts)).toBeCloseTo(8, 0);
    }
    // 8 s at 64, 128 and 256 kb/s, with the MPEG-TS overhead: each about its rate, and each twice the one before.
    bytes.forEach((n, i) => {
      const kbps = (n * 8) / 8 / 1000; // bits over the song's 8 seconds
      expect(kbps).toBeGreaterThan([64, 128, 256][i] as number);
      expect(kbps).toBeLessThan(([64, 128, 256][i] as number) * 1.5);
    });
    expect((await t.app.request(`${U}/songs/${id}/hls-playlist?rendition=ultra`, auth)).status).toBe(400);

    const song = await firstRow(t.db, schema.songs, eq(schema.songs.id, done.songId));
    expect(song).toMatchObject({
      trackName: "Test Tone",
      artistName: "Booth Band",
      duration: 8,
      streamUrls: { hls: `${U}/songs/${id}/hls-playlist` },
    });
    const search = await t.api().upload.GET("/search", { params: { query: { term: "booth" } } });
    expect(search.data?.data.map((u) => u.id)).toContain(id);
    expect((await t.api().upload.GET("/songs/public")).data?.total).toBeGreaterThan(0);
  }, 60_000);

  it("holds an untagged song as MISSING_METADATA until its owner tags it; nobody else may", async () => {
    const owner = await uploader();
    const other = await uploader();
    const { id, body } = await sendFile(owner.token, untagged);
    expect(body.status).toBe("MISSING_METADATA");
    const refused = await t.app.request(`${U}/songs/${id}/hls-playlist`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe("Song is not verified");
    const notYours = await t
      .api(other.token)
      .upload.PATCH("/songs/{id}", { params: { path: { id } }, body: { title: "Mine now" } });
    expectRefusal(notYours, 403, "Unauthorized to edit tags that not belongs to the user");
    const tagged = await t
      .api(owner.token)
      .upload.PATCH("/songs/{id}", { params: { path: { id } }, body: { title: "Named", artist: "Someone" } });
    expect(tagged.data?.status).toBe("VERIFIED");
    expect((await settled(id, owner.token)).transcodingStatus).toBe("TRANSCODING_SUCCEED");
    expect(
      (await t.api(owner.token).upload.PATCH("/songs/{id}", { params: { path: { id } }, body: { year: 99 } })).response
        .status,
    ).toBe(400);
  }, 60_000);

  it("refuses files that are not audio, truncated, or too large, keeping nothing", async () => {
    const { token } = await uploader();
    const text = await sendFile(
      token,
      new TextEncoder().encode("just some text, not audio") as Uint8Array<ArrayBuffer>,
    );
    expect(text.res.status).toBe(415);
    const truncated = await sendFile(token, mp3.slice(0, 40) as Uint8Array<ArrayBuffer>);
    expect(truncated.res.status).toBe(415);
    const row = await firstRow(t.db, schema.songUploads, eq(schema.songUploads.id, truncated.id));
    expect(row?.status).toBe("PENDING_UPLOAD");
    expect(await t.deps.storage.get(`uploads/${truncated.id}/original`)).toBeNull();
    const big = await t.api(token).upload.POST("/upload/song", { body: { originalFileName: "big.mp3" } });
    const res = await t.app.request(new URL(ok(big).uploadUrl).pathname, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-length": String(60 * 1024 * 1024) },
      body: new Uint8Array(10),
    });
    expect(res.status).toBe(413);
  });

  it("refuses MP3 tags followed by a playlist instead of audio, so ffmpeg never opens it", async () => {
    const { token } = await uploader();
    const tags = mp3.slice(0, 10 + ((mp3[6]! << 21) | (mp3[7]! << 14) | (mp3[8]! << 7) | mp3[9]!));
    const playlist = new TextEncoder().encode("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n/etc/passwd\n");
    const hostile = new Uint8Array([...tags, ...playlist]);
    const { id, res, body } = await sendFile(token, hostile);
    expect(res.status).toBe(415);
    expect(body.message).toBe("The file could not be read as audio; it may be damaged or truncated.");
    expect(await t.deps.storage.get(`uploads/${id}/original`)).toBeNull();
  });

  it("needs the uploadMusic capability, and only the owner sends the file or deletes the song", async () => {
    const plain = await t.createUser();
    const ticket = await t.api(plain.token).upload.POST("/upload/song", { body: { originalFileName: "x.mp3" } });
    expect(ticket.response.status).toBe(403);
    expect((await t.api().upload.POST("/upload/song", { body: { originalFileName: "x.mp3" } })).response.status).toBe(
      401,
    );
    // Raw: an upload without its file name, which the typed client cannot send.
    const nameless = await t.request("POST", "/api/upload-service/upload/song", {
      token: (await uploader()).token,
      body: {},
    });
    expect(nameless.status).toBe(400);
    const owner = await uploader();
    const other = await uploader();
    const started = await t.api(owner.token).upload.POST("/upload/song", { body: { originalFileName: "mine.mp3" } });
    const path = new URL(ok(started).uploadUrl).pathname;
    const foreign = await t.app.request(path, {
      method: "PUT",
      headers: { authorization: `Bearer ${other.token}` },
      body: mp3,
    });
    expect(foreign.status).toBe(403);
    const { id } = await sendFile(owner.token, mp3);
    await settled(id, owner.token);
    const files = ["key", "index.m3u8", "low.m3u8", "high.m3u8", "low-seg000.ts", "medium-seg001.ts", "high-seg001.ts"];
    for (const file of files) expect(await t.deps.storage.get(`hls/${id}/${file}`)).not.toBeNull();
    expect((await t.api(other.token).upload.DELETE("/songs/{id}", { params: { path: { id } } })).response.status).toBe(
      403,
    );
    expect((await t.api(owner.token).upload.DELETE("/songs/{id}", { params: { path: { id } } })).response.status).toBe(
      204,
    );
    expect((await t.app.request(`${U}/songs/${id}/hls-playlist`)).status).toBe(404);
    for (const file of files) expect(await t.deps.storage.get(`hls/${id}/${file}`)).toBeNull();
    const mine = await t.api(owner.token).upload.GET("/songs");
    expect(mine.data?.data.map((u) => u.id)).not.toContain(id);
  }, 60_000);

  it("shows admins each background job: what it worked on, its state and runs; nobody else", async () => {
    const { token } = await uploader();
    const { id } = await sendFile(token, mp3);
    await settled(id, token);
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const job = await until(
      async () => {
        const res = await t.api(admin.token).upload.GET("/admin/jobs", { params: { query: { kind: "transcode" } } });
        expect(res.response.status).toBe(200);
        const found = ok(res).data.find((j) => (j.data as { uploadId?: string }).uploadId === id);
        return found?.state === "completed" ? found : undefined;
      },
      "the transcode job completed",
      60_000,
    );
    expect(job).toMatchObject({ kind: "transcode", attempts: 1, lastError: null });
    expect(new Date(job.finishedAt!).getTime()).toBeGreaterThanOrEqual(new Date(job.startedAt!).getTime());
    expect((await t.api(token).upload.GET("/admin/jobs")).response.status).toBe(403);
    expect((await t.api().upload.GET("/admin/jobs")).response.status).toBe(401);
    // Raw: a state outside the enum, which the typed client cannot send.
    const bad = await t.request("GET", "/api/upload-service/admin/jobs", {
      token: admin.token,
      query: { state: "exploded" },
    });
    expect(bad.status).toBe(400);
  });

  it("reads tags of a file without keeping it", async () => {
    const { token } = await t.createUser();
    const res = await t.app.request(`${U}/metadata`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: mp3,
    });
    expect(await res.json()).toMatchObject({ title: "Test Tone", artist: "Booth Band", duration: 8 });
    expect((await t.app.request(`${U}/metadata`, { method: "POST", body: mp3 })).status).toBe(401);
  });
});

describe("who hears an upload", () => {
  const auth = (token?: string) => (token ? { headers: { authorization: `Bearer ${token}` } } : {});
  async function room(token: string) {
    const res = await t
      .api(token)
      .room.POST("/rooms/infrastructure", { body: { name: `Room ${crypto.randomUUID().slice(0, 8)}` } });
    expect(res.response.status).toBe(201);
    return ok(res) as { uuid: string; slug: string };
  }
  const guestToken = async () => ok(await t.api().user.GET("/auth/guest")).accessToken as string;

  it("gives a song's key only to its uploader, an admin, or someone in a room playing it now, for a few minutes", async () => {
    const owner = await uploader();
    const { id } = await sendFile(owner.token, mp3);
    const { songId } = await settled(id, owner.token);
    /** What a player gets: the master and a rendition's playlist with the caller's token, then the key it names. */
    async function hear(token?: string) {
      const master = await t.app.request(`${U}/songs/${id}/hls-playlist`, auth(token));
      const playlist = await t.app.request(`${U}/songs/${id}/hls-playlist?rendition=medium`, auth(token));
      expect(master.status).toBe(playlist.status);
      if (playlist.status !== 200) return { status: playlist.status, message: (await playlist.json()).message };
      const keyUri = (await playlist.text()).match(/URI="([^"]+)"/)?.[1] ?? "";
      const key = await t.app.request(keyUri, auth(token));
      return { status: key.status, bytes: (await key.arrayBuffer()).byteLength, keyUri };
    }
    const service = await t.serviceToken();
    const playing = await room(owner.token);
    const elsewhere = await room(owner.token);
    const report = await t.api(service).room.PATCH("/rooms/live-state/{id}/infrastructure", {
      params: { path: { id: playing.uuid } },
      body: { nowPlaying: { songId, trackName: "Test Tone", artistName: "Booth Band", duration: 8 } },
    });
    expect(report.response.status).toBe(200);
    const member = await t.createUser();
    const listenerElsewhere = await t.createUser();
    for (const [who, where] of [
      [member, playing],
      [listenerElsewhere, elsewhere],
    ] as const)
      expect(
        (
          await t.api(service).room.PATCH("/rooms/user/{user}", {
            params: { path: { user: who.user.uuid } },
            body: { roomUuid: where.uuid },
          })
        ).response.status,
      ).toBe(204);
    const guestIn = await guestToken();
    const guestElsewhere = await guestToken();
    expect(
      (await t.api(guestIn).room.POST("/rooms/{slug}/join", { params: { path: { slug: playing.slug } }, body: {} }))
        .response.status,
    ).toBe(200);
    expect(
      (
        await t
          .api(guestElsewhere)
          .room.POST("/rooms/{slug}/join", { params: { path: { slug: elsewhere.slug } }, body: {} })
      ).response.status,
    ).toBe(200);
    const memberLive = ok(await t.api(member.token).user.POST("/auth/live-token")).accessToken as string;
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const stranger = await t.createUser();

    const notNow = { status: 403, message: HEARING_MESSAGES.notNow };
    expect(await hear()).toEqual({ status: 401, message: "Unauthorized" });
    expect(await hear(stranger.token)).toEqual(notNow);
    expect(await hear(listenerElsewhere.token)).toEqual(notNow);
    expect(await hear(guestElsewhere)).toEqual(notNow);
    expect(await hear(service)).toEqual(notNow);
    for (const token of [owner.token, admin.token, member.token, memberLive, guestIn])
      expect(await hear(token)).toMatchObject({ status: 200, bytes: 16 });

    // A grant is the member's, for a few minutes.
    const { keyUri } = (await hear(memberLive)) as { keyUri: string };
    const stolen = await t.app.request(keyUri, auth(stranger.token));
    expect(stolen.status).toBe(403);
    expect((await stolen.json()).message).toBe(HEARING_MESSAGES.notYourGrant);
    const forged = keyUri.replace(/grant=[^.]+\.[^.]+\./, (m) => `${m.slice(0, -2)}x.`);
    expect((await t.app.request(forged)).status).toBe(401);
    expect((await t.app.request(keyUri)).status).toBe(200);
    t.clock.advance(KEY_GRANT_TTL + 1);
    const late = await t.app.request(keyUri);
    expect(late.status).toBe(401);
    expect((await late.json()).message).toBe(HEARING_MESSAGES.badGrant);

    // Leaving the room, or the room moving on, ends it.
    await t.api(service).room.DELETE("/rooms/user/{user}", {
      params: { path: { user: (await guestIdentity(guestIn)).sub }, query: { roomUuid: playing.uuid } },
    });
    expect(await hear(guestIn)).toEqual(notNow);
    await t.api(service).room.PATCH("/rooms/live-state/{id}/infrastructure", {
      params: { path: { id: playing.uuid } },
      body: { nowPlaying: null },
    });
    expect(await hear(member.token)).toEqual(notNow);
    expect(await hear(owner.token)).toMatchObject({ status: 200, bytes: 16 });
  }, 60_000);
});

const guestIdentity = async (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as { sub: string };
