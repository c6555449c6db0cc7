/**
 * The live room for real: the edge in-process over HTTP, `partykit dev` running the party, and several clients of
 * the SDK driving a session through it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { schema } from "@booth/db";
import { createTestApp, type TestApp } from "@booth/edge/testing";
import { type ChatMessage, LiveRoomClient, LiveRoomError, type ServerMessage } from "@booth/sdk";
import { serve } from "@hono/node-server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { partyLiveRooms } from "../../edge/src/ports/live-rooms.ts";
import { freePort, startParty, until } from "./helpers.ts";

const GRACE_MS = 3000;
const P = { room: "/api/room-service", playlist: "/api/playlist-service", merch: "/api/merch-service" };

let t: TestApp;
let edgeServer: ReturnType<typeof serve>;
let edgeUrl: string;
let party: Awaited<ReturnType<typeof startParty>>;
let partyPort: number;
let persistDir: string;
let vars: Record<string, string>;

beforeAll(async () => {
  partyPort = await freePort();
  t = await createTestApp({
    // The edge tells the real party about REST changes.
    liveRooms: partyLiveRooms({ baseUrl: `http://127.0.0.1:${partyPort}`, serviceToken: () => t.serviceToken() }),
  });
  // Tokens are checked by another process, against the real time.
  t.clock.now = () => new Date();
  edgeServer = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((r) => edgeServer.once("listening", r));
  edgeUrl = `http://127.0.0.1:${(edgeServer.address() as { port: number }).port}`;
  persistDir = await mkdtemp(join(tmpdir(), "booth-party-"));
  vars = {
    BOOTH_EDGE_URL: edgeUrl,
    BOOTH_SERVICE_TOKEN: await t.serviceToken(),
    BOOTH_PRESENCE_GRACE_MS: String(GRACE_MS),
  };
  party = await startParty({ port: partyPort, persistDir, vars });
}, 120_000);

afterAll(async () => {
  await party?.stop();
  edgeServer?.close();
  await t?.close();
  if (persistDir) await rm(persistDir, { recursive: true, force: true });
});

async function song(name: string, duration: number) {
  const [row] = await t.db
    .insert(schema.songs)
    .values({ shortId: `s${crypto.randomUUID().slice(0, 9)}`, trackName: name, artistName: "Live Artist", duration })
    .returning();
  return row!;
}

/** A client that records what it receives. */
function clientFor(
  token: string,
  roomUuid: string,
  extra: Partial<ConstructorParameters<typeof LiveRoomClient>[0]> = {},
) {
  const client = new LiveRoomClient({
    url: party.url,
    roomUuid,
    token,
    backoff: { initialMs: 200, maxMs: 1000 },
    resetDelayMs: 200,
    ...extra,
  });
  const seen: ServerMessage[] = [];
  client.on("message", (m) => seen.push(m));
  return { client, seen, names: () => seen.map((m) => ("name" in m ? m.name : "reply")) };
}

const serverState = async (roomUuid: string) => {
  const res = await fetch(`${party.url}/parties/main/${roomUuid}`, {
    headers: { authorization: `Bearer ${await t.serviceToken()}` },
  });
  if (!res.ok) return null;
  const { seq: _seq, ...state } = (await res.json()) as Record<string, unknown>;
  return state;
};

