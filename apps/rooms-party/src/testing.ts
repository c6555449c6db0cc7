import type { LiveSong, RoomSettings } from "@booth/sdk/live/protocol";
import { seeded } from "../../edge/src/testing/prng.ts";
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

/** A seeded PRNG (mulberry32, shared with the edge's fuzz test): the same seed, the same sequence. */
export function prng(seed: number) {
  const rng = seeded(seed);
  return { ...rng, int: (n: number) => rng.int(0, n - 1) };
}
