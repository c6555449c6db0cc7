import { execFile } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import type { SongTags } from "@booth/db/schema";
import { parseBuffer, parseWebStream } from "music-metadata";

const run = promisify(execFile);

export const FfmpegSource = { env: "FFMPEG_PATH", system: "system", bundled: "bundled" } as const;
export type FfmpegSource = (typeof FfmpegSource)[keyof typeof FfmpegSource];
export interface FfmpegChoice {
  path: string;
  source: FfmpegSource;
}

/** The binary of @ffmpeg-installer/ffmpeg (a 2018 build, 4.1), or null where the package has none for this machine. */
export function bundledFfmpeg(): string | null {
  try {
    return (createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path: string }).path;
  } catch {
    return null;
  }
}

function onPath(name: string, path: string): string | null {
  const file = process.platform === "win32" ? `${name}.exe` : name;
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, file);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** Which ffmpeg runs: FFMPEG_PATH, and the system's search path (the edge's settings, config.ts). */
export interface FfmpegSettings {
  FFMPEG_PATH?: string | undefined;
  PATH?: string | undefined;
}

/**
 * The ffmpeg that decodes strangers' files: FFMPEG_PATH, else the system's (the first `ffmpeg` on PATH, kept up to
 * date by the machine's package manager), else the bundled 2018 build, only so a machine without ffmpeg still works.
 */
export function chooseFfmpeg(settings: FfmpegSettings, bundled: () => string | null = bundledFfmpeg): FfmpegChoice {
  if (settings.FFMPEG_PATH) return { path: settings.FFMPEG_PATH, source: FfmpegSource.env };
  const system = onPath("ffmpeg", settings.PATH ?? "");
  if (system) return { path: system, source: FfmpegSource.system };
  const fallback = bundled();
  if (fallback) return { path: fallback, source: FfmpegSource.bundled };
  throw new Error("No ffmpeg found: install one (apt-get install ffmpeg) or set FFMPEG_PATH.");
}

/** What the start output says about the chosen ffmpeg, when it is not what a public instance should run. */
export function ffmpegWarning(settings: FfmpegSettings): string | null {
  let choice: FfmpegChoice;
  try {
    choice = chooseFfmpeg(settings);
  } catch (err) {
    return `${(err as Error).message} Uploads and the demo catalogue will fail.`;
  }
  if (choice.source !== FfmpegSource.bundled) return null;
  return `No ffmpeg on PATH and no FFMPEG_PATH: using the bundled ffmpeg 4.1 from 2018 (${choice.path}), which lacks years of security fixes for decoding uploaded files. Install a current ffmpeg (apt-get install ffmpeg) or set FFMPEG_PATH.`;
}

let chosen: { key: string; path: string } | undefined;
/** The ffmpeg to run (chooseFfmpeg, looked up again when the settings change). */
export function ffmpegPath(settings: FfmpegSettings): string {
  const key = `${settings.FFMPEG_PATH ?? ""}\0${settings.PATH ?? ""}`;
  if (chosen?.key !== key) chosen = { key, path: chooseFfmpeg(settings).path };
  return chosen.path;
}

/** How long one ffmpeg run may take before it is killed: a long upload transcodes in well under a minute. */
export const FFMPEG_TIMEOUT_MS = 5 * 60_000;

/**
 * Runs ffmpeg without stdin and killed when it runs past `timeoutMs`.
 * Failures are errors that say what happened, never ffmpeg's whole output.
 */
