import {
  ActionParams,
  type LiveSong,
  type LiveState,
  type RoomSettings,
  SANCTION_ROLES,
} from "@booth/sdk/live/protocol";
import jsonpatch, { type Operation } from "fast-json-patch";
import { describe, expect, it } from "vitest";
import { Tx } from "./reducer/tx.ts";
import {
  DEFAULT_CONFIG,
  type Effect,
  initialState,
  joinView,
  MESSAGES,
  nextWakeAt,
  ROOM_DJ,
  type RoomAction,
  type RoomClientAction,
  type RoomState,
  reduce,
  roomRules,
} from "./reducer.ts";
import { prng, settingsFor, songFor, userFor } from "./testing.ts";

const T0 = Date.parse("2026-06-01T12:00:00Z");
const config = { ...DEFAULT_CONFIG, graceMs: 20_000 };

/**
 * A room driven through actions, with one client copy patched from the stream next to it, and a twin run as the live
 * room runs it (in place, each state given up for the next): both must answer and send the same, byte for byte.
 */
function harness(settings: RoomSettings = settingsFor()) {
  let state = initialState(settings);
  let twin = initialState(settings);
  let now = T0;
  let client: LiveState = structuredClone(state.live);
  let clientSeq = state.seq;
  const effects: Effect[] = [];
  const log: string[] = [];
  let ids = 0;
  function run(action: RoomAction) {
    const before = state;
    const out = reduce(state, action, now, config);
    if (!out.reply.ok) expect(out.state).toBe(before);
    const inPlace = reduce(twin, action, now, config, { inPlace: true });
    expect(JSON.stringify({ ...inPlace, state: null, writtenInPlace: null })).toBe(
      JSON.stringify({ ...out, state: null, writtenInPlace: null }),
    );
    expect(inPlace.state).toEqual(out.state);
    // What the store is told to write: every user whose entry changed (a reset starts from nothing instead).
    const was = before.live.allUserData;
    const is = out.state.live.allUserData;
    if (!out.closeAll)
      expect(new Set(inPlace.writtenInPlace)).toEqual(
        new Set([...Object.keys(was), ...Object.keys(is)].filter((uuid) => was[uuid] !== is[uuid])),
      );
    twin = inPlace.state;
    for (const m of out.stateful) {
      expect(m.seq).toBe(clientSeq + 1);
      client = jsonpatch.applyPatch(client, structuredClone(m.statePatch) as Operation[], true, false).newDocument;
      clientSeq = m.seq;
      log.push(m.name);
    }
    if (out.closeAll) {
      client = structuredClone(out.state.live);
      clientSeq = out.state.seq;
    }
    state = out.state;
    effects.push(...out.effects);
    return out;
  }
  return {
    get state() {
      return state;
    },
    get client() {
      return client;
    },
    effects,
    log,
    run,
    advance(ms: number) {
      now += ms;
    },
    get now() {
      return now;
    },
    join(n: number, patch: Parameters<typeof userFor>[1] = {}) {
      // The edge answers every role in force; the room keeps the sanctions out of the shared state.
      return run({ type: "join", user: userFor(n, patch), settings: roomRules(state) });
    },
    act(n: number, request: RoomClientAction) {
      return run({ type: "client", userUuid: userFor(n).uuid, request, id: `msg-${++ids}` });
    },
  };
}

const uuidOf = (n: number) => userFor(n).uuid;

describe("the booth", () => {
  it("seats DJs up to the limit, plays the first, rotates through two rounds and records every play", () => {
    const h = harness(settingsFor({ numberOfDjs: 2 }));
    for (const n of [1, 2, 3]) h.join(n);
    expect(h.state.live.allUsers).toHaveLength(3);
    expect(h.act(1, { action: "addDj", params: { song: songFor(1) } }).reply.ok).toBe(true);
    expect(h.state.live.nowPlaying?.song.trackName).toBe("Track 1");
    h.act(2, { action: "addDj", params: { song: songFor(2) } });
    const third = h.act(3, { action: "addDj", params: { song: songFor(3) } });
    expect(third.reply).toEqual({ ok: false, statusCode: 403, message: MESSAGES.seatsTaken });
    expect(h.state.live.djs.map((d) => d.uuid)).toEqual([uuidOf(1), uuidOf(2)]);

    const played: string[] = [];
    for (let round = 0; round < 4; round++) {
      const now = h.state.live.nowPlaying;
      if (!now) throw new Error("nothing playing");
      played.push(`${h.state.playing?.djUuid === uuidOf(1) ? 1 : 2}:${now.song.trackName}`);
      // The next songs come back from each DJ's queue.
      for (const n of [1, 2])
        h.run({
          type: "queueLoaded",
          userUuid: uuidOf(n),
          songs: [songFor(10 * n + round, { crateSongUuid: `c${n}${round}` })],
        });
      h.advance(now.endTime - h.now);
      h.run({ type: "tick" });
    }
    expect(played[0]).toBe("1:Track 1");
    expect(played[1]).toBe("2:Track 2");
    expect(played.slice(2).map((p) => p[0])).toEqual(["1", "2"]);
    expect(h.effects.filter((e) => e.type === "recordPlay")).toHaveLength(4);
    expect(h.effects.filter((e) => e.type === "advanceQueue").length).toBeGreaterThanOrEqual(2);
    expect(h.client).toEqual(h.state.live);
  });

  it("gives playedSong with nowPlaying null when nobody has anything to play", () => {
    const h = harness();
    h.join(1);
    h.act(1, { action: "addDj", params: { song: songFor(1) } });
    h.advance(3000);
    const out = h.run({ type: "tick" });
    const played = out.stateful.find((m) => m.name === "playedSong");
    expect(played?.statePatch).toContainEqual({ op: "replace", path: "/nowPlaying", value: null });
    expect(h.state.live.nowPlaying).toBeNull();
    expect(out.effects).toContainEqual(expect.objectContaining({ type: "recordPlay", djUuid: uuidOf(1) }));
  });

  it("steps a DJ down after songsPerDj songs, and respects djType, djDisabled and guests", () => {
    const h = harness(settingsFor({ songsPerDj: 1 }));
    h.join(1);
    h.act(1, { action: "addDj", params: { song: songFor(1) } });
    expect(h.state.live.songsRemainingForDj).toBe(0);
    h.advance(3000);
    h.run({ type: "tick" });
    expect(h.state.live.djs).toHaveLength(0);

    const invite = harness(settingsFor({ djType: "INVITE_ONLY" }));
    invite.join(1);
    expect(invite.act(1, { action: "addDj", params: {} }).reply).toMatchObject({ statusCode: 403 });
    invite.run({
      type: "settings",
      settings: settingsFor({
        djType: "INVITE_ONLY",
        roomRoles: [{ userUuid: uuidOf(1), role: "dj", expirationTime: null }],
      }),
    });
    expect(invite.state.live.allUsers[0]?.canDj).toBe(true);
    expect(invite.act(1, { action: "addDj", params: {} }).reply.ok).toBe(true);
    // djDisabled over REST takes them off the stage.
    invite.run({
      type: "settings",
      settings: settingsFor({ roomRoles: [{ userUuid: uuidOf(1), role: "djDisabled", expirationTime: null }] }),
    });
    expect(invite.state.live.djs).toHaveLength(0);
    expect(invite.log).toContain("removedDj");

    const verified = harness(settingsFor({ djType: "VERIFIED_ONLY" }));
    verified.join(1, { verified: false });
    verified.join(2, { tokenRole: "guest" });
    expect(verified.act(1, { action: "addDj", params: {} }).reply).toMatchObject({ statusCode: 403 });
    expect(verified.act(2, { action: "addDj", params: {} }).reply).toMatchObject({ statusCode: 403 });

    const pro = harness(settingsFor({ djType: "PRO_PLAN_OWNER" }));
    pro.join(1, { badges: ["PLATINUM"] });
    pro.join(2);
    expect(pro.act(1, { action: "addDj", params: {} }).reply.ok).toBe(true);
    expect(pro.act(2, { action: "addDj", params: {} }).reply.ok).toBe(false);
  });

  it("lets the playing DJ or a moderator skip, and a moderator remove another DJ", () => {
    const h = harness(settingsFor({ roomRoles: [{ userUuid: uuidOf(3), role: "moderator", expirationTime: null }] }));
    for (const n of [1, 2, 3]) h.join(n);
    h.act(1, { action: "addDj", params: { song: songFor(1) } });
    h.act(2, { action: "addDj", params: { song: songFor(2) } });
    expect(h.act(2, { action: "skipSong", params: {} }).reply).toMatchObject({ statusCode: 403 });
    expect(h.act(1, { action: "skipSong", params: {} }).reply.ok).toBe(true);
    expect(h.state.playing?.djUuid).toBe(uuidOf(2));
    expect(h.act(3, { action: "skipSong", params: {} }).reply.ok).toBe(true);
    expect(h.act(2, { action: "removeDj", params: { userUuid: uuidOf(1) } }).reply).toMatchObject({ statusCode: 403 });
    expect(h.act(3, { action: "removeDj", params: { userUuid: uuidOf(1) } }).reply.ok).toBe(true);
    expect(h.state.live.djs.map((d) => d.uuid)).toEqual([uuidOf(2)]);
    expect(h.client).toEqual(h.state.live);
  });
});

