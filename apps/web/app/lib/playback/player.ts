import type { LiveSong } from "@booth/sdk/live";
import type HlsType from "hls.js";
import { loadHls } from "../lazy.ts";
import { applyQuality } from "./quality.ts";

export type AudioQuality = "low" | "medium" | "high";

/** How a song can be played here: the platform's HLS, or a plain audio file (a provider's preview). */
export function sourceOf(song: LiveSong, apiUrl: string): { provider: "hls" | "file"; url: string } | null {
  const absolute = (u: string) => (/^https?:\/\//.test(u) ? u : `${apiUrl}${u.startsWith("/") ? "" : "/"}${u}`);
  const streams = (song as { streamUrls?: Record<string, string> }).streamUrls ?? {};
  if (streams.hls) return { provider: "hls", url: absolute(streams.hls) };
  if (streams.http) return { provider: "file", url: absolute(streams.http) };
  const previews = (song as { previews?: Record<string, string> }).previews ?? {};
  const preview = Object.values(previews)[0];
  return preview ? { provider: "file", url: absolute(preview) } : null;
}

/**
 * Whether a request may carry the listener's token: only to the edge's own origin (scheme, host and port exactly, as
 * parsed: a look-alike host, a subdomain or userinfo is another origin), and only for what needs it there, the
 * song's playlist and key. A song's URLs come from the room; the token must not follow them anywhere else.
 */
export function sendsToken(url: string, apiUrl: string, base = globalThis.location?.href): boolean {
  try {
    const target = new URL(url, base);
    if (target.origin !== new URL(apiUrl, base).origin || target.username || target.password) return false;
    return /\/songs\/(?:hls\/key|[^/]+\/hls-playlist)$/.test(target.pathname);
  } catch {
    return false;
  }
}

/** A playlist the edge refuses at first may be a song the room started a moment before the edge heard of it. */
const PLAYLIST_RETRY = { maxNumRetry: 3, retryDelayMs: 500, maxRetryDelayMs: 2000 };

export interface PlayRequest {
  /** Identifies one play: the same key again is ignored (spec 4). */
  key: string;
  song: LiveSong;
  /** Where the room is in the song now, in seconds (asked again once the audio is ready). */
  at: () => number;
  /**
   * Settles once the edge will answer this listener the song's playlist (it does only for someone a room playing it
   * has admitted): the page may start on the room's song before its live join, and loads hls.js meanwhile. Now if absent.
   */
  admitted?: Promise<void>;
}

/**
 * Plays one song at a time on one audio element, through one provider at a time: switching provider stops the
 * old one first. HLS goes through hls.js (loaded on first use), whose playlist and key requests to the edge carry the
 * listener's token.
 */
export class PlaybackController {
  private hls: HlsType | null = null;
  private current: { key: string; provider: "hls" | "file" } | null = null;
  quality: AudioQuality = "medium";
  onError: (message: string) => void = () => {};

  constructor(
    private readonly audio: HTMLAudioElement,
    private readonly apiUrl: string,
    private readonly token: () => string | null,
  ) {}

  get playingKey() {
    return this.current?.key ?? null;
  }

  async play(request: PlayRequest) {
    if (this.current?.key === request.key) return;
    const source = sourceOf(request.song, this.apiUrl);
    this.stop();
    if (!source) {
      this.onError("failed to play song: no playable source");
      return;
    }
    this.current = { key: request.key, provider: source.provider };
    if (source.provider === "hls") {
      // hls.js wherever Media Source Extensions exist: it can send the token with the key request, which a
      // browser's own HLS cannot. Only without them (older iOS) does the browser play the playlist itself.
      const [{ default: Hls }] = await Promise.all([loadHls(), request.admitted]);
      if (this.current?.key !== request.key) return;
      if (!Hls.isSupported()) return this.playFile(source.url, request);
      const hls = new Hls({
        startPosition: request.at(),
        // Audio demuxes cheaply on the page; a worker would need a blob: script, which the page's policy refuses.
        enableWorker: false,
        xhrSetup: (xhr, url) => {
          const token = this.token();
          if (token && sendsToken(url, this.apiUrl)) xhr.setRequestHeader("authorization", `Bearer ${token}`);
        },
        manifestLoadPolicy: {
          default: {
            maxTimeToFirstByteMs: Number.POSITIVE_INFINITY,
            maxLoadTimeMs: 20_000,
            timeoutRetry: { maxNumRetry: 2, retryDelayMs: 0, maxRetryDelayMs: 0 },
            errorRetry: {
              ...PLAYLIST_RETRY,
              shouldRetry: (config, count, _timeout, response, retry) =>
                retry || (response?.code === 403 && count < (config?.maxNumRetry ?? 0)),
            },
          },
        },
      });
      this.hls = hls;
      hls.on(Hls.Events.MANIFEST_PARSED, (_e, data) => {
        this.applyQuality(data.levels.length);
        void this.audio.play().catch((e: Error) => this.onError(`failed to play song: ${e.message}`));
      });
      hls.on(Hls.Events.ERROR, (_e, data) => {
        if (data.fatal) this.onError(`failed to play song: ${data.details}`);
      });
      this.syncOnceWhenPlaying(request);
      hls.loadSource(source.url);
      hls.attachMedia(this.audio);
      return;
    }
    await request.admitted;
    if (this.current?.key !== request.key) return;
    await this.playFile(source.url, request);
  }

  private async playFile(url: string, request: PlayRequest) {
    this.syncOnceWhenPlaying(request);
    this.audio.src = url;
    this.audio.currentTime = request.at();
    await this.audio.play().catch((e: Error) => this.onError(`failed to play song: ${e.message}`));
  }

  /** Loading took some time: once sound comes out, jump to where the room is by then. */
  private syncOnceWhenPlaying(request: PlayRequest) {
    const onPlaying = () => {
      if (this.current?.key !== request.key) return;
      const at = request.at();
      if (Math.abs(this.audio.currentTime - at) > 0.2) this.audio.currentTime = at;
    };
    this.audio.addEventListener("playing", onPlaying, { once: true });
  }

  setQuality(quality: AudioQuality) {
    this.quality = quality;
    if (this.hls) this.applyQuality(this.hls.levels.length);
  }

  /** The rendition of the listener's quality (quality.ts). */
  private applyQuality(_levels: number) {
    if (this.hls) applyQuality(this.hls, this.quality);
  }

  stop() {
    this.hls?.destroy();
    this.hls = null;
    this.audio.pause();
    this.audio.removeAttribute("src");
    this.audio.load();
    this.current = null;
  }
}
