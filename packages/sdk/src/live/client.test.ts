import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { LiveRoomClient, LiveRoomError, type WebSocketConstructor, type WebSocketLike } from "./client.ts";
import type { LiveState } from "./protocol.ts";

const ROOM = "00000000-0000-4000-8000-000000000001";

/** A scripted room behind a fake socket: it answers joinRoom with the state the test holds. */
class FakeRoom {
  sockets: FakeSocket[] = [];
  state = { allUsers: [], voteCounts: { likes: 0, dislikes: 0, stars: 0 } } as unknown as LiveState;
  seq = 5;
  joins = 0;
  sanctions: { userUuid: string; role: string; expirationTime: string | null }[] = [];
  refuseJoin: { statusCode: number; message: string } | null = null;
  ctor = (room: FakeRoom) =>
    class extends FakeSocket {
      constructor(url: string) {
        super(url, room);
      }
    };
  get last() {
    return this.sockets.at(-1) as FakeSocket;
  }
}

class FakeSocket implements WebSocketLike {
  readyState = 0;
  private readonly listeners = new Map<string, Set<(e: never) => void>>();
  // The handler properties call the listeners, as a real socket's events reach both.
  onopen: ((e: unknown) => void) | null = (e) => this.dispatch("open", e);
  onmessage: ((e: { data: unknown }) => void) | null = (e) => this.dispatch("message", e);
  onclose: ((e: { code: number; reason: string }) => void) | null = (e) => this.dispatch("close", e);
  onerror: ((e: unknown) => void) | null = (e) => this.dispatch("error", e);
  addEventListener(type: string, listener: (e: never) => void) {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener);
    this.listeners.set(type, set);
  }
  removeEventListener(type: string, listener: (e: never) => void) {
    this.listeners.get(type)?.delete(listener);
  }
  private dispatch(type: string, event: unknown) {
    for (const l of this.listeners.get(type) ?? []) (l as (e: unknown) => void)(event);
  }
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the client sent.
  sent: any[] = [];
  constructor(
    readonly url: string,
    readonly room: FakeRoom,
  ) {
    room.sockets.push(this);
    setTimeout(() => {
      this.readyState = 1;
      this.onopen?.({});
    }, 1);
  }
  send(data: string) {
    const msg = JSON.parse(data);
    this.sent.push(msg);
    if (msg.action === "joinRoom") {
      this.room.joins++;
      const reply = this.room.refuseJoin
        ? { requestId: msg.requestId, ok: false, ...this.room.refuseJoin }
        : {
            requestId: msg.requestId,
            ok: true,
            result: {
              roomUuid: ROOM,
              state: structuredClone(this.room.state),
              seq: this.room.seq,
              serverTime: 0,
              chatMessages: [],
              sanctions: this.room.sanctions,
            },
          };
      setTimeout(() => this.push(reply), 1);
    }
  }
  push(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  close(code = 1000, reason = "") {
    if (this.readyState === 3) return;
    this.readyState = 3;
    setTimeout(() => this.onclose?.({ code, reason }), 1);
  }
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, ms = 2000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await wait(5);
  }
}

function make(room: FakeRoom) {
  return new LiveRoomClient({
    url: "http://party.test",
    roomUuid: ROOM,
    token: () => "tok",
    WebSocket: room.ctor(room),
    backoff: { initialMs: 10, maxMs: 40 },
    resetDelayMs: 10,
  });
}