describe("a live session", () => {
  it("joins, seats DJs, rotates short songs twice, votes, stars, chats, kicks, reconnects and survives a restart", async () => {
    const owner = await t.createUser({ nickname: "owner" });
    const bob = await t.createUser({ nickname: "bob" });
    const carol = await t.createUser({ nickname: "carol" });
    const dave = await t.createUser({ nickname: "dave" });
    const created = await t.request("POST", `${P.room}/rooms/infrastructure`, {
      token: owner.token,
      body: { name: "Live test room", numberOfDjs: 2, type: "PUBLIC", djType: "EVERYONE" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const roomUuid: string = created.body.uuid;

    // The owner's queue: two short songs.
    const [s1, s2, s3] = [await song("Owner One", 2), await song("Owner Two", 2), await song("Bob One", 2)];
    await t.request("POST", `${P.playlist}/crate/special/queue/songs`, {
      token: owner.token,
      body: { songIds: [s1.id, s2.id] },
    });
    await t.request("POST", `${P.playlist}/crate/special/queue/songs`, {
      token: bob.token,
      body: { songIds: [s3.id] },
    });

    // A socket without a token never reaches the room; a junk message is answered, not obeyed.
    const refused = await new Promise<number>((done) => {
      const ws = new WebSocket(`${party.url.replace("http", "ws")}/parties/main/${roomUuid}?token=forged`);
      ws.on("unexpected-response", (_req, res) => done(res.statusCode ?? 0));
      ws.on("open", () => done(101));
      ws.on("error", () => undefined);
    });
    expect(refused).toBe(401);
    const raw = new WebSocket(`${party.url.replace("http", "ws")}/parties/main/${roomUuid}?token=${carol.token}`);
    const rawReplies: unknown[] = [];
    raw.on("message", (d) => rawReplies.push(JSON.parse(String(d))));
    await new Promise((r) => raw.once("open", r));
    raw.send("{nonsense");
    raw.send(JSON.stringify({ action: "voteOnSong", params: { songVotes: { like: 7 } }, requestId: 1 }));
    raw.send(JSON.stringify({ action: "addDj", params: {}, requestId: 2 }));
    await until(() => rawReplies.length === 3, "replies to junk");
    expect(rawReplies).toEqual([
      expect.objectContaining({ ok: false, statusCode: 400, requestId: null }),
      expect.objectContaining({ ok: false, statusCode: 400, requestId: 1 }),
      expect.objectContaining({ ok: false, statusCode: 403, requestId: 2 }),
    ]);
    raw.close();

    const A = clientFor(owner.token, roomUuid);
    const B = clientFor(bob.token, roomUuid);
    const C = clientFor(carol.token, roomUuid);
    const D = clientFor(dave.token, roomUuid);
    const joined = await A.client.connect();
    expect(joined.state.allUsers.map((u) => u.uuid)).toEqual([owner.user.uuid]);
    expect(joined.state.settings.slug).toBe(created.body.slug);
    for (const x of [B, C, D]) await x.client.connect();
    await until(() => A.client.state?.allUsers.length === 4, "four in the room");
    await until(async () => {
      const rows = await t.db.select().from(schema.roomPresence).where(eq(schema.roomPresence.roomUuid, roomUuid));
      return rows.length === 4;
    }, "presence reported to the edge");

    // The booth: the owner from their queue, bob with a song he picks; carol finds the seats taken.
    await A.client.addDj();
    await until(() => A.client.state?.nowPlaying?.song.trackName === "Owner One", "the owner's first song");
    await B.client.addDj({ trackName: "Bob Pick", artistName: "Bob", duration: 2, songId: s3.id });
    await expect(C.client.addDj()).rejects.toMatchObject({ statusCode: 403, message: "All DJ seats are taken." });

    // Votes while the first song plays; the star lands in dave's likes.
    await C.client.voteOnSong({ like: true });
    await D.client.voteOnSong({ star: true, like: true });
    await until(() => B.client.state?.voteCounts.likes === 2 && B.client.state.voteCounts.stars === 1, "votes");
    await expect(A.client.voteOnSong({ like: true })).rejects.toBeInstanceOf(LiveRoomError);
    const likes = await until(async () => {
      const res = await t.request("GET", `${P.playlist}/crate/special/likes/songs`, { token: dave.token });
      return res.body.length === 1 ? res.body : null;
    }, "the star in dave's likes");
    expect(likes[0].trackName).toBe("Owner One");

    // Chat: a mention, the history for later.
    const sent = await C.client.sendChatMessage({ message: "great tune @dave" });
    expect(sent.mentions).toEqual([dave.user.uuid]);
    await until(() => D.client.chatMessages.some((m: ChatMessage) => m.id === sent.id), "the chat message");
    await expect(C.client.sendChatMessage({ message: "  " })).rejects.toMatchObject({ statusCode: 400 });
    A.client.playOneTimeAnimation("emoji", "🔥");
    await until(() => D.names().includes("playedOneTimeAnimation"), "the animation");

    // Two rotations of 2-second songs: owner, bob, owner, bob.
    const plays = await until(
      async () => {
        const res = await t.request("GET", `${P.room}/rooms/${roomUuid}/recent-songs`);
        return res.body.total >= 4 ? res.body.data : null;
      },
      "four recorded plays",
      30_000,
    );
    const order = [...plays].reverse().slice(0, 4);
    expect(order.map((p: { djUuid: string }) => p.djUuid)).toEqual([
      owner.user.uuid,
      bob.user.uuid,
      owner.user.uuid,
      bob.user.uuid,
    ]);
    expect(order[0].song.trackName).toBe("Owner One");
    expect(order[0].voteCounts).toEqual({ likes: 2, dislikes: 0, stars: 1 });
    expect(order[2].song.trackName).toBe("Owner Two");
    // Each of the owner's plays moved their queue on.
    const queue = await t.request("GET", `${P.playlist}/crate/special/queue`, { token: owner.token });
    expect(queue.body.currentPosition).toBe(0);
    expect(A.names().filter((n) => n === "playedSong").length).toBeGreaterThanOrEqual(4);
    // Every client's copy, built from patches, is the server's state (once the patches in flight have arrived: the
    // music goes on, so the state may move between the two reads).
    await until(async () => {
      const server = await serverState(roomUuid);
      return [A, B, C, D].every((x) => isDeepStrictEqual(x.client.state, server));
    }, "every client's copy equal to the server's state");

    // A kick over REST: kickedFromRoom, the socket closes, no way back in for now.
    const kicked = new Promise<string>((r) => C.client.on("kicked", r));
    const kick = await t.request("POST", `${P.room}/roomUserRoles/kick-user-from-room`, {
      token: owner.token,
      body: { roomUuid, userUuid: carol.user.uuid },
    });
    expect(kick.status).toBe(201);
    expect(await kicked).toBeTruthy();
    await until(() => !C.client.connected, "carol's socket closed");
    await until(() => A.client.state?.allUsers.length === 3, "carol gone");
    const again = clientFor(carol.token, roomUuid);
    await expect(again.client.connect()).rejects.toMatchObject({ statusCode: 403 });

    // Dave drops and comes back within the grace period: nobody saw him leave.
    const leftBefore = A.names().filter((n) => n === "userLeft").length;
    // A dropped network: the TCP connection dies without a closing handshake.
    (D.client as unknown as { socket: WebSocket }).socket.terminate();
    await until(() => !D.client.connected, "dave dropped");
    const rejoined = new Promise((r) => D.client.on("joined", r));
    await until(() => D.client.connected, "dave back", 10_000);
    await rejoined;
    await new Promise((r) => setTimeout(r, GRACE_MS + 1000));
    expect(A.names().filter((n) => n === "userLeft")).toHaveLength(leftBefore);
    expect(A.client.state?.allUsers.map((u) => u.uuid)).toContain(dave.user.uuid);

    // Bob leaves for good: after the grace period he is gone, and off the stage.
    B.client.close();
    await until(() => A.names().filter((n) => n === "userLeft").length > leftBefore, "bob left", GRACE_MS + 10_000);
    expect(A.client.state?.allUsers.map((u) => u.uuid)).not.toContain(bob.user.uuid);
    expect(A.client.state?.djs.map((d) => d.uuid)).not.toContain(bob.user.uuid);

    // A restart of the room: the process goes, the state stays; the clients come back by themselves.
    const before = await serverState(roomUuid);
    const seqBefore = A.client.seq;
    await party.stop();
    await until(() => !A.client.connected, "the party gone");
    party = await startParty({ port: partyPort, persistDir, vars });
    await until(() => A.client.connected && D.client.connected, "clients back after the restart", 30_000);
    const after = (await until(() => serverState(roomUuid), "the state after the restart")) as Record<string, unknown>;
    expect(after.allUsers).toEqual(before?.allUsers);
    // The music went on (a song may have ended meanwhile), with the same people on stage.
    const uuids = (djs: unknown) => (djs as { uuid: string }[]).map((d) => d.uuid);
    expect(uuids(after.djs)).toEqual(uuids(before?.djs));
    expect(after.settings).toEqual(before?.settings);
    expect(A.client.seq).toBeGreaterThanOrEqual(seqBefore);
    // The chat history is there for whoever joins now.
    const history = (await until(
      () => D.client.chatMessages.length > 0 && D.client.chatMessages,
      "history",
    )) as ChatMessage[];
    expect(history.map((m) => m.id)).toContain(sent.id);
    await until(async () => isDeepStrictEqual(A.client.state, await serverState(roomUuid)), "in step");

    // The edge reads the room's state for GET /rooms/room-state/{id}.
    const state = await t.request("GET", `${P.room}/rooms/room-state/${roomUuid}`);
    expect(state.status).toBe(200);
    expect(state.body.state.allUsers.length).toBe(2);

    // Deleting the room resets it: roomReset, every socket closed.
    const reset = new Promise((r) => A.client.on("reset", () => r(true)));
    expect(
      (await t.request("DELETE", `${P.room}/rooms/${roomUuid}/infrastructure`, { token: owner.token })).status,
    ).toBe(204);
    expect(await reset).toBe(true);
    await until(() => (A.client.connected === false || A.client.state === null) && true, "reset");
    for (const x of [A, D]) x.client.close();
  }, 180_000);

  it("awards a DJ's points to the season's ranking, hands out its avatar at the end, and shows purchases in the chat", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const dj = await t.createUser({ nickname: "seasondj" });
    const fan = await t.createUser({ nickname: "seasonfan" });
    const at = (s: number) => new Date(Date.now() + s * 1000).toISOString();
    const season = await t.request("POST", `${P.merch}/points/season`, {
      token: admin.token,
      body: { name: "Live season", start: at(-60), end: at(600) },
    });
    expect(season.status, JSON.stringify(season.body)).toBe(201);
    const crown = await t.request("POST", `${P.merch}/avatars`, {
      token: admin.token,
      body: {
        slug: "live-crown",
        name: "Live crown",
        avatarStatus: "SEASON_AWARD",
        seasonId: season.body.id,
        minPoints: 3,
      },
    });
    expect(crown.status, JSON.stringify(crown.body)).toBe(201);
    const room = await t.request("POST", `${P.room}/rooms/infrastructure`, {
      token: dj.token,
      body: { name: "Season room", type: "PUBLIC" },
    });
    const roomUuid: string = room.body.uuid;
    const tune = await song("Points Tune", 2);

    const D = clientFor(dj.token, roomUuid);
    const F = clientFor(fan.token, roomUuid);
    await D.client.connect();
    await F.client.connect();
    await D.client.addDj({ trackName: tune.trackName, artistName: "Live Artist", duration: 2, songId: tune.id });
    await until(() => F.client.state?.nowPlaying?.song.trackName === "Points Tune", "the song");
    // A like and a star: 1 + 2 points for the DJ when the song ends.
    await F.client.voteOnSong({ like: true, star: true });
    const ranking = await until(
      async () => {
        const res = await t.request("GET", `${P.merch}/points/current-ranking-status/${dj.user.uuid}`);
        return res.body?.balance >= 3 ? res.body : null;
      },
      "the DJ's points in the season",
      15_000,
    );
    expect(ranking).toMatchObject({ balance: 3, rank: 1 });
    const seasonRanking = await t.request(
      "GET",
      `${P.merch}/points/season-ranking/${encodeURIComponent("Live season")}`,
    );
    expect(JSON.stringify(seasonRanking.body)).toContain(dj.user.uuid);

    // A consumable bought for the room over REST shows in everyone's chat.
    const confetti = await t.request("POST", `${P.merch}/api/v1/consumables`, {
      token: admin.token,
      body: { name: "Confetti", tokenCost: 2, displayType: "cover" },
    });
    const account = await t.request("POST", `${P.merch}/api/v1/token-accounts`, { token: fan.token });
    await t.request("POST", `${P.merch}/api/v1/token-accounts/${account.body.id}/credit`, {
      token: admin.token,
      body: { amount: 5, reason: "gift" },
    });
    const bought = await t.request("POST", `${P.merch}/api/v1/consumable-purchases`, {
      token: fan.token,
      body: { roomUuid, consumableId: confetti.body.id, accountId: account.body.id, tokenCost: 2 },
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const shown = (await until(
      () => D.client.chatMessages.find((m: ChatMessage) => m.type === "consumable"),
      "the purchase in the chat",
    )) as ChatMessage;
    expect(shown).toMatchObject({ userUuid: fan.user.uuid, userName: "seasonfan", message: "Confetti" });
    expect(shown.consumable).toMatchObject({ name: "Confetti", purchaseId: bought.body.id, tokenCost: 2 });

    // The season ends; closing it gives the crown to the DJ, who earned 3 points, and not to the fan.
    await D.client.removeDj();
    const ended = await t.request("PATCH", `${P.merch}/points/season/${season.body.id}`, {
      token: admin.token,
      body: { end: at(1) },
    });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    const handled = await t.request("POST", `${P.merch}/points/season/admin/handle-points`, {
      token: admin.token,
      body: { seasonId: season.body.id },
    });
    expect(handled.status, JSON.stringify(handled.body)).toBe(200);
    expect(handled.body.awarded).toBe(1);
    const mine = await t.request("GET", `${P.merch}/avatars`, { token: dj.token });
    expect(JSON.stringify(mine.body)).toContain("live-crown");
    const theirs = await t.request("GET", `${P.merch}/avatars`, { token: fan.token });
    expect(JSON.stringify(theirs.body)).not.toContain("live-crown");
    for (const x of [D, F]) x.client.close();
  }, 120_000);
});
