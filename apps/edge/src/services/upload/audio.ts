import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { SongTags } from "@booth/db/schema";
import { parseBuffer } from "music-metadata";

const run = promisify(execFile);

/** The ffmpeg binary shipped by the @ffmpeg-installer package (FFMPEG_PATH overrides it). */
export function ffmpegPath(): string {
  if (process.env.FFMPEG_PATH) return process.env.FFMPEG_PATH;
  return (createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path: string }).path;
}

/** The audio container a file really is, from its first bytes; null for anything else. */
export function sniffAudio(bytes: Uint8Array): string | null {
  const at = (offset: number, text: string) => [...text].every((ch, i) => bytes[offset + i] === ch.charCodeAt(0));
  if (at(0, "ID3") || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)) return "audio/mpeg";
  if (at(0, "fLaC")) return "audio/flac";
  if (at(0, "RIFF") && at(8, "WAVE")) return "audio/wav";
  if (at(0, "OggS")) return "audio/ogg";
  if (at(4, "ftyp")) return "audio/mp4";
  return null;
}

export interface Probe {
  duration: number;
  tags: SongTags;
  cover: { data: Uint8Array; format: string } | null;
}

/** Reads duration, tags and cover art; throws when the file does not decode as audio. */
export async function probeAudio(bytes: Uint8Array, contentType: string): Promise<Probe> {
  const meta = await parseBuffer(bytes, { mimeType: contentType, size: bytes.length });
  const common = meta.common;
  const picture = common.picture?.[0];
  return {
    duration: Math.round(meta.format.duration ?? 0),
    tags: {
      title: common.title ?? null,
      artist: common.artist ?? null,
      album: common.album ?? null,
      year: common.year ?? null,
      genre: common.genre?.[0] ?? null,
      comment:
        common.comment?.[0] && typeof common.comment[0] === "object"
          ? ((common.comment[0] as { text?: string }).text ?? null)
          : ((common.comment?.[0] as unknown as string) ?? null),
      track: common.track?.no ?? null,
    },
    cover: picture ? { data: new Uint8Array(picture.data), format: picture.format } : null,
  };
}

export interface HlsOutput {
  playlist: string;
  files: Map<string, Uint8Array>;
}

/** Transcodes audio to AAC in HLS segments encrypted with AES-128 under `key` (16 bytes). */
export async function transcodeToHls(input: Uint8Array, key: Uint8Array, keyUri: string): Promise<HlsOutput> {
  const dir = await mkdtemp(join(tmpdir(), "booth-hls-"));
  try {
    await writeFile(join(dir, "input"), input);
    await writeFile(join(dir, "key.bin"), key);
    await writeFile(join(dir, "keyinfo"), `${keyUri}\n${join(dir, "key.bin")}\n`);
    await run(
      ffmpegPath(),
      [
        ...["-hide_banner", "-loglevel", "error", "-y", "-i", join(dir, "input"), "-vn"],
        ...["-c:a", "aac", "-b:a", "160k", "-f", "hls", "-hls_time", "6", "-hls_playlist_type", "vod"],
        ...["-hls_key_info_file", join(dir, "keyinfo"), "-hls_segment_filename", join(dir, "seg%03d.ts")],
        join(dir, "index.m3u8"),
      ],
      { timeout: 5 * 60_000 },
    );
    const files = new Map<string, Uint8Array>();
    for (const name of await readdir(dir))
      if (/^seg\d+\.ts$/.test(name)) files.set(name, new Uint8Array(await readFile(join(dir, name))));
    return { playlist: await readFile(join(dir, "index.m3u8"), "utf8"), files };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A short tone made by ffmpeg, as MP3 with tags: for tests and the demo catalogue. */
export async function synthesizeMp3(options: {
  seconds: number;
  frequencies: number[];
  title: string;
  artist: string;
  album?: string;
  genre?: string;
  year?: number;
}) {
  const dir = await mkdtemp(join(tmpdir(), "booth-synth-"));
  try {
    const inputs = options.frequencies.flatMap((f) => [
      "-f",
      "lavfi",
      "-i",
      `sine=frequency=${f}:duration=${options.seconds}`,
    ]);
    const mix = options.frequencies.length > 1 ? ["-filter_complex", `amix=inputs=${options.frequencies.length}`] : [];
    const tags = Object.entries({
      title: options.title,
      artist: options.artist,
      album: options.album,
      genre: options.genre,
      date: options.year,
    })
      .filter(([, v]) => v !== undefined)
      .flatMap(([k, v]) => ["-metadata", `${k}=${v}`]);
    const out = join(dir, "out.mp3");
    await run(
      ffmpegPath(),
      [
        "-hide_banner",
        "-loglevel",
        "error",
        "-y",
        ...inputs,
        ...mix,
        ...tags,
        "-c:a",
        "libmp3lame",
        "-b:a",
        "128k",
        out,
      ],
      { timeout: 60_000 },
    );
    return new Uint8Array(await readFile(out));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
