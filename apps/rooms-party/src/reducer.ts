/**
 * The rules of a live room, as a pure function: (state, action, context) -> new state, the stateful messages (with
 * their RFC 6902 patches), the stateless messages, the reply to the caller, and the effects the adapter performs
 * (calls to the edge). Nothing here reads a clock, a socket or the network.
 */
import {
  type ActionParams,
  type ChatConsumable,
  type ChatMessage,
  type Dj,
  DjType,
  LIMITS,
  type LiveSong,
  type LiveState,
  type PatchOperation,
  type RoomRole,
  type RoomSettings,
  type RoomUser,
  SANCTION_ROLES,
  type SongVotes,
  type StatefulMessageName,
  type StatelessServerMessage,
  type TokenRole,
  type VoteCounts,
} from "@booth/sdk/live/protocol";
import { diff } from "./diff.ts";

// ---- state ------------------------------------------------------------------------------------------------------

/** What the room knows of a person beyond the public state. */
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

// ---- actions, effects, results ------------------------------------------------------------------------------------

/**
 * A client's action as the reducer takes it: the songs the client named already looked up through the edge (room.ts),
 * so what the room plays and shows is the catalogue's, never what a client wrote.
 */
export type ResolvedParams = Omit<ActionParams, "addDj" | "updateNextSong" | "sendChatMessage"> & {
  addDj: { song?: LiveSong };
  updateNextSong: { song: LiveSong | null };
  sendChatMessage: Omit<ActionParams["sendChatMessage"], "songs"> & { songs?: LiveSong[] };
};
type ClientActionOf<A extends keyof ResolvedParams> = { action: A; params: ResolvedParams[A] };
export type RoomClientAction = {
  [A in Exclude<keyof ResolvedParams, "joinRoom">]: ClientActionOf<A>;
}[Exclude<keyof ResolvedParams, "joinRoom">];

export type RoomAction =
  | { type: "join"; user: JoiningUser; settings: RoomSettings }
  | { type: "client"; userUuid: string; request: RoomClientAction; id: string }
  | { type: "disconnected"; userUuid: string }
  | { type: "tick" }
  | { type: "queueLoaded"; userUuid: string; songs: LiveSong[] }
  /** The user's queue crate changed over REST (songs added, moved, removed): a seated DJ's is read again. */
  | { type: "queueChanged"; userUuid: string }
  | { type: "settings"; settings: RoomSettings }
  /** `reason` tells the user why (a ban of their account, say); the room's own words otherwise. */
  | { type: "kick"; userUuid: string; reason?: string }
  | { type: "reset"; settings: RoomSettings }
  | { type: "clearChat" }
  | { type: "consumable"; buyer: { uuid: string; nickname: string }; consumable: ChatConsumable };

export type Effect =
  | { type: "presenceJoined"; userUuid: string }
  | { type: "presenceLeft"; userUuid: string }
  | { type: "loadQueue"; userUuid: string }
  | { type: "advanceQueue"; userUuid: string; crateSongUuid: string }
  | { type: "recordPlay"; song: LiveSong; djUuid: string; voteCounts: VoteCounts; playedAt: number; points: number }
  | { type: "addToLikes"; userUuid: string; song: LiveSong }
  | { type: "notifyDjFans"; djUuid: string }
  | { type: "reportLiveState"; nowPlaying: LiveSong | null; numberOfActiveDjs: number };

export interface Outgoing {
  /** Everyone, or only the connections of one user. */
  to: "all" | { userUuid: string };
  message: StatelessServerMessage;
}

export type Reply = { ok: true; result: unknown } | { ok: false; statusCode: number; message: string };

export interface Result {
  state: RoomState;
  stateful: { name: StatefulMessageName; statePatch: PatchOperation[]; seq: number }[];
  stateless: Outgoing[];
  effects: Effect[];
  reply: Reply;
  /** Users whose connections the adapter closes (after sending what is above). */
  close: { userUuid: string; code: number; reason: string }[];
  /** Every connection closes (room reset). */
  closeAll: boolean;
}

export class RoomError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const MESSAGES = {
  notInRoom: "Join the room first.",
  alreadyDj: "You are already a DJ.",
  cannotDj: "You cannot DJ in this room.",
  seatsTaken: "All DJ seats are taken.",
  notDj: "That user is not a DJ.",
  notYourDj: "Only moderators may remove another DJ.",
  nothingPlaying: "Nothing is playing.",
  skipNotAllowed: "Only the DJ playing or a moderator may skip the song.",
  ownSong: "You cannot vote on your own song.",
  guestStar: "Sign in to star songs.",
  banned: "You are banned from this room.",
  chatOff: "Chat is off in this room.",
  chatDisabled: "You cannot chat in this room right now.",
  chatUnverified: "Verify your profile to chat in public rooms.",
  chatInvalid: "A chat message needs text, media, songs or a playlist.",
  chatRate: "Slow down: you are sending messages too fast.",
  chatNotFound: "Message not found.",
  chatEdit: "Only your latest message can be edited, within 20 seconds.",
  chatDelete: "Only moderators and the author may delete a message.",
  kicked: "You were removed from this room.",
} as const;