describe("the booth never falls silent", () => {
  const loads = (out: { effects: Effect[] }) => out.effects.filter((e) => e.type === "loadQueue");

  it("reads a seated DJ's queue again when it changes over REST, and plays what was added at once", () => {
    const h = harness();
    for (const n of [1, 2]) h.join(n);
    h.act(1, { action: "addDj", params: {} });
    // They sat with an empty queue: nothing to play.
    h.run({ type: "queueLoaded", userUuid: uuidOf(1), songs: [] });
    expect(h.state.live.nowPlaying).toBeNull();

    // They queue a song over REST; the edge tells the room, which reads their queue again.
    expect(loads(h.run({ type: "queueChanged", userUuid: uuidOf(1) }))).toEqual([
      { type: "loadQueue", userUuid: uuidOf(1) },
    ]);
    const out = h.run({ type: "queueLoaded", userUuid: uuidOf(1), songs: [songFor(1, { crateSongUuid: "c1" })] });
    expect(out.stateful.map((m) => m.name)).toContain("playedSong");
    expect(h.state.live.nowPlaying?.song.trackName).toBe("Track 1");

    // Someone in the audience changing their queue costs the edge nothing.
    expect(loads(h.run({ type: "queueChanged", userUuid: uuidOf(2) }))).toEqual([]);
    expect(h.client).toEqual(h.state.live);
  });

  it("plays on after Play next and a skip while the song is still queued", () => {
    const h = harness();
    h.join(1);
    const only = songFor(1, { crateSongUuid: "c1" });
    h.act(1, { action: "addDj", params: {} });
    h.run({ type: "queueLoaded", userUuid: uuidOf(1), songs: [only] });
    expect(h.state.live.nowPlaying?.song.crateSongUuid).toBe("c1");
    // The room reads the queue again when its last known song starts: the same one song.
    h.run({ type: "queueLoaded", userUuid: uuidOf(1), songs: [only] });

    // "Play next" on the song of their queue, then a skip: it plays again, as their pick.
    h.act(1, { action: "updateNextSong", params: { song: only } });
    expect(h.act(1, { action: "skipSong", params: {} }).reply.ok).toBe(true);
    expect(h.state.live.nowPlaying?.song.crateSongUuid).toBe("c1");
    // The edge answers the queue's advance and the reload: still that one song.
    h.run({ type: "queueLoaded", userUuid: uuidOf(1), songs: [only] });
    h.run({ type: "queueLoaded", userUuid: uuidOf(1), songs: [only] });

    // It ends: the queue still holds a song, so the booth plays it rather than falling silent.
    const end = h.state.live.nowPlaying?.endTime ?? h.now;
    h.advance(end - h.now);
    h.run({ type: "tick" });
    expect(h.state.live.nowPlaying?.song.crateSongUuid).toBe("c1");
    expect(h.state.live.nowPlaying?.startTime).toBe(end);
    expect(h.client).toEqual(h.state.live);
  });
});

describe("the waitlist", () => {
  const waitlistRoom = (patch: Partial<RoomSettings> = {}) =>
    harness(settingsFor({ waitlistEnabled: true, numberOfDjs: 2, ...patch }));
  const seated = (h: ReturnType<typeof harness>) => h.state.live.djs.map((d) => d.uuid);

  it("lines people up when the booth is full and seats the first when a seat frees, in order", () => {
    const h = waitlistRoom();
    for (const n of [1, 2, 3, 4, 5]) h.join(n);
    // A free seat and nobody waiting: joining the waitlist seats you.
    expect(h.act(1, { action: "joinWaitlist", params: {} }).reply).toEqual({ ok: true, result: { seated: true } });
    h.act(2, { action: "addDj", params: { song: songFor(2) } });
    expect(h.act(3, { action: "joinWaitlist", params: {} }).reply).toEqual({ ok: true, result: { position: 1 } });
    expect(h.act(4, { action: "joinWaitlist", params: {} }).reply).toEqual({ ok: true, result: { position: 2 } });
    expect(h.act(4, { action: "joinWaitlist", params: {} }).reply).toMatchObject({ statusCode: 409 });
    expect(h.act(2, { action: "joinWaitlist", params: {} }).reply).toMatchObject({ message: MESSAGES.alreadyDj });
    expect(h.client.waitlist).toEqual([uuidOf(3), uuidOf(4)]);
    expect(h.log.at(-1)).toBe("updatedWaitlist");

    // A DJ steps down: the first waiting takes the seat (their queue crate decides what they play).
    h.effects.length = 0;
    h.act(1, { action: "removeDj", params: {} });
    expect(seated(h)).toEqual([uuidOf(2), uuidOf(3)]);
    expect(h.client.waitlist).toEqual([uuidOf(4)]);
    expect(h.effects).toContainEqual({ type: "loadQueue", userUuid: uuidOf(3) });
    // Nobody takes a seat past those waiting, even when one is free for a moment.
    h.act(2, { action: "removeDj", params: {} });
    expect(seated(h)).toEqual([uuidOf(3), uuidOf(4)]);
    expect(h.client.waitlist).toEqual([]);
    h.act(1, { action: "joinWaitlist", params: {} });
    expect(h.act(5, { action: "addDj", params: {} }).reply).toMatchObject({ statusCode: 403 });
  });

  it("seats the next when a DJ's songs run out, and whoever leaves the room leaves the line", () => {
    const h = waitlistRoom({ numberOfDjs: 1, songsPerDj: 1 });
    for (const n of [1, 2, 3]) h.join(n);
    h.act(1, { action: "addDj", params: { song: songFor(1, { duration: 60 }) } });
    h.act(2, { action: "joinWaitlist", params: {} });
    h.act(3, { action: "joinWaitlist", params: {} });
    h.run({ type: "disconnected", userUuid: uuidOf(2) });
    h.advance(config.graceMs + 1);
    h.run({ type: "tick" });
    // User 2 left (grace ran out), so the song's end seats user 3.
    expect(h.client.waitlist).toEqual([uuidOf(3)]);
    expect(seated(h)).toEqual([uuidOf(1)]);
    h.advance(60_000);
    h.run({ type: "tick" });
    expect(seated(h)).toEqual([uuidOf(3)]);
    expect(h.client.waitlist).toEqual([]);
    expect(h.client).toEqual(h.state.live);
  });

  it("lets moderators reorder it and take people off; others only themselves", () => {
    const h = waitlistRoom({
      numberOfDjs: 1,
      roomRoles: [{ userUuid: uuidOf(9), role: "moderator", expirationTime: null }],
    });
    for (const n of [1, 2, 3, 4, 9]) h.join(n);
    h.act(1, { action: "addDj", params: { song: songFor(1) } });
    for (const n of [2, 3, 4]) h.act(n, { action: "joinWaitlist", params: {} });
    const move = { action: "moveInWaitlist", params: { userUuid: uuidOf(4), position: 1 } } as const;
    expect(h.act(2, move).reply).toEqual({ ok: false, statusCode: 403, message: MESSAGES.waitlistModerators });
    expect(h.act(9, move).reply.ok).toBe(true);
    expect(h.client.waitlist).toEqual([uuidOf(4), uuidOf(2), uuidOf(3)]);
    const remove3 = { action: "leaveWaitlist", params: { userUuid: uuidOf(3) } } as const;
    expect(h.act(2, remove3).reply).toMatchObject({ statusCode: 403 });
    expect(h.act(9, remove3).reply.ok).toBe(true);
    expect(h.act(2, { action: "leaveWaitlist", params: {} }).reply.ok).toBe(true);
    expect(h.act(2, { action: "leaveWaitlist", params: {} }).reply).toEqual({
      ok: false,
      statusCode: 404,
      message: MESSAGES.notWaiting,
    });
    expect(h.client.waitlist).toEqual([uuidOf(4)]);
  });

  it("follows the room's settings: more seats seat those waiting, a djDisabled or a waitlist turned off empties it", () => {
    const h = waitlistRoom({ numberOfDjs: 1 });
    for (const n of [1, 2, 3, 4]) h.join(n);
    h.act(1, { action: "addDj", params: { song: songFor(1) } });
    for (const n of [2, 3, 4]) h.act(n, { action: "joinWaitlist", params: {} });
    h.run({ type: "settings", settings: settingsFor({ waitlistEnabled: true, numberOfDjs: 2 }) });
    expect(seated(h)).toEqual([uuidOf(1), uuidOf(2)]);
    h.run({
      type: "settings",
      settings: settingsFor({
        waitlistEnabled: true,
        numberOfDjs: 2,
        roomRoles: [{ userUuid: uuidOf(3), role: "djDisabled", expirationTime: null }],
      }),
    });
    expect(h.client.waitlist).toEqual([uuidOf(4)]);
    h.run({ type: "settings", settings: settingsFor({ numberOfDjs: 2 }) });
    expect(h.client.waitlist).toEqual([]);
    expect(h.act(4, { action: "joinWaitlist", params: {} }).reply).toEqual({
      ok: false,
      statusCode: 409,
      message: MESSAGES.waitlistOff,
    });
  });
});