describe("the live client", () => {
  it("keeps the sanctions it may see apart from the state: from the join, then as the room tells it alone", async () => {
    const room = new FakeRoom();
    const muted = { userUuid: "00000000-0000-4000-8000-000000000002", role: "chatDisabled", expirationTime: null };
    room.sanctions = [muted];
    const client = make(room);
    await client.connect();
    expect(client.sanctions).toEqual([muted]);
    expect(JSON.stringify(client.state)).not.toContain("chatDisabled");
    room.last.push({ name: "updatedSanctions", params: { sanctions: [] } });
    expect(client.sanctions).toEqual([]);
    client.close();
  });

  it("joins with its token and keeps the state by applying patches in seq order", async () => {
    const room = new FakeRoom();
    const client = make(room);
    const joined = await client.connect();
    expect(room.last.url).toBe(`ws://party.test/parties/main/${ROOM}?token=tok`);
    expect(joined.seq).toBe(5);
    room.last.push({
      name: "votedOnSong",
      seq: 6,
      statePatch: [{ op: "replace", path: "/voteCounts/likes", value: 1 }],
    });
    room.last.push({
      name: "votedOnSong",
      seq: 6,
      statePatch: [{ op: "replace", path: "/voteCounts/likes", value: 9 }],
    });
    expect(client.state?.voteCounts.likes).toBe(1);
    expect(client.seq).toBe(6);
    expect(room.joins).toBe(1);
    client.close();
  });

  it("rejoins for the full state on a gap in seq or a patch that does not apply", async () => {
    const room = new FakeRoom();
    const client = make(room);
    await client.connect();
    room.seq = 8;
    room.state = { ...room.state, voteCounts: { likes: 3, dislikes: 0, stars: 0 } };
    room.last.push({ name: "votedOnSong", seq: 7, statePatch: [] });
    await until(() => room.joins === 2 && client.seq === 8);
    expect(client.state?.voteCounts.likes).toBe(3);
    room.last.push({ name: "userLeft", seq: 9, statePatch: [{ op: "remove", path: "/nope/deeper" }] });
    await until(() => room.joins === 3);
    client.close();
  });

  it("matches replies to requests, rejecting refusals with their status and message", async () => {
    const room = new FakeRoom();
    const client = make(room);
    await client.connect();
    const pending = client.addDj();
    const sent = room.last.sent.at(-1);
    expect(sent).toMatchObject({ action: "addDj", params: {} });
    room.last.push({ requestId: sent.requestId, ok: false, statusCode: 403, message: "All DJ seats are taken." });
    await expect(pending).rejects.toEqual(new LiveRoomError(403, "All DJ seats are taken."));
    const vote = client.voteOnSong({ like: true });
    room.last.push({ requestId: room.last.sent.at(-1).requestId, ok: true, result: {} });
    await expect(vote).resolves.toEqual({});
    client.close();
  });

  it("names a song by its ids only: a crate song passed whole goes on the wire as a reference", async () => {
    const room = new FakeRoom();
    const client = make(room);
    await client.connect();
    const crateSong = {
      songId: "10000000-0000-4000-8000-000000000001",
      crateSongUuid: "20000000-0000-4000-8000-000000000001",
      trackName: "Whole",
      artistName: "Song",
      duration: 200,
      streamUrls: { hls: "/api/upload-service/songs/x/hls-playlist" },
    };
    void client.addDj(crateSong).catch(() => undefined);
    expect(room.last.sent.at(-1).params).toEqual({
      song: { songId: crateSong.songId, crateSongUuid: crateSong.crateSongUuid },
    });
    void client.updateNextSong({ songId: crateSong.songId }).catch(() => undefined);
    expect(room.last.sent.at(-1).params).toEqual({ song: { songId: crateSong.songId } });
    void client.updateNextSong(null).catch(() => undefined);
    expect(room.last.sent.at(-1).params).toEqual({ song: null });
    client.close();
  });

  it("reconnects with backoff after a drop, and not after a kick", async () => {
    const room = new FakeRoom();
    const client = make(room);
    await client.connect();
    room.last.close(1006);
    await until(() => room.sockets.length === 2 && client.connected && room.joins === 2);
    room.last.push({ name: "kickedFromRoom", params: { roomUuid: ROOM, reason: "bye" } });
    room.last.close(4003, "kicked");
    await wait(100);
    expect(room.sockets).toHaveLength(2);
    expect(client.connected).toBe(false);
  });

  it("rejoins after a room reset, and refuses to start when the first join is refused", async () => {
    const room = new FakeRoom();
    const client = make(room);
    await client.connect();
    room.last.push({ name: "roomReset", params: { roomUuid: ROOM } });
    expect(client.state).toBeNull();
    room.last.close(4000, "reset");
    await until(() => room.joins === 2 && client.state !== null);
    client.close();

    const banned = new FakeRoom();
    banned.refuseJoin = { statusCode: 403, message: "You are banned from this room." };
    await expect(make(banned).connect()).rejects.toMatchObject({ statusCode: 403 });
  });

  it("over real sockets: reconnects with growing waits, asks for a fresh token each time, rejoins, and stops on a kick", async () => {
    const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    await new Promise((r) => server.once("listening", r));
    const port = (server.address() as AddressInfo).port;
    const connections: { at: number; token: string | null }[] = [];
    let seq = 1;
    server.on("connection", (ws, req) => {
      connections.push({ at: Date.now(), token: new URL(req.url ?? "", "http://x").searchParams.get("token") });
      ws.on("message", (data) => {
        const msg = JSON.parse(String(data));
        if (msg.action !== "joinRoom") return;
        const state = { allUsers: [], voteCounts: { likes: seq, dislikes: 0, stars: 0 } };
        const result = { roomUuid: ROOM, state, seq, serverTime: 0, chatMessages: [], sanctions: [] };
        ws.send(JSON.stringify({ requestId: msg.requestId, ok: true, result }));
      });
    });
    const drop = () => {
      for (const ws of server.clients) ws.terminate();
    };
    let tokens = 0;
    const client = new LiveRoomClient({
      url: `http://127.0.0.1:${port}`,
      roomUuid: ROOM,
      token: async () => `token-${++tokens}`,
      WebSocket: WebSocket as unknown as WebSocketConstructor,
      backoff: { initialMs: 100, maxMs: 2000 },
    });
    const disconnects: { code: number; willReconnect: boolean }[] = [];
    client.on("disconnected", (info) => disconnects.push(info));
    try {
      await client.connect();
      expect(client.state?.voteCounts.likes).toBe(1);
      // The room goes away (nothing answers on its port) and comes back: the client keeps trying, waiting longer
      // each time, and takes the room's new state when it is back.
      seq = 7;
      const refuseUntil = Date.now() + 1200;
      server.on("connection", (ws) => {
        if (Date.now() < refuseUntil) ws.terminate();
      });
      drop();
      await until(() => client.connected && client.state?.voteCounts.likes === 7, 10_000);
      expect(connections.length).toBeGreaterThanOrEqual(4);
      const gaps = connections.slice(1).map((c, i) => c.at - (connections[i]?.at ?? c.at));
      // 100, 200, 400... ms: the later waits are longer than the first.
      expect(Math.max(...gaps.slice(2))).toBeGreaterThan((gaps[1] ?? 0) * 1.5);
      // Each attempt asked for a token of its own.
      expect(new Set(connections.map((c) => c.token)).size).toBe(connections.length);
      expect(disconnects[0]).toMatchObject({ willReconnect: true });
      // A kick closes for good.
      const before = connections.length;
      for (const ws of server.clients) ws.close(4003, "Kicked from the room.");
      await until(() => disconnects.some((d) => d.code === 4003));
      await wait(600);
      expect(connections.length).toBe(before);
      expect(client.connected).toBe(false);
      expect(disconnects.at(-1)).toMatchObject({ code: 4003, willReconnect: false });
    } finally {
      client.close();
      server.close();
    }
  }, 20_000);
});
