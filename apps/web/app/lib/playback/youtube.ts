import { loadScriptCalling } from "./scripts.ts";
import { type PlayerContext, type SongPlayer, startProvider } from "./song-player.ts";

/** The part of YouTube's IFrame Player API the player uses. */
interface YTPlayer {
  playVideo(): void;
  pauseVideo(): void;
  seekTo(seconds: number, allowSeekAhead: boolean): void;
  getCurrentTime(): number;
  getPlayerState(): number;
  setVolume(volume: number): void;
  mute(): void;
  unMute(): void;
  destroy(): void;
}
interface YTNamespace {
  Player: new (
    element: HTMLElement,
    options: {
      videoId: string;
      width?: number | string;
      height?: number | string;
      playerVars?: Record<string, string | number>;
      events?: {
        onReady?: () => void;
        onStateChange?: (event: { data: number }) => void;
        onError?: (event: { data: number }) => void;
      };
    },
  ) => YTPlayer;
}
declare global {
  interface Window {
    YT?: YTNamespace;
  }
}

const PLAYING = 1;
const ENDED = 0;

/** YouTube's reasons (onError), in words. */
const REASONS: Record<number, string> = {
  2: "the video id is not valid",
  5: "the video cannot play in an HTML5 player",
  100: "the video was removed or is private",
  101: "the video's owner does not allow it to be embedded",
  150: "the video's owner does not allow it to be embedded",
};

const api = (url: string) => loadScriptCalling(url, "onYouTubeIframeAPIReady", () => !!window.YT?.Player);

/** A YouTube video through the IFrame Player API, started where the room is. */
export function youtubePlayer(videoId: string, context: PlayerContext): SongPlayer {
  let player: YTPlayer | null = null;
  let destroyed = false;
  const element = document.createElement("div");
  context.mount.append(element);
  const ready = startProvider(api(context.scripts.youtube), "YouTube's player did not answer", (resolve, reject) => {
    const YT = window.YT;
    if (destroyed) return resolve();
    if (!YT) return reject(new Error("YouTube's player did not load"));
    const made: YTPlayer = new YT.Player(element, {
      videoId,
      width: "100%",
      height: "100%",
      playerVars: {
        autoplay: 1,
        controls: 0,
        disablekb: 1,
        playsinline: 1,
        rel: 0,
        start: Math.floor(context.at()),
        origin: location.origin,
      },
      events: {
        onReady: () => {
          player = made;
          if (context.muted) made.mute();
          else made.unMute();
          made.setVolume(Math.round(context.level * 100));
          made.seekTo(context.at(), true);
          made.playVideo();
          resolve();
        },
        onError: (event) => {
          const reason = `YouTube cannot play this video: ${REASONS[event.data] ?? `error ${event.data}`}`;
          if (player) context.onFailure(reason);
          else reject(new Error(reason));
        },
      },
    });
  });
  return {
    ready,
    play: async () => player?.playVideo(),
    pause: () => player?.pauseVideo(),
    seek: (seconds) => player?.seekTo(seconds, true),
    position: () => (player ? player.getCurrentTime() : null),
    playing: () => player?.getPlayerState() === PLAYING,
    ended: () => player?.getPlayerState() === ENDED,
    volume: (level, muted) => {
      if (!player) return;
      if (muted) player.mute();
      else player.unMute();
      player.setVolume(Math.round(level * 100));
    },
    destroy: () => {
      destroyed = true;
      player?.destroy();
      player = null;
      element.remove();
    },
  };
}