describe("votes", () => {
  it("counts likes, dislikes and stars, adds stars to likes, and refuses the DJ's own vote", () => {
    const h = harness();
    for (const n of [1, 2, 3, 4]) h.join(n);
    h.act(1, { action: "addDj", params: { song: songFor(1) } });
    expect(h.act(1, { action: "voteOnSong", params: { songVotes: { like: true } } }).reply).toMatchObject({
      statusCode: 403,
    });
    h.act(2, { action: "voteOnSong", params: { songVotes: { like: true } } });
    h.act(3, { action: "voteOnSong", params: { songVotes: { like: false } } });
    const star = h.act(4, { action: "voteOnSong", params: { songVotes: { star: true } } });
    expect(star.effects).toEqual([{ type: "addToLikes", userUuid: uuidOf(4), song: songFor(1) }]);
    h.act(3, { action: "voteOnSong", params: { songVotes: { like: true } } });
    expect(h.state.live.voteCounts).toEqual({ likes: 2, dislikes: 0, stars: 1 });
    expect(h.state.live.vibeMeter).toBeCloseTo(2 / 3, 2);
    h.advance(3000);
    const end = h.run({ type: "tick" });
    expect(end.effects).toContainEqual(
      expect.objectContaining({ type: "recordPlay", voteCounts: { likes: 2, dislikes: 0, stars: 1 }, points: 4 }),
    );
    expect(h.state.live.voteCounts).toEqual({ likes: 0, dislikes: 0, stars: 0 });
    expect(h.client).toEqual(h.state.live);
  });

  it("skips the song when dislikes pass the room's share of the audience (off by default)", () => {
    const off = harness();
    for (const n of [1, 2, 3]) off.join(n);
    off.act(1, { action: "addDj", params: { song: songFor(1) } });
    off.act(2, { action: "voteOnSong", params: { songVotes: { like: false } } });
    off.act(3, { action: "voteOnSong", params: { songVotes: { like: false } } });
    expect(off.state.live.nowPlaying).not.toBeNull();

    const on = harness(settingsFor({ voteSkipThreshold: 0.5 }));
    for (const n of [1, 2, 3, 4, 5]) on.join(n);
    on.act(1, { action: "addDj", params: { song: songFor(1) } });
    on.act(2, { action: "voteOnSong", params: { songVotes: { like: false } } });
    on.act(3, { action: "voteOnSong", params: { songVotes: { like: false } } });
    expect(on.state.live.nowPlaying).not.toBeNull();
    on.act(4, { action: "voteOnSong", params: { songVotes: { like: false } } });
    expect(on.state.live.nowPlaying).toBeNull();
    expect(on.effects).toContainEqual(expect.objectContaining({ type: "recordPlay" }));
  });
});

describe("idle DJs", () => {
  it("warns a DJ who does nothing, then takes them off the booth; any action or their own song resets the clock", () => {
    const h = harness(settingsFor({ idleDjMinutes: 5 }));
    for (const n of [1, 2, 3]) h.join(n);
    h.act(1, { action: "addDj", params: { song: songFor(1, { duration: 600 }) } });
    h.act(2, { action: "addDj", params: {} });
    h.act(3, { action: "addDj", params: {} });
    const seated = () => h.state.live.djs.map((d) => d.uuid);
    // The alarm: user 2's and 3's warnings, four minutes on (not user 1: their song plays).
    expect(nextWakeAt(h.state, config)).toBe(h.now + 4 * 60_000);
    h.advance(2 * 60_000);
    h.act(3, { action: "voteOnSong", params: { songVotes: { like: true } } });
    h.advance(2 * 60_000);
    const warned = h.run({ type: "tick" });
    expect(warned.stateless).toEqual([
      { to: { userUuid: uuidOf(2) }, message: { name: "idleWarning", params: { removeAt: h.now + 60_000 } } },
    ]);
    expect(seated()).toEqual([uuidOf(1), uuidOf(2), uuidOf(3)]);
    expect(nextWakeAt(h.state, config)).toBe(h.now + 60_000);
    h.advance(60_000);
    h.run({ type: "tick" });
    // User 2 is gone from the booth (still in the room); user 3 voted two minutes in, so stays.
    expect(seated()).toEqual([uuidOf(1), uuidOf(3)]);
    expect(h.client.allUsers.map((u) => u.uuid)).toContain(uuidOf(2));
    expect(h.log.at(-1)).toBe("removedDj");
    // A warned DJ who does something stays.
    h.advance(60_000);
    expect(h.run({ type: "tick" }).stateless.map((m) => m.message.name)).toEqual(["idleWarning"]);
    h.act(3, { action: "sendChatMessage", params: { message: "still here" } });
    h.advance(60_000);
    h.run({ type: "tick" });
    expect(seated()).toEqual([uuidOf(1), uuidOf(3)]);
    // The playing DJ is never idle; the clock starts again when their song ends.
    h.advance(5 * 60_000);
    h.run({ type: "tick" });
    expect(seated()).toContain(uuidOf(1));
  });

  it("leaves everyone seated in a room without the rule", () => {
    const h = harness();
    h.join(1);
    h.join(2);
    h.act(1, { action: "addDj", params: { song: songFor(1, { duration: 6000 }) } });
    h.act(2, { action: "addDj", params: {} });
    h.advance(3_600_000);
    expect(h.run({ type: "tick" }).stateless).toEqual([]);
    expect(h.state.live.djs).toHaveLength(2);
  });
});

