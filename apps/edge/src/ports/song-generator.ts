import { type FfmpegSettings, synthesizeMp3 } from "./audio.ts";
import { answered, fetchProvider, type ProviderHttp } from "./provider-post.ts";

export interface GenerateRequest {
  prompt: string;
  seconds: number;
  title: string;
  artist: string;
}

/** Makes a song from a prompt, as MP3 bytes. */
export interface SongGenerator {
  readonly kind: string;
  generate(request: GenerateRequest): Promise<Uint8Array>;
}

/**
 * The embedded generator: a real, playable track synthesised locally with ffmpeg, its chord chosen from the prompt,
 * so the whole flow (quote, hold, generate, store, transcode, commit) works with no provider. `ffmpeg`: which one
 * (the edge's settings).
 */
export const embeddedGenerator = (ffmpeg: FfmpegSettings): SongGenerator => ({
  kind: "embedded",
  async generate({ prompt, seconds, title, artist }) {
    let hash = 0;
    for (const ch of prompt) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
    const root = 220 * 2 ** ((hash % 12) / 12);
    const minor = (hash >> 4) % 2 === 1;
    const third = root * 2 ** ((minor ? 3 : 4) / 12);
    const fifth = root * 2 ** (7 / 12);
    return synthesizeMp3({
      ffmpeg,
      seconds,
      frequencies: [root, third, fifth].map((f) => Math.round(f * 100) / 100),
      title,
      artist,
      genre: "generated",
    });
  },
});

/**
 * A generation provider over HTTP: POST {baseUrl}/v1/generate with a bearer key and {prompt, duration, title},
 * answering the audio (audio/mpeg).
 */
export function httpGenerator(options: ProviderHttp & { baseUrl: string; apiKey: string }): SongGenerator {
  const fetch = options.fetch ?? globalThis.fetch;
  const url = `${options.baseUrl.replace(/\/+$/, "")}/v1/generate`;
  return {
    kind: "http",
    async generate({ prompt, seconds, title }) {
      const res = await fetchProvider(
        url,
        {
          method: "POST",
          headers: {
            authorization: `Bearer ${options.apiKey}`,
            "content-type": "application/json",
            accept: "audio/mpeg",
          },
          body: JSON.stringify({ prompt, duration: seconds, title }),
        },
        { fetch, timeoutMs: options.timeoutMs ?? 5 * 60_000 },
      );
      if (!res.ok) throw new Error(answered("the generation provider", res.status));
      return new Uint8Array(await res.arrayBuffer());
    },
  };
}
