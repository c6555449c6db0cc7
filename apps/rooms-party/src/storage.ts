import type { ChatMessage, LiveState, RoomUser, UserData } from "@booth/sdk/live/protocol";
import { changedKeys } from "./diff.ts";
import { type Member, type RoomState, splitSettings } from "./reducer.ts";

/** Where a room keeps its state between restarts. */
export interface StateStore {
  load(): Promise<RoomState | null>;
  /**
   * Writes what changed since the last save or load. `writtenInPlace`: users whose `allUserData` entry the reducer
   * changed in place (the record is then the same object as at the last save, and cannot be compared with it).
   */
  save(state: RoomState, writtenInPlace?: readonly string[]): Promise<void>;
  clear(): Promise<void>;
}

/** The subset of a Durable Object's storage the room uses (a Durable Object's `ctx.storage` has it). */
export interface KeyValue {
  get<T>(key: string): Promise<T | undefined>;
  put(entries: Record<string, unknown>): Promise<void>;
  delete(keys: string[]): Promise<unknown>;
  list<T>(options: { prefix: string }): Promise<Map<string, T>>;
  deleteAll(): Promise<void>;
}

/** An in-memory KeyValue that copies what goes in and out, as real storage would. */
export function memoryKeyValue(): KeyValue & { size(): number; writes: number } {
  const data = new Map<string, string>();
  const kv = {
    writes: 0,
    size: () => data.size,
    async get<T>(key: string) {
      const v = data.get(key);
      return v === undefined ? undefined : (JSON.parse(v) as T);
    },
    async put(entries: Record<string, unknown>) {
      for (const [k, v] of Object.entries(entries)) data.set(k, JSON.stringify(v));
      kv.writes++;
    },
    async delete(keys: string[]) {
      for (const k of keys) data.delete(k);
    },
    async list<T>(options: { prefix: string }) {
      const out = new Map<string, T>();
      for (const k of [...data.keys()].sort())
        if (k.startsWith(options.prefix)) out.set(k, JSON.parse(data.get(k) as string) as T);
      return out;
    },
    async deleteAll() {
      data.clear();
    },
  };
  return kv;
}

interface MemberEntry {
  member: Member;
  user: RoomUser;
  data: UserData;
}
/** Lists that follow from the others (the reducer's `derive`): rebuilt on load, never written. */
type Derived = "audienceUsers" | "floorUsers" | "visibleDjs";
/**
 * What a vote or a grab changes besides a member, under a key of its own so that a vote does not write the core. The
 * core keeps the counts of when it was last written (rooms stored before had them only there); `counts` wins.
 */
const COUNTS = ["voteCounts", "vibeMeter", "grabs"] as const;
type Counts = Pick<LiveState, (typeof COUNTS)[number]>;
const isCount = (k: string) => (COUNTS as readonly string[]).includes(k);
type Core = Omit<LiveState, "allUserData" | "allUsers" | Derived> &
  Pick<RoomState, "djMeta" | "playing"> &
  // Absent in rooms stored before sanctions left the shared settings, and in rooms without a room crate.
  Partial<Pick<RoomState, "sanctions" | "roomCrate">>;

const MAX_PUT = 128;

/** Each list of users by uuid, made once per list (a room's list stays the same from one vote to the next). */
const indexes = new WeakMap<RoomUser[], Map<string, RoomUser>>();
function usersByUuid(users: RoomUser[]) {
  let index = indexes.get(users);
  if (!index) {
    index = new Map(users.map((u) => [u.uuid, u]));
    indexes.set(users, index);
  }
  return index;
}
const chatKey = (m: ChatMessage) => `chat:${String(m.date).padStart(15, "0")}:${m.id}`;

/**
 * A room's state split over keys so that one vote writes one member, the seq and the counts, not the whole room (a
 * Durable Object value holds at most 128 KiB): `seq`, `core` (booth, now playing, settings, sanctions), `counts` (the
 * votes and grabs), `order` (who joined when), `member:{uuid}` and `chat:{time}:{id}`.
 */
