import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_FFMPEG } from "../testing/app.ts";
import {
  chooseFfmpeg,
  ffmpegWarning,
  probeAudio,
  RENDITIONS,
  sniffAudio,
  synthesizeMp3,
  transcodeToHls,
} from "./audio.ts";

// ffmpeg decodes files strangers upload. These tests hand it files that try to make it fetch an address or read a
// file of the machine, and one that never ends, and show it does none of that.

let dir: string;
let server: Server;
let port: number;
const requests: string[] = [];
let tone: Uint8Array;
const key = new Uint8Array(16).fill(7);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "booth-ffmpeg-test-"));
  server = createServer((req, res) => {
    requests.push(req.url ?? "");
    res.end("");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as { port: number }).port;
  tone = await synthesizeMp3({
    ffmpeg: TEST_FFMPEG,
    seconds: 2,
    frequencies: [440],
    title: "Tone",
    artist: "Booth Band",
  });
}, 60_000);
afterAll(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

/** An ID3v2.3 tag with a title and an artist: what makes a file pass for MP3 to the upload route's sniffing. */
function id3(): Uint8Array {
  const frame = (id: string, text: string) => {
    const body = Buffer.from(`\0${text}`, "latin1");
    const size = Buffer.alloc(4);
    size.writeUInt32BE(body.length);
    return Buffer.concat([Buffer.from(id, "latin1"), size, Buffer.from([0, 0]), body]);
  };
  const frames = Buffer.concat([frame("TIT2", "Hostile"), frame("TPE1", "Mallory")]);
  const n = frames.length;
  const syncsafe = Buffer.from([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f]);
  return Buffer.concat([Buffer.from("ID3\x03\x00\x00", "latin1"), syncsafe, frames]);
}

/** ID3 tags followed by an HLS playlist naming `segment`: ffmpeg's probing skips the tags and finds a playlist. */
const taggedPlaylist = (segment: string) =>
  new Uint8Array(
    Buffer.concat([
      id3(),
      Buffer.from(
        `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:10,\n${segment}\n#EXT-X-ENDLIST\n`,
      ),
    ]),
  );

describe("ffmpeg on a hostile upload", () => {
  it("takes a playlist in MP3 clothing for what it claims to be, so it fetches no address", async () => {
    const hostile = taggedPlaylist(`http://127.0.0.1:${port}/steal.ts`);
    expect(sniffAudio(hostile)).toBe("audio/mpeg");
    await expect(transcodeToHls(hostile, key, "/key", { ffmpeg: TEST_FFMPEG })).rejects.toThrow(/ffmpeg/);
    expect(requests).toEqual([]);
  });

  it("reads no file of the machine the playlist names, media or not", async () => {
    // A secret that is itself playable: read through the playlist, it would become the attacker's song.
    const secret = join(dir, "secret.mp3");
    await writeFile(secret, tone);
    for (const segment of [secret, `file://${secret}`, "/etc/passwd"])
      await expect(transcodeToHls(taggedPlaylist(segment), key, "/key", { ffmpeg: TEST_FFMPEG })).rejects.toThrow(
        /ffmpeg/,
      );
  });

  it("refuses bytes that are no audio container before ffmpeg sees them", async () => {
    const playlist = new TextEncoder().encode(`#EXTM3U\n#EXTINF:10,\nhttp://127.0.0.1:${port}/x.ts\n`);
    await expect(transcodeToHls(playlist, key, "/key", { ffmpeg: TEST_FFMPEG })).rejects.toThrow(
      "The file is not an audio file",
    );
    expect(requests).toEqual([]);
  });

  it("the upload route's probe finds no audio behind the tags", async () => {
    await expect(probeAudio(taggedPlaylist("/etc/passwd"), "audio/mpeg")).rejects.toThrow("no audio");
    expect((await probeAudio(tone, "audio/mpeg")).duration).toBe(2);
  });

  it("still transcodes a real song to encrypted HLS, one variant stream per rendition", async () => {
    const out = await transcodeToHls(tone, key, "/api/upload-service/songs/hls/key?songId=x", { ffmpeg: TEST_FFMPEG });
    expect([...out.variants.keys()]).toEqual(["low", "medium", "high"]);
    expect(out.master.match(/^[a-z]+\.m3u8$/gm)).toEqual(["low.m3u8", "medium.m3u8", "high.m3u8"]);
    for (const [name, playlist] of out.variants) {
      expect(playlist).toContain('#EXT-X-KEY:METHOD=AES-128,URI="/api/upload-service/songs/hls/key?songId=x"');
      for (const segment of playlist.match(/^.+\.ts$/gm) ?? []) {
        expect(segment).toMatch(new RegExp(`^${name}-seg\\d{3}\\.ts$`));
        expect(out.files.get(segment)?.length).toBeGreaterThan(0);
      }
    }
    const one = await transcodeToHls(tone, key, "/key", { ffmpeg: TEST_FFMPEG, renditions: [RENDITIONS[2]] });
    expect([...one.variants.keys()]).toEqual(["high"]);
    expect([...one.files.keys()].every((f) => f.startsWith("high-"))).toBe(true);
  });

  it("kills a decode that runs past its time limit, with an error that says so", async () => {
    const slow = join(dir, "slow-ffmpeg");
    await writeFile(slow, "#!/bin/sh\nexec sleep 30\n");
    await chmod(slow, 0o755);
    const started = Date.now();
    await expect(
      transcodeToHls(tone, key, "/key", { ffmpeg: { ...TEST_FFMPEG, FFMPEG_PATH: slow }, timeoutMs: 1000 }),
    ).rejects.toThrow("ffmpeg ran longer than 1 s and was stopped.");
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe("which ffmpeg", () => {
  it("FFMPEG_PATH first, then the system's on PATH, then the bundled build with a warning", async () => {
    const bin = join(dir, "bin");
    await mkdir(bin, { recursive: true });
    const system = join(bin, "ffmpeg");
    await writeFile(system, "#!/bin/sh\n");
    await chmod(system, 0o755);
    const bundled = () => "/bundled/ffmpeg";
    const empty = join(dir, "empty");
    await mkdir(empty, { recursive: true });

    expect(chooseFfmpeg({ FFMPEG_PATH: "/opt/ffmpeg", PATH: bin }, bundled)).toEqual({
      path: "/opt/ffmpeg",
      source: "FFMPEG_PATH",
    });
    expect(chooseFfmpeg({ PATH: `${empty}:${bin}` }, bundled)).toEqual({ path: system, source: "system" });
    expect(chooseFfmpeg({ PATH: empty }, bundled)).toEqual({ path: "/bundled/ffmpeg", source: "bundled" });
    expect(() => chooseFfmpeg({ PATH: empty }, () => null)).toThrow("No ffmpeg found");

    expect(ffmpegWarning({ PATH: bin })).toBeNull();
    expect(ffmpegWarning({ PATH: empty })).toContain("bundled ffmpeg 4.1 from 2018");
  });
});
