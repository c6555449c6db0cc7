import { execFile } from "node:child_process";
import { createReadStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstRow } from "../../lib/rows.ts";
import { ffmpegPath } from "../../ports/audio.ts";
import { pgBossJobs } from "../../ports/jobs.ts";
import { fileStream, localStorage } from "../../ports/storage.ts";
import { testLogger } from "../../testing/logger.ts";
import { createTestApp, TEST_FFMPEG, type TestApp, uploaderOf, uploadTicket } from "../../testing.ts";

v8.setFlagsFromString("--expose-gc");
// Freed buffers are counted until V8's sweeper releases them, which runs beside the program and lags on a loaded
// machine: swept within each collection instead, the measure counts what is alive, not what awaits release.
v8.setFlagsFromString("--no-concurrent-array-buffer-sweeping");
const gc = runInNewContext("gc") as () => void;
let t: TestApp;
let dir: string;
let wav: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "booth-stream-"));
  // Files on disk, as on any instance: memory storage would hold them whole by design.
  t = await createTestApp({ storage: localStorage(join(dir, "storage")) });
  // The uploads' transcoding jobs wait for a worker: this file is about the upload itself.
  t.deps.jobs = pgBossJobs(t.sql, { logger: testLogger });
  // 24 MB of CD-quality audio (more than the 16 MB other bodies may have): two and a quarter minutes of WAV.
  wav = join(dir, "long.wav");
  await promisify(execFile)(ffmpegPath(TEST_FFMPEG), [
    ...["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=136"],
    ...["-ac", "2", "-ar", "44100", "-metadata", "title=Long", "-metadata", "artist=Booth", wav],
  ]);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("uploads stream", () => {
  it("a 24 MB file goes to storage as it arrives, never whole in the edge's memory", async () => {
    const { token } = await uploaderOf(t);
    const { id, path } = await uploadTicket(t, token, "long.wav");
    const { size } = await stat(wav);
    expect(size).toBeGreaterThan(16 * 1024 * 1024);
    gc();
    const before = process.memoryUsage().arrayBuffers;
    let peak = before;
    // What stays alive, not what awaits collection: measured right after a full collection. The next look comes
    // 100 ms after this one ends: on a loaded machine a full collection has taken longer than a fixed interval, and
    // back-to-back collections then left the upload almost no time (a 60 s timeout, once).
    let sampling = true;
    let sampler: ReturnType<typeof setTimeout> | undefined;
    const sample = () => {
      gc();
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
      if (sampling) sampler = setTimeout(sample, 100);
    };
    sampler = setTimeout(sample, 100);
    const res = await t.app.request(path, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav", "content-length": String(size) },
      body: fileStream(wav),
      duplex: "half",
    } as RequestInit);
    sampling = false;
    clearTimeout(sampler);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ status: "VERIFIED", size, duration: 136, contentType: "audio/wav" });
    // Buffers grew by far less than the file (held whole, it would add all of it, and copies): it passed through in
    // chunks (half a megabyte of them alive at most, seen under load).
    expect(peak - before).toBeLessThan(size / 6);
    expect((await stat(join(dir, "storage", "uploads", id, "original"))).size).toBe(size);
  }, 120_000);

  it("asks for the file's length, and refuses a body that ends before it, keeping nothing", async () => {
    const { token } = await uploaderOf(t);
    const { id, path } = await uploadTicket(t, token, "long.wav");
    const chunked = await t.app.request(path, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
      body: Readable.toWeb(createReadStream(wav, { end: 99_999 })) as ReadableStream,
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(411);
    expect((await chunked.json()).message).toBe("Send the file with its length (a Content-Length header).");
    const short = await t.app.request(path, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav", "content-length": "200000" },
      body: Readable.toWeb(createReadStream(wav, { end: 99_999 })) as ReadableStream,
      duplex: "half",
    } as RequestInit);
    expect(short.status).toBe(400);
    expect((await short.json()).message).toBe("The file ended before the length its Content-Length header gave.");
    const row = await firstRow(t.db, schema.songUploads, eq(schema.songUploads.id, id));
    expect(row?.status).toBe("PENDING_UPLOAD");
    expect(await t.deps.storage.get(`uploads/${id}/original`)).toBeNull();
  });
});
