import type { NowPlaying } from "@booth/sdk/live";
import { type RefObject, useEffect, useRef, useState } from "react";
import { loadSdk } from "../lazy.ts";
import { type ListeningEvent, ListeningTracker } from "./listening.ts";
import { type AudioQuality, PlaybackController } from "./player.ts";
import { playbackOffset } from "./position.ts";

export interface PlaybackOptions {
  audioRef: RefObject<HTMLAudioElement | null>;
  nowPlaying: NowPlaying | null;
  djUuid: string | null;
  clockOffset: number;
  apiUrl: string;
  /** The token in hand, read at each request (it is renewed while the page is open). */
  token: () => string | null;
  quality: AudioQuality;
  room: { slug: string; ownerUuid: string };
}

/** The key of one play: a song started at one time. */
export const playKey = (np: NowPlaying) =>
  `${np.startTime}:${np.song.songId ?? np.song.crateSongUuid ?? np.song.trackName}`;

/**
 * Plays what the room plays, where the room is in it, and reports the listening: started, 15 s, 30 s, and the total
 * (to the audit service's analytics stream). `blocked` is true when the browser wants a gesture before it plays.
 */
export function usePlayback(options: PlaybackOptions) {
  const { audioRef, nowPlaying, djUuid, clockOffset, apiUrl, token, quality, room } = options;
  const controller = useRef<PlaybackController | null>(null);
  const tracker = useRef<ListeningTracker | null>(null);
  const [blocked, setBlocked] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const latest = useRef({ nowPlaying, clockOffset });
  latest.current = { nowPlaying, clockOffset };

  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    // The SDK comes with the room (lib/lazy.ts); a report waits for it rather than going without.
    const booth = loadSdk().then(({ createBoothClient }) =>
      createBoothClient({ baseUrl: apiUrl, token: () => token() ?? undefined }),
    );
    const send = (event: ListeningEvent) => {
      const { record } = event;
      const data = {
        playId: record.playId,
        roomSlug: record.roomSlug,
        roomOwnerUuid: record.roomOwnerUuid,
        djUuid: record.djUuid,
        songInfo: record.songInfo,
        startedDate: new Date(record.startedDate).toISOString(),
        updatedDate: new Date(record.updatedDate).toISOString(),
        sent15sec: record.sent15sec,
        sent30sec: record.sent30sec,
        ...(event.topic === "trackFinishedPlaying" ? { totalSeconds: event.totalSeconds } : {}),
      };
      void booth.then((b) => b.audit.POST("/kinesis", { body: { topic: event.topic, data } })).catch(() => undefined);
    };
    tracker.current = new ListeningTracker(send, window.sessionStorage);
    const player = new PlaybackController(audio, apiUrl, token);
    player.onError = (message) => {
      if (/NotAllowedError|user didn't interact|play\(\) failed/i.test(message)) setBlocked(true);
      else setFailure(message);
      console.warn(message);
    };
    controller.current = player;
    const onPlaying = () => setBlocked(false);
    audio.addEventListener("playing", onPlaying);
    let last = Date.now();
    const timer = setInterval(() => {
      const now = Date.now();
      const { nowPlaying: np, clockOffset: offset } = latest.current;
      if (np && !audio.paused) {
        tracker.current?.tick({ playId: playKey(np), roomSlug: room.slug }, now - last, now);
        player.correct(playbackOffset(np, offset, now));
      }
      last = now;
    }, 1000);
    return () => {
      clearInterval(timer);
      audio.removeEventListener("playing", onPlaying);
      tracker.current?.end();
      player.stop();
      controller.current = null;
    };
  }, [audioRef, apiUrl, token, room.slug]);

  useEffect(() => {
    const player = controller.current;
    if (!player) return;
    if (!nowPlaying) {
      player.stop();
      tracker.current?.end();
      return;
    }
    const key = playKey(nowPlaying);
    setFailure(null);
    void player.play({ key, song: nowPlaying.song, at: () => playbackOffset(nowPlaying, clockOffset) });
    tracker.current?.start(
      {
        playId: key,
        roomSlug: room.slug,
        roomOwnerUuid: room.ownerUuid,
        djUuid,
        songInfo: {
          ...(nowPlaying.song.songId ? { songId: nowPlaying.song.songId } : {}),
          trackName: nowPlaying.song.trackName,
          artistName: nowPlaying.song.artistName,
        },
      },
      Date.now(),
    );
  }, [nowPlaying, clockOffset, djUuid, room.slug, room.ownerUuid]);

  useEffect(() => {
    controller.current?.setQuality(quality);
  }, [quality]);

  const resume = () => {
    const audio = audioRef.current;
    const np = latest.current.nowPlaying;
    if (!audio) return;
    if (np) audio.currentTime = playbackOffset(np, latest.current.clockOffset);
    void audio.play().then(() => setBlocked(false));
  };

  return { blocked, failure, resume };
}
