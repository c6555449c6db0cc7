/** What a room holds beyond the public state, how it is configured, and the state it starts from. */
import type { ChatMessage, LiveSong, LiveState, RoomRole, RoomSettings, TokenRole } from "@booth/sdk/live/protocol";
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
}

export interface Playing {
  djUuid: string;
  crateSongUuid: string | null;
  fromQueue: boolean;
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
    live: {
      allUserData: {},
      allUsers: [],
      audienceUsers: [],
      floorUsers: [],
      djs: [],
      visibleDjs: [],
      nowPlaying: null,
      settings,
      songsRemainingForDj: null,
      vibeMeter: 0,
      voteCounts: { likes: 0, dislikes: 0, stars: 0 },
      waitlist: [],
      grabs: 0,
    },
    members: {},
    djMeta: {},
    playing: null,
    chat: [],
    sanctions,
  };
}

/** When the room next needs an alarm: the song's end, a grace period's end, a role's expiry. */
export function nextWakeAt(state: RoomState, config: RoomConfig): number | null {
  let at = Number.POSITIVE_INFINITY;
  if (state.live.nowPlaying) at = Math.min(at, state.live.nowPlaying.endTime);
  for (const m of Object.values(state.members))
    if (!m.connected && m.disconnectedAt !== null) at = Math.min(at, m.disconnectedAt + config.graceMs);
  for (const r of roomRules(state).roomRoles)
    if (r.expirationTime !== null) {
      const t = Date.parse(r.expirationTime);
      if (Number.isFinite(t)) at = Math.min(at, t);
    }
  return Number.isFinite(at) ? at : null;
}
