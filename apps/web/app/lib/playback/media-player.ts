import type { LiveSong } from "@booth/sdk/live";
import { steer } from "./drift.ts";
import type { PlaybackController } from "./player.ts";
import type { PlayerContext, SongPlayer } from "./song-player.ts";
import type { Source } from "./sources.ts";

/** The browser wants a gesture before it plays sound: the page shows "Tap to hear the room". */
export const isBlocked = (message: string) => /NotAllowedError|user didn't interact|play\(\) failed/i.test(message);

/**
 * The platform's HLS, a full file or a provider's preview on the page's audio element, through the PlaybackController
 * (hls.js and the token rules live there). A preview is a sample from somewhere in the song: it plays from its start.
 */
export function mediaPlayer(
  controller: PlaybackController,
  audio: HTMLAudioElement,
  key: string,
  song: LiveSong,
  source: Extract<Source, { kind: "hls" | "file" | "preview" }>,
  context: PlayerContext & { onBlocked: () => void },
): SongPlayer {
  const only: LiveSong = {
    ...song,
    streamUrls: source.kind === "hls" ? { hls: source.url } : source.kind === "file" ? { http: source.url } : {},
    previews: source.kind === "preview" ? { preview: source.url } : {},
  };
  const mine = () => controller.playingKey === key;
  audio.volume = context.level;
  audio.muted = context.muted;
  const ready = new Promise<void>((resolve, reject) => {
    const onPlaying = () => resolve();
    audio.addEventListener("playing", onPlaying, { once: true });
    controller.onError = (message) => {
      if (!mine()) return;
      if (isBlocked(message)) {
        // Nothing wrong with the song: the browser waits for a gesture.
        context.onBlocked();
        resolve();
      } else {
        audio.removeEventListener("playing", onPlaying);
        reject(new Error(message));
        context.onFailure(message);
      }
    };
  });
  void controller.play({
    key,
    song: only,
    at: source.kind === "preview" ? () => 0 : context.at,
    ...(context.admitted ? { admitted: context.admitted } : {}),
  });
  return {
    ready,
    play: async () => {
      if (mine()) await audio.play();
    },
    pause: () => {
      if (mine()) audio.pause();
    },
    seek: (seconds) => {
      if (mine() && !audio.seeking) audio.currentTime = seconds;
    },
    position: () => (mine() && audio.readyState > 0 ? audio.currentTime : null),
    playing: () => mine() && !audio.paused && !audio.ended,
    ended: () => mine() && audio.ended,
    volume: (level, muted) => {
      audio.volume = level;
      audio.muted = muted;
    },
    follow: (roomPosition) => {
      if (mine() && !audio.paused && !audio.seeking) steer(audio, roomPosition);
    },
    destroy: () => {
      if (mine()) controller.stop();
    },
  };
}
