/** The booth: DJs taking and leaving seats, their next songs and queues, songs playing, ending and rotating. */
import type { Dj, LiveSong } from "@booth/sdk/live/protocol";
import { MESSAGES, RoomError } from "./actions.ts";
import { canDj, mayRemoveDj, maySkip } from "./permissions.ts";
import { takeRoomSong } from "./room-crate.ts";
import { seat } from "./seat.ts";
import { type Member, ROOM_DJ, type RoomConfig, UNKNOWN_DURATION_SECONDS } from "./state.ts";
import type { Tx } from "./tx.ts";
import { clearVotes, weighedVotes } from "./votes.ts";
import { fillSeats, waitlistOn } from "./waitlist.ts";

export const djIndex = (tx: Tx, uuid: string) => tx.live.djs.findIndex((d) => d.uuid === uuid);

export function setDj(tx: Tx, uuid: string, change: Partial<Dj>) {
  tx.setLive({ djs: tx.live.djs.map((d) => (d.uuid === uuid ? { ...d, ...change } : d)) });
}

export function addDj(tx: Tx, member: Member, song: LiveSong | null) {
  if (djIndex(tx, member.uuid) !== -1) throw new RoomError(409, MESSAGES.alreadyDj);
  if (!canDj(member, tx.rules, tx.now)) throw new RoomError(403, MESSAGES.cannotDj);
  if (tx.live.djs.length >= tx.live.settings.numberOfDjs) throw new RoomError(403, MESSAGES.seatsTaken);
  // A seat that frees goes to the waitlist's first; nobody takes one past those waiting.
  if (waitlistOn(tx) && tx.live.waitlist.length) throw new RoomError(403, MESSAGES.waitlistFirst);
  seat(tx, member, song);
  playNext(tx);
}

export function removeDjAction(tx: Tx, caller: Member, target: string) {
  if (!mayRemoveDj(caller, target, tx.live.settings, tx.now)) throw new RoomError(403, MESSAGES.notYourDj);
  if (djIndex(tx, target) === -1) throw new RoomError(404, MESSAGES.notDj);
  removeFromBooth(tx, target);
}

/** Takes a DJ off the stage; if they were playing, their song ends there (and is recorded) and the next one plays. */
export function removeFromBooth(tx: Tx, uuid: string) {
  const playingNow = tx.state.playing?.djUuid === uuid;
  if (playingNow) finishSong(tx);
  tx.setLive({ djs: tx.live.djs.filter((d) => d.uuid !== uuid) });
  tx.setMeta(uuid, undefined);
  tx.emit("removedDj");
  fillSeats(tx);
  if (playingNow || !tx.live.nowPlaying) playNext(tx, playingNow);
}

export function updateNextSong(tx: Tx, member: Member, song: LiveSong | null) {
  const meta = tx.state.djMeta[member.uuid];
  if (djIndex(tx, member.uuid) === -1 || !meta) throw new RoomError(403, MESSAGES.notDj);
  if (song) {
    setDj(tx, member.uuid, { nextSong: song });
    tx.setMeta(member.uuid, { ...meta, followsQueue: false });
  } else {
    // No pick of their own: their queue crate decides again.
    setDj(tx, member.uuid, { nextSong: nextFromQueue(tx, member.uuid, meta.queue) });
    tx.setMeta(member.uuid, { ...meta, followsQueue: true });
    tx.effect({ type: "loadQueue", userUuid: member.uuid });
  }
  tx.emit("updatedNextSong");
  playNext(tx);
}

/** The first song of a queue that is not the one this DJ is playing right now. */
export function nextFromQueue(tx: Tx, djUuid: string, queue: LiveSong[]) {
  const playing = tx.state.playing;
  const current = playing?.djUuid === djUuid ? playing.crateSongUuid : null;
  return queue.find((s) => !current || s.crateSongUuid !== current) ?? null;
}

export function queueLoaded(tx: Tx, userUuid: string, songs: LiveSong[]) {
  const meta = tx.state.djMeta[userUuid];
  if (!meta || djIndex(tx, userUuid) === -1) return;
  tx.setMeta(userUuid, { ...meta, queue: songs });
  if (meta.followsQueue) {
    const next = nextFromQueue(tx, userUuid, songs);
    const dj = tx.live.djs[djIndex(tx, userUuid)];
    if (JSON.stringify(dj?.nextSong ?? null) !== JSON.stringify(next)) setDj(tx, userUuid, { nextSong: next });
    tx.emit("updatedNextSong");
  }
  playNext(tx);
}

export function skipSong(tx: Tx, member: Member) {
  const playing = tx.state.playing;
  if (!playing || !tx.live.nowPlaying) throw new RoomError(409, MESSAGES.nothingPlaying);
  if (!maySkip(member, playing.djUuid, tx.live.settings, tx.now)) throw new RoomError(403, MESSAGES.skipNotAllowed);
  endSongAndRotate(tx);
}

const durationMs = (song: LiveSong, config: RoomConfig) =>
  Math.max(1, Math.round((song.duration > 0 ? song.duration : UNKNOWN_DURATION_SECONDS) * 1000 * config.timeScale));

/**
 * The song ends now: its play is recorded with its votes (and the DJ's points), their queue advances, the votes
 * clear. The DJ is still first on stage; the caller decides where they go.
 */
