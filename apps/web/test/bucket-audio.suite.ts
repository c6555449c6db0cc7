/**
 * Audio from the bucket (#38, decision 0024): with the files in S3, the page's player fetches an upload's encrypted
 * segments from the bucket itself (presigned addresses the edge's playlist names), its key from the edge. The web
 * server is told the bucket by the edge's settings (no keys), and its page policy lets the player reach it.
 */
import { sendAudio, settledUpload, TEST_FFMPEG, uploaderOf } from "@booth/edge/testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { synthesizeMp3 } from "../../edge/src/ports/audio.ts";
import { s3Storage } from "../../edge/src/ports/storage-s3.ts";
import { startS3 } from "../../edge/src/testing/s3.ts";
import { eventually, expectText, suiteStack } from "./harness.ts";
import { listener, roomWithDj } from "./listening.ts";

const s3 = await startS3();
const { S3_ACCESS_KEY_ID: _id, S3_SECRET_ACCESS_KEY: _secret, ...bucketSettings } = s3.env;
const stack = suiteStack({ webEnv: bucketSettings });
afterAll(() => s3.close());

/** The room's audio element: where it is, and how much of the song it holds (its readiness, its buffer's end). */
const loaded = (page: Page) =>
  page.$eval("[data-testid=room-audio]", (a) => {
    const audio = a as HTMLAudioElement;
    const ranges = audio.buffered;
    return {
      time: audio.currentTime,
      paused: audio.paused,
      readyState: audio.readyState,
      bufferedTo: ranges.length ? ranges.end(ranges.length - 1) : 0,
    };
  });

let songId = "";
beforeAll(async () => {
  // The edge's files in the bucket, which clients read by presigned GETs (S3_BUCKET, MEDIA_SEGMENTS=storage).
  stack.t.deps.storage = s3Storage({ ...s3.options, clientReads: "presigned" });
  const owner = await uploaderOf(stack.t);
  const mp3 = await synthesizeMp3({
    ffmpeg: TEST_FFMPEG,
    seconds: 20,
    frequencies: [330, 495],
    title: "From The Bucket",
    artist: "Booth",
  });
  const { id } = await sendAudio(stack.t, owner.token, mp3, "bucket.mp3");
  const upload = await settledUpload(stack.t, id, owner.token, 60_000);
  expect(upload.transcodingStatus).toBe("TRANSCODING_SUCCEED");
  songId = upload.songId;
}, 120_000);

describe("a listener's audio from the bucket", { timeout: 180_000 }, () => {
  it("plays an upload whose segments the page fetches from the bucket, its key from the edge", async () => {
    const { room, client } = await roomWithDj(stack, "Bucket DJ", { name: "Bucket" }, [songId]);
    const person = await listener(stack, "Bucket Ear");
    const requests: URL[] = [];
    person.page.on("request", (req) => requests.push(new URL(req.url())));
    await person.page.goto(`/rooms/${room.slug}`);
    await expectText(person.page, "[data-testid=track-name]", "From The Bucket", 20_000);
    // It plays: the element has the audio (decrypted with the edge's key) buffered ahead of where it is.
    await eventually(async () => {
      const audio = await loaded(person.page);
      expect(audio.paused).toBe(false);
      expect(audio.readyState).toBeGreaterThanOrEqual(3); // HAVE_FUTURE_DATA
      expect(audio.bufferedTo).toBeGreaterThan(audio.time);
    }, 30_000);
    const edge = new URL(stack.edgeUrl).origin;
    const segments = requests.filter((url) => url.pathname.endsWith(".ts"));
    expect(segments.length).toBeGreaterThan(0);
    // Every segment from the bucket (presigned), none from the edge; the key from the edge.
    for (const url of segments) {
      expect(url.origin).toBe(s3.endpoint);
      expect(url.searchParams.get("X-Amz-Signature")).toBeTruthy();
    }
    expect(requests.some((url) => url.origin === edge && url.pathname.endsWith("/songs/hls/key"))).toBe(true);
    // The page's policy let it (a refused fetch is a console error).
    expect(person.errors).toEqual([]);
    client.close();
  });
});
