import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storageFrom } from "../bootstrap.ts";
import { readEdgeSettings } from "../config.ts";
import { startS3 } from "../testing/s3.ts";
import { createTestApp, sendAudio, settledUpload, TEST_FFMPEG, type TestApp, uploaderOf } from "../testing.ts";
import { synthesizeMp3 } from "./audio.ts";
import { s3Storage } from "./storage-s3.ts";

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
});