// ---- roles ------------------------------------------------------------------------------------------------------

const PLATFORM_MODERATORS = ["superUser", "admin", "staff", "globalModerator"];
const PRO_BADGES = ["PLATINUM", "DOUBLE_PLATINUM"];

export function rolesInForce(settings: RoomSettings, userUuid: string, now: number) {
  return settings.roomRoles
    .filter((r) => r.userUuid === userUuid && (r.expirationTime === null || Date.parse(r.expirationTime) > now))
    .map((r) => r.role);
}

function isModerator(member: Member, settings: RoomSettings, now: number) {
  if (member.globalRoles.some((r) => PLATFORM_MODERATORS.includes(r))) return true;
  if ((settings as { ownerUuid?: string }).ownerUuid === member.uuid) return true;
  const roles = rolesInForce(settings, member.uuid, now);
  return roles.includes("owner") || roles.includes("coOwner") || roles.includes("moderator");
}

function highestRole(member: Member, settings: RoomSettings, now: number): string | undefined {
  for (const r of PLATFORM_MODERATORS) if (member.globalRoles.includes(r)) return r;
  const roles = rolesInForce(settings, member.uuid, now);
  if ((settings as { ownerUuid?: string }).ownerUuid === member.uuid || roles.includes("owner")) return "owner";
  for (const r of ["coOwner", "moderator", "dj"] as const) if (roles.includes(r)) return r;
  return undefined;
}

export function canDj(member: Member, settings: RoomSettings, now: number) {
  if (member.tokenRole === "guest") return false;
  const roles = rolesInForce(settings, member.uuid, now);
  if (roles.includes("banned") || roles.includes("djDisabled")) return false;
  if (isModerator(member, settings, now)) return true;
  switch (settings.djType) {
    case DjType.EVERYONE:
      return true;
    case DjType.INVITE_ONLY:
      return roles.includes("dj");
    case DjType.VERIFIED_ONLY:
      return member.verified;
    case DjType.PRO_PLAN_OWNER:
      return member.badges.some((b) => PRO_BADGES.includes(b));
    default:
      return false;
  }
}

function roomUser(member: Member, settings: RoomSettings, now: number): RoomUser {
  const role = highestRole(member, settings, now);
  return {
    uuid: member.uuid,
    tokenRole: member.tokenRole,
    ...(role ? { highestRole: role } : {}),
    canDj: canDj(member, settings, now),
  };
}

const sameUser = (a: RoomUser, b: RoomUser) =>
  a.uuid === b.uuid && a.tokenRole === b.tokenRole && a.highestRole === b.highestRole && a.canDj === b.canDj;

/**
 * The settings as the room keeps them: without what the edge only knows from the room itself (who is in it, what
 * plays) or that changes with every report (updatedAt), so a join does not announce a change that is none.
 */
export function liveSettings(settings: RoomSettings): RoomSettings {
  const {
    numberOfUsersInRoom: _u,
    numberOfActiveDjs: _d,
    song: _s,
    updatedAt: _t,
    favorited: _f,
    ...rest
  } = settings as RoomSettings & Record<string, unknown>;
  return rest as RoomSettings;
}

const isSanction = (r: RoomRole) => SANCTION_ROLES.includes(r.role);

/** The edge's settings split in two: what everyone in the room sees, and the sanctions only moderators see. */
export function splitSettings(fromEdge: RoomSettings): { settings: RoomSettings; sanctions: RoomRole[] } {
  const settings = liveSettings(fromEdge);
  return {
    settings: { ...settings, roomRoles: settings.roomRoles.filter((r) => !isSanction(r)) },
    sanctions: settings.roomRoles.filter(isSanction),
  };
}

/** The settings with every role in force, sanctions included: what the rules are checked against. */
export function roomRules(state: Pick<RoomState, "live" | "sanctions">): RoomSettings {
  const settings = state.live.settings;
  return state.sanctions.length ? { ...settings, roomRoles: [...settings.roomRoles, ...state.sanctions] } : settings;
}