export function keyValueStateStore(kv: KeyValue): StateStore {
  let last: RoomState | null = null;
  /** Users changed in place since the last save that completed: a failed save leaves them for the next one. */
  const unsaved = new Set<string>();

  async function putAll(entries: Record<string, unknown>) {
    const keys = Object.keys(entries);
    for (let i = 0; i < keys.length; i += MAX_PUT)
      await kv.put(Object.fromEntries(keys.slice(i, i + MAX_PUT).map((k) => [k, entries[k]])));
  }
  async function deleteAll(keys: string[]) {
    for (let i = 0; i < keys.length; i += MAX_PUT) await kv.delete(keys.slice(i, i + MAX_PUT));
  }

  return {
    async load() {
      const seq = await kv.get<number>("seq");
      const core = await kv.get<Core>("core");
      if (seq === undefined || !core) return null;
      const order = (await kv.get<string[]>("order")) ?? [];
      const entries = await kv.list<MemberEntry>({ prefix: "member:" });
      const chat = [...(await kv.list<ChatMessage>({ prefix: "chat:" })).values()];
      const members: RoomState["members"] = {};
      const allUserData: LiveState["allUserData"] = {};
      const allUsers: RoomUser[] = [];
      for (const uuid of order) {
        const entry = entries.get(`member:${uuid}`);
        if (!entry) continue;
        members[uuid] = entry.member;
        allUserData[uuid] = entry.data;
        allUsers.push(entry.user);
      }
      const counts = await kv.get<Counts>("counts");
      const { djMeta, playing, sanctions: stored, roomCrate, ...kept } = { ...core, ...counts };
      const split = stored ? null : splitSettings(kept.settings);
      const live = split ? { ...kept, settings: split.settings } : kept;
      // The audience is everyone not on stage, the floor the audience without guests (as the reducer derives them),
      // made of the same user objects as allUsers.
      const onStage = new Set(live.djs.map((d) => d.uuid));
      const audienceUsers = allUsers.filter((u) => !onStage.has(u.uuid));
      const state: RoomState = {
        seq,
        live: {
          ...live,
          allUserData,
          allUsers,
          audienceUsers,
          floorUsers: audienceUsers.filter((u) => u.tokenRole !== "guest"),
          visibleDjs: live.djs,
          // Rooms stored before the waitlist existed have none.
          waitlist: (live as Partial<LiveState>).waitlist ?? [],
          grabs: (live as Partial<LiveState>).grabs ?? 0,
        },
        members,
        djMeta,
        playing,
        chat,
        sanctions: stored ?? split?.sanctions ?? [],
        ...(roomCrate ? { roomCrate } : {}),
      };
      last = state;
      return state;
    },

    async save(state, writtenInPlace = []) {
      for (const uuid of writtenInPlace) unsaved.add(uuid);
      const prev = last;
      const puts: Record<string, unknown> = {};
      const deletes: string[] = [];
      if (prev?.seq !== state.seq) puts.seq = state.seq;
      // The core must stay small whatever the size of the room.
      const { allUserData, allUsers, audienceUsers: _a, floorUsers: _f, visibleDjs: _v, ...rest } = state.live;
      type Own = "djMeta" | "playing" | "sanctions" | "roomCrate";
      const own = (k: keyof Core): k is Own =>
        k === "djMeta" || k === "playing" || k === "sanctions" || k === "roomCrate";
      const changed = (k: keyof Core) =>
        !prev || (own(k) ? prev[k] !== state[k] : prev.live[k as keyof LiveState] !== state.live[k as keyof LiveState]);
      const coreKeys = [...Object.keys(rest), "djMeta", "playing", "sanctions", "roomCrate"] as (keyof Core)[];
      if (COUNTS.some(changed)) puts.counts = Object.fromEntries(COUNTS.map((k) => [k, state.live[k]])) as Counts;
      if (coreKeys.some((k) => !isCount(k) && changed(k)))
        puts.core = {
          ...rest,
          djMeta: state.djMeta,
          playing: state.playing,
          sanctions: state.sanctions,
          ...(state.roomCrate ? { roomCrate: state.roomCrate } : {}),
        };
      if (!prev || prev.live.allUsers !== allUsers) {
        const order = allUsers.map((u) => u.uuid);
        const prevOrder = prev?.live.allUsers.map((u) => u.uuid) ?? [];
        if (order.join() !== prevOrder.join()) puts.order = order;
      }
      const sameUsers = prev?.live.allUsers === allUsers;
      // A vote leaves the list of users as it was: no map of it to build then.
      const prevUsers = sameUsers ? null : new Map(prev?.live.allUsers.map((u) => [u.uuid, u]));
      // A vote edits one member's data and nothing else: only the keys the reducer edited are looked at.
      const sameData = prev?.live.allUserData === allUserData;
      const edited =
        prev && sameUsers && prev.members === state.members && !sameData
          ? changedKeys(prev.live.allUserData, allUserData)
          : null;
      if (prev && edited) {
        const index = usersByUuid(allUsers);
        for (const uuid of edited) {
          const user = index.get(uuid);
          const member = state.members[uuid];
          const data = allUserData[uuid];
          if (user && member && data && prev.live.allUserData[uuid] !== data)
            puts[`member:${uuid}`] = { member, user, data } satisfies MemberEntry;
        }
      } else if (!prev || !sameUsers || prev.members !== state.members || prev.live.allUserData !== allUserData)
        for (const user of allUsers) {
          const uuid = user.uuid;
          const member = state.members[uuid];
          const data = allUserData[uuid];
          if (!member || !data) continue;
          if (
            !prev ||
            (prevUsers && prevUsers.get(uuid) !== user) ||
            prev.members[uuid] !== member ||
            prev.live.allUserData[uuid] !== data
          )
            puts[`member:${uuid}`] = { member, user, data } satisfies MemberEntry;
        }
      // Changed in place: written whatever the comparisons above saw (nothing, as the record is the same object).
      if (prev)
        for (const uuid of unsaved) {
          const member = state.members[uuid];
          const data = allUserData[uuid];
          const user = member && data ? usersByUuid(allUsers).get(uuid) : undefined;
          if (member && data && user) puts[`member:${uuid}`] = { member, user, data } satisfies MemberEntry;
        }
      if (prev && prev.members !== state.members)
        for (const uuid of Object.keys(prev.members)) if (!state.members[uuid]) deletes.push(`member:${uuid}`);
      if (!prev || prev.chat !== state.chat) {
        const now = new Map(state.chat.map((m) => [chatKey(m), m]));
        const before = new Map(prev?.chat.map((m) => [chatKey(m), m]));
        for (const [k, m] of now) if (before.get(k) !== m) puts[k] = m;
        for (const k of before.keys()) if (!now.has(k)) deletes.push(k);
      }
      if (deletes.length) await deleteAll(deletes);
      if (Object.keys(puts).length) await putAll(puts);
      last = state;
      unsaved.clear();
    },

    async clear() {
      await kv.deleteAll();
      last = null;
    },
  };
}
