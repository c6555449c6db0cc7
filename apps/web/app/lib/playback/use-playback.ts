import type { Brand } from "@booth/sdk/brand";
import type { NowPlaying } from "@booth/sdk/live";
import { type RefObject, useEffect, useRef, useState } from "react";
import { loadSdk } from "../lazy.ts";
import { browserStorage } from "../storage.ts";
import { type ListeningEvent, ListeningTracker } from "./listening.ts";
import { mediaSessionPlaying, updateMediaSession } from "./media-session.ts";
import type { AudioQuality } from "./player.ts";
import { playbackOffset } from "./position.ts";
import { RoomPlayer, type RoomPlayerView } from "./room-player.ts";
import type { PlayerScripts } from "./scripts.ts";
import { DEFAULT_VOLUME, readVolume, type Volume, writeVolume } from "./volume.ts";

export interface PlaybackOptions {
  audioRef: RefObject<HTMLAudioElement | null>;
  /** Where the providers' embedded players draw. */
  mountRef: RefObject<HTMLDivElement | null>;
  scripts: PlayerScripts;
  /** Signed in: the listener's connected Spotify or Apple Music account may play whole songs. */
  signedIn: boolean;
  /** What the room plays: the live room's, or before its join the page's guess from its render (`fromRoom` false). */
  nowPlaying: NowPlaying | null;
  /** `nowPlaying` is the live room's own: listening is reported only then (a guess knows no DJ). */
  fromRoom: boolean;
  /** The edge answers this listener the room's songs: the live room admitted them (or the page's render did, a guest). */
  admitted: boolean;
  djUuid: string | null;
  clockOffset: number;
  apiUrl: string;
  /** This Booth's brand: the sources the player may play. */
  brand: Brand;
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
 * (to the audit service's analytics stream). `blocked` is true when the browser wants a gesture before it plays;
 * `kind` is the player in use ("preview" for a provider's sample). The volume is remembered per browser, and the
 * browser's Media Session shows the song and answers its play and pause keys.
 */
export function usePlayback(options: PlaybackOptions) {
  const {
    audioRef,
    mountRef,
    scripts,
    signedIn,
    nowPlaying,
    fromRoom,
    admitted,
    djUuid,
    clockOffset,
    apiUrl,
    brand,
    token,
    quality,
    room,
  } = options;
  const controller = useRef<RoomPlayer | null>(null);
  const tracker = useRef<ListeningTracker | null>(null);
  const [view, setView] = useState<RoomPlayerView>({ kind: null, blocked: false, failure: null });
  const [volume, setVolumeState] = useState<Volume>(DEFAULT_VOLUME);
  const latest = useRef({ nowPlaying, clockOffset, volume });
  latest.current = { nowPlaying, clockOffset, volume };

  // The remembered volume, once in the browser (the server renders the default).
  useEffect(() => setVolumeState(readVolume(browserStorage("localStorage"))), []);

  useEffect(() => {
    const audio = audioRef.current;
    const mount = mountRef.current;
    if (!audio || !mount) return;
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
    tracker.current = new ListeningTracker(send, browserStorage("sessionStorage"));
    const player = new RoomPlayer({ audio, mount, apiUrl, brand, token, scripts, signedIn, onChange: setView });
    const { level, muted } = latest.current.volume;
    player.volume(level, muted);
    controller.current = player;
    let last = Date.now();
    let wasPlaying = false;
    const timer = setInterval(() => {
      const now = Date.now();
      const { nowPlaying: np } = latest.current;
      const playing = player.playing();
      if (np && playing) tracker.current?.tick({ playId: playKey(np), roomSlug: room.slug }, now - last, now);
      player.tick();
      if (playing !== wasPlaying) mediaSessionPlaying(playing);
      wasPlaying = playing;
      last = now;
    }, 1000);
    return () => {
      clearInterval(timer);
      tracker.current?.end();
      player.stop();
      updateMediaSession(null, apiUrl, { play: () => {}, pause: () => {} });
      controller.current = null;
    };
  }, [audioRef, mountRef, scripts, signedIn, apiUrl, brand, token, room.slug]);

  // One admission per room: a song started before the join loads once the join admits the listener.
  const admission = useRef(waiting());
  useEffect(() => {
    if (admitted) admission.current.open();
    else if (admission.current.opened) admission.current = waiting();
  }, [admitted]);

  useEffect(() => {
    const player = controller.current;
    if (!player) return;
    if (!nowPlaying) {
      player.stop();
      tracker.current?.end();
      updateMediaSession(null, apiUrl, { play: () => {}, pause: () => {} });
      return;
    }
    const key = playKey(nowPlaying);
    // The room's position by the clock offset measured last, whenever a player asks.
    const at = () => playbackOffset(nowPlaying, latest.current.clockOffset);
    // The live room's state after the page's guess: the same song and start (the same key) plays on untouched.
    void player.play({ key, song: nowPlaying.song, at, admitted: admission.current.promise });
    updateMediaSession(nowPlaying.song, apiUrl, { play: () => void player.resume(), pause: () => player.pause() });
    if (!fromRoom) return;
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
  }, [nowPlaying, fromRoom, djUuid, room.slug, room.ownerUuid, apiUrl]);

  useEffect(() => {
    controller.current?.setQuality(quality);
  }, [quality]);

  // The remembered volume once read, and every change after.
  useEffect(() => {
    controller.current?.volume(volume.level, volume.muted);
  }, [volume]);

  const resume = () => void controller.current?.resume();

  const changeVolume = (next: Volume) => {
    setVolumeState(next);
    writeVolume(browserStorage("localStorage"), next);
  };

  return {
    blocked: view.blocked,
    failure: view.failure,
    /** The player in use, "preview" for a provider's sample; null while nothing plays. */
    kind: view.kind,
    resume,
    volume,
    setVolume: (level: number) => changeVolume({ level, muted: level === 0 ? volume.muted : false }),
    toggleMute: () => changeVolume({ ...volume, muted: !volume.muted }),
  };
}

/** A promise opened once from outside. */
function waiting() {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  const gate = {
    promise,
    opened: false,
    open: () => {
      gate.opened = true;
      open();
    },
  };
  return gate;
}
