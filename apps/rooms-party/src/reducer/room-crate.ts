/**
 * The room crate: a room whose owner picked one of their crates (`settings.roomCrateId`) never falls silent. While no
 * DJ has a song to play (the booth empty, or its DJs' queues empty), the room plays the crate's songs in order,
 * wrapping around, as `nowPlaying.byRoom`; a DJ with a song ends the room's song at once (booth.ts `playNext`, which takes the room's songs from here). The
 * room keeps the next few songs, read from the edge from the crate position it plays next, as a DJ's queue is.
 */
import type { LiveSong } from "@booth/sdk/live/protocol";
import type { RoomCrate } from "./state.ts";
import type { Tx } from "./tx.ts";

/** The room crate as the settings name it now (a changed setting starts afresh); undefined when the room has none. */
export function roomCrateOf(tx: Tx): RoomCrate | undefined {
  const crateId = tx.live.settings.roomCrateId ?? null;
  if (!crateId) return undefined;
  const known = tx.state.roomCrate;
  if (known?.crateId === crateId) return known;
  return { crateId, songs: [], nextPosition: 0, readingFrom: null, read: false };
}

/** How long after a failed read the room asks again (at the room's time scale). */
export const ROOM_CRATE_RETRY_MS = 5000;

/** Asks the edge for the room crate's next songs, unless the same question is on its way. */
export function readRoomCrate(tx: Tx) {
  const crate = roomCrateOf(tx);
  if (!crate || crate.readingFrom === crate.nextPosition) return;
  const { retryAt: _owed, ...asking } = crate;
  tx.set({ roomCrate: { ...asking, readingFrom: crate.nextPosition } });
  tx.effect({ type: "loadRoomCrate", crateId: crate.crateId, from: crate.nextPosition });
}

/**
 * The song the room plays next from its crate, taken off its list (the position moves past it and the next songs are
 * read again); null when it knows none yet (a first read is asked for then).
 */
export function takeRoomSong(tx: Tx): LiveSong | null {
  const crate = roomCrateOf(tx);
  if (!crate) return null;
  const [song, ...rest] = crate.songs;
  if (!song) {
    if (crate !== tx.state.roomCrate) tx.set({ roomCrate: crate });
    if (!crate.read) readRoomCrate(tx);
    return null;
  }
  const nextPosition = (song.position ?? crate.nextPosition) + 1;
  tx.set({ roomCrate: { ...crate, songs: rest, nextPosition } });
  readRoomCrate(tx);
  return song;
}

/**
 * The edge answered the read of crate `crateId`: the songs are kept if they are still the ones wanted. Answers whether
 * they were (the reducer then plays the next song if nothing plays). A read that failed is owed: the room's alarm
 * asks again a little later (`retryRoomCrate`), so a room whose read the edge missed does not stay silent.
 */
export function roomCrateLoaded(tx: Tx, crateId: string, from: number, songs: LiveSong[] | null): boolean {
  const crate = tx.state.roomCrate;
  // An answer about a crate the room no longer plays: the read of the one it plays is a question of its own.
  if (!crate || crate.crateId !== crateId) return false;
  const answered = crate.readingFrom === from ? { ...crate, readingFrom: null } : crate;
  if (songs === null) {
    tx.set({ roomCrate: { ...answered, retryAt: tx.now + ROOM_CRATE_RETRY_MS * tx.config.timeScale } });
    return false;
  }
  if (from !== crate.nextPosition) {
    // An answer for a position the room has moved past: ask again from where it is.
    tx.set({ roomCrate: answered });
    readRoomCrate(tx);
    return false;
  }
  const { retryAt: _owed, ...kept } = answered;
  tx.set({ roomCrate: { ...kept, songs, read: true } });
  return true;
}

/** The alarm: a read that failed is asked again once its time has come (the answer plays if nothing does). */
export function retryRoomCrate(tx: Tx) {
  const crate = roomCrateOf(tx);
  if (crate?.retryAt === undefined || crate.retryAt > tx.now) return;
  readRoomCrate(tx);
}

/** The room's memory was lost (an eviction): a read it was waiting for will never be answered, so it is owed now. */
export function owedAfterRestart(crate: RoomCrate | undefined, now: number): RoomCrate | undefined {
  if (!crate || crate.readingFrom === null) return crate;
  return { ...crate, readingFrom: null, retryAt: now };
}

/** Someone arrives while nothing plays and the crate seemed empty: it is read again (its owner may have filled it). */
export function rereadIfSilent(tx: Tx) {
  const crate = roomCrateOf(tx);
  if (!crate || tx.live.nowPlaying || crate.songs.length) return;
  if (crate !== tx.state.roomCrate) tx.set({ roomCrate: crate });
  readRoomCrate(tx);
}

/** The setting changed: what was read for another crate goes, and the new one is read (it plays once nothing does). */
export function roomCrateSettingChanged(tx: Tx) {
  const crate = roomCrateOf(tx);
  if (crate === tx.state.roomCrate) return;
  tx.set({ roomCrate: crate });
  if (crate) readRoomCrate(tx);
}
