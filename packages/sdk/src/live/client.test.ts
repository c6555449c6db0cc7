import { describe, expect, it } from "vitest";
import { LiveRoomClient, LiveRoomError, type WebSocketLike } from "./client.ts";
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
  onopen: ((e: unknown) => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
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
});