describe("the room crate", () => {
  const crateSongs = [1, 2, 3].map((i) =>
    songFor(300 + i, { crateSongUuid: `room-${i}`, position: i - 1, duration: 10 * i }),
  );
  const fromCrate = (from: number) => {
    const start = Math.max(
      0,
      crateSongs.findIndex((s) => (s.position ?? 0) >= from),
    );
    return [0, 1, 2].map((i) => crateSongs[(start + i) % crateSongs.length]!);
  };
  const reads = (h: ReturnType<typeof harness>) =>
    h.effects.flatMap((e) => (e.type === "loadRoomCrate" ? [e.from] : []));

  it("plays an empty booth from the room crate in order, wrapping around, until a DJ has a song; no points for it", () => {
    const h = harness(settingsFor({ roomCrateId: "crate-1" }));
    // The first listener in a silent room has the crate read.
    h.join(1);
    h.join(2);
    expect(reads(h)).toEqual([0]);
    expect(h.state.live.nowPlaying).toBeNull();
    h.run({ type: "roomCrateLoaded", crateId: "crate-1", from: 0, songs: fromCrate(0) });
    const now = () => h.client.nowPlaying;
    expect(now()).toMatchObject({ song: { trackName: "Track 301" }, byRoom: true, startTime: h.now });
    expect(h.client.djs).toEqual([]);
    expect(h.log.at(-1)).toBe("playedSong");
    // Votes and grabs count on the room's song.
    expect(h.act(1, { action: "voteOnSong", params: { songVotes: { like: true, star: true } } }).reply.ok).toBe(true);
    const grabbed = h.act(2, { action: "grabSong", params: { songId: songFor(301).songId ?? "", added: true } });
    expect(grabbed.reply.ok).toBe(true);
    expect(h.client.voteCounts).toMatchObject({ likes: 1, stars: 1 });
    expect(h.client.grabs).toBe(1);
    // The next songs are read from the position after the one playing; an answer for a position passed is dropped.
    expect(reads(h)).toEqual([0, 1]);
    h.advance(10_000);
    h.run({ type: "tick" });
    const played = h.effects.filter((e) => e.type === "recordPlay");
    expect(played).toEqual([
      expect.objectContaining({ djUuid: ROOM_DJ, points: 0, voteCounts: { likes: 1, dislikes: 0, stars: 1 } }),
    ]);
    expect(now()).toMatchObject({ song: { trackName: "Track 302" }, byRoom: true });
    expect(h.client.voteCounts).toEqual({ likes: 0, dislikes: 0, stars: 0 });
    h.run({ type: "roomCrateLoaded", crateId: "crate-1", from: 1, songs: fromCrate(1) });
    expect(now()).toMatchObject({ song: { trackName: "Track 302" } });
    h.run({ type: "roomCrateLoaded", crateId: "crate-1", from: 2, songs: fromCrate(2) });
    h.advance(20_000);
    h.run({ type: "tick" });
    expect(now()?.song.trackName).toBe("Track 303");
    h.run({ type: "roomCrateLoaded", crateId: "crate-1", from: 3, songs: fromCrate(3) });
    h.advance(30_000);
    h.run({ type: "tick" });
    // Wrapped around to the first.
    expect(now()?.song.trackName).toBe("Track 301");

    // A DJ sits with a song: the room's song ends at once (recorded) and theirs plays.
    h.act(2, { action: "addDj", params: { song: songFor(9, { duration: 60 }) } });
    expect(now()).toMatchObject({ song: { trackName: "Track 9" }, startTime: h.now });
    expect(now()?.byRoom).toBeUndefined();
    expect(h.client.djs.map((d) => d.uuid)).toEqual([uuidOf(2)]);
    expect(h.effects.filter((e) => e.type === "recordPlay").at(-2)).toMatchObject({ djUuid: ROOM_DJ, points: 0 });
    // Their song ends with nothing after it: the room plays again.
    h.advance(60_000);
    h.run({ type: "tick" });
    expect(now()).toMatchObject({ byRoom: true });
    expect(h.client.djs.map((d) => d.uuid)).toEqual([uuidOf(2)]);
  });

  it("waits for a seated DJ's queue before ending the room's song, and only moderators skip it", () => {
    const h = harness(settingsFor({ roomCrateId: "crate-1", roomRoles: [] }));
    h.join(1);
    h.join(2);
    h.run({ type: "roomCrateLoaded", crateId: "crate-1", from: 0, songs: fromCrate(0) });
    h.act(1, { action: "addDj", params: {} });
    // Their queue is not read yet: the room's song plays on.
    expect(h.client.nowPlaying).toMatchObject({ byRoom: true, song: { trackName: "Track 301" } });
    expect(h.act(1, { action: "skipSong", params: {} }).reply).toMatchObject({ message: MESSAGES.skipNotAllowed });
    h.run({ type: "queueLoaded", userUuid: uuidOf(1), songs: [songFor(7, { crateSongUuid: "q-7" })] });
    expect(h.client.nowPlaying).toMatchObject({ song: { trackName: "Track 7" } });
    expect(h.client.nowPlaying?.byRoom).toBeUndefined();
  });

  it("follows the setting: another crate is read afresh, none leaves an empty booth silent after the song", () => {
    const h = harness(settingsFor({ roomCrateId: "crate-1" }));
    h.join(1);
    h.run({ type: "roomCrateLoaded", crateId: "crate-1", from: 0, songs: fromCrate(0) });
    h.run({ type: "settings", settings: settingsFor({ roomCrateId: "crate-2" }) });
    expect(reads(h).at(-1)).toBe(0);
    // An answer for the old crate is dropped; the song playing plays out.
    h.run({ type: "roomCrateLoaded", crateId: "crate-1", from: 1, songs: fromCrate(1) });
    h.run({ type: "roomCrateLoaded", crateId: "crate-2", from: 0, songs: [songFor(400, { position: 0 })] });
    expect(h.client.nowPlaying?.song.trackName).toBe("Track 301");
    h.advance(10_000);
    h.run({ type: "tick" });
    expect(h.client.nowPlaying).toMatchObject({ byRoom: true, song: { trackName: "Track 400" } });
    h.run({ type: "settings", settings: settingsFor({ roomCrateId: null }) });
    h.advance(240_000);
    h.run({ type: "tick" });
    expect(h.client.nowPlaying).toBeNull();
    expect(h.state.roomCrate).toBeUndefined();
  });

  it("asks again after the edge did not answer, and leaves an empty crate's room silent", () => {
    const h = harness(settingsFor({ roomCrateId: "crate-1" }));
    h.join(1);
    h.run({ type: "roomCrateLoaded", crateId: "crate-1", from: 0, songs: null });
    expect(h.client.nowPlaying).toBeNull();
    // The next silent moment (someone arriving) asks again.
    h.join(2);
    expect(reads(h)).toEqual([0, 0]);
    h.run({ type: "roomCrateLoaded", crateId: "crate-1", from: 0, songs: [] });
    expect(h.client.nowPlaying).toBeNull();
    expect(nextWakeAt(h.state, config)).toBeNull();
  });
});

describe("grabs", () => {
  it("count each listener once per song, are refused to guests and for a song that changed, and clear with the song", () => {
    const h = harness();
    h.join(1);
    h.join(2);
    h.join(3, { tokenRole: "guest" });
    h.act(1, { action: "addDj", params: { song: songFor(1, { duration: 60 }) } });
    const songId = h.state.live.nowPlaying?.song.songId ?? "";
    expect(h.act(2, { action: "grabSong", params: { songId, added: true } }).reply).toEqual({
      ok: true,
      result: { added: true, grabs: 1 },
    });
    expect(h.log.at(-1)).toBe("grabbedSong");
    expect(h.act(2, { action: "grabSong", params: { songId, added: false } }).reply).toEqual({
      ok: true,
      result: { added: false, grabs: 1 },
    });
    // A like after the grab keeps it.
    h.act(2, { action: "voteOnSong", params: { songVotes: { like: true } } });
    expect(h.client.allUserData[uuidOf(2)]?.songVotes).toEqual({ grab: true, like: true });
    expect(h.act(3, { action: "grabSong", params: { songId, added: true } }).reply).toMatchObject({
      statusCode: 403,
      message: MESSAGES.guestGrab,
    });
    expect(
      h.act(1, { action: "grabSong", params: { songId: songFor(9).songId ?? "", added: true } }).reply,
    ).toMatchObject({
      statusCode: 409,
      message: MESSAGES.songChanged,
    });
    expect(h.client.grabs).toBe(1);
    h.act(1, { action: "skipSong", params: {} });
    expect(h.client.grabs).toBe(0);
  });
});

describe("votes that carry weight", () => {
  it("pays the DJ for signed-in listeners only: guests and bots show in the counts and earn nothing", () => {
    const h = harness();
    h.join(1);
    h.join(2);
    for (let n = 10; n < 60; n++) h.join(n, { tokenRole: "guest" });
    h.join(7, { tokenRole: "bot" });
    h.act(1, { action: "addDj", params: { song: songFor(1) } });
    for (let n = 10; n < 60; n++) h.act(n, { action: "voteOnSong", params: { songVotes: { like: true } } });
    h.act(7, { action: "voteOnSong", params: { songVotes: { like: true, star: true } } });
    h.act(2, { action: "voteOnSong", params: { songVotes: { like: true } } });
    // One person, one vote: liking again changes nothing.
    h.act(2, { action: "voteOnSong", params: { songVotes: { like: true } } });
    expect(h.state.live.voteCounts).toEqual({ likes: 52, dislikes: 0, stars: 1 });
    h.advance(3000);
    const end = h.run({ type: "tick" });
    expect(end.effects).toContainEqual(
      expect.objectContaining({ type: "recordPlay", voteCounts: { likes: 52, dislikes: 0, stars: 1 }, points: 1 }),
    );
  });

  it("lets no flood of guests or bots skip a song: vote-skip weighs signed-in listeners' dislikes", () => {
    const h = harness(settingsFor({ voteSkipThreshold: 0.5 }));
    for (const n of [1, 2, 3, 4]) h.join(n);
    for (let n = 10; n < 40; n++) h.join(n, { tokenRole: n < 35 ? "guest" : "bot" });
    h.act(1, { action: "addDj", params: { song: songFor(1, { duration: 600 }) } });
    for (let n = 10; n < 40; n++) h.act(n, { action: "voteOnSong", params: { songVotes: { like: false } } });
    expect(h.state.live.voteCounts.dislikes).toBe(30);
    expect(h.state.live.nowPlaying).not.toBeNull();
    // Two of the three signed-in listeners: past half of them.
    h.act(2, { action: "voteOnSong", params: { songVotes: { like: false } } });
    expect(h.state.live.nowPlaying).not.toBeNull();
    h.act(3, { action: "voteOnSong", params: { songVotes: { like: false } } });
    expect(h.state.live.nowPlaying).toBeNull();
  });
});

