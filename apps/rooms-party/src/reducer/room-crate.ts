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

/** Asks the edge for the room crate's next songs, unless the same question is on its way. */
export function readRoomCrate(tx: Tx) {
  const crate = roomCrateOf(tx);
  if (!crate || crate.readingFrom === crate.nextPosition) return;
  tx.set({ roomCrate: { ...crate, readingFrom: crate.nextPosition } });
  tx.effect({ type: "loadRoomCrate", from: crate.nextPosition });
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
 * The edge answered: the songs are kept if they are still the ones wanted. Answers whether they were (the reducer
 * then plays the next song if nothing plays).
 */
export function roomCrateLoaded(tx: Tx, crateId: string | null, from: number, songs: LiveSong[] | null): boolean {
  const crate = tx.state.roomCrate;
  if (!crate || crate.crateId !== crateId || crate.crateId !== (tx.live.settings.roomCrateId ?? null)) return false;
  const answered = crate.readingFrom === from ? { ...crate, readingFrom: null } : crate;
  if (from !== crate.nextPosition || songs === null) {
    // An answer for a position the room has moved past (or none): ask again from where it is.
    tx.set({ roomCrate: answered });
    if (songs !== null) readRoomCrate(tx);
    return false;
  }
  tx.set({ roomCrate: { ...answered, songs, read: true } });
  return true;
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
