/** What a room holds beyond the public state, how it is configured, and the state it starts from. */
import {
  type ChatMessage,
  emptyLiveState,
  type LiveSong,
  type LiveState,
  type RoomRole,
  type RoomSettings,
  type TokenRole,
} from "@booth/sdk/live/protocol";
import { roomRules, splitSettings } from "./rules.ts";

export interface Member {
  uuid: string;
  tokenRole: TokenRole;
  globalRoles: string[];
  badges: string[];
  verified: boolean;
  connected: boolean;
  /** When their last connection closed (epoch ms); they leave when the grace period after it passes. */
  disconnectedAt: number | null;
  joinedAt: number;
  /** Times of their recent chat messages, for the rate limit. */
  chatTimes: number[];
}

/** Server-only facts about a DJ. */
export interface DjMeta {
  songsPlayed: number;
  /** The next songs of their queue crate, as the playlist service last answered. */
  queue: LiveSong[];
  /** True while `nextSong` follows their queue crate rather than a song they picked with updateNextSong. */
  followsQueue: boolean;
  /** shouldRemoveDjAfterSong: they asked to step down while playing. */
  removeAfterSong: boolean;
  /** Their last action, or the end of their last song (epoch ms): the idle rule counts from it. */
  activeAt?: number;
  /** They were told they will leave the booth for being idle. */
  idleWarned?: boolean;
}

export interface Playing {
  /** The DJ playing; `ROOM_DJ` for a song of the room crate. */
  djUuid: string;
  crateSongUuid: string | null;
  fromQueue: boolean;
  /** The room plays it from its room crate: no DJ does. */
  byRoom?: true;
}

/** Who plays a song of the room crate, where a DJ's uuid would be (never a user's uuid; the edge records no DJ). */
export const ROOM_DJ = "room";

/** What the room knows of its room crate (`settings.roomCrateId`): the next songs, read from the edge. */
export interface RoomCrate {
  /** The setting these songs were read for. */
  crateId: string;
  /** The next songs, the one playing next first (up to three, wrapping around the crate). */
  songs: LiveSong[];
  /** The crate position of the song the room plays next: the edge is asked from there. */
  nextPosition: number;
  /** A read from this position is on its way; null when none is. */
  readingFrom: number | null;
  /** The edge answered since the setting last changed. */
  read: boolean;
  /**
   * A read failed (or was lost with the room's memory): the room's alarm asks again at this time, unless something
   * else asks first. Absent when no read is owed.
   */
  retryAt?: number;
}

export interface RoomState {
  seq: number;
  live: LiveState;
  members: Record<string, Member>;
  djMeta: Record<string, DjMeta>;
  playing: Playing | null;
  chat: ChatMessage[];
  /** The sanctions in force (banned, kicked, chatDisabled, djDisabled): enforced here, kept out of `live`. */
  sanctions: RoomRole[];
  /** The room crate's next songs, once the room has one (absent in rooms that never had one). */
  roomCrate?: RoomCrate | undefined;
}

export interface RoomConfig {
  /** How long a user without a connection keeps their place. */
  graceMs: number;
  /** Songs last `duration * timeScale` seconds (tests and demos play short). */
  timeScale: number;
}
export const DEFAULT_CONFIG: RoomConfig = { graceMs: 20_000, timeScale: 1 };
/** The duration given to songs that do not know theirs. */
export const UNKNOWN_DURATION_SECONDS = 240;

export interface JoiningUser {
  uuid: string;
  tokenRole: TokenRole;
  globalRoles: string[];
  badges: string[];
  verified: boolean;
  profile: Record<string, unknown>;
}

// ---- the initial state ------------------------------------------------------------------------------------------

export function initialState(fromEdge: RoomSettings): RoomState {
  const { settings, sanctions } = splitSettings(fromEdge);
  return {
    seq: 0,
    live: emptyLiveState(settings),
    members: {},
    djMeta: {},
    playing: null,
    chat: [],
    sanctions,
  };
}

/** When the room next needs an alarm: the song's end, a grace period's end, a role's expiry, an idle DJ's turn. */
export function nextWakeAt(state: RoomState, config: RoomConfig): number | null {
  let at = Number.POSITIVE_INFINITY;
  for (const [uuid, meta] of Object.entries(state.djMeta)) {
    const due = idleDue(state, uuid, meta, config);
    if (due !== null) at = Math.min(at, due);
  }
  if (state.live.nowPlaying) at = Math.min(at, state.live.nowPlaying.endTime);
  if (state.roomCrate?.retryAt !== undefined) at = Math.min(at, state.roomCrate.retryAt);
  for (const m of Object.values(state.members))
    if (!m.connected && m.disconnectedAt !== null) at = Math.min(at, m.disconnectedAt + config.graceMs);
  for (const r of roomRules(state).roomRoles)
    if (r.expirationTime !== null) {
      const t = Date.parse(r.expirationTime);
      if (Number.isFinite(t)) at = Math.min(at, t);
    }
  return Number.isFinite(at) ? at : null;
}

/** How long a DJ may be idle, and how long before that they are warned; null when the room has no idle rule. */
export function idleRule(state: RoomState, config: RoomConfig) {
  const minutes = state.live.settings.idleDjMinutes;
  if (!minutes || minutes <= 0) return null;
  const idleMs = minutes * 60_000 * config.timeScale;
  return { idleMs, warnMs: Math.min(60_000 * config.timeScale, idleMs / 2) };
}

/** When the idle rule next acts on a seated DJ (their warning, or their leaving); null when it does not. */
export function idleDue(state: RoomState, uuid: string, meta: DjMeta, config: RoomConfig): number | null {
  const rule = idleRule(state, config);
  if (!rule || meta.activeAt === undefined || state.playing?.djUuid === uuid) return null;
  return meta.activeAt + rule.idleMs - (meta.idleWarned ? 0 : rule.warnMs);
}