describe("sanctions", () => {
  const roles = (...list: [number, string][]) =>
    list.map(([n, role]) => ({ userUuid: uuidOf(n), role, expirationTime: null }) as RoomSettings["roomRoles"][0]);

  it("are enforced, and shown only to moderators and to the person each names", () => {
    const h = harness(
      settingsFor({
        roomRoles: roles([3, "moderator"], [1, "chatDisabled"], [2, "djDisabled"], [9, "banned"]),
      }),
    );
    for (const n of [1, 2, 3, 4]) h.join(n);
    h.join(5, { tokenRole: "guest" });
    expect(h.join(9).reply).toMatchObject({ ok: false, statusCode: 403, message: MESSAGES.banned });
    expect(h.act(1, { action: "sendChatMessage", params: { message: "hi" } }).reply).toMatchObject({
      statusCode: 403,
      message: MESSAGES.chatDisabled,
    });
    expect(h.act(2, { action: "addDj", params: {} }).reply).toMatchObject({ statusCode: 403 });

    // The shared state, and so every patch and every join answer, holds no sanction; canDj does not give one away.
    const shared = JSON.stringify([h.state.live, h.client, joinView(h.state, h.now, uuidOf(4)).state]);
    for (const role of ["chatDisabled", "djDisabled", "banned"]) expect(shared).not.toContain(role);
    expect(h.state.live.settings.roomRoles).toEqual(roles([3, "moderator"]));
    expect(h.state.live.allUsers.find((u) => u.uuid === uuidOf(2))?.canDj).toBe(true);
    const seen = (n: number) => joinView(h.state, h.now, uuidOf(n)).sanctions.map((r) => r.role);
    expect(seen(3).sort()).toEqual(["banned", "chatDisabled", "djDisabled"]);
    expect(seen(1)).toEqual(["chatDisabled"]);
    expect(seen(4)).toEqual([]);
    expect(seen(5)).toEqual([]);

    // A new sanction over REST: told privately to the moderators and to the one it names, never in a patch.
    const out = h.run({
      type: "settings",
      settings: settingsFor({
        roomRoles: roles([3, "moderator"], [1, "chatDisabled"], [2, "djDisabled"], [9, "banned"], [4, "chatDisabled"]),
      }),
    });
    expect(out.stateful).toEqual([]);
    expect(out.stateless.map((o) => o.to)).toEqual([{ userUuid: uuidOf(3) }, { userUuid: uuidOf(4) }]);
    expect(out.stateless[1]?.message).toEqual({
      name: "updatedSanctions",
      params: { sanctions: roles([4, "chatDisabled"]) },
    });
    expect(h.act(4, { action: "sendChatMessage", params: { message: "hi" } }).reply).toMatchObject({ statusCode: 403 });

    // Someone made a moderator sees them all from then on.
    const promoted = h.run({
      type: "settings",
      settings: settingsFor({ roomRoles: roles([3, "moderator"], [4, "moderator"], [9, "banned"]) }),
    });
    const toFour = promoted.stateless.find((o) => JSON.stringify(o.to) === JSON.stringify({ userUuid: uuidOf(4) }));
    expect(toFour?.message).toEqual({ name: "updatedSanctions", params: { sanctions: roles([9, "banned"]) } });
    expect(h.client).toEqual(h.state.live);
  });
});

describe("presence and moderation", () => {
  it("keeps a user who drops for the grace period, seat included, then lets them go", () => {
    const h = harness();
    h.join(1);
    h.join(2);
    h.act(1, { action: "addDj", params: { song: songFor(1, { duration: 600 }) } });
    h.run({ type: "disconnected", userUuid: uuidOf(1) });
    expect(nextWakeAt(h.state, config)).toBe(h.now + 20_000);
    h.advance(19_000);
    h.run({ type: "tick" });
    h.join(1);
    expect(h.state.live.djs[0]?.uuid).toBe(uuidOf(1));
    h.run({ type: "disconnected", userUuid: uuidOf(1) });
    h.advance(20_000);
    const out = h.run({ type: "tick" });
    expect(out.stateful.map((m) => m.name)).toEqual(["removedDj", "playedSong", "userLeft"]);
    expect(out.effects).toContainEqual({ type: "presenceLeft", userUuid: uuidOf(1) });
    expect(h.state.live.allUsers.map((u) => u.uuid)).toEqual([uuidOf(2)]);
  });

  it("kicks: kickedFromRoom to that user, the connections close, and a banned user cannot join", () => {
    const h = harness();
    h.join(1);
    h.join(2);
    const out = h.run({ type: "kick", userUuid: uuidOf(2) });
    expect(out.stateless[0]).toMatchObject({ to: { userUuid: uuidOf(2) }, message: { name: "kickedFromRoom" } });
    expect(out.close).toEqual([expect.objectContaining({ userUuid: uuidOf(2) })]);
    const banned = settingsFor({ roomRoles: [{ userUuid: uuidOf(2), role: "banned", expirationTime: null }] });
    const refused = h.run({ type: "join", user: userFor(2), settings: banned });
    expect(refused.reply).toMatchObject({ ok: false, statusCode: 403 });
    // A ban given over REST to someone in the room throws them out.
    h.run({
      type: "settings",
      settings: settingsFor({ roomRoles: [{ userUuid: uuidOf(1), role: "banned", expirationTime: null }] }),
    });
    expect(h.state.live.allUsers).toHaveLength(0);
  });

  it("resets: roomReset to everyone, every connection closed, the state cleared", () => {
    const h = harness();
    h.join(1);
    h.act(1, { action: "addDj", params: { song: songFor(1) } });
    const out = h.run({ type: "reset", settings: settingsFor() });
    expect(out.closeAll).toBe(true);
    expect(out.stateless[0]?.message.name).toBe("roomReset");
    expect(h.state.live.allUsers).toEqual([]);
    expect(h.state.live.nowPlaying).toBeNull();
  });
});

