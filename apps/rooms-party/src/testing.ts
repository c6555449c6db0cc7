import type { LiveSong, RoomSettings } from "@booth/sdk/live/protocol";
import type { JoiningUser } from "./reducer.ts";

export const ROOM_UUID = "00000000-0000-4000-8000-000000000001";

export function settingsFor(patch: Partial<RoomSettings> = {}): RoomSettings {
  return {
    uuid: ROOM_UUID,
    slug: "test-room",
    name: "Test room",
    type: "PRIVATE",
    djType: "EVERYONE",
    numberOfDjs: 3,
    songsPerDj: null,
    roomSize: 100,
    hasChat: true,
    design: "CLUB",
    isLive: true,
    pinnedMessages: [],
    roomRoles: [],
    voteSkipThreshold: null,
    ownerUuid: "00000000-0000-4000-8000-0000000000ff",
    ...patch,
  };
}

export function userFor(n: number, patch: Partial<JoiningUser> = {}): JoiningUser {
  const uuid = `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  return {
    uuid,
    tokenRole: "user",
    globalRoles: ["user"],
    badges: [],
    verified: true,
    profile: { uuid, nickname: `user${n}`, avatarId: "a1", color: "#112233" },
    ...patch,
  };
}

export function songFor(n: number, patch: Partial<LiveSong> = {}): LiveSong {
  return {
    songId: `10000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    trackName: `Track ${n}`,
    artistName: `Artist ${n}`,
    duration: 3,
    ...patch,
  };
}

/** A seeded PRNG (mulberry32): the same seed, the same sequence. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
  };
}
