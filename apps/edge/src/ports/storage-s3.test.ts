import { createDecipheriv, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storageFrom } from "../bootstrap.ts";
import { readEdgeSettings } from "../config.ts";
import type { Logger } from "../deps.ts";
import { startS3 } from "../testing/s3.ts";
import {
  createTestApp,
  sendAudio,
  settledUpload,
  TEST_FFMPEG,
  type TestApp,
  testLogger,
  uploaderOf,
} from "../testing.ts";
import { synthesizeMp3 } from "./audio.ts";
import { s3OptionsFrom, s3Storage } from "./storage-s3.ts";

let s3: Awaited<ReturnType<typeof startS3>>;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(() => s3?.close());

describe("object storage (a real S3-compatible server)", () => {
  it("keeps, answers and deletes objects by key, with their type; a missing one is null", async () => {
    const storage = s3Storage(s3.options);
    const bytes = new Uint8Array(randomBytes(300_000));
    await storage.put("hls/abc/seg 0 ü.ts", bytes, "video/mp2t");
    const got = await storage.get("hls/abc/seg 0 ü.ts");
    expect(got?.contentType).toBe("video/mp2t");
    expect(Buffer.from(got?.data ?? []).equals(Buffer.from(bytes))).toBe(true);
    expect(await storage.get("hls/abc/other.ts")).toBeNull();
    await storage.delete("hls/abc/seg 0 ü.ts");
    expect(await storage.get("hls/abc/seg 0 ü.ts")).toBeNull();
    // Deleting what is gone is no error.
    await storage.delete("hls/abc/seg 0 ü.ts");
  });

  it("reports the store's refusal by its reason, and never prints the keys", async () => {
    const storage = s3Storage({ ...s3.options, accessKeyId: "NOBODY", secretAccessKey: "not-the-secret-at-all" });
    const err = await storage.put("a", new Uint8Array([1]), "text/plain").catch((e: Error) => e);
    expect(String(err)).toMatch(/403 InvalidAccessKeyId/);
    expect(String(err)).not.toContain("not-the-secret-at-all");
    const unknownBucket = s3Storage({ ...s3.options, bucket: "nobody-made-this" });
    expect(String(await unknownBucket.get("a").catch((e: Error) => e))).toMatch(/404 NoSuchBucket/);
  });

  it("is chosen by S3_BUCKET, and asks for its keys", () => {
    expect(storageFrom(readEdgeSettings(s3.env), "/nonexistent").kind).toBe("s3");
    expect(storageFrom(readEdgeSettings({}), "/tmp").kind).toBe("local");
    expect(() => storageFrom(readEdgeSettings({ S3_BUCKET: "b", S3_ACCESS_KEY_ID: "k" }), "/tmp")).toThrow(
      "S3_SECRET_ACCESS_KEY must be set when S3_BUCKET is set",
    );
  });

  describe("under the upload pipeline", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ storage: s3Storage(s3.options) });
    });
    afterAll(() => t?.close());

    it("an uploaded song is stored, transcoded and played from the bucket", async () => {
      const owner = await uploaderOf(t);
      const mp3 = await synthesizeMp3({
        ffmpeg: TEST_FFMPEG,
        seconds: 6,
        frequencies: [440],
        title: "Bucket Song",
        artist: "Booth",
      });
      const { id, res } = await sendAudio(t, owner.token, mp3, "bucket.mp3");
      expect(res.status).toBe(200);
      const song = await settledUpload(t, id, owner.token);
      expect(song.transcodingStatus).toBe("TRANSCODING_SUCCEED");
      const playlist = await t.request("GET", `/api/upload-service/songs/${id}/hls-playlist`, { token: owner.token });
      expect(playlist.status).toBe(200);
      // The original and the segments are objects in the bucket.
      const storage = s3Storage(s3.options);
      expect((await storage.get(`uploads/${id}/original`))?.data.length).toBe(mp3.length);
      expect(await storage.get(`hls/${id}/index.m3u8`)).not.toBeNull();
    });
  });

  describe("listeners fetch the encrypted segments from the bucket, never through the edge", () => {
    const U = "/api/upload-service";
    let t: TestApp;
    const logged: Parameters<Logger>[0][] = [];
    let mp3: Uint8Array;
    beforeAll(async () => {
      t = await createTestApp({
        storage: s3Storage({ ...s3.options, clientReads: "presigned" }),
        logger: (entry) => {
          logged.push(entry);
          testLogger(entry);
        },
      });
      mp3 = await synthesizeMp3({ ffmpeg: TEST_FFMPEG, seconds: 6, frequencies: [440], title: "Far", artist: "Booth" });
    });
    afterAll(() => t?.close());

    /** A settled upload of the song by a new uploader, and the media playlist of its low rendition. */
    async function uploaded(app: TestApp) {
      const owner = await uploaderOf(app);
      const { id } = await sendAudio(app, owner.token, mp3, "far.mp3");
      expect((await settledUpload(app, id, owner.token)).transcodingStatus).toBe("TRANSCODING_SUCCEED");
      const res = await app.request("GET", `${U}/songs/${id}/hls-playlist`, {
        token: owner.token,
        query: { rendition: "low" },
      });
      expect(res.status).toBe(200);
      const text = String(res.body);
      return { id, owner, text, segments: text.split("\n").filter((line) => line.includes(".ts")) };
    }

    it("the playlist names presigned bucket addresses; they give the encrypted bytes, which the granted key decrypts", async () => {
      const { id, owner, text, segments } = await uploaded(t);
      const played = logged.length;
      expect(segments.length).toBeGreaterThan(0);
      for (const url of segments) {
        expect(url.startsWith(`${s3.endpoint}/${s3.options.bucket}/hls/${id}/low-seg`)).toBe(true);
        expect(new URL(url).searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
        // Valid for longer than the song: an hour at least, within SigV4's seven days.
        const lifetime = Number(new URL(url).searchParams.get("X-Amz-Expires"));
        expect(lifetime).toBeGreaterThanOrEqual(3600 + 6);
        expect(lifetime).toBeLessThanOrEqual(7 * 24 * 3600);
      }
      // The key stays on the edge, behind the listener's grant.
      const keyUri = /URI="([^"]+)"/.exec(text)?.[1] ?? "";
      expect(keyUri).toMatch(new RegExp(`^${U}/songs/hls/key\\?songId=${id}&grant=`));
      const key = new Uint8Array(await (await t.app.request(keyUri)).arrayBuffer());
      expect(key).toHaveLength(16);
      const iv = Buffer.from(/IV=0x([0-9a-fA-F]{32})/.exec(text)?.[1] ?? "0".repeat(32), "hex");
      // A player on the web's origin fetches each segment from the bucket (CORS allows it), cached for good.
      for (const url of segments) {
        const res = await fetch(url, { headers: { origin: "https://booth.example" } });
        expect(res.status).toBe(200);
        expect(res.headers.get("access-control-allow-origin")).toBeTruthy();
        expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        const cipher = new Uint8Array(await res.arrayBuffer());
        const decipher = createDecipheriv("aes-128-cbc", key, iv);
        const clear = Buffer.concat([decipher.update(cipher), decipher.final()]);
        expect(clear[0]).toBe(0x47); // MPEG-TS sync byte
      }
      // The edge's request log saw the key's request, and no segment's.
      const paths = logged.slice(played).flatMap((entry) => ("path" in entry ? [String(entry.path)] : []));
      expect(paths.some((path) => path.startsWith(`${U}/songs/hls/key`))).toBe(true);
      expect(paths.filter((path) => path.includes("/hls/") && path.includes(".ts"))).toEqual([]);
      expect(logged.slice(played).some((entry) => JSON.stringify(entry).includes("-seg"))).toBe(false);

      // Someone else: no playlist, so no grant; without a grant, or with the owner's, no key.
      const stranger = await t.createUser();
      const refused = await t.request("GET", `${U}/songs/${id}/hls-playlist`, {
        token: stranger.token,
        query: { rendition: "low" },
      });
      expect(refused.status).toBe(403);
      const bare = await t.request("GET", `${U}/songs/hls/key`, { token: stranger.token, query: { songId: id } });
      expect(bare.status).toBe(401);
      const grant = new URL(keyUri, "http://edge").searchParams.get("grant") ?? "";
      const borrowed = await t.request("GET", `${U}/songs/hls/key`, {
        token: stranger.token,
        query: { songId: id, grant },
      });
      expect(borrowed.status).toBe(403);
      expect(owner.user.uuid).not.toBe(stranger.user.uuid);
    });

    it("with MEDIA_BASE_URL the playlist names that prefix, unsigned", async () => {
      const cdn = await createTestApp({
        storage: s3Storage({ ...s3.options, clientReads: { baseUrl: "https://media.booth.example/m/" } }),
      });
      try {
        const { id, segments } = await uploaded(cdn);
        expect(segments.length).toBeGreaterThan(0);
        for (const url of segments)
          expect(url).toMatch(new RegExp(`^https://media\\.booth\\.example/m/hls/${id}/low-seg\\d+\\.ts$`));
      } finally {
        await cdn.close();
      }
    });

    it("MEDIA_SEGMENTS and MEDIA_BASE_URL choose how clients read; MEDIA_BASE_URL needs a bucket it is used with", () => {
      const reads = (env: Record<string, string>) =>
        s3OptionsFrom(readEdgeSettings({ ...s3.env, ...env }))?.clientReads;
      expect(reads({})).toBe("presigned");
      expect(reads({ MEDIA_SEGMENTS: "edge" })).toBeUndefined();
      expect(reads({ MEDIA_BASE_URL: "https://cdn.example/x/" })).toEqual({ baseUrl: "https://cdn.example/x" });
      expect(storageFrom(readEdgeSettings({}), "/tmp").clientUrl).toBeUndefined();
      expect(() => readEdgeSettings({ MEDIA_BASE_URL: "https://cdn.example" })).toThrow(
        /MEDIA_BASE_URL.*needs S3_BUCKET/,
      );
      expect(() =>
        readEdgeSettings({ ...s3.env, MEDIA_BASE_URL: "https://cdn.example", MEDIA_SEGMENTS: "edge" }),
      ).toThrow(/MEDIA_BASE_URL.*not used when MEDIA_SEGMENTS=edge/);
      expect(() => readEdgeSettings({ ...s3.env, MEDIA_SEGMENTS: "cdn" })).toThrow(/MEDIA_SEGMENTS.*storage, edge/);
      expect(() => readEdgeSettings({ ...s3.env, MEDIA_BASE_URL: "ftp://cdn.example" })).toThrow(/MEDIA_BASE_URL/);
    });
  });
});