describe("chat", () => {
  it("validates, mentions, edits within 20 s, deletes by moderators, rate-limits and keeps 300", () => {
    const h = harness(settingsFor({ roomRoles: [{ userUuid: uuidOf(3), role: "moderator", expirationTime: null }] }));
    for (const n of [1, 2, 3]) h.join(n);
    expect(h.act(1, { action: "sendChatMessage", params: { message: "   " } }).reply).toMatchObject({
      statusCode: 400,
      message: MESSAGES.chatInvalid,
    });
    const sent = h.act(1, { action: "sendChatMessage", params: { message: `hi @user2 and <@${uuidOf(3)}>` } });
    expect(sent.reply.ok).toBe(true);
    const message = (sent.reply as { result: { id: string; mentions: string[] } }).result;
    expect(message.mentions.sort()).toEqual([uuidOf(2), uuidOf(3)].sort());
    expect(sent.stateless[0]?.message.name).toBe("chatMessage");
    expect(h.act(1, { action: "editChatMessage", params: { id: message.id, message: "hello" } }).reply.ok).toBe(true);
    h.advance(21_000);
    expect(h.act(1, { action: "editChatMessage", params: { id: message.id, message: "late" } }).reply).toMatchObject({
      statusCode: 403,
    });
    expect(h.act(2, { action: "deleteChatMessage", params: { id: message.id } }).reply).toMatchObject({
      statusCode: 403,
    });
    expect(h.act(3, { action: "deleteChatMessage", params: { id: message.id } }).reply.ok).toBe(true);
    expect(h.state.chat).toHaveLength(0);
    for (let i = 0; i < 5; i++) h.act(2, { action: "sendChatMessage", params: { message: `m${i}` } });
    expect(h.act(2, { action: "sendChatMessage", params: { message: "too many" } }).reply).toMatchObject({
      statusCode: 429,
    });
    for (let i = 0; i < 320; i++) {
      h.advance(3000);
      h.act(1 + (i % 3), { action: "sendChatMessage", params: { message: `n${i}` } });
    }
    expect(h.state.chat).toHaveLength(300);
    expect(h.state.chat.at(-1)?.message).toBe("n319");
  });

  it("replies quote the message answered as it was, and a reply to a message gone from the chat is refused", () => {
    const h = harness();
    for (const n of [1, 2]) h.join(n);
    const long = "la ".repeat(80).trim();
    const first = h.act(1, { action: "sendChatMessage", params: { message: long } });
    const original = (first.reply as { result: { id: string } }).result;
    const reply = h.act(2, { action: "sendChatMessage", params: { message: "same!", replyTo: original.id } });
    expect(reply.reply.ok).toBe(true);
    const sent = (reply.reply as { result: { replyTo: { id: string; userUuid: string; excerpt: string } } }).result;
    expect(sent.replyTo).toMatchObject({ id: original.id, userUuid: uuidOf(1) });
    expect([...sent.replyTo.excerpt]).toHaveLength(140);
    expect(sent.replyTo.excerpt.endsWith("…")).toBe(true);
    expect(reply.stateless[0]?.message).toMatchObject({
      name: "chatMessage",
      params: { message: { replyTo: sent.replyTo } },
    });
    // The original deleted: the reply keeps its quote; a new reply to it is refused and sends nothing.
    h.act(1, { action: "deleteChatMessage", params: { id: original.id } });
    expect(h.state.chat.at(-1)?.replyTo?.id).toBe(original.id);
    const late = h.act(2, { action: "sendChatMessage", params: { message: "and?", replyTo: original.id } });
    expect(late.reply).toMatchObject({ ok: false, statusCode: 404, message: MESSAGES.chatReplyNotFound });
    expect(late.stateless).toEqual([]);
    expect(h.state.chat).toHaveLength(1);
  });

  it("reactions: one of each emoji per person, taken back, at most eight emojis, and only from who may chat", () => {
    const h = harness(
      settingsFor({ roomRoles: [{ userUuid: uuidOf(3), role: "chatDisabled", expirationTime: null }] }),
    );
    for (const n of [1, 2, 3]) h.join(n);
    const id = (
      h.act(1, { action: "sendChatMessage", params: { message: "drop incoming" } }).reply as {
        result: { id: string };
      }
    ).result.id;
    const react = (n: number, emoji: string, on = true) =>
      h.act(n, { action: "reactToChatMessage", params: { id, emoji, on } });
    const fire = react(2, "🔥");
    expect(fire.reply.ok).toBe(true);
    expect(fire.stateless[0]?.message).toMatchObject({
      name: "chatMessageUpdated",
      params: { message: { id, reactions: [{ emoji: "🔥", userUuids: [uuidOf(2)] }] } },
    });
    react(1, "🔥");
    // The same reaction twice counts once and sends nothing.
    expect(react(2, "🔥").stateless).toEqual([]);
    expect(h.state.chat[0]?.reactions).toEqual([{ emoji: "🔥", userUuids: [uuidOf(2), uuidOf(1)] }]);
    react(2, "🔥", false);
    expect(h.state.chat[0]?.reactions).toEqual([{ emoji: "🔥", userUuids: [uuidOf(1)] }]);
    react(1, "🔥", false);
    expect(h.state.chat[0]?.reactions).toEqual([]);
    // A muted member cannot react; an unknown message is 404; not an emoji is 400.
    expect(react(3, "🎉").reply).toMatchObject({ statusCode: 403, message: MESSAGES.chatDisabled });
    expect(
      h.act(2, { action: "reactToChatMessage", params: { id: "nope", emoji: "🎉", on: true } }).reply,
    ).toMatchObject({ statusCode: 404 });
    // Not one emoji: refused when the room parses the message, before the reducer.
    expect(ActionParams.reactToChatMessage.safeParse({ id, emoji: "ab", on: true }).success).toBe(false);
    for (const emoji of ["😀", "😂", "😍", "🎉", "👏", "💃", "🤘", "🎶"]) expect(react(2, emoji).reply.ok).toBe(true);
    expect(react(1, "🥁").reply).toMatchObject({ statusCode: 409, message: MESSAGES.chatReactions });
    expect(react(1, "🎶").reply.ok).toBe(true);
    expect(h.state.chat[0]?.reactions).toHaveLength(8);
  });

  it("announces a consumable bought for the room in the chat, once, under the buyer's name", () => {
    const h = harness();
    h.join(1);
    h.join(2);
    const consumable = {
      id: "c1",
      name: "Confetti",
      displayType: "cover" as const,
      imageUrl: "/api/merch-service/files/f1",
      tokenCost: 5,
      purchaseId: "p1",
    };
    const buyer = { uuid: uuidOf(2), nickname: "from the edge" };
    const out = h.run({ type: "consumable", buyer, consumable });
    expect(out.stateless).toHaveLength(1);
    expect(out.stateless[0]).toMatchObject({
      to: "all",
      message: {
        name: "chatMessage",
        params: {
          message: {
            type: "consumable",
            message: "Confetti",
            userUuid: uuidOf(2),
            userName: h.state.live.allUserData[uuidOf(2)]?.userProfile.nickname,
            consumable,
          },
        },
      },
    });
    expect(h.run({ type: "consumable", buyer, consumable }).stateless).toEqual([]);
    expect(h.state.chat.filter((m) => m.type === "consumable")).toHaveLength(1);
    // Someone who is not in the room still gets their name on it.
    const away = h.run({
      type: "consumable",
      buyer: { uuid: uuidOf(9), nickname: "faraway" },
      consumable: { ...consumable, purchaseId: "p2" },
    });
    expect(away.stateless[0]?.message).toMatchObject({ params: { message: { userName: "faraway" } } });
  });

  it("needs a verified profile in public rooms, and chatDisabled clears itself when it expires", () => {
    const expires = new Date(T0 + 60_000).toISOString();
    const h = harness(
      settingsFor({
        type: "PUBLIC",
        roomRoles: [{ userUuid: uuidOf(1), role: "chatDisabled", expirationTime: expires }],
      }),
    );
    h.join(1);
    h.join(2, { verified: false });
    expect(h.act(2, { action: "sendChatMessage", params: { message: "hi" } }).reply).toMatchObject({
      message: MESSAGES.chatUnverified,
    });
    expect(h.act(1, { action: "sendChatMessage", params: { message: "hi" } }).reply).toMatchObject({
      message: MESSAGES.chatDisabled,
    });
    expect(nextWakeAt(h.state, config)).toBe(T0 + 60_000);
    h.advance(60_000);
    const out = h.run({ type: "tick" });
    // A sanction's end is as private as the sanction: only the person it named hears of it.
    expect(out.stateful).toEqual([]);
    expect(out.stateless).toEqual([
      { to: { userUuid: uuidOf(1) }, message: { name: "updatedSanctions", params: { sanctions: [] } } },
    ]);
    expect(h.state.sanctions).toEqual([]);
    expect(h.act(1, { action: "sendChatMessage", params: { message: "hi" } }).reply.ok).toBe(true);
  });
});

describe("in place, as the live room runs it", () => {
  it("changes the one record a vote touches where it is, and names the voter for the store", () => {
    const h = harness();
    h.join(1);
    h.join(2);
    h.act(1, { action: "addDj", params: { song: songFor(1, { duration: 600 }) } });
    const state = h.state;
    const record = state.live.allUserData;
    const like = { action: "voteOnSong" as const, params: { songVotes: { like: true } } };
    const out = reduce(state, { type: "client", userUuid: uuidOf(2), request: like, id: "v" }, T0, config, {
      inPlace: true,
    });
    expect(out.state.live.allUserData).toBe(record);
    expect(record[uuidOf(2)]?.songVotes).toEqual({ like: true });
    expect(out.writtenInPlace).toEqual([uuidOf(2)]);
    expect(out.stateful[0]?.statePatch).toContainEqual({
      op: "add",
      path: `/allUserData/${uuidOf(2)}/songVotes/like`,
      value: true,
    });
  });

  it("puts back what a transaction changed in place when it does not complete", () => {
    const h = harness();
    for (const n of [1, 2, 3]) h.join(n);
    const state = h.state;
    const snapshot = structuredClone(state);
    const tx = new Tx(state, T0, config, true);
    tx.editUserData({ [uuidOf(1)]: undefined, [uuidOf(2)]: { ...state.live.allUserData[uuidOf(2)]!, songVotes: {} } });
    tx.editUserData({ [uuidOf(2)]: undefined, [uuidOf(9)]: state.live.allUserData[uuidOf(3)]! });
    expect(Object.keys(state.live.allUserData)).toEqual([uuidOf(3), uuidOf(9)]);
    tx.rollBack();
    expect(state).toEqual(snapshot);
  });
});

