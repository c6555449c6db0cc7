import type { LiveSong, RoomSettings } from "@booth/sdk/live/protocol";
import { describe, expect, it } from "vitest";
import type { Claims } from "./auth.ts";
import { type Edge, EdgeError } from "./edge.ts";
import { LiveRoom, type Socket } from "./room.ts";
import { keyValueStateStore, memoryKeyValue } from "./storage.ts";
import { ROOM_UUID, settingsFor, songFor, userFor } from "./testing.ts";

/** The edge as the room sees it, in memory. */
function fakeEdge(settings: RoomSettings) {
  const calls: { name: string; args: unknown[] }[] = [];
  const queues = new Map<string, LiveSong[]>();
  let plays = 0;
  const record =
    <A extends unknown[], R>(name: string, fn: (...args: A) => R) =>
    async (...args: A) => {
      calls.push({ name, args });
      return fn(...args);
    };
  const edge: Edge & { calls: typeof calls; queues: typeof queues; settings: RoomSettings; refuse?: EdgeError } = {
    calls,
    queues,
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
    advanceQueue: record("advanceQueue", (uuid: string, crateSongUuid: string) => {
      const q = queues.get(uuid) ?? [];
      const i = q.findIndex((s) => s.crateSongUuid === crateSongUuid);
      if (i !== -1) queues.set(uuid, [...q.slice(i + 1), ...q.slice(0, i + 1)]);
      return queues.get(uuid) ?? [];
    }),
    addToLikes: record("addToLikes", () => undefined),
    notifyDjFans: record("notifyDjFans", () => {
      throw new EdgeError(404, "Not Found");
    }),
    reportLiveState: record("reportLiveState", () => undefined),
  };
  return edge;
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
    await room.edgeEvent({ type: "updateRoomSettings", settings: settingsFor({ name: "Renamed" }) });
    expect(a.received.at(-1)).toMatchObject({ name: "updatedRoomSettings" });
    expect(room.publicState()?.settings.name).toBe("Renamed");

    await room.edgeEvent({ type: "resetRoom" });
    expect(a.received.some((m) => m.name === "roomReset")).toBe(true);
    expect(a.closed?.code).toBe(4000);
    expect(room.publicState()).toBeNull();
  });
});
