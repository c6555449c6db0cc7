/** The transaction every action runs in: the state as it changes, and what the action answers. */
import type { LiveState, StatefulMessageName, StatelessServerMessage, UserData } from "@booth/sdk/live/protocol";
import { diff, editRecord, type InPlace } from "../diff.ts";
import type { Effect, Outgoing, Result } from "./actions.ts";
import { roomRules } from "./permissions.ts";
import type { DjMeta, Member, RoomConfig, RoomState } from "./state.ts";

type AllUserData = LiveState["allUserData"];

export class Tx {
  state: RoomState;
  private base: LiveState;
  /**
   * In place (the caller gave up the state it passed, see `reduce`): `allUserData` is changed where it is rather
   * than copied, and each change is written down twice. `undo` holds every change with what its key held before it,
   * for a refused action to put back in reverse; `sinceEmit` the keys each edit changed since the last message, with
   * what they held then, for that message's patch.
   */
  private readonly undo: { record: AllUserData; key: string; was: UserData | undefined }[] = [];
  private sinceEmit: (InPlace & { edits: string[][]; was: Map<string, UserData | undefined> }) | null = null;
  /** The users and DJs the audience, floor and visible DJs were last derived from. */
  private derivedFrom: Pick<LiveState, "allUsers" | "djs">;
  readonly out: Result;

  constructor(
    state: RoomState,
    readonly now: number,
    readonly config: RoomConfig,
    readonly inPlace = false,
  ) {
    this.state = state;
    this.base = state.live;
    this.derivedFrom = state.live;
    this.out = {
      state,
      stateful: [],
      stateless: [],
      effects: [],
      reply: { ok: true, result: {} },
      close: [],
      closeAll: false,
      writtenInPlace: [],
    };
  }

  get live() {
    return this.state.live;
  }
  /** The settings with the sanctions: for checks, never for what is shown. */
  get rules() {
    return roomRules(this.state);
  }
  setLive(patch: Partial<LiveState>) {
    this.state = { ...this.state, live: { ...this.state.live, ...patch } };
  }
  set(patch: Partial<RoomState>) {
    this.state = { ...this.state, ...patch };
  }
  member(uuid: string) {
    return this.state.members[uuid];
  }
  setMember(member: Member) {
    this.set({ members: { ...this.state.members, [member.uuid]: member } });
  }
  /**
   * Changes some users' data (undefined removes it): a copy of `allUserData` with the changes made, or, in place, the
   * same record changed (a vote in a room of thousands then costs what it changes, not a copy of the room).
   */
  editUserData(changes: Record<string, UserData | undefined>) {
    const record = this.live.allUserData;
    if (!this.inPlace) {
      this.setLive({ allUserData: editRecord(record, changes) });
      return;
    }
    const keys = Object.keys(changes);
    this.sinceEmit ??= { key: "allUserData", edits: [], was: new Map() };
    this.sinceEmit.edits.push(keys);
    for (const key of keys) {
      const was = Object.hasOwn(record, key) ? record[key] : undefined;
      if (!this.sinceEmit.was.has(key)) this.sinceEmit.was.set(key, was);
      this.undo.push({ record, key, was });
      const value = changes[key];
      if (value === undefined) delete record[key];
      else record[key] = value;
    }
  }
  /** Keys of `allUserData` changed in place by this transaction. */
  get writtenInPlace(): string[] {
    return [...new Set(this.undo.map((u) => u.key))];
  }
  /**
   * Puts back what the transaction changed in place (a refused action changes nothing). A key it removed comes back
   * at the end of the record: the order of a record's keys means nothing to a client.
   */
  rollBack() {
    for (let i = this.undo.length - 1; i >= 0; i--) {
      const { record, key, was } = this.undo[i] as (typeof this.undo)[number];
      if (was === undefined) delete record[key];
      else record[key] = was;
    }
    this.undo.length = 0;
  }

  setMeta(uuid: string, meta: DjMeta | undefined) {
    const next = { ...this.state.djMeta };
    if (meta) next[uuid] = meta;
    else delete next[uuid];
    this.set({ djMeta: next });
  }
  effect(e: Effect) {
    this.out.effects.push(e);
  }
  send(to: Outgoing["to"], message: StatelessServerMessage) {
    this.out.stateless.push({ to, message });
  }

  /** Recomputes what follows from the rest (audience, floor, visible DJs, counts), keeping unchanged arrays. */
  derive() {
    const live = this.live;
    const keep = <T>(old: T[], next: T[]) =>
      old.length === next.length && old.every((v, i) => v === next[i]) ? old : next;
    // A vote changes neither who is in nor who is on stage: the lists that follow from them stay (a room of
    // thousands would otherwise filter them on every vote).
    if (live.allUsers !== this.derivedFrom.allUsers || live.djs !== this.derivedFrom.djs) {
      const djSet = new Set(live.djs.map((d) => d.uuid));
      const audience = live.allUsers.filter((u) => !djSet.has(u.uuid));
      const floor = audience.filter((u) => u.tokenRole !== "guest");
      this.setLive({
        audienceUsers: keep(live.audienceUsers, audience),
        floorUsers: keep(live.floorUsers, floor),
        visibleDjs: keep(live.visibleDjs, live.djs),
      });
      this.derivedFrom = this.live;
    }
    const playing = this.state.playing;
    const meta = playing ? this.state.djMeta[playing.djUuid] : undefined;
    const perDj = live.settings.songsPerDj;
    const remaining = perDj === null || playing?.byRoom ? null : Math.max(0, perDj - (meta?.songsPlayed ?? 0));
    const audienceSize = Math.max(1, live.allUsers.length - (playing && !playing.byRoom ? 1 : 0));
    const { likes, dislikes } = live.voteCounts;
    const vibe = Math.round(((likes - dislikes) / audienceSize) * 100) / 100;
    this.setLive({
      songsRemainingForDj: remaining,
      vibeMeter: Math.max(-1, Math.min(1, vibe)),
    });
  }

  /** Closes one stateful message: the patch from the last one to now. */
  emit(name: StatefulMessageName, always = false) {
    this.derive();
    const statePatch = this.patch();
    if (!statePatch.length && !always) return;
    const seq = this.state.seq + 1;
    this.set({ seq });
    this.base = this.live;
    this.sinceEmit = null;
    this.out.stateful.push({ name, statePatch, seq });
  }

  /** Starts over without a message (a reset: clients rejoin for the full state). */
  rebase() {
    this.base = this.state.live;
    this.sinceEmit = null;
  }

  /** What changed since the last message: the diff, with what was changed in place. */
  private patch() {
    if (this.sinceEmit && this.base.allUserData !== this.live.allUserData)
      throw new Error("allUserData was replaced after it was changed in place");
    return diff(this.base, this.live, "", [], this.sinceEmit ?? undefined);
  }

  result(): Result {
    this.derive();
    if (this.patch().length) throw new Error("a change was not emitted");
    return { ...this.out, state: this.state, writtenInPlace: this.writtenInPlace };
  }
}