// ---- the seeded fuzz ------------------------------------------------------------------------------------------------

function checkInvariants(state: RoomState, client: LiveState) {
  const live = state.live;
  // Sanctions never reach the shared state.
  expect(live.settings.roomRoles.filter((r) => SANCTION_ROLES.includes(r.role))).toEqual([]);
  expect(live.djs.length).toBeLessThanOrEqual(live.settings.numberOfDjs);
  const uuids = live.allUsers.map((u) => u.uuid);
  expect(new Set(uuids).size).toBe(uuids.length);
  expect(new Set(live.djs.map((d) => d.uuid)).size).toBe(live.djs.length);
  for (const dj of live.djs) expect(uuids).toContain(dj.uuid);
  expect(Object.keys(live.allUserData).sort()).toEqual([...uuids].sort());
  expect(Object.keys(state.members).sort()).toEqual([...uuids].sort());
  const recount = { likes: 0, dislikes: 0, stars: 0 };
  for (const d of Object.values(live.allUserData)) {
    if (d.songVotes.like === true) recount.likes++;
    if (d.songVotes.like === false) recount.dislikes++;
    if (d.songVotes.star === true) recount.stars++;
  }
  expect(live.voteCounts).toEqual(recount);
  expect(live.grabs).toBe(Object.values(live.allUserData).filter((d) => d.songVotes.grab).length);
  if (live.nowPlaying?.byRoom) {
    // The room plays its crate only while no DJ has a song.
    expect(state.playing).toMatchObject({ djUuid: ROOM_DJ, byRoom: true });
    for (const dj of live.djs) {
      expect(dj.nextSong, `${dj.uuid} has a next song and the room plays its own`).toBeNull();
      expect(state.djMeta[dj.uuid]?.queue ?? []).toEqual([]);
    }
    expect(live.songsRemainingForDj).toBeNull();
  } else if (live.nowPlaying) expect(state.playing?.djUuid).toBe(live.djs[0]?.uuid);
  else expect(state.playing).toBeNull();
  // A room with a room crate whose songs it knows is never silent.
  const crate = state.roomCrate;
  if (!live.nowPlaying && live.settings.roomCrateId && crate?.crateId === live.settings.roomCrateId)
    expect(crate.songs, "the room knows songs of its crate and is silent").toEqual([]);
  // Never silent while a seated DJ has a song: nothing plays only when no DJ has a next song or a queued one.
  if (!live.nowPlaying)
    for (const dj of live.djs) {
      expect(dj.nextSong, `${dj.uuid} has a next song and nothing plays`).toBeNull();
      expect(state.djMeta[dj.uuid]?.queue ?? [], `${dj.uuid} has queued songs and nothing plays`).toEqual([]);
    }
  const djSet = new Set(live.djs.map((d) => d.uuid));
  expect(live.audienceUsers.map((u) => u.uuid)).toEqual(uuids.filter((u) => !djSet.has(u)));
  expect(Object.keys(state.djMeta).sort()).toEqual([...djSet].sort());
  expect(state.chat.length).toBeLessThanOrEqual(300);
  // The waitlist: people in the room, off the stage, each once, and only while every seat is taken.
  expect(new Set(live.waitlist).size).toBe(live.waitlist.length);
  for (const u of live.waitlist) {
    expect(uuids).toContain(u);
    expect(djSet.has(u), `${u} waits and DJs`).toBe(false);
  }
  if (live.waitlist.length) {
    expect(live.settings.waitlistEnabled).toBe(true);
    expect(live.djs.length, "someone waits while a seat is free").toBe(live.settings.numberOfDjs);
  }
  expect(client).toEqual(live);
  // What storage keeps comes back the same.
  expect(JSON.parse(JSON.stringify(state))).toEqual(state);
}

/**
 * A play pays the DJ at most likes + 2 x stars of the signed-in people (not guests, not bots) who voted on it: their
 * votes before the action, with the action's own vote when it is one.
 */
function checkPoints(before: RoomState, action: RoomAction, effects: Effect[]) {
  for (const e of effects) {
    if (e.type !== "recordPlay") continue;
    let bound = 0;
    for (const [uuid, data] of Object.entries(before.live.allUserData)) {
      if (before.members[uuid]?.tokenRole !== "user" || uuid === e.djUuid) continue;
      let votes = data.songVotes;
      if (action.type === "client" && action.userUuid === uuid && action.request.action === "voteOnSong")
        votes = { ...votes, ...action.request.params.songVotes };
      bound += (votes.like === true ? 1 : 0) + (votes.star === true ? 2 : 0);
    }
    expect(e.points).toBeGreaterThanOrEqual(0);
    expect(e.points).toBeLessThanOrEqual(e.djUuid === ROOM_DJ ? 0 : bound);
  }
}

/**
 * Each user's queue crate as the edge keeps it (a circle from `position`), answering the room's `loadQueue` and
 * `advanceQueue` in the order each user's requests were made (room.ts sends them one at a time per user), at random
 * later steps. A crate changed over REST tells the room (`queueChanged`).
 */
function queueModel() {
  const crates = new Map<string, { songs: LiveSong[]; position: number }>();
  const pending: { userUuid: string; advance?: string }[] = [];
  let made = 0;
  const crate = (uuid: string) => {
    const c = crates.get(uuid) ?? { songs: [], position: 0 };
    crates.set(uuid, c);
    return c;
  };
  const upcoming = (uuid: string) => {
    const { songs, position } = crate(uuid);
    const start = Math.min(position, songs.length - 1);
    return Array.from({ length: Math.min(2, songs.length) }, (_, i) => songs[(start + i) % songs.length] as LiveSong);
  };
  return {
    crate,
    pending,
    /** The room's requests to the edge, from a step's effects. */
    requested(effects: Effect[]) {
      for (const e of effects)
        if (e.type === "loadQueue") pending.push({ userUuid: e.userUuid });
        else if (e.type === "advanceQueue") pending.push({ userUuid: e.userUuid, advance: e.crateSongUuid });
    },
    /** The edge answers the oldest request of one user (with none waiting, what a load would answer now). */
    answer(userUuid: string): RoomAction {
      const i = pending.findIndex((p) => p.userUuid === userUuid);
      const [req] = i === -1 ? [] : pending.splice(i, 1);
      const c = crate(userUuid);
      const at = c.songs.findIndex((s) => s.crateSongUuid === req?.advance);
      if (req?.advance && at !== -1) c.position = (at + 1) % c.songs.length;
      return { type: "queueLoaded", userUuid, songs: upcoming(userUuid) };
    },
    /** A REST change to a crate: a song added (at the end or first), moved to the front, or removed. */
    edit(r: ReturnType<typeof prng>, userUuid: string): RoomAction {
      const c = crate(userUuid);
      const roll = r.int(4);
      if (roll < 2 || !c.songs.length) {
        const song = songFor(100 + r.int(50), {
          crateSongUuid: `q-${userUuid.slice(-2)}-${++made}`,
          duration: 1 + r.int(5),
        });
        if (roll === 0) c.songs.unshift(song);
        else c.songs.push(song);
      } else {
        const [song] = c.songs.splice(r.int(c.songs.length), 1);
        if (roll === 2 && song) c.songs.unshift(song);
      }
      c.position = Math.min(c.position, Math.max(0, c.songs.length - 1));
      return { type: "queueChanged", userUuid };
    },
  };
}

/**
 * The room crates as the edge keeps them, answering the room's `loadRoomCrate` (from a crate position on, wrapping, as
 * the edge's room-crate.ts does) at random later steps, for whichever crate the room names when the edge answers: an
 * answer about another crate than the one asked about reaches the reducer as a failed read (as room.ts sends it).
 */