/** The sanctions one person sees: every one for the room's moderators, their own for anyone else. */
export function sanctionsSeenBy(state: RoomState, userUuid: string, now: number): RoomRole[] {
  const member = state.members[userUuid];
  if (member && isModerator(member, state.live.settings, now)) return state.sanctions;
  return state.sanctions.filter((r) => r.userUuid === userUuid);
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

// ---- the transaction every action runs in ---------------------------------------------------------------------

class Tx {
  state: RoomState;
  private base: LiveState;
  readonly out: Result;

  constructor(
    state: RoomState,
    readonly now: number,
    readonly config: RoomConfig,
  ) {
    this.state = state;
    this.base = state.live;
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
    const djSet = new Set(live.djs.map((d) => d.uuid));
    const audience = live.allUsers.filter((u) => !djSet.has(u.uuid));
    const floor = audience.filter((u) => u.tokenRole !== "guest");
    const keep = <T>(old: T[], next: T[]) =>
      old.length === next.length && old.every((v, i) => v === next[i]) ? old : next;
    const playing = this.state.playing;
    const meta = playing ? this.state.djMeta[playing.djUuid] : undefined;
    const perDj = live.settings.songsPerDj;
    const remaining = perDj === null ? null : Math.max(0, perDj - (meta?.songsPlayed ?? 0));
    const audienceSize = Math.max(1, live.allUsers.length - (playing ? 1 : 0));
    const { likes, dislikes } = live.voteCounts;
    const vibe = Math.round(((likes - dislikes) / audienceSize) * 100) / 100;
    this.setLive({
      audienceUsers: keep(live.audienceUsers, audience),
      floorUsers: keep(live.floorUsers, floor),
      visibleDjs: keep(live.visibleDjs, live.djs),
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

// ---- the reducer ------------------------------------------------------------------------------------------------

export function reduce(state: RoomState, action: RoomAction, now: number, config = DEFAULT_CONFIG): Result {
  const tx = new Tx(state, now, config);
  try {
    switch (action.type) {
      case "join":
        join(tx, action.user, action.settings);
        break;
      case "client":
        client(tx, action.userUuid, action.request, action.id);
        break;
      case "disconnected":
        disconnected(tx, action.userUuid);
        break;
      case "tick":
        tick(tx);
        break;
      case "queueLoaded":
        queueLoaded(tx, action.userUuid, action.songs);
        break;
      case "queueChanged":
        if (tx.state.djMeta[action.userUuid] && djIndex(tx, action.userUuid) !== -1)
          tx.effect({ type: "loadQueue", userUuid: action.userUuid });
        break;
      case "settings":
        applySettings(tx, action.settings);
        break;
      case "kick":
        kick(tx, action.userUuid, action.reason ?? MESSAGES.kicked);
        break;
      case "reset":
        reset(tx, action.settings);
        break;
      case "clearChat":
        tx.set({ chat: [] });
        tx.send("all", { name: "chatCleared", params: {} });
        break;
      case "consumable":
        announceConsumable(tx, action.buyer, action.consumable);
        break;
    }
    return tx.result();
  } catch (err) {
    if (!(err instanceof RoomError)) throw err;
    // A refused action changes nothing.
    const out = new Tx(state, now, config).out;
    return { ...out, reply: { ok: false, statusCode: err.statusCode, message: err.message } };
  }
}

function requireMember(tx: Tx, userUuid: string) {
  const member = tx.member(userUuid);
  if (!member) throw new RoomError(403, MESSAGES.notInRoom);
  return member;
}

/** A stable spot on the floor for each user. */
function positionOf(uuid: string) {
  const hex = uuid.replace(/[^0-9a-f]/gi, "").padEnd(8, "0");
  return { x: Number.parseInt(hex.slice(0, 4), 16) % 100, y: Number.parseInt(hex.slice(4, 8), 16) % 100 };
}

function join(tx: Tx, user: JoiningUser, fromEdge: RoomSettings) {
  const { settings, sanctions } = splitSettings(fromEdge);
  if (
    JSON.stringify(settings) !== JSON.stringify(tx.live.settings) ||
    JSON.stringify(sanctions) !== JSON.stringify(tx.state.sanctions)
  )
    applySettings(tx, fromEdge);
  if (rolesInForce(tx.rules, user.uuid, tx.now).includes("banned")) throw new RoomError(403, MESSAGES.banned);
  const existing = tx.member(user.uuid);
  const member: Member = {
    uuid: user.uuid,
    tokenRole: user.tokenRole,
    globalRoles: user.globalRoles,
    badges: user.badges,
    verified: user.verified,
    connected: true,
    disconnectedAt: null,
    joinedAt: existing?.joinedAt ?? tx.now,
    chatTimes: existing?.chatTimes ?? [],
  };
  tx.setMember(member);
  const view = roomUser(member, tx.live.settings, tx.now);
  if (!existing) {
    tx.setLive({
      allUsers: [...tx.live.allUsers, view],
      allUserData: {
        ...tx.live.allUserData,
        [user.uuid]: { userProfile: user.profile, position: positionOf(user.uuid), songVotes: {} },
      },
    });
    tx.emit("userJoined");
    tx.effect({ type: "presenceJoined", userUuid: user.uuid });
    return;
  }
  // Back within the grace period: the same place, the same seat; only what changed about them is sent.
  refreshUserViews(tx, [user.uuid]);
  const data = tx.live.allUserData[user.uuid];
  if (data && JSON.stringify(data.userProfile) !== JSON.stringify(user.profile))
    tx.setLive({ allUserData: { ...tx.live.allUserData, [user.uuid]: { ...data, userProfile: user.profile } } });
  tx.emit("updatedUserData");
}

/** Recomputes role and canDj of some users (all when omitted), in allUsers and djs. */
function refreshUserViews(tx: Tx, uuids?: string[]) {
  const only = uuids ? new Set(uuids) : null;
  const fresh = (u: RoomUser): RoomUser => {
    if (only && !only.has(u.uuid)) return u;
    const member = tx.member(u.uuid);
    if (!member) return u;
    const next = roomUser(member, tx.live.settings, tx.now);
    return sameUser(u, next) ? u : next;
  };
  const allUsers = tx.live.allUsers.map(fresh);
  const djs = tx.live.djs.map((d) => {
    const next = fresh(d);
    return next === d ? d : { ...next, nextSong: d.nextSong };
  });
  tx.setLive({
    allUsers: allUsers.every((u, i) => u === tx.live.allUsers[i]) ? tx.live.allUsers : allUsers,
    djs: djs.every((d, i) => d === tx.live.djs[i]) ? tx.live.djs : djs,
  });
}

function disconnected(tx: Tx, userUuid: string) {
  const member = tx.member(userUuid);
  if (!member?.connected) return;
  tx.setMember({ ...member, connected: false, disconnectedAt: tx.now });
}

function client(tx: Tx, userUuid: string, request: RoomClientAction, id: string) {
  const member = requireMember(tx, userUuid);
  switch (request.action) {
    case "addDj":
      return addDj(tx, member, request.params.song ?? null);
    case "removeDj":
      return removeDjAction(tx, member, request.params.userUuid ?? member.uuid);
    case "updateNextSong":
      return updateNextSong(tx, member, request.params.song);
    case "skipSong":
      return skipSong(tx, member);
    case "voteOnSong":
      return vote(tx, member, request.params.songVotes);
    case "playOneTimeAnimation":
      tx.send("all", {
        name: "playedOneTimeAnimation",
        params: {
          userUuid: member.uuid,
          animation: request.params.animation,
          ...(request.params.emoji ? { emoji: request.params.emoji } : {}),
        },
      });
      return;
    case "sendChatMessage":
      return sendChat(tx, member, request.params, id);
    case "editChatMessage":
      return editChat(tx, member, request.params.id, request.params.message);
    case "deleteChatMessage":
      return deleteChat(tx, member, request.params.id);
  }
}

// ---- the booth --------------------------------------------------------------------------------------------------

const djIndex = (tx: Tx, uuid: string) => tx.live.djs.findIndex((d) => d.uuid === uuid);

function setDj(tx: Tx, uuid: string, change: Partial<Dj>) {
  tx.setLive({ djs: tx.live.djs.map((d) => (d.uuid === uuid ? { ...d, ...change } : d)) });
}

function addDj(tx: Tx, member: Member, song: LiveSong | null) {
  if (djIndex(tx, member.uuid) !== -1) throw new RoomError(409, MESSAGES.alreadyDj);
  if (!canDj(member, tx.rules, tx.now)) throw new RoomError(403, MESSAGES.cannotDj);
  if (tx.live.djs.length >= tx.live.settings.numberOfDjs) throw new RoomError(403, MESSAGES.seatsTaken);
  const view = tx.live.allUsers.find((u) => u.uuid === member.uuid) ?? roomUser(member, tx.live.settings, tx.now);
  tx.setLive({ djs: [...tx.live.djs, { ...view, nextSong: song }] });
  tx.setMeta(member.uuid, { songsPlayed: 0, queue: [], followsQueue: song === null, removeAfterSong: false });
  if (song === null) tx.effect({ type: "loadQueue", userUuid: member.uuid });
  tx.emit("addedDj");
  if (!tx.live.nowPlaying) playNext(tx);
}

function removeDjAction(tx: Tx, caller: Member, target: string) {
  if (target !== caller.uuid && !isModerator(caller, tx.live.settings, tx.now))
    throw new RoomError(403, MESSAGES.notYourDj);
  if (djIndex(tx, target) === -1) throw new RoomError(404, MESSAGES.notDj);
  removeFromBooth(tx, target);
}

/** Takes a DJ off the stage; if they were playing, their song ends there (and is recorded) and the next one plays. */
function removeFromBooth(tx: Tx, uuid: string) {
  const playingNow = tx.state.playing?.djUuid === uuid;
  if (playingNow) finishSong(tx);
  tx.setLive({ djs: tx.live.djs.filter((d) => d.uuid !== uuid) });
  tx.setMeta(uuid, undefined);
  tx.emit("removedDj");
  if (playingNow || !tx.live.nowPlaying) playNext(tx, playingNow);
}

function updateNextSong(tx: Tx, member: Member, song: LiveSong | null) {
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
  if (!tx.live.nowPlaying) playNext(tx);
}

/** The first song of a queue that is not the one this DJ is playing right now. */
function nextFromQueue(tx: Tx, djUuid: string, queue: LiveSong[]) {
  const playing = tx.state.playing;
  const current = playing?.djUuid === djUuid ? playing.crateSongUuid : null;
  return queue.find((s) => !current || s.crateSongUuid !== current) ?? null;
}

function queueLoaded(tx: Tx, userUuid: string, songs: LiveSong[]) {
  const meta = tx.state.djMeta[userUuid];
  if (!meta || djIndex(tx, userUuid) === -1) return;
  tx.setMeta(userUuid, { ...meta, queue: songs });
  if (meta.followsQueue) {
    const next = nextFromQueue(tx, userUuid, songs);
    const dj = tx.live.djs[djIndex(tx, userUuid)];
    if (JSON.stringify(dj?.nextSong ?? null) !== JSON.stringify(next)) setDj(tx, userUuid, { nextSong: next });
    tx.emit("updatedNextSong");
  }
  if (!tx.live.nowPlaying) playNext(tx);
}

function skipSong(tx: Tx, member: Member) {
  const playing = tx.state.playing;
  if (!playing || !tx.live.nowPlaying) throw new RoomError(409, MESSAGES.nothingPlaying);
  if (playing.djUuid !== member.uuid && !isModerator(member, tx.live.settings, tx.now))
    throw new RoomError(403, MESSAGES.skipNotAllowed);
  endSongAndRotate(tx);
}

const durationMs = (song: LiveSong, config: RoomConfig) =>
  Math.max(1, Math.round((song.duration > 0 ? song.duration : UNKNOWN_DURATION_SECONDS) * 1000 * config.timeScale));

const NO_VOTES: VoteCounts = { likes: 0, dislikes: 0, stars: 0 };

/** Clears every vote (a new song, or none). */
function clearVotes(tx: Tx) {
  const data = tx.live.allUserData;
  let changed: typeof data | null = null;
  for (const [uuid, d] of Object.entries(data))
    if (d.songVotes.like !== undefined || d.songVotes.star !== undefined) {
      changed ??= { ...data };
      changed[uuid] = { ...d, songVotes: {} };
    }
  tx.setLive({ allUserData: changed ?? data, voteCounts: NO_VOTES });
}

/**
 * The song ends now: its play is recorded with its votes (and the DJ's points), their queue advances, the votes
 * clear. The DJ is still first on stage; the caller decides where they go.
 */
function finishSong(tx: Tx) {
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
    points: weighed.likes + 2 * weighed.stars,
  });
  if (playing.fromQueue && playing.crateSongUuid)
    tx.effect({ type: "advanceQueue", userUuid: playing.djUuid, crateSongUuid: playing.crateSongUuid });
  tx.set({ playing: null });
  tx.setLive({ nowPlaying: null });
  clearVotes(tx);
}

/** The song ends: recorded, the DJ goes to the back (or steps down after their songs), the next DJ plays. */
function endSongAndRotate(tx: Tx) {
  const playing = tx.state.playing;
  if (!playing) return;
  finishSong(tx);
  const meta = tx.state.djMeta[playing.djUuid];
  const limit = tx.live.settings.songsPerDj;
  const stepDown = !!meta && (meta.removeAfterSong || (limit !== null && meta.songsPlayed >= limit));
  const dj = tx.live.djs.find((d) => d.uuid === playing.djUuid);
  if (stepDown || !dj) {
    tx.setLive({ djs: tx.live.djs.filter((d) => d.uuid !== playing.djUuid) });
    tx.setMeta(playing.djUuid, undefined);
    tx.emit("removedDj");
  } else {
    tx.setLive({ djs: [...tx.live.djs.filter((d) => d.uuid !== playing.djUuid), dj] });
  }
  playNext(tx, true);
}

/**
 * Plays the first DJ's song; DJs with nothing to play are passed over (they move behind the one who plays). With
 * nobody to play, `playedSong` says `nowPlaying: null` (when `announceSilence`, or when something was playing).
 */
function playNext(tx: Tx, announceSilence = false) {
  if (tx.live.nowPlaying) return;
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
  tx.effect({ type: "notifyDjFans", djUuid: dj.uuid });
  tx.effect({ type: "reportLiveState", nowPlaying: song, numberOfActiveDjs: tx.live.djs.length });
  tx.emit("playedSong", true);
}

// ---- votes ------------------------------------------------------------------------------------------------------

function counted(v: SongVotes): VoteCounts {
  return { likes: v.like === true ? 1 : 0, dislikes: v.like === false ? 1 : 0, stars: v.star === true ? 1 : 0 };
}

/**
 * The votes that carry weight (season points, vote-skip): one per signed-in person. Guests are free to mint and bots
 * are run by their owners, so a flood of either shows in the room's counts and never pays or skips.
 */
function weighedVotes(tx: Tx): VoteCounts & { audience: number } {
  const out = { likes: 0, dislikes: 0, stars: 0, audience: 0 };
  const djUuid = tx.state.playing?.djUuid;
  for (const [uuid, data] of Object.entries(tx.live.allUserData)) {
    if (tx.member(uuid)?.tokenRole !== "user" || uuid === djUuid) continue;
    out.audience++;
    const v = counted(data.songVotes);
    out.likes += v.likes;
    out.dislikes += v.dislikes;
    out.stars += v.stars;
  }
  return out;
}

function vote(tx: Tx, member: Member, given: { like?: boolean; star?: boolean }) {
  const playing = tx.state.playing;
  const now = tx.live.nowPlaying;
  if (!playing || !now) throw new RoomError(409, MESSAGES.nothingPlaying);
  if (playing.djUuid === member.uuid) throw new RoomError(403, MESSAGES.ownSong);
  if (given.star && member.tokenRole === "guest") throw new RoomError(403, MESSAGES.guestStar);
  const data = tx.live.allUserData[member.uuid];
  if (!data) throw new RoomError(403, MESSAGES.notInRoom);
  const before = data.songVotes;
  const after: SongVotes = {};
  const like = given.like ?? before.like;
  const star = given.star ?? before.star;
  if (like !== undefined) after.like = like;
  if (star !== undefined) after.star = star;
  const [b, a] = [counted(before), counted(after)];
  const c = tx.live.voteCounts;
  tx.setLive({
    allUserData: { ...tx.live.allUserData, [member.uuid]: { ...data, songVotes: after } },
    voteCounts: {
      likes: c.likes - b.likes + a.likes,
      dislikes: c.dislikes - b.dislikes + a.dislikes,
      stars: c.stars - b.stars + a.stars,
    },
  });
  if (after.star && !before.star) tx.effect({ type: "addToLikes", userUuid: member.uuid, song: now.song });
  tx.emit("votedOnSong");
  const threshold = tx.live.settings.voteSkipThreshold ?? null;
  if (threshold === null || threshold <= 0 || after.like !== false || member.tokenRole !== "user") return;
  const weighed = weighedVotes(tx);
  if (weighed.dislikes > threshold * Math.max(1, weighed.audience)) endSongAndRotate(tx);
}

// ---- people leaving, kicks, settings, time ------------------------------------------------------------------------

/** Someone leaves the room: off the stage, their votes and place gone, and the edge told. */
function removeMember(tx: Tx, uuid: string) {
  if (!tx.member(uuid)) return;
  if (djIndex(tx, uuid) !== -1) removeFromBooth(tx, uuid);
  const members = { ...tx.state.members };
  delete members[uuid];
  tx.set({ members });
  const data = tx.live.allUserData[uuid];
  const allUserData = { ...tx.live.allUserData };
  delete allUserData[uuid];
  const gone = data ? counted(data.songVotes) : NO_VOTES;
  const c = tx.live.voteCounts;
  tx.setLive({
    allUserData,
    allUsers: tx.live.allUsers.filter((u) => u.uuid !== uuid),
    voteCounts:
      gone.likes || gone.dislikes || gone.stars
        ? { likes: c.likes - gone.likes, dislikes: c.dislikes - gone.dislikes, stars: c.stars - gone.stars }
        : c,
  });
  tx.emit("userLeft");
  tx.effect({ type: "presenceLeft", userUuid: uuid });
}

export const KICKED_CLOSE_CODE = 4003;

function kick(tx: Tx, uuid: string, reason: string) {
  tx.send({ userUuid: uuid }, { name: "kickedFromRoom", params: { roomUuid: tx.live.settings.uuid, reason } });
  tx.out.close.push({ userUuid: uuid, code: KICKED_CLOSE_CODE, reason });
  removeMember(tx, uuid);
}

function applySettings(tx: Tx, fromEdge: RoomSettings) {
  const { settings, sanctions } = splitSettings(fromEdge);
  const seenBefore = new Map(
    Object.keys(tx.state.members).map((uuid) => [uuid, JSON.stringify(sanctionsSeenBy(tx.state, uuid, tx.now))]),
  );
  tx.set({ sanctions });
  tx.setLive({ settings });
  refreshUserViews(tx);
  tx.emit("updatedRoomSettings");
  // Sanctions change in private: only those who see a change hear of it.
  for (const [uuid, before] of seenBefore) {
    const seen = sanctionsSeenBy(tx.state, uuid, tx.now);
    if (JSON.stringify(seen) !== before)
      tx.send({ userUuid: uuid }, { name: "updatedSanctions", params: { sanctions: seen } });
  }
  const rules = tx.rules;
  // Bans and kicks given over REST reach the people already in the room.
  for (const uuid of Object.keys(tx.state.members)) {
    const roles = rolesInForce(rules, uuid, tx.now);
    if (roles.includes("banned") || roles.includes("kicked")) kick(tx, uuid, MESSAGES.kicked);
  }
  // DJs who may no longer DJ step down (the public canDj does not show a djDisabled); fewer seats send the last DJs
  // back to the floor.
  for (const dj of [...tx.live.djs]) {
    const member = tx.member(dj.uuid);
    if ((!member || !canDj(member, rules, tx.now)) && djIndex(tx, dj.uuid) !== -1) removeFromBooth(tx, dj.uuid);
  }
  while (tx.live.djs.length > settings.numberOfDjs) {
    const last = tx.live.djs[tx.live.djs.length - 1];
    if (!last) break;
    removeFromBooth(tx, last.uuid);
  }
}

function tick(tx: Tx) {
  const now = tx.now;
  // Expired roles clear themselves (chatDisabled, djDisabled, kicked...).
  const rules = tx.rules;
  const inForce = rules.roomRoles.filter((r) => r.expirationTime === null || Date.parse(r.expirationTime) > now);
  if (inForce.length !== rules.roomRoles.length) applySettings(tx, { ...rules, roomRoles: inForce });
  for (const m of Object.values(tx.state.members))
    if (!m.connected && m.disconnectedAt !== null && m.disconnectedAt + tx.config.graceMs <= now)
      removeMember(tx, m.uuid);
  const playing = tx.live.nowPlaying;
  if (playing && playing.endTime <= now) endSongAndRotate(tx);
}

function reset(tx: Tx, settings: RoomSettings) {
  for (const uuid of Object.keys(tx.state.members)) tx.effect({ type: "presenceLeft", userUuid: uuid });
  if (tx.state.playing) tx.effect({ type: "reportLiveState", nowPlaying: null, numberOfActiveDjs: 0 });
  const fresh = initialState(settings);
  tx.send("all", { name: "roomReset", params: { roomUuid: settings.uuid } });
  tx.out.closeAll = true;
  // The seq carries on, so no client mistakes the new room's patches for the old one's.
  tx.state = { ...fresh, seq: tx.state.seq };
  tx.rebase();
}

// ---- chat -------------------------------------------------------------------------------------------------------

const MENTION_TOKEN = /<@([0-9a-f-]{36})>/gi;
const MENTION_NAME = /(?:^|\s)@([\p{L}\p{N}_.-]{2,32})/gu;

function mentionsIn(tx: Tx, text: string) {
  const found = new Set<string>();
  for (const m of text.matchAll(MENTION_TOKEN))
    if (m[1] && tx.member(m[1].toLowerCase())) found.add(m[1].toLowerCase());
  const names = [...text.matchAll(MENTION_NAME)].map((m) => m[1]?.toLowerCase());
  if (names.length)
    for (const [uuid, data] of Object.entries(tx.live.allUserData)) {
      const nickname = String(data.userProfile.nickname ?? "").toLowerCase();
      if (nickname && names.includes(nickname)) found.add(uuid);
    }
  return [...found];
}

type ChatInput = ResolvedParams["sendChatMessage"];

function chatAllowed(tx: Tx, member: Member) {
  const settings = tx.live.settings;
  if (!settings.hasChat) throw new RoomError(403, MESSAGES.chatOff);
  if (rolesInForce(tx.rules, member.uuid, tx.now).includes("chatDisabled"))
    throw new RoomError(403, MESSAGES.chatDisabled);
  if (settings.type === "PUBLIC" && !member.verified) throw new RoomError(403, MESSAGES.chatUnverified);
}

/** The spec's rule: text, media, songs or a playlist. */
export const chatIsValid = (m: { message?: string; media?: unknown[]; songs?: unknown[]; playlist?: unknown }) =>
  !!m.message?.trim() || !!m.media?.length || !!m.songs?.length || (!!m.playlist && Object.keys(m.playlist).length > 0);

function sendChat(tx: Tx, member: Member, input: ChatInput, id: string) {
  chatAllowed(tx, member);
  if (!chatIsValid(input)) throw new RoomError(400, MESSAGES.chatInvalid);
  const recent = member.chatTimes.filter((t) => t > tx.now - LIMITS.chatRate.perMs);
  if (recent.length >= LIMITS.chatRate.messages) throw new RoomError(429, MESSAGES.chatRate);
  tx.setMember({ ...member, chatTimes: [...recent, tx.now] });
  const profile = tx.live.allUserData[member.uuid]?.userProfile ?? {};
  const text = input.message?.trim() ?? "";
  const message: ChatMessage = {
    id,
    uuid: id,
    type: "room",
    message: text,
    userUuid: member.uuid,
    userName: String(profile.nickname ?? "Guest"),
    avatarId: String(profile.avatarId ?? "default"),
    color: String(profile.color ?? "#8B5CF6"),
    badges: member.badges,
    date: tx.now,
    mentions: mentionsIn(tx, text),
    media: input.media ?? [],
    songs: input.songs ?? [],
    playlist: input.playlist ?? null,
    editedAt: null,
  };
  tx.set({ chat: [...tx.state.chat, message].slice(-LIMITS.chatHistory) });
  tx.send("all", { name: "chatMessage", params: { message } });
  tx.out.reply = { ok: true, result: message };
}

/** A purchase made over REST for this room: a chat message everyone sees, kept in the history like any other. */
function announceConsumable(tx: Tx, buyer: { uuid: string; nickname: string }, consumable: ChatConsumable) {
  const id = `consumable-${consumable.purchaseId}`;
  if (tx.state.chat.some((m) => m.id === id)) return;
  const profile = tx.live.allUserData[buyer.uuid]?.userProfile ?? {};
  const message: ChatMessage = {
    id,
    uuid: id,
    type: "consumable",
    message: consumable.name,
    userUuid: buyer.uuid,
    userName: String(profile.nickname ?? buyer.nickname),
    avatarId: String(profile.avatarId ?? "default"),
    color: String(profile.color ?? "#8B5CF6"),
    badges: tx.member(buyer.uuid)?.badges ?? [],
    date: tx.now,
    mentions: [],
    media: [],
    songs: [],
    playlist: null,
    editedAt: null,
    consumable,
  };
  tx.set({ chat: [...tx.state.chat, message].slice(-LIMITS.chatHistory) });
  tx.send("all", { name: "chatMessage", params: { message } });
}

function editChat(tx: Tx, member: Member, id: string, text: string) {
  chatAllowed(tx, member);
  const message = tx.state.chat.find((m) => m.id === id);
  if (!message) throw new RoomError(404, MESSAGES.chatNotFound);
  const latest = tx.state.chat.findLast((m) => m.userUuid === member.uuid);
  if (message.userUuid !== member.uuid || latest?.id !== id || tx.now - message.date > LIMITS.chatEditWindowMs)
    throw new RoomError(403, MESSAGES.chatEdit);
  const edited: ChatMessage = { ...message, message: text.trim(), mentions: mentionsIn(tx, text), editedAt: tx.now };
  if (!chatIsValid({ ...edited, playlist: edited.playlist ?? undefined }))
    throw new RoomError(400, MESSAGES.chatInvalid);
  tx.set({ chat: tx.state.chat.map((m) => (m.id === id ? edited : m)) });
  tx.send("all", { name: "chatMessageUpdated", params: { message: edited } });
  tx.out.reply = { ok: true, result: edited };
}

function deleteChat(tx: Tx, member: Member, id: string) {
  const message = tx.state.chat.find((m) => m.id === id);
  if (!message) throw new RoomError(404, MESSAGES.chatNotFound);
  if (message.userUuid !== member.uuid && !isModerator(member, tx.live.settings, tx.now))
    throw new RoomError(403, MESSAGES.chatDelete);
  tx.set({ chat: tx.state.chat.filter((m) => m.id !== id) });
  tx.send("all", { name: "chatMessageDeleted", params: { id } });
}

/** What `joinRoom` answers: the full state at its seq, the chat so far, and the sanctions the joiner may see. */
export function joinView(state: RoomState, now: number, viewerUuid?: string) {
  return {
    roomUuid: state.live.settings.uuid,
    state: state.live,
    seq: state.seq,
    serverTime: now,
    chatMessages: state.chat,
    sanctions: viewerUuid ? sanctionsSeenBy(state, viewerUuid, now) : [],
  };
}
