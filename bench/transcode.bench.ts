// How fast an upload becomes the platform's HLS: the edge's own transcodeToHls (ffmpeg: AAC in AES-128 HLS) on a few
// minutes of music-like audio (stereo, 44.1 kHz: chords over noise, so the encoder has real work), as MP3, FLAC and
// WAV uploads. Each is reported as times real time (seconds of audio per second of wall time): each rendition alone
// (low, medium, high), and all three in the one run an upload gets, beside a baseline taken in the same run on the
// same file: ffmpeg decoding it to nothing (the floor any transcode pays).
// Run with `npx tsx bench/transcode.bench.ts` (BENCH_SECONDS=180, BENCH_RUNS=3).

import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ffmpegPath, RENDITIONS, transcodeToHls } from "../apps/edge/src/ports/audio.ts";

const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 180);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const dir = await mkdtemp(join(tmpdir(), "booth-transcode-bench-"));
const source = [
  ...["-f", "lavfi", "-i", `anoisesrc=color=pink:amplitude=0.08:duration=${SECONDS}:sample_rate=44100`],
  ...["-f", "lavfi", "-i", `sine=frequency=220:duration=${SECONDS}:sample_rate=44100`],
  ...["-f", "lavfi", "-i", `sine=frequency=277:duration=${SECONDS}:sample_rate=44100`],
  ...["-f", "lavfi", "-i", `sine=frequency=330:duration=${SECONDS}:sample_rate=44100`],
  ...["-filter_complex", "[0][1][2][3]amix=inputs=4,aformat=channel_layouts=stereo,tremolo=f=2:d=0.6"],
];
const inputs = {
  "MP3 320k": { file: "in.mp3", args: ["-c:a", "libmp3lame", "-b:a", "320k"] },
  FLAC: { file: "in.flac", args: ["-c:a", "flac"] },
  WAV: { file: "in.wav", args: ["-c:a", "pcm_s16le"] },
};
const ffmpeg = ffmpegPath();
for (const input of Object.values(inputs))
  await run(ffmpeg, ["-hide_banner", "-loglevel", "error", "-y", ...source, ...input.args, join(dir, input.file)]);

const best = async (task: () => Promise<unknown>) => {
  let fastest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await task();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest / 1000;
};

const { version } = await run(ffmpeg, ["-version"]).then((r) => ({ version: r.stdout.split("\n")[0] }));
console.log(`${version}; ${SECONDS} s of stereo audio, best of ${RUNS}`);
console.log("| upload | rendition | decode only (baseline) | transcode to HLS | transcode vs decode | segments |");
console.log("|---|---|---|---|---|---|");
const key = randomBytes(16);
const rt = (s: number) => `${(SECONDS / s).toFixed(0)}x real time (${s.toFixed(2)} s)`;
for (const [name, input] of Object.entries(inputs)) {
  const path = join(dir, input.file);
  const data = new Uint8Array(await readFile(path));
  const decode = await best(() => run(ffmpeg, ["-hide_banner", "-loglevel", "error", "-i", path, "-f", "null", "-"]));
  const variants = [
    ...RENDITIONS.map((r) => ({ label: `${r.name}: AAC ${r.bitrate / 1000} kb/s alone`, renditions: [r] })),
    { label: "all three in one run (as an upload)", renditions: RENDITIONS },
  ];
  for (const variant of variants) {
    let segments = 0;
    const transcode = await best(async () => {
      const out = await transcodeToHls(data, key, "https://booth.test/key", { renditions: variant.renditions });
      segments = out.files.size;
    });
    console.log(
      `| ${name} | ${variant.label} | ${rt(decode)} | ${rt(transcode)} | ${(decode / transcode).toFixed(2)}x | ${segments} |`,
    );
  }
}
await rm(dir, { recursive: true, force: true });