export function finishSong(tx: Tx) {
  const playing = tx.state.playing;
  const now = tx.live.nowPlaying;
  if (!playing || !now) return;
  const counts = tx.live.voteCounts;
  const weighed = weighedVotes(tx);
  tx.effect({
    type: "recordPlay",
    song: now.song,
    djUuid: playing.djUuid,
    voteCounts: counts,
    playedAt: now.startTime,
    // The room's own songs earn nobody points.
    points: playing.byRoom ? 0 : weighed.likes + 2 * weighed.stars,
  });
  if (playing.fromQueue && playing.crateSongUuid)
    tx.effect({ type: "advanceQueue", userUuid: playing.djUuid, crateSongUuid: playing.crateSongUuid });
  // The idle rule counts from the end of their song.
  const meta = tx.state.djMeta[playing.djUuid];
  if (meta) tx.setMeta(playing.djUuid, { ...meta, activeAt: tx.now, idleWarned: false });
  tx.set({ playing: null });
  tx.setLive({ nowPlaying: null });
  clearVotes(tx);
}

/** The song ends: recorded, the DJ goes to the back (or steps down after their songs), the next DJ plays. */
export function endSongAndRotate(tx: Tx) {
  const playing = tx.state.playing;
  if (!playing) return;
  finishSong(tx);
  if (playing.byRoom) return playNext(tx, true);
  const meta = tx.state.djMeta[playing.djUuid];
  const limit = tx.live.settings.songsPerDj;
  const stepDown = !!meta && (meta.removeAfterSong || (limit !== null && meta.songsPlayed >= limit));
  const dj = tx.live.djs.find((d) => d.uuid === playing.djUuid);
  if (stepDown || !dj) {
    tx.setLive({ djs: tx.live.djs.filter((d) => d.uuid !== playing.djUuid) });
    tx.setMeta(playing.djUuid, undefined);
    tx.emit("removedDj");
    fillSeats(tx);
  } else {
    tx.setLive({ djs: [...tx.live.djs.filter((d) => d.uuid !== playing.djUuid), dj] });
  }
  playNext(tx, true);
}

/**
 * Plays the first DJ's song; DJs with nothing to play are passed over (they move behind the one who plays). With
 * nobody to play, the room plays from its room crate (room-crate.ts), or `playedSong` says `nowPlaying: null` (when
 * `announceSilence`, or when something was playing). A song of the room crate playing ends at once when a DJ has one.
 */
export function playNext(tx: Tx, announceSilence = false) {
  if (tx.live.nowPlaying) {
    if (!tx.state.playing?.byRoom || !tx.live.djs.some((d) => d.nextSong !== null)) return;
    finishSong(tx);
    announceSilence = true;
  }
  // A DJ's next song skips the queue song playing at the time; now that nothing plays it may play again (a one-song
  // queue loops, and a queue song picked with updateNextSong does not leave its DJ with nothing once it ends).
  for (const d of tx.live.djs) {
    const meta = tx.state.djMeta[d.uuid];
    const first = meta?.followsQueue ? meta.queue[0] : undefined;
    if (d.nextSong === null && first) setDj(tx, d.uuid, { nextSong: first });
  }
  const djs = tx.live.djs;
  const i = djs.findIndex((d) => d.nextSong !== null);
  const dj = djs[i];
  if (i === -1 || !dj || !dj.nextSong) {
    const roomSong = takeRoomSong(tx);
    if (roomSong) return playRoomSong(tx, roomSong);
    if (announceSilence) tx.effect({ type: "reportLiveState", nowPlaying: null, numberOfActiveDjs: djs.length });
    tx.emit("playedSong", announceSilence);
    return;
  }
  const song = dj.nextSong;
  const meta = tx.state.djMeta[dj.uuid] ?? { songsPlayed: 0, queue: [], followsQueue: true, removeAfterSong: false };
  const fromQueue = meta.followsQueue;
  tx.set({ playing: { djUuid: dj.uuid, crateSongUuid: song.crateSongUuid ?? null, fromQueue } });
  const rest = meta.queue.filter((s) => !song.crateSongUuid || s.crateSongUuid !== song.crateSongUuid);
  tx.setMeta(dj.uuid, { ...meta, songsPlayed: meta.songsPlayed + 1, followsQueue: true, queue: rest });
  const playingDj: Dj = { ...dj, nextSong: rest[0] ?? null };
  tx.setLive({
    djs: [playingDj, ...djs.slice(i + 1), ...djs.slice(0, i)],
    nowPlaying: { song, startTime: tx.now, endTime: tx.now + durationMs(song, tx.config) },
  });
  clearVotes(tx);
  if (!fromQueue || !rest.length) tx.effect({ type: "loadQueue", userUuid: dj.uuid });
  tx.effect({ type: "notifyDjFans", djUuid: dj.uuid, song });
  tx.effect({ type: "reportLiveState", nowPlaying: song, numberOfActiveDjs: tx.live.djs.length });
  tx.emit("playedSong", true);
}

/** A song of the room crate plays: no DJ plays it (`nowPlaying.byRoom`); the booth stays as it is. */
function playRoomSong(tx: Tx, song: LiveSong) {
  tx.set({ playing: { djUuid: ROOM_DJ, crateSongUuid: song.crateSongUuid ?? null, fromQueue: false, byRoom: true } });
  tx.setLive({
    nowPlaying: { song, startTime: tx.now, endTime: tx.now + durationMs(song, tx.config), byRoom: true },
  });
  clearVotes(tx);
  tx.effect({ type: "reportLiveState", nowPlaying: song, numberOfActiveDjs: tx.live.djs.length });
  tx.emit("playedSong", true);
}

/** The DJ's queue crate changed over REST: a seated DJ's is read again. */
export function queueChanged(tx: Tx, userUuid: string) {
  if (tx.state.djMeta[userUuid] && djIndex(tx, userUuid) !== -1) tx.effect({ type: "loadQueue", userUuid });
}