async function runFfmpeg(ffmpeg: FfmpegSettings, args: string[], timeoutMs = FFMPEG_TIMEOUT_MS) {
  try {
    await run(ffmpegPath(ffmpeg), ["-hide_banner", "-loglevel", "error", "-nostdin", ...args], {
      timeout: timeoutMs,
      killSignal: "SIGKILL",
      // Nothing of the edge's environment but PATH: ffmpeg needs none of its secrets. (The typecheck of the whole
      // repository sees @remix-run/node's ProcessEnv, which insists on NODE_ENV.)
      env: { PATH: ffmpeg.PATH ?? "" } as unknown as NodeJS.ProcessEnv,
      maxBuffer: 1024 * 1024,
    });
  } catch (err) {
    const failed = err as { killed?: boolean; signal?: string | null; stderr?: string };
    if (failed.killed || failed.signal === "SIGKILL")
      throw new Error(`ffmpeg ran longer than ${Math.round(timeoutMs / 1000)} s and was stopped.`);
    throw new Error(
      `ffmpeg failed: ${String(failed.stderr || err)
        .trim()
        .slice(0, 300)}`,
    );
  }
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

/**
 * Reads duration, tags and cover art, from bytes or from a stream of `size` bytes (read through, not kept); throws
 * when the file does not decode as audio.
 */
export async function probeAudio(
  input: Uint8Array | { stream: ReadableStream<Uint8Array>; size: number },
  contentType: string,
): Promise<Probe> {
  const meta =
    input instanceof Uint8Array
      ? await parseBuffer(input, { mimeType: contentType, size: input.length })
      : await parseWebStream(input.stream, { mimeType: contentType, size: input.size }).finally(() =>
          input.stream.cancel().catch(() => {}),
        );
  // Tags followed by no audio (or by something else, such as a playlist) are not a song.
  if (!((meta.format.duration ?? 0) > 0)) throw new Error("no audio in the file");
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

/**
 * The renditions every upload is transcoded to, lightest first: the names are the listener's audio-quality setting
 * (low, medium, high), the bit rates those of AAC-LC (at the upload's own channels and sample rate). 64 kb/s is the least AAC-LC keeps music
 * listenable at (a phone on a weak network), 128 kb/s is what most streaming services call normal, 256 kb/s is
 * what they call high (Apple Music's and iTunes' AAC); above it AAC gains nothing a listener hears.
 */
export const RENDITIONS = [
  { name: "low", bitrate: 64_000 },
  { name: "medium", bitrate: 128_000 },
  { name: "high", bitrate: 256_000 },
] as const;
export type Rendition = (typeof RENDITIONS)[number];
export type RenditionName = Rendition["name"];
export const RENDITION_NAMES = RENDITIONS.map((r) => r.name) as [RenditionName, ...RenditionName[]];

export interface HlsOutput {
  /** The master playlist: one variant stream per rendition, each as `<name>.m3u8` with its BANDWIDTH. */
  master: string;
  /** Each rendition's media playlist, by name: its segments are `<name>-seg000.ts`... */
  variants: Map<string, string>;
  /** Every segment of every rendition, by file name. */
  files: Map<string, Uint8Array>;
}

/** The ffmpeg demuxer of each container sniffAudio accepts. */
const DEMUXER: Record<string, string> = {
  "audio/mpeg": "mp3",
  "audio/flac": "flac",
  "audio/wav": "wav",
  "audio/ogg": "ogg",
  "audio/mp4": "mov",
};

/**
 * How ffmpeg reads a stranger's file. The demuxer is the one of the container the bytes were sniffed as, so no
 * playlist or list format (HLS, concat, SDP) that names other files or addresses is ever parsed; the input may use
 * the file protocol alone (no network, no data: or crypto: URLs); probing reads at most 5 MB / 10 s of it.
 */
const untrustedInput = (path: string, demuxer: string) => [
  ...["-protocol_whitelist", "file", "-probesize", "5000000", "-analyzeduration", "10000000"],
  ...["-f", demuxer, "-i", path],
];

/**
 * Transcodes audio to AAC in HLS segments encrypted with AES-128 under `key` (16 bytes), as one master playlist with
 * one variant stream per rendition (all of RENDITIONS unless given). One ffmpeg run decodes the file once and
 * encodes each rendition from it. The muxer reads the key file and writes encrypted segments through the crypto
 * protocol: the output may use file and crypto, nothing else.
 */
export async function transcodeToHls(
  input: Uint8Array,
  key: Uint8Array,
  keyUri: string,
  options: { ffmpeg: FfmpegSettings; timeoutMs?: number; renditions?: readonly Rendition[] },
): Promise<HlsOutput> {
  const demuxer = DEMUXER[sniffAudio(input) ?? ""];
  if (!demuxer) throw new Error("The file is not an audio file (mp3, flac, wav, ogg or m4a).");
  const renditions = options.renditions ?? RENDITIONS;
  const dir = await mkdtemp(join(tmpdir(), "booth-hls-"));
  try {
    await writeFile(join(dir, "input"), input);
    await writeFile(join(dir, "key.bin"), key);
    await writeFile(join(dir, "keyinfo"), `${keyUri}\n${join(dir, "key.bin")}\n`);
    await runFfmpeg(
      options.ffmpeg,
      [
        ...["-y", ...untrustedInput(join(dir, "input"), demuxer), "-vn", "-sn", "-dn"],
        ...renditions.flatMap(() => ["-map", "0:a:0"]),
        // The native AAC encoder's fast coder: about 1.7x the speed of its default (twoloop), where the difference
        // is hard to hear (bench/transcode).
        ...["-c:a", "aac", "-aac_coder", "fast"],
        ...renditions.flatMap((r, i) => [`-b:a:${i}`, String(r.bitrate)]),
        ...["-f", "hls", "-hls_time", "6", "-hls_playlist_type", "vod"],
        ...["-hls_key_info_file", join(dir, "keyinfo"), "-hls_segment_filename", join(dir, "%v-seg%03d.ts")],
        ...["-master_pl_name", "master.m3u8"],
        ...["-var_stream_map", renditions.map((r, i) => `a:${i},name:${r.name}`).join(" ")],
        ...["-protocol_whitelist", "file,crypto", join(dir, "%v.m3u8")],
      ],
      options.timeoutMs,
    );
    const files = new Map<string, Uint8Array>();
    const variants = new Map<string, string>();
    for (const name of await readdir(dir))
      if (/^[a-z]+-seg\d+\.ts$/.test(name)) files.set(name, new Uint8Array(await readFile(join(dir, name))));
    for (const { name } of renditions) {
      // ffmpeg may exit 0 having written a playlist without segments (a muxer that could not open one).
      if (![...files.keys()].some((f) => f.startsWith(`${name}-`)))
        throw new Error(`ffmpeg wrote no audio segments for the ${name} rendition.`);
      variants.set(name, await readFile(join(dir, `${name}.m3u8`), "utf8"));
    }
    return { master: await readFile(join(dir, "master.m3u8"), "utf8"), variants, files };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A short tone made by ffmpeg, as MP3 with tags: for tests and the demo catalogue. */
export async function synthesizeMp3(options: {
  ffmpeg: FfmpegSettings;
  seconds: number;
  frequencies: number[];
  title: string;
  artist: string;
  album?: string;
  genre?: string;
  year?: number;
  /** Pink noise under the tones, at this amplitude (0..1): the encoder then spends the bits a bit rate allows. */
  noise?: number;
}) {
  const dir = await mkdtemp(join(tmpdir(), "booth-synth-"));
  try {
    const inputs = [
      ...options.frequencies.map((f) => `sine=frequency=${f}:duration=${options.seconds}`),
      ...(options.noise ? [`anoisesrc=color=pink:amplitude=${options.noise}:duration=${options.seconds}`] : []),
    ].flatMap((source) => ["-f", "lavfi", "-i", source]);
    const sources = options.frequencies.length + (options.noise ? 1 : 0);
    const mix = sources > 1 ? ["-filter_complex", `amix=inputs=${sources}`] : [];
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
    await runFfmpeg(
      options.ffmpeg,
      ["-y", ...inputs, ...mix, ...tags, "-c:a", "libmp3lame", "-b:a", "128k", out],
      60_000,
    );
    return new Uint8Array(await readFile(out));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
