/**
 * Listening tracking (spec 4): a play record per room and song; a 15-second event when the time listened is
 * between 10 and 20 s, a 30-second one between 25 and 35 s, and the total on the end or a restart when it is
 * not zero. Ticks for another room or song than the record's are ignored.
 */
export interface PlayRecord {
  playId: string;
  roomSlug: string;
  roomOwnerUuid: string;
  djUuid: string | null;
  songInfo: { songId?: string; trackName: string; artistName: string };
  startedDate: number;
  updatedDate: number;
  elapsedMs: number;
  sent15sec: boolean;
  sent30sec: boolean;
}

export type ListeningEvent =
  | { topic: "trackStartedPlaying"; record: PlayRecord }
  | { topic: "trackPlayed15Seconds"; record: PlayRecord }
  | { topic: "trackPlayed30Seconds"; record: PlayRecord }
  | { topic: "trackFinishedPlaying"; record: PlayRecord; totalSeconds: number };

const STORAGE_KEY = "booth.playRecord";

export class ListeningTracker {
  record: PlayRecord | null = null;

  constructor(
    private readonly send: (event: ListeningEvent) => void,
    private readonly storage: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null = null,
  ) {
    try {
      const kept = storage?.getItem(STORAGE_KEY);
      if (kept) this.record = JSON.parse(kept) as PlayRecord;
    } catch {
      this.record = null;
    }
  }

  /** A new play starts: the previous one (if any time was listened) is closed with its total. */
  start(play: Omit<PlayRecord, "startedDate" | "updatedDate" | "elapsedMs" | "sent15sec" | "sent30sec">, now: number) {
    if (this.record?.playId === play.playId) return;
    this.end();
    this.record = { ...play, startedDate: now, updatedDate: now, elapsedMs: 0, sent15sec: false, sent30sec: false };
    this.save();
    this.send({ topic: "trackStartedPlaying", record: this.record });
  }

  /** Time listened since the last tick (only while the audio really plays). */
  tick(play: { playId: string; roomSlug: string }, listenedMs: number, now: number) {
    const r = this.record;
    if (!r || r.playId !== play.playId || r.roomSlug !== play.roomSlug) return;
    r.elapsedMs += Math.max(0, listenedMs);
    r.updatedDate = now;
    const s = r.elapsedMs / 1000;
    if (!r.sent15sec && s >= 10 && s <= 20) {
      r.sent15sec = true;
      this.send({ topic: "trackPlayed15Seconds", record: r });
    }
    if (!r.sent30sec && s >= 25 && s <= 35) {
      r.sent30sec = true;
      this.send({ topic: "trackPlayed30Seconds", record: r });
    }
    this.save();
  }

  end() {
    const r = this.record;
    this.record = null;
    this.storage?.removeItem(STORAGE_KEY);
    if (r && r.elapsedMs > 0)
      this.send({ topic: "trackFinishedPlaying", record: r, totalSeconds: Math.round(r.elapsedMs / 1000) });
  }

  private save() {
    if (this.record) this.storage?.setItem(STORAGE_KEY, JSON.stringify(this.record));
  }
}
