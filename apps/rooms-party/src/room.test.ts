import type { LiveSong, RoomSettings, SongRef } from "@booth/sdk/live/protocol";
import { describe, expect, it } from "vitest";
import { until } from "../../edge/src/testing/until.ts";
import type { Claims } from "./auth.ts";
import { type Edge, EdgeError } from "./edge.ts";
import { LiveRoom, type Socket } from "./room.ts";
import { keyValueStateStore, memoryKeyValue } from "./storage.ts";
import { ROOM_UUID, settingsFor, songFor, userFor } from "./testing.ts";

/** The edge as the room sees it, in memory. */
function fakeEdge(settings: RoomSettings) {
  const calls: { name: string; args: unknown[] }[] = [];
  const queues = new Map<string, LiveSong[]>();
  /** The room crate as the edge answers it (the room's setting names it; the edge reads it from the room). */
  const crate: { songs: LiveSong[]; down: boolean } = { songs: [], down: false };
  /** The catalogue, by song id, as the edge answers it (extra fields included, as the edge's song shape has them). */
  const catalogue = new Map<string, LiveSong & Record<string, unknown>>();
  let plays = 0;
  const record =
    <A extends unknown[], R>(name: string, fn: (...args: A) => R) =>
    async (...args: A) => {
      calls.push({ name, args });
      return fn(...args);
    };
  const edge: Edge & {
    calls: typeof calls;
    queues: typeof queues;
    crate: typeof crate;
    catalogue: typeof catalogue;
    settings: RoomSettings;
    refuse?: EdgeError;
  } = {
    calls,
    queues,
    crate,
    catalogue,
    settings,
    roomSettings: record("roomSettings", () => edge.settings),
    join: record("join", () => {
      if (edge.refuse) throw edge.refuse;
      return edge.settings;
    }),
    profile: record("profile", (uuid: string) => ({
      uuid,
      nickname: `nick-${uuid.slice(-2)}`,
      verifiedAt: "2026-01-01",
    })),
    presenceJoined: record("presenceJoined", () => undefined),
    presenceLeft: record("presenceLeft", () => undefined),
    recordPlay: record("recordPlay", () => ({ id: `play-${++plays}` })),
    awardPoints: record("awardPoints", () => {
      throw new EdgeError(404, "There is no current season.");
    }),
    upcomingQueue: record("upcomingQueue", (uuid: string) => queues.get(uuid) ?? []),
    roomCrate: record("roomCrate", (_room: string, from: number) => {
      if (crate.down) throw new EdgeError(502, "The edge did not answer: timeout");
      const songs = crate.songs;
      const start = Math.max(
        0,
        songs.findIndex((s) => (s.position ?? 0) >= from),
      );
      return {
        crateId: edge.settings.roomCrateId ?? null,
        songs: Array.from({ length: Math.min(3, songs.length) }, (_, i) => songs[(start + i) % songs.length]!),
      };
    }),
    song: record("song", (_uuid: string, ref: SongRef) => {
      const found = catalogue.get(ref.songId);
      if (!found) throw new EdgeError(404, "Song not found.");
      return { ...found, ...(ref.crateSongUuid ? { crateSongUuid: ref.crateSongUuid } : {}) };
    }),
    advanceQueue: record("advanceQueue", (uuid: string, crateSongUuid: string) => {
      const q = queues.get(uuid) ?? [];
      const i = q.findIndex((s) => s.crateSongUuid === crateSongUuid);
      if (i !== -1) queues.set(uuid, [...q.slice(i + 1), ...q.slice(0, i + 1)]);
      return queues.get(uuid) ?? [];
    }),
    addToLikes: record("addToLikes", () => undefined),
    addToCrate: record("addToCrate", (_uuid: string, crate: string) => {
      if (crate === "likes") return { added: false };
      if (crate !== "queue") throw new EdgeError(404, "Crate not found.");
      return { added: true };
    }),
    notifyDjFans: record("notifyDjFans", () => {
      throw new EdgeError(404, "Not Found");
    }),
    reportLiveState: record("reportLiveState", () => undefined),
  };
  return edge;
}

/**
 * The edge's next answer to `name` is held back until `release()` (`reached()` resolves once the edge answered it);
 * the calls after it go through as usual.
 */
function holdNextAnswer(edge: Edge, name: keyof Edge) {
  const calls = edge as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const real = calls[name]!;
  let release: () => void = () => undefined;
  const released = new Promise<void>((r) => {
    release = r;
  });
  let answered: () => void = () => undefined;
  const reached = new Promise<void>((r) => {
    answered = r;
  });
  calls[name] = async (...args) => {
    calls[name] = real;
    const answer = await real(...args);
    answered();
    await released;
    return answer;
  };
  return { reached: () => reached, release: () => release() };
}