function roomCrateModel(h: ReturnType<typeof harness>) {
  const crates: Record<string, LiveSong[]> = {
    "crate-a": [1, 2, 3].map((i) => songFor(200 + i, { crateSongUuid: `rc-a-${i}`, position: i - 1, duration: 2 + i })),
    "crate-b": [songFor(210, { crateSongUuid: "rc-b-1", position: 0, duration: 4 })],
    "crate-empty": [],
  };
  const pending: { crateId: string; from: number }[] = [];
  return {
    ids: Object.keys(crates),
    requested(effects: Effect[]) {
      for (const e of effects) if (e.type === "loadRoomCrate") pending.push({ crateId: e.crateId, from: e.from });
    },
    /** The oldest request answered (or refused, as an edge that did not answer). */
    answer(r: ReturnType<typeof prng>): RoomAction | null {
      const asked = pending.shift();
      if (asked === undefined) return null;
      const { crateId, from } = asked;
      if (r.chance(0.05) || crateId !== h.state.live.settings.roomCrateId)
        return { type: "roomCrateLoaded", crateId, from, songs: null };
      const songs = crates[crateId] ?? [];
      const start = Math.max(
        0,
        songs.findIndex((s) => (s.position ?? 0) >= from),
      );
      const next = Array.from({ length: Math.min(3, songs.length) }, (_, i) => songs[(start + i) % songs.length]!);
      return { type: "roomCrateLoaded", crateId, from, songs: next };
    },
    get pending() {
      return pending;
    },
  };
}

function randomAction(
  r: ReturnType<typeof prng>,
  h: ReturnType<typeof harness>,
  q: ReturnType<typeof queueModel>,
  busy = false,
  rc?: ReturnType<typeof roomCrateModel>,
): RoomAction {
  const n = 1 + r.int(8);
  const uuid = uuidOf(n);
  const song = (): LiveSong =>
    songFor(r.int(50), r.chance(0.5) ? { crateSongUuid: `crate-${r.int(20)}`, duration: 1 + r.int(5) } : {});
  const client = (request: RoomClientAction): RoomAction => ({
    type: "client",
    userUuid: uuid,
    request,
    id: `id-${r.next()}`,
  });
  // A busy room: people keep wanting seats and lining up for them (the waitlist's seeds).
  if (busy && r.chance(0.25))
    return r.chance(0.5)
      ? client({ action: "addDj", params: {} })
      : r.chance(0.8)
        ? client({ action: "joinWaitlist", params: {} })
        : { type: "join", user: userFor(n), settings: roomRules(h.state) };
  // The edge answers the room crate's reads now and then.
  if (rc && r.chance(0.08)) {
    const answer = rc.answer(r);
    if (answer) return answer;
  }
  const roll = r.int(100);
  if (roll < 14)
    return {
      type: "join",
      user: userFor(n, {
        tokenRole: n === 8 ? "guest" : n === 7 ? "bot" : "user",
        verified: n % 3 !== 0,
        badges: n === 5 ? ["PLATINUM"] : [],
      }),
      settings: roomRules(h.state),
    };
  if (roll < 20) return { type: "disconnected", userUuid: uuid };
  if (roll < 32) {
    h.advance(r.int(8000));
    return { type: "tick" };
  }
  if (roll < 42) return client({ action: "addDj", params: r.chance(0.5) ? { song: song() } : {} });
  if (roll < 46) return client({ action: "removeDj", params: r.chance(0.7) ? {} : { userUuid: uuidOf(1 + r.int(8)) } });
  if (roll < 52) {
    // "Play next" on a song of their own queue, a song from elsewhere, or back to the queue.
    const queued = q.crate(uuid).songs;
    const pick = r.chance(0.5) && queued.length ? r.pick(queued) : r.chance(0.8) ? song() : null;
    return client({ action: "updateNextSong", params: { song: pick } });
  }
  if (roll < 56) return client({ action: "skipSong", params: {} });
  if (roll < 60) {
    const w = r.int(3);
    if (w === 0) return client({ action: "joinWaitlist", params: {} });
    if (w === 1)
      return client({ action: "leaveWaitlist", params: r.chance(0.6) ? {} : { userUuid: uuidOf(1 + r.int(8)) } });
    return client({ action: "moveInWaitlist", params: { userUuid: uuidOf(1 + r.int(8)), position: 1 + r.int(4) } });
  }
  if (roll < 63) {
    // A grab as the room resolves it: the song playing (or one that just changed), added or there already.
    const playing = h.state.live.nowPlaying?.song.songId;
    const songId = playing && r.chance(0.9) ? playing : songFor(r.int(50)).songId;
    return client({ action: "grabSong", params: { songId: songId ?? "", added: r.chance(0.7) } });
  }
  if (roll < 72)
    return client({
      action: "voteOnSong",
      params: { songVotes: r.chance(0.5) ? { like: r.chance(0.6) } : { star: r.chance(0.7), like: r.chance(0.5) } },
    });
  if (roll < 78)
    return client({ action: "sendChatMessage", params: { message: r.chance(0.9) ? `hey @user${n}` : "" } });
  if (roll < 81) return q.answer(uuid);
  if (roll < 84) return q.edit(r, uuid);
  if (roll < 92) {
    const roles = Array.from({ length: r.int(3) }, () => ({
      userUuid: uuidOf(1 + r.int(8)),
      role: r.pick(["moderator", "banned", "djDisabled", "chatDisabled", "dj", "kicked"] as const),
      expirationTime: r.chance(0.5) ? new Date(h.now + r.int(30_000)).toISOString() : null,
    }));
    return {
      type: "settings",
      settings: settingsFor({
        numberOfDjs: 1 + r.int(4),
        songsPerDj: r.chance(0.5) ? null : 1 + r.int(3),
        djType: r.pick(["EVERYONE", "INVITE_ONLY", "VERIFIED_ONLY", "PRO_PLAN_OWNER"] as const),
        voteSkipThreshold: r.chance(0.7) ? null : r.pick([0.2, 0.5]),
        waitlistEnabled: r.chance(0.7),
        idleDjMinutes: r.chance(0.5) ? null : 1,
        roomCrateId: rc && r.chance(0.8) ? r.pick(rc.ids) : null,
        roomRoles: roles,
      }),
    };
  }
  if (roll < 96) return { type: "kick", userUuid: uuid };
  if (roll < 97) return { type: "reset", settings: settingsFor() };
  return { type: "clearChat" };
}

describe("seeded fuzz", () => {
  const seen: string[] = [];
  for (const seed of [1, 2, 3, 42, 1234, 9001]) {
    it(`keeps every invariant through 600 random actions (seed ${seed})`, () => {
      const r = prng(seed);
      // Even seeds: a busy room with a waitlist and two seats.
      const busy = seed % 2 === 0;
      // Busy rooms have a room crate too, and play from it while nobody DJs.
      const h = harness(settingsFor(busy ? { waitlistEnabled: true, numberOfDjs: 2, roomCrateId: "crate-a" } : {}));
      const q = queueModel();
      const rc = busy ? roomCrateModel(h) : undefined;
      const plays = { byRoom: 0 };
      for (let step = 0; step < 600; step++) {
        const action = randomAction(r, h, q, busy, rc);
        try {
          const before = h.state;
          const out = h.run(action);
          q.requested(out.effects);
          rc?.requested(out.effects);
          checkInvariants(h.state, h.client);
          checkPoints(before, action, out.effects);
          if (out.state.live.nowPlaying?.byRoom && out.state.live.nowPlaying !== before.live.nowPlaying) plays.byRoom++;
          // Now and then the edge answers everything asked of it: a DJ whose crate holds a song is then heard.
          if (r.chance(0.1)) {
            for (let next = q.pending[0]; next; next = q.pending[0]) {
              const answer = q.answer(next.userUuid);
              const effects = h.run(answer).effects;
              q.requested(effects);
              rc?.requested(effects);
              checkInvariants(h.state, h.client);
            }
            if (!h.state.live.nowPlaying)
              for (const dj of h.state.live.djs)
                expect(q.crate(dj.uuid).songs, `${dj.uuid} has a queue and the booth is silent`).toEqual([]);
          }
        } catch (err) {
          throw new Error(`seed ${seed}, step ${step}, ${JSON.stringify(action).slice(0, 300)}: ${err}`);
        }
      }
      for (const name of ["userJoined", "userLeft", "addedDj", "removedDj", "playedSong"])
        expect(h.log).toContain(name);
      if (busy) expect(plays.byRoom, "the room never played from its crate").toBeGreaterThan(0);
      seen.push(...h.log);
      // A late joiner's full state equals what the stream built.
      expect(joinView(h.state, h.now).state).toEqual(h.client);
    });
  }
  it("went through every kind of stateful message the reducer sends", () => {
    for (const name of ["votedOnSong", "updatedNextSong", "updatedRoomSettings", "updatedWaitlist", "grabbedSong"])
      expect(seen).toContain(name);
  });
});
