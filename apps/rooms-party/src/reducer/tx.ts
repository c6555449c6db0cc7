/** The transaction every action runs in: the state as it changes, and what the action answers. */
import type { LiveState, StatefulMessageName, StatelessServerMessage } from "@booth/sdk/live/protocol";
import { diff } from "../diff.ts";
import type { Effect, Outgoing, Result } from "./actions.ts";
import { roomRules } from "./permissions.ts";
import type { DjMeta, Member, RoomConfig, RoomState } from "./state.ts";

export class Tx {
  state: RoomState;
  private base: LiveState;
  /** The users and DJs the audience, floor and visible DJs were last derived from. */
  private derivedFrom: Pick<LiveState, "allUsers" | "djs">;
  readonly out: Result;

  constructor(
    state: RoomState,
    readonly now: number,
    readonly config: RoomConfig,
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
    const statePatch = diff(this.base, this.live);
    if (!statePatch.length && !always) return;
    const seq = this.state.seq + 1;
    this.set({ seq });
    this.base = this.live;
    this.out.stateful.push({ name, statePatch, seq });
  }

  /** Starts over without a message (a reset: clients rejoin for the full state). */
  rebase() {
    this.base = this.state.live;
  }

  result(): Result {
    this.derive();
    if (diff(this.base, this.live).length) throw new Error("a change was not emitted");
    return { ...this.out, state: this.state };
  }
}
