import { loadScript } from "./scripts.ts";
import { type PlayerContext, type SongPlayer, startProvider } from "./song-player.ts";

/** The part of SoundCloud's Widget API the player uses (positions in milliseconds). */
interface SCWidget {
  bind(event: string, listener: (event?: { currentPosition?: number }) => void): void;
  play(): void;
  pause(): void;
  seekTo(ms: number): void;
  setVolume(volume: number): void;
  getPosition(callback: (ms: number) => void): void;
}
interface SCNamespace {
  Widget: ((iframe: HTMLIFrameElement) => SCWidget) & {
    Events: { READY: string; PLAY: string; PAUSE: string; FINISH: string; PLAY_PROGRESS: string; ERROR: string };
  };
}
declare global {
  interface Window {
    SC?: SCNamespace;
  }
}

/**
 * The widget's page for a track: SoundCloud's player page (the setting) with the track's address, built here from the
 * track's id or path (sources.ts), never taken from a song as a URL.
 */
export function widgetUrl(widget: string, trackUrl: string) {
  const url = new URL(widget);
  url.searchParams.set("url", trackUrl);
  for (const [name, value] of Object.entries({
    auto_play: "true",
    buying: "false",
    sharing: "false",
    download: "false",
    show_comments: "false",
    show_playcount: "false",
    visual: "false",
  }))
    url.searchParams.set(name, value);
  return url.href;
}

/** A SoundCloud track through the Widget API, started where the room is. */
export function soundcloudPlayer(trackUrl: string, context: PlayerContext): SongPlayer {
  let widget: SCWidget | null = null;
  let playing = false;
  let ended = false;
  /** The widget tells its position by events and callbacks: the last one heard, and when. */
  let heard = { ms: 0, at: performance.now() };
  const hear = (ms: number) => {
    heard = { ms, at: performance.now() };
  };
  const iframe = document.createElement("iframe");
  iframe.src = widgetUrl(context.scripts.soundcloudWidget, trackUrl);
  iframe.allow = "autoplay; encrypted-media";
  iframe.title = "SoundCloud";
  context.mount.append(iframe);
  const volume = (level: number, muted: boolean) => widget?.setVolume(muted ? 0 : Math.round(level * 100));
  const ready = startProvider(
    loadScript(context.scripts.soundcloud),
    "SoundCloud's widget did not answer",
    (resolve, reject) => {
      const SC = window.SC;
      if (!SC) return reject(new Error("SoundCloud's widget did not load"));
      const made = SC.Widget(iframe);
      const { Events } = SC.Widget;
      made.bind(Events.READY, () => {
        widget = made;
        volume(context.level, context.muted);
        const at = context.at();
        made.seekTo(Math.round(at * 1000));
        hear(at * 1000);
        made.play();
        resolve();
      });
      made.bind(Events.PLAY, () => {
        playing = true;
        ended = false;
      });
      made.bind(Events.PAUSE, () => {
        playing = false;
      });
      made.bind(Events.FINISH, () => {
        playing = false;
        ended = true;
      });
      made.bind(Events.PLAY_PROGRESS, (event) => {
        if (typeof event?.currentPosition === "number") hear(event.currentPosition);
      });
      made.bind(Events.ERROR, () => {
        const reason = "SoundCloud cannot play this track";
        if (widget) context.onFailure(reason);
        else reject(new Error(reason));
      });
    },
  );
  return {
    ready,
    play: async () => widget?.play(),
    pause: () => widget?.pause(),
    seek: (seconds) => {
      widget?.seekTo(Math.round(seconds * 1000));
      hear(seconds * 1000);
    },
    position: () => {
      if (!widget) return null;
      widget.getPosition(hear);
      return (heard.ms + (playing ? performance.now() - heard.at : 0)) / 1000;
    },
    playing: () => playing,
    ended: () => ended,
    volume,
    destroy: () => {
      widget = null;
      iframe.remove();
    },
  };
}