function fakeSocket(n: number, type: Claims["type"] = "user") {
  const uuid = userFor(n).uuid;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the room sent.
  const received: any[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  const socket: Socket & { received: any[]; closed: { code: number; reason: string } | null } = {
    id: `socket-${n}-${Math.random()}`,
    claims: { sub: uuid, type, roles: [], badges: [] },
    token: `token-${n}`,
    received,
    closed: null,
    send: (text) => received.push(JSON.parse(text)),
    close: (code, reason) => {
      socket.closed = { code, reason };
    },
  };
  return socket;
}

function setup(kv = memoryKeyValue(), settings = settingsFor()) {
  let now = Date.parse("2026-06-01T12:00:00Z");
  const alarms: (number | null)[] = [];
  const edge = fakeEdge(settings);
  const room = new LiveRoom(
    ROOM_UUID,
    { store: keyValueStateStore(kv), setAlarm: async (at) => void alarms.push(at), log: () => undefined },
    edge,
    { graceMs: 20_000, timeScale: 1 },
    () => now,
  );
  let requests = 0;
  async function send(socket: ReturnType<typeof fakeSocket>, action: string, params: unknown = {}) {
    const requestId = ++requests;
    await room.message(socket.id, JSON.stringify({ action, params, requestId }));
    await room.idle();
    return socket.received.find((m) => m.requestId === requestId);
  }
  return {
    room,
    edge,
    kv,
    alarms,
    send,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe("the live room", () => {
  it("refuses bad messages with a 400 and anything before joinRoom with a 403, changing nothing", async () => {
    const { room, send } = setup();
    const a = fakeSocket(1);
    room.connect(a);
    await room.message(a.id, "not json");
    expect(a.received.pop()).toMatchObject({ ok: false, statusCode: 400, requestId: null });
    expect(await send(a, "voteOnSong", { songVotes: { like: "yes" } })).toMatchObject({ ok: false, statusCode: 400 });
    expect(await send(a, "launchRocket")).toMatchObject({ ok: false, statusCode: 400 });
    expect(await send(a, "addDj")).toMatchObject({ ok: false, statusCode: 403 });
    expect(await send(a, "joinRoom", { roomUuid: crypto.randomUUID() })).toMatchObject({ statusCode: 400 });
    expect(room.current).toBeNull();
  });

  it("passes the edge's refusal of a join on to the client", async () => {
    const { room, edge, send } = setup();
    edge.refuse = new EdgeError(403, "You are banned from this room.");
    const a = fakeSocket(1);
    room.connect(a);
    expect(await send(a, "joinRoom", { roomUuid: ROOM_UUID, password: "x" })).toEqual({
      requestId: expect.any(Number),
      ok: false,
      statusCode: 403,
      message: "You are banned from this room.",
    });
    expect(edge.calls.find((c) => c.name === "join")?.args).toEqual([ROOM_UUID, "token-1", { password: "x" }]);
  });

  it("takes back the sockets a hibernated room kept open: their users stay, the others' grace period starts", async () => {
    const first = setup();
    const [a, b, c] = [fakeSocket(1), fakeSocket(2), fakeSocket(3)];
    // What the platform keeps with each socket across hibernation: the user it joined as.
    const joinedAs = new Map<string, string>();
    for (const s of [a, b, c]) {
      s.joined = (uuid) => void joinedAs.set(s.id, uuid);
      first.room.connect(s);
      expect(await first.send(s, "joinRoom", { roomUuid: ROOM_UUID })).toMatchObject({ ok: true });
    }
    expect(joinedAs.size).toBe(3);
    // The room is evicted from memory; only a's and b's sockets are still open when it wakes.
    const woken = setup(first.kv);
    const reopened = [a, b].map((s) => ({ ...s, joinedAs: joinedAs.get(s.id) ?? null }));
    await woken.room.start(reopened);
    const members = woken.room.current?.members ?? {};
    expect(members[userFor(1).uuid]?.connected).toBe(true);
    expect(members[userFor(2).uuid]?.connected).toBe(true);
    expect(members[userFor(3).uuid]?.connected).toBe(false);
    // a's socket is a joined socket of the new room: b hears the chat it sends, without either joining again.
    const chat = await woken.send(reopened[0] as ReturnType<typeof fakeSocket>, "sendChatMessage", {
      message: "still here",
    });
    expect(chat).toMatchObject({ ok: true });
    expect(b.received.some((m) => m.name === "chatMessage" && m.params?.message?.message === "still here")).toBe(true);
    // After the grace period c leaves; a and b never do.
    woken.advance(21_000);
    woken.room.alarm();
    await woken.room.idle();
    expect(Object.keys(woken.room.current?.members ?? {}).sort()).toEqual([userFor(1).uuid, userFor(2).uuid].sort());
  });

  it("joins, plays from the DJ's queue, records the play and advances the queue, and survives a restart", async () => {
    const { room, edge, send, advance, kv } = setup();
    const [a, b] = [fakeSocket(1), fakeSocket(2)];
    for (const s of [a, b]) room.connect(s);
    const joined = await send(a, "joinRoom", { roomUuid: ROOM_UUID });
    expect(joined.ok).toBe(true);
    expect(joined.result.state.allUsers).toHaveLength(1);
    expect(joined.result.state.allUserData[userFor(1).uuid].userProfile.nickname).toBe("nick-01");
    await send(b, "joinRoom", { roomUuid: ROOM_UUID });
    expect(a.received.some((m) => m.name === "userJoined")).toBe(true);

    edge.queues.set(userFor(1).uuid, [
      songFor(1, { crateSongUuid: "11111111-1111-4111-8111-111111111111" }),
      songFor(2, { crateSongUuid: "22222222-2222-4222-8222-222222222222" }),
    ]);
    expect((await send(a, "addDj")).ok).toBe(true);
    await room.idle();
    expect(room.current?.live.nowPlaying?.song.trackName).toBe("Track 1");
    expect(room.current?.live.djs[0]?.nextSong?.trackName).toBe("Track 2");
    // The DJ's start, with the song, once (the edge notifies their fans and tells a guild's channel).
    const started = edge.calls.filter((c) => c.name === "notifyDjFans");
    expect(started.map((c) => [c.args[0], c.args[1], (c.args[2] as { trackName: string }).trackName])).toEqual([
      [userFor(1).uuid, ROOM_UUID, "Track 1"],
    ]);
    expect((await send(b, "voteOnSong", { songVotes: { star: true } })).ok).toBe(true);
    expect(edge.calls.some((c) => c.name === "addToLikes")).toBe(true);

    advance(3000);
    room.alarm();
    await room.idle();
    expect(edge.calls.find((c) => c.name === "recordPlay")?.args[1]).toMatchObject({
      djUuid: userFor(1).uuid,
      voteCounts: { likes: 0, dislikes: 0, stars: 1 },
    });
    expect(edge.calls.find((c) => c.name === "awardPoints")?.args[0]).toMatchObject({ points: 2, awardKey: "play-1" });
    expect(edge.calls.some((c) => c.name === "advanceQueue")).toBe(true);
    expect(room.current?.live.nowPlaying?.song.trackName).toBe("Track 2");
    const seq = room.current?.seq;

    // A restart: the same storage, a new room. Everyone's grace period starts; a rejoin keeps the seat.
    const again = setup(kv);
    await again.room.start();
    expect(again.room.current?.seq).toBe(seq);
    expect(again.room.current?.live).toEqual(room.current?.live);
    expect(Object.values(again.room.current?.members ?? {}).every((m) => !m.connected)).toBe(true);
    const a2 = fakeSocket(1);
    again.room.connect(a2);
    const rejoined = await again.send(a2, "joinRoom", { roomUuid: ROOM_UUID });
    expect(rejoined.result.state.djs[0].uuid).toBe(userFor(1).uuid);
    again.advance(21_000);
    again.room.alarm();
    await again.room.idle();
    expect(again.room.current?.live.allUsers.map((u) => u.uuid)).toEqual([userFor(1).uuid]);
    expect(again.edge.calls.some((c) => c.name === "presenceLeft" && c.args[1] === userFor(2).uuid)).toBe(true);
  });

  it("writes the votes that come while a save is on its way in one save, of the newest state", async () => {
    const memory = memoryKeyValue();
    // Puts wait while `held` is set, as a Durable Object's do until the write is durable; `waiting` counts them.
    let held: Promise<void> | null = null;
    let waiting = 0;
    const kv = {
      ...memory,
      put: async (entries: Record<string, unknown>) => {
        if (held) {
          waiting++;
          await held;
        }
        return memory.put(entries);
      },
    };
    const { room, edge, send } = setup(kv);
    const sockets = [1, 2, 3, 4, 5, 6].map((n) => fakeSocket(n));
    for (const s of sockets) {
      room.connect(s);
      await send(s, "joinRoom", { roomUuid: ROOM_UUID });
    }
    edge.queues.set(userFor(1).uuid, [songFor(1, { crateSongUuid: "11111111-1111-4111-8111-111111111111" })]);
    await send(sockets[0]!, "addDj");
    await room.idle();
    const before = memory.writes;
    let release: () => void = () => undefined;
    held = new Promise((r) => {
      release = r;
    });
    // Five votes, each sent to everyone at once: the first one's save waits, and the four after it meanwhile.
    const vote = (i: number) =>
      room.message(
        sockets[i + 1]!.id,
        JSON.stringify({ action: "voteOnSong", params: { songVotes: { like: i % 2 === 0 } }, requestId: `v${i}` }),
      );
    await vote(0);
    await until(() => waiting === 1, "the first save waiting", 5000, 1);
    await Promise.all([1, 2, 3, 4].map(vote));
    expect(sockets[0]!.received.filter((m) => m.name === "votedOnSong")).toHaveLength(5);
    release();
    held = null;
    await room.idle();
    expect(memory.writes - before).toBe(2);
    // What was written is the room as it is: a restart reads every vote back.
    const again = setup(memory);
    await again.room.start();
    expect(again.room.current?.live.voteCounts).toEqual({ likes: 3, dislikes: 2, stars: 0 });
    expect(again.room.current?.live.allUserData).toEqual(room.current?.live.allUserData);
    expect(again.room.current?.seq).toBe(room.current?.seq);
  });

  it("grabs the song playing into a listener's crate through the edge, counting each person once", async () => {
    const { room, edge, send } = setup();
    const [dj, fan, guest] = [fakeSocket(1), fakeSocket(2), fakeSocket(3, "guest")];
    for (const s of [dj, fan, guest]) room.connect(s);
    for (const s of [dj, fan, guest]) await send(s, "joinRoom", { roomUuid: ROOM_UUID });
    // Nothing plays: refused before the edge is asked.
    expect(await send(fan, "grabSong", { crate: "queue" })).toMatchObject({ ok: false, statusCode: 409 });
    edge.queues.set(userFor(1).uuid, [songFor(1, { crateSongUuid: "11111111-1111-4111-8111-111111111111" })]);
    await send(dj, "addDj");
    await room.idle();
    const songId = room.current?.live.nowPlaying?.song.songId;
    expect(await send(fan, "grabSong", { crate: "queue" })).toMatchObject({
      ok: true,
      result: { added: true, grabs: 1 },
    });
    expect(edge.calls.filter((c) => c.name === "addToCrate").map((c) => c.args)).toEqual([
      [userFor(2).uuid, "queue", songId],
    ]);
    // Into a second crate (there already): still one grab.
    expect(await send(fan, "grabSong", { crate: "likes" })).toMatchObject({
      ok: true,
      result: { added: false, grabs: 1 },
    });
    // A crate that is not theirs: the edge's refusal, and no grab counted.
    const other = "33333333-3333-4333-8333-333333333333";
    expect(await send(dj, "grabSong", { crate: other })).toEqual(
      expect.objectContaining({ ok: false, statusCode: 404, message: "Crate not found." }),
    );
    expect(await send(guest, "grabSong", { crate: "queue" })).toMatchObject({ ok: false, statusCode: 403 });
    expect(await send(fan, "grabSong", { crate: "my crate" })).toMatchObject({ ok: false, statusCode: 400 });
    expect(room.current?.live.grabs).toBe(1);
    expect(fan.received.some((m) => m.name === "grabbedSong")).toBe(true);
    expect(edge.calls.filter((c) => c.name === "addToCrate")).toHaveLength(3);
  });

  it("wakes for an idle DJ: warns them alone, then takes them off the booth; an action moves the alarm", async () => {
    const { room, send, advance, alarms } = setup(memoryKeyValue(), settingsFor({ idleDjMinutes: 1 }));
    const [a, b] = [fakeSocket(1), fakeSocket(2)];
    for (const s of [a, b]) room.connect(s);
    for (const s of [a, b]) await send(s, "joinRoom", { roomUuid: ROOM_UUID });
    const start = Date.parse("2026-06-01T12:00:00Z");
    await send(a, "addDj");
    expect(alarms.at(-1)).toBe(start + 30_000);
    advance(20_000);
    await send(a, "voteOnSong", { songVotes: { like: true } }); // refused (nothing plays), and no activity
    await send(a, "sendChatMessage", { message: "here" });
    expect(alarms.at(-1)).toBe(start + 50_000);
    advance(30_000);
    room.alarm();
    await room.idle();
    expect(a.received.filter((m) => m.name === "idleWarning")).toEqual([
      { name: "idleWarning", params: { removeAt: start + 80_000 } },
    ]);
    expect(b.received.some((m) => m.name === "idleWarning")).toBe(false);
    advance(30_000);
    room.alarm();
    await room.idle();
    expect(room.current?.live.djs).toEqual([]);
    expect(b.received.at(-1)).toMatchObject({ name: "removedDj" });
  });

  it("plays an empty booth from the room crate the edge reads, keeps it through a restart, and yields to a DJ", async () => {
    const crateId = "44444444-4444-4444-8444-444444444444";
    const { room, edge, send, advance, kv, alarms } = setup(memoryKeyValue(), settingsFor({ roomCrateId: crateId }));
    edge.crate.songs = [1, 2].map((i) =>
      songFor(50 + i, { crateSongUuid: `5555555${i}-5555-4555-8555-555555555555`, position: i - 1, duration: 30 }),
    );
    const [a, b] = [fakeSocket(1), fakeSocket(2)];
    for (const s of [a, b]) room.connect(s);
    edge.crate.down = true;
    await send(a, "joinRoom", { roomUuid: ROOM_UUID });
    await room.idle();
    // The edge did not answer: silent, and asked again when someone else arrives.
    expect(room.current?.live.nowPlaying).toBeNull();
    edge.crate.down = false;
    await send(b, "joinRoom", { roomUuid: ROOM_UUID });
    await room.idle();
    const start = Date.parse("2026-06-01T12:00:00Z");
    expect(room.current?.live.nowPlaying).toMatchObject({ song: { trackName: "Track 51" }, byRoom: true });
    expect(a.received.filter((m) => m.name === "playedSong").at(-1).statePatch).toContainEqual(
      expect.objectContaining({ path: "/nowPlaying" }),
    );
    expect(alarms.at(-1)).toBe(start + 30_000);
    expect(edge.calls.filter((c) => c.name === "roomCrate").map((c) => c.args)).toEqual([
      [ROOM_UUID, 0],
      [ROOM_UUID, 0],
      [ROOM_UUID, 1],
    ]);
    advance(30_000);
    room.alarm();
    await room.idle();
    expect(room.current?.live.nowPlaying?.song.trackName).toBe("Track 52");
    // Recorded with no DJ, and nobody paid.
    expect(edge.calls.find((c) => c.name === "recordPlay")?.args[1]).toMatchObject({ djUuid: "room" });
    expect(edge.calls.some((c) => c.name === "awardPoints" || c.name === "notifyDjFans")).toBe(false);

    // A restart keeps the crate's place.
    const again = setup(kv, settingsFor({ roomCrateId: crateId }));
    again.edge.crate.songs = edge.crate.songs;
    await again.room.start();
    expect(again.room.current?.roomCrate).toEqual(room.current?.roomCrate);
    // A DJ with a song of their own: the room's song ends there.
    edge.queues.set(userFor(1).uuid, [songFor(9, { crateSongUuid: "99999999-9999-4999-8999-999999999999" })]);
    await send(a, "addDj");
    await room.idle();
    expect(room.current?.live.nowPlaying?.song.trackName).toBe("Track 9");
    expect(room.current?.live.nowPlaying?.byRoom).toBeUndefined();
  });

  it("asks the edge again for a room crate read it missed: the alarm does, after a failure or a restart", async () => {
    const crateId = "44444444-4444-4444-8444-444444444444";
    const { room, edge, send, advance, kv, alarms } = setup(memoryKeyValue(), settingsFor({ roomCrateId: crateId }));
    edge.crate.songs = [songFor(51, { crateSongUuid: "55555551-5555-4555-8555-555555555555", position: 0 })];
    const a = fakeSocket(1);
    room.connect(a);
    edge.crate.down = true;
    await send(a, "joinRoom", { roomUuid: ROOM_UUID });
    await room.idle();
    expect(room.current?.live.nowPlaying).toBeNull();
    // Nobody else comes: the room's alarm asks again five seconds later.
    const start = Date.parse("2026-06-01T12:00:00Z");
    expect(alarms.at(-1)).toBe(start + 5000);
    edge.crate.down = false;
    advance(5000);
    room.alarm();
    await room.idle();
    expect(room.current?.live.nowPlaying).toMatchObject({ song: { trackName: "Track 51" }, byRoom: true });
    expect(a.received.filter((m) => m.name === "playedSong")).toHaveLength(1);

    // The edge answers for another crate than the one asked about (its row changed, and the room has not heard yet):
    // not this crate's songs, and asked again.
    const before = edge.calls.filter((c) => c.name === "roomCrate").length;
    edge.settings = settingsFor({ roomCrateId: "66666666-6666-4666-8666-666666666666" });
    advance(3000);
    room.alarm();
    await room.idle();
    expect(edge.calls.filter((c) => c.name === "roomCrate").length).toBe(before + 1);
    expect(room.current?.roomCrate).toMatchObject({ songs: [], readingFrom: null, retryAt: expect.any(Number) });

    // A room evicted with a read on its way never hears the answer: the restarted room owes it, and asks at once.
    edge.settings = settingsFor({ roomCrateId: crateId });
    const evicted = room.current;
    if (!evicted?.roomCrate) throw new Error("no room crate");
    const store = keyValueStateStore(kv);
    await store.save({ ...evicted, roomCrate: { ...evicted.roomCrate, readingFrom: 1, retryAt: undefined } });
    const again = setup(kv, settingsFor({ roomCrateId: crateId }));
    again.edge.crate.songs = edge.crate.songs;
    await again.room.start();
    expect(again.room.current?.roomCrate).toMatchObject({ readingFrom: null });
    expect(again.alarms.at(-1)).toBe(start);
    again.room.alarm();
    await again.room.idle();
    expect(again.edge.calls.filter((c) => c.name === "roomCrate").map((c) => c.args)).toEqual([[ROOM_UUID, 1]]);
    expect(again.room.current?.roomCrate).toMatchObject({ readingFrom: null, read: true, songs: [expect.anything()] });
  });

  it("keeps a change of settings the edge announced while a join's read of them was on its way", async () => {
    const crateId = "44444444-4444-4444-8444-444444444444";
    const { room, edge, send } = setup();
    edge.crate.songs = [songFor(51, { crateSongUuid: "55555551-5555-4555-8555-555555555555", position: 0 })];
    const [a, b] = [fakeSocket(1), fakeSocket(2)];
    for (const s of [a, b]) room.connect(s);
    await send(a, "joinRoom", { roomUuid: ROOM_UUID });
    // b's join reads the settings before the owner picks a room crate, and the answer comes after the change did.
    const read = holdNextAnswer(edge, "roomSettings");
    const joining = send(b, "joinRoom", { roomUuid: ROOM_UUID });
    await read.reached();
    edge.settings = settingsFor({ roomCrateId: crateId, name: "Never Silent" });
    await room.edgeEvent({ type: "updateRoomSettings", settings: edge.settings });
    read.release();
    expect(await joining).toMatchObject({ ok: true, result: { state: { settings: { roomCrateId: crateId } } } });
    await room.idle();
    expect(room.publicState()?.settings).toMatchObject({ roomCrateId: crateId, name: "Never Silent" });
    expect(room.publicState()?.nowPlaying).toMatchObject({ song: { trackName: "Track 51" }, byRoom: true });
    // A read asked for after the change is applied as usual.
    edge.settings = settingsFor({ roomCrateId: crateId, name: "Renamed" });
    await room.edgeEvent({ type: "updateRoles" });
    expect(room.publicState()?.settings.name).toBe("Renamed");
  });

  it("applies what the edge says: kicks, roles, chat clearing and resets", async () => {
    const { room, edge, send } = setup();
    const [a, b] = [fakeSocket(1), fakeSocket(2)];
    for (const s of [a, b]) room.connect(s);
    await send(a, "joinRoom", { roomUuid: ROOM_UUID });
    await send(b, "joinRoom", { roomUuid: ROOM_UUID });
    await room.edgeEvent({ type: "kickUser", userUuid: userFor(2).uuid });
    expect(b.received.some((m) => m.name === "kickedFromRoom")).toBe(true);
    expect(b.closed?.code).toBe(4003);
    expect(room.publicState()?.allUsers).toHaveLength(1);

    edge.settings = settingsFor({
      roomRoles: [{ userUuid: userFor(1).uuid, role: "chatDisabled", expirationTime: null }],
    });
    await room.edgeEvent({ type: "updateRoles" });
    expect(await send(a, "sendChatMessage", { message: "hi" })).toMatchObject({ statusCode: 403 });
    // The mute is theirs to know, and nobody else's but the moderators': it is in no patch, nor in the public state.
    expect(a.received.at(-2)).toEqual({
      name: "updatedSanctions",
      params: { sanctions: edge.settings.roomRoles },
    });
    expect(JSON.stringify(room.publicState())).not.toContain("chatDisabled");
    await room.edgeEvent({ type: "updateRoomSettings", settings: settingsFor({ name: "Renamed" }) });
    expect(a.received.at(-2)).toMatchObject({ name: "updatedRoomSettings" });
    expect(a.received.at(-1)).toEqual({ name: "updatedSanctions", params: { sanctions: [] } });
    expect(room.publicState()?.settings.name).toBe("Renamed");

    await room.edgeEvent({ type: "resetRoom" });
    expect(a.received.some((m) => m.name === "roomReset")).toBe(true);
    expect(a.closed?.code).toBe(4000);
    expect(room.publicState()).toBeNull();
  });

  it("kicks with the edge's reason, a join still waiting on the edge included", async () => {
    const { room, edge, send } = setup();
    const [a, b] = [fakeSocket(1), fakeSocket(2)];
    for (const s of [a, b]) room.connect(s);
    await send(a, "joinRoom", { roomUuid: ROOM_UUID });
    // b's join is at the edge when the ban arrives; the edge answered before the ban was saved.
    const admission = holdNextAnswer(edge, "join");
    const joining = send(b, "joinRoom", { roomUuid: ROOM_UUID });
    await admission.reached();
    await room.edgeEvent({ type: "kickUser", userUuid: userFor(2).uuid, reason: "Your account was banned." });
    admission.release();
    expect(await joining).toMatchObject({ ok: false, statusCode: 410 });
    expect(b.closed).toEqual({ code: 4003, reason: "Your account was banned." });
    expect(room.publicState()?.allUsers.map((u) => u.uuid)).toEqual([userFor(1).uuid]);
    await room.edgeEvent({ type: "kickUser", userUuid: userFor(1).uuid, reason: "Your account was banned." });
    expect(a.received.at(-1)).toEqual({
      name: "kickedFromRoom",
      params: { roomUuid: ROOM_UUID, reason: "Your account was banned." },
    });
    expect(a.closed).toEqual({ code: 4003, reason: "Your account was banned." });
  });

  describe("a DJ's queue changed over REST", () => {
    const crateSong = (n: number) => songFor(n, { crateSongUuid: `${n}0000000-0000-4000-8000-000000000000` });

    it("is read again when the edge says so, and a song queued after taking a seat plays at once", async () => {
      const { room, edge, send } = setup();
      const [dj, listener] = [fakeSocket(1), fakeSocket(2)];
      for (const s of [dj, listener]) {
        room.connect(s);
        await send(s, "joinRoom", { roomUuid: ROOM_UUID });
      }
      expect((await send(dj, "addDj")).ok).toBe(true);
      expect(room.current?.live.nowPlaying).toBeNull();

      edge.queues.set(userFor(1).uuid, [crateSong(1)]);
      await room.edgeEvent({ type: "queueChanged", userUuid: userFor(1).uuid });
      await room.idle();
      expect(room.current?.live.nowPlaying?.song.trackName).toBe("Track 1");
      expect(listener.received.some((m) => m.name === "playedSong")).toBe(true);

      // Someone who is not a DJ changing their queue costs the edge nothing.
      const loads = edge.calls.filter((c) => c.name === "upcomingQueue").length;
      await room.edgeEvent({ type: "queueChanged", userUuid: userFor(2).uuid });
      await room.idle();
      expect(edge.calls.filter((c) => c.name === "upcomingQueue")).toHaveLength(loads);
    });

    it("asks the edge one request at a time per DJ, so a reload never answers from before the advance", async () => {
      const { room, edge, send } = setup();
      const dj = fakeSocket(1);
      room.connect(dj);
      await send(dj, "joinRoom", { roomUuid: ROOM_UUID });
      const uuid = userFor(1).uuid;
      edge.queues.set(uuid, [crateSong(1), crateSong(2), crateSong(3)]);
      for (const n of [1, 2, 3]) edge.catalogue.set(`${crateSong(n).songId}`, crateSong(n));
      await send(dj, "addDj");
      expect(room.current?.live.nowPlaying?.song.trackName).toBe("Track 1");

      // The edge is slow: an advance writes after 10 ms; a reload reads at once and answers after 30 ms.
      const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
      const { advanceQueue, upcomingQueue } = edge;
      edge.advanceQueue = async (u, c) => {
        await pause(10);
        return advanceQueue(u, c);
      };
      edge.upcomingQueue = async (u) => {
        const read = upcomingQueue(u);
        await pause(30);
        return read;
      };
      // "Play next" on the third song, then a skip: the first song's play advances the queue, the pick's reloads it.
      await send(dj, "updateNextSong", {
        song: { songId: crateSong(3).songId, crateSongUuid: crateSong(3).crateSongUuid },
      });
      expect((await send(dj, "skipSong")).ok).toBe(true);
      await room.idle();
      expect(room.current?.live.nowPlaying?.song.trackName).toBe("Track 3");
      // Track 1 has just played: the queue has moved past it, and so has the DJ's next song.
      expect(room.current?.live.djs[0]?.nextSong?.trackName).toBe("Track 2");
    });
  });

  describe("songs come from the catalogue, never from a client", () => {
    const EVIL = "https://evil.example/x.m3u8";
    /** What a hostile client claims about a song it names. */
    const forged = (songId: string) => ({
      songId,
      crateSongUuid: "30000000-0000-4000-8000-000000000001",
      trackName: "Forged",
      artistName: "Forger",
      duration: 86_000,
      streamUrls: { hls: EVIL },
      previews: { spotify: "https://evil.example/preview.mp3" },
      thumbnails: { big: "https://evil.example/pixel.png" },
      playbackToken: "steal-me",
      onload: "alert(1)",
    });
    const fromEdge = (n: number) =>
      ({
        ...songFor(n, { duration: 187 }),
        album: null,
        streamUrls: { hls: `/api/upload-service/songs/u${n}/hls-playlist` },
        previews: {},
        links: { spotify: "https://open.spotify.com/track/x" },
        description: "only the catalogue page shows this",
        status: "SUCCESS",
      }) as LiveSong & Record<string, unknown>;

    async function seated() {
      const h = setup();
      const [dj, listener] = [fakeSocket(1), fakeSocket(2)];
      for (const s of [dj, listener]) {
        h.room.connect(s);
        await h.send(s, "joinRoom", { roomUuid: ROOM_UUID });
      }
      return { ...h, dj, listener };
    }

    it("plays the song a DJ names as the edge has it: its stream, its duration, none of what the DJ wrote", async () => {
      const { room, edge, send, dj, listener } = await seated();
      const song = fromEdge(7);
      edge.catalogue.set(song.songId as string, song);
      expect(await send(dj, "addDj", { song: forged(song.songId as string) })).toMatchObject({ ok: true });
      expect(edge.calls.find((c) => c.name === "song")?.args).toEqual([
        userFor(1).uuid,
        { songId: song.songId, crateSongUuid: "30000000-0000-4000-8000-000000000001" },
      ]);
      const playing = room.current?.live.nowPlaying;
      expect(playing?.song).toEqual({
        songId: song.songId,
        crateSongUuid: "30000000-0000-4000-8000-000000000001",
        trackName: "Track 7",
        artistName: "Artist 7",
        album: null,
        duration: 187,
        streamUrls: { hls: "/api/upload-service/songs/u7/hls-playlist" },
        previews: {},
        status: "SUCCESS",
      });
      // The song lasts what the catalogue says, not the day the DJ claimed.
      expect((playing?.endTime ?? 0) - (playing?.startTime ?? 0)).toBe(187_000);
      const heard = JSON.stringify(listener.received);
      for (const injected of ["evil.example", "steal-me", "onload", "Forged"]) expect(heard).not.toContain(injected);

      // The next song too.
      const next = fromEdge(8);
      edge.catalogue.set(next.songId as string, next);
      expect(await send(dj, "updateNextSong", { song: forged(next.songId as string) })).toMatchObject({ ok: true });
      expect(room.current?.live.djs[0]?.nextSong).toMatchObject({ trackName: "Track 8", duration: 187 });
      expect(JSON.stringify(listener.received)).not.toContain("evil.example");
    });

    it("refuses a song the edge does not know (or that cannot be heard), changing nothing", async () => {
      const { room, send, dj, listener, edge } = await seated();
      const before = room.current;
      const heard = listener.received.length;
      expect(await send(dj, "addDj", { song: { songId: "40000000-0000-4000-8000-000000000404" } })).toMatchObject({
        ok: false,
        statusCode: 404,
        message: "Song not found.",
      });
      expect(room.current).toBe(before);
      expect(listener.received).toHaveLength(heard);
      // Without an id there is nothing to look up.
      expect(await send(dj, "addDj", { song: { trackName: "x", artistName: "y", duration: 1 } })).toMatchObject({
        statusCode: 400,
      });
      // Seated from the queue, then naming an unknown next song: the next song stays.
      edge.queues.set(userFor(1).uuid, [
        { ...fromEdge(1), crateSongUuid: "11111111-1111-4111-8111-111111111111" },
        { ...fromEdge(2), crateSongUuid: "22222222-2222-4222-8222-222222222222" },
      ]);
      expect(await send(dj, "addDj")).toMatchObject({ ok: true });
      const next = room.current?.live.djs[0]?.nextSong;
      expect(next?.trackName).toBe("Track 2");
      expect(
        await send(dj, "updateNextSong", { song: { songId: "40000000-0000-4000-8000-000000000404" } }),
      ).toMatchObject({ statusCode: 404, message: "Song not found." });
      expect(room.current?.live.djs[0]?.nextSong).toEqual(next);
    });

    it("keeps of a queue song what a player needs and nothing else", async () => {
      const { room, edge, send, dj } = await seated();
      edge.queues.set(userFor(1).uuid, [
        { ...fromEdge(1), previews: { spotify: "https://p.scdn.co/mp3-preview/1" }, onload: "x" } as LiveSong,
      ]);
      await send(dj, "addDj");
      const song = room.current?.live.nowPlaying?.song as Record<string, unknown>;
      expect(song.streamUrls).toEqual({ hls: "/api/upload-service/songs/u1/hls-playlist" });
      expect(song.previews).toEqual({ spotify: "https://p.scdn.co/mp3-preview/1" });
      for (const dropped of ["links", "description", "onload"]) expect(song).not.toHaveProperty(dropped);
    });

    it("does not ask the edge for an action it refuses anyway", async () => {
      const { room, edge, send, dj } = await seated();
      edge.catalogue.set(songFor(1).songId as string, fromEdge(1));
      await send(dj, "addDj", { song: { songId: songFor(1).songId } });
      const lookups = () => edge.calls.filter((c) => c.name === "song").length;
      const asked = lookups();
      expect(await send(dj, "addDj", { song: { songId: songFor(1).songId } })).toMatchObject({ statusCode: 409 });
      const guest = fakeSocket(3, "guest");
      room.connect(guest);
      await send(guest, "joinRoom", { roomUuid: ROOM_UUID });
      expect(await send(guest, "updateNextSong", { song: { songId: songFor(1).songId } })).toMatchObject({
        statusCode: 403,
      });
      expect(lookups()).toBe(asked);
    });

    it("shares songs in the chat as the catalogue has them, and only Booth's own images", async () => {
      const { edge, send, dj, listener } = await seated();
      edge.catalogue.set(songFor(5).songId as string, fromEdge(5));
      const sent = await send(dj, "sendChatMessage", {
        message: "listen",
        songs: [forged(songFor(5).songId as string)],
        playlist: { crateUuid: "50000000-0000-4000-8000-000000000001", crateName: "Mine", coverUrl: EVIL },
      });
      expect(sent.ok).toBe(true);
      expect(sent.result.songs).toEqual([expect.objectContaining({ trackName: "Track 5", duration: 187 })]);
      expect(sent.result.playlist).toEqual({ crateUuid: "50000000-0000-4000-8000-000000000001", crateName: "Mine" });
      expect(JSON.stringify(listener.received)).not.toContain("evil.example");

      const image = "/api/user-service/users/images/60000000-0000-4000-8000-000000000001";
      expect((await send(dj, "sendChatMessage", { media: [image] })).result.media).toEqual([image]);
      for (const media of ["https://evil.example/x.gif", `https://evil.example${image}`, `${image}/../../x`])
        expect(await send(dj, "sendChatMessage", { media: [media] })).toMatchObject({ ok: false, statusCode: 400 });
      expect(
        await send(dj, "sendChatMessage", { songs: [{ songId: "40000000-0000-4000-8000-000000000404" }] }),
      ).toMatchObject({ ok: false, statusCode: 404, message: "Song not found." });
    });
  });
});
