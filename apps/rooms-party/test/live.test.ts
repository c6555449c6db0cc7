/**
 * The live room for real: the edge in-process over HTTP, `wrangler dev` running the rooms' Worker, and several clients of
 * the SDK driving a session through it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { schema } from "@booth/db";
import { createTestAppForParty, publicRoom, serveTestApp, type TestApp } from "@booth/edge/testing";
import {
  type ChatMessage,
  LiveRoomClient,
  LiveRoomError,
  type ServerMessage,
  type WebSocketConstructor,
} from "@booth/sdk";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { freePort, startParty, until } from "./helpers.ts";

/**
 * How long a dropped client keeps its place. The restart below must fit in it: the party's process starting again and
 * each client's reconnection (with partysocket's growing back-off) took over 6 s on a loaded 2-core machine.
 */
const GRACE_MS = 10_000;
const P = { room: "/api/room-service", playlist: "/api/playlist-service", merch: "/api/merch-service" };

let t: TestApp;
let edgeServer: Awaited<ReturnType<typeof serveTestApp>>;
let party: Awaited<ReturnType<typeof startParty>>;
let partyPort: number;
let persistDir: string;
let vars: Record<string, string>;
let secrets: Record<string, string>;

beforeAll(async () => {
  partyPort = await freePort();
  t = await createTestAppForParty(`http://127.0.0.1:${partyPort}`);
  edgeServer = await serveTestApp(t);
  persistDir = await mkdtemp(join(tmpdir(), "booth-party-"));
  vars = {
    BOOTH_EDGE_URL: edgeServer.url,
    BOOTH_PRESENCE_GRACE_MS: String(GRACE_MS),
  };
  secrets = { BOOTH_SERVICE_SECRET: t.serviceSecret };
  party = await startParty({ port: partyPort, persistDir, vars, secrets });
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

/** A client in the room for each token, in order (`const [A, B] = clientsFor(roomUuid, a.token, b.token)`). */
function clientsFor<const T extends readonly string[]>(roomUuid: string, ...tokens: T) {
  return tokens.map((token) => clientFor(token, roomUuid)) as {
    -readonly [K in keyof T]: ReturnType<typeof clientFor>;
  };
}

/** The time `s` seconds from now by the real clock (the party's), as the edge takes dates. */
const secondsFromNow = (s: number) => new Date(Date.now() + s * 1000).toISOString();

/** A points season `admin` opens over REST, from `start` to `end` seconds from now; answers it as the edge does. */
async function openSeason(admin: { token: string }, name: string, start: number, end: number) {
  const season = await t.request("POST", `${P.merch}/points/season`, {
    token: admin.token,
    body: { name, start: secondsFromNow(start), end: secondsFromNow(end) },
  });
  expect(season.status, JSON.stringify(season.body)).toBe(201);
  return season.body as { id: string; start: string };
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

    const [A, B, C] = clientsFor(roomUuid, owner.token, bob.token, carol.token);
    // Dave's network fails below: his client runs on the `ws` package, whose socket can be cut without a closing
    // handshake (Node's own WebSocket, the others' default, has no way to do that).
    const D = clientFor(dave.token, roomUuid, { WebSocket: WebSocket as unknown as WebSocketConstructor });
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
    await B.client.addDj({ songId: s3.id });
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
        return res.body.data.length >= 4 ? res.body.data : null;
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
    // The network under partysocket's reconnecting socket fails (its current `ws`, not the client's own close).
    (D.client as unknown as { socket: { _ws: WebSocket } }).socket._ws.terminate();
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
    // Both joined again (a socket that is open has not necessarily been let in yet).
    const rejoinedAfterRestart = Promise.all([A, D].map((x) => new Promise((r) => x.client.on("joined", r))));
    await party.stop();
    await until(() => !A.client.connected, "the party gone");
    party = await startParty({ port: partyPort, persistDir, vars, secrets });
    await until(() => A.client.connected && D.client.connected, "clients back after the restart", 30_000);
    await rejoinedAfterRestart;
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
    const season = await openSeason(admin, "Live season", -60, 600);
    const crown = await t.request("POST", `${P.merch}/avatars`, {
      token: admin.token,
      body: {
        slug: "live-crown",
        name: "Live crown",
        avatarStatus: "SEASON_AWARD",
        seasonId: season.id,
        minPoints: 3,
      },
    });
    expect(crown.status, JSON.stringify(crown.body)).toBe(201);
    const roomUuid = await publicRoom(t, dj, "Season room");
    const tune = await song("Points Tune", 2);

    const [D, F] = clientsFor(roomUuid, dj.token, fan.token);
    await D.client.connect();
    await F.client.connect();
    await D.client.addDj({ songId: tune.id });
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
    const ended = await t.request("PATCH", `${P.merch}/points/season/${season.id}`, {
      token: admin.token,
      body: { end: secondsFromNow(1) },
    });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    const handled = await t.request("POST", `${P.merch}/points/season/admin/handle-points`, {
      token: admin.token,
      body: { seasonId: season.id },
    });
    expect(handled.status, JSON.stringify(handled.body)).toBe(200);
    expect(handled.body.awarded).toBe(1);
    const mine = await t.request("GET", `${P.merch}/avatars`, { token: dj.token });
    expect(JSON.stringify(mine.body)).toContain("live-crown");
    const theirs = await t.request("GET", `${P.merch}/avatars`, { token: fan.token });
    expect(JSON.stringify(theirs.body)).not.toContain("live-crown");
    for (const x of [D, F]) x.client.close();
  }, 120_000);

  it("plays what the catalogue says of a song a DJ names, never the stream or duration the DJ sends", async () => {
    const dj = await t.createUser({ nickname: "forger" });
    const fan = await t.createUser({ nickname: "listener" });
    const roomUuid = await publicRoom(t, dj, "Forgery room");
    const [row] = await t.db
      .insert(schema.songs)
      .values({
        shortId: `s${crypto.randomUUID().slice(0, 9)}`,
        trackName: "Real Tune",
        artistName: "Real Artist",
        duration: 200,
        streamUrls: { hls: "/api/upload-service/songs/real/hls-playlist" },
      })
      .returning();
    const L = clientFor(fan.token, roomUuid);
    await L.client.connect();

    // The DJ's own socket, writing what a hostile client would: any stream, preview, duration and field.
    const raw = new WebSocket(`${party.url.replace("http", "ws")}/parties/main/${roomUuid}?token=${dj.token}`);
    // biome-ignore lint/suspicious/noExplicitAny: the replies as they come.
    const replies: any[] = [];
    raw.on("message", (d) => replies.push(JSON.parse(String(d))));
    await new Promise((r) => raw.once("open", r));
    const ask = async (action: string, params: unknown) => {
      const requestId = `r${replies.length}-${Math.random()}`;
      raw.send(JSON.stringify({ action, params, requestId }));
      return until(() => replies.find((m) => m.requestId === requestId), `the reply to ${action}`);
    };
    expect((await ask("joinRoom", { roomUuid })).ok).toBe(true);
    const forged = {
      songId: row!.id,
      trackName: "Forged",
      artistName: "Forger",
      duration: 86_000,
      streamUrls: { hls: "https://evil.example/x.m3u8" },
      previews: { spotify: "https://evil.example/preview.mp3" },
      exfiltrate: "https://evil.example/collect",
    };
    expect(await ask("addDj", { song: { songId: crypto.randomUUID(), streamUrls: forged.streamUrls } })).toMatchObject({
      ok: false,
      statusCode: 404,
      message: "Song not found.",
    });
    expect(await ask("addDj", { song: forged })).toMatchObject({ ok: true });
    const playing = (await until(() => L.client.state?.nowPlaying, "the song for the listener"))!;
    expect(playing.song).toMatchObject({
      songId: row!.id,
      trackName: "Real Tune",
      duration: 200,
      streamUrls: { hls: "/api/upload-service/songs/real/hls-playlist" },
    });
    expect(playing.endTime - playing.startTime).toBe(200_000);
    // A song in the chat is the catalogue's too, and a stranger's image address is refused.
    expect(await ask("sendChatMessage", { media: ["https://evil.example/x.gif"] })).toMatchObject({ statusCode: 400 });
    const shared = await ask("sendChatMessage", { songs: [forged] });
    expect(shared.ok).toBe(true);
    await until(() => L.client.chatMessages.some((m: ChatMessage) => m.id === shared.result.id), "the shared song");
    const heard = JSON.stringify([L.seen, L.client.state, L.client.chatMessages]);
    for (const injected of ["evil.example", "exfiltrate", "Forged", '"duration":86000'])
      expect(heard).not.toContain(injected);
    expect(await ask("removeDj", {})).toMatchObject({ ok: true });
    raw.close();
    L.client.close();
  }, 60_000);

  it("plays a song the DJ queues over REST after sitting down with an empty queue, at once", async () => {
    const dj = await t.createUser({ nickname: "newcomer" });
    const fan = await t.createUser({ nickname: "early-fan" });
    const roomUuid = await publicRoom(t, dj, "Empty queue room");
    const [D, L] = clientsFor(roomUuid, dj.token, fan.token);
    await D.client.connect();
    await L.client.connect();
    await D.client.addDj();
    await until(() => L.client.state?.djs.length === 1, "the DJ on stage");
    // The room has told the edge who is in it: that is where the edge sends queue changes.
    await until(
      async () =>
        (await t.db.select().from(schema.roomPresence).where(eq(schema.roomPresence.userUuid, dj.user.uuid))).length,
      "the DJ's presence",
    );
    expect(L.client.state?.nowPlaying).toBeNull();

    const later = await song("Queued Later", 200);
    const added = await t.request("POST", `${P.playlist}/crate/special/queue/songs`, {
      token: dj.token,
      body: { songId: later.id },
      headers: { "x-request-id": "queue-trace-1" },
    });
    expect(added.status).toBe(201);
    // The room logs the edge's call under the id of the REST request that made it.
    await until(
      () => party.output().includes('"msg":"edge request","method":"POST","status":204,"requestId":"queue-trace-1"'),
      "the room's log line of the edge's call",
    );
    const playing = (await until(() => L.client.state?.nowPlaying, "the queued song for the listener"))!;
    expect(playing.song).toMatchObject({ songId: later.id, trackName: "Queued Later" });
    // The room reported what its clients sent (two joins, the seat) with the song's start: the metrics' running total.
    await until(async () => {
      const [row] = await t.db.select().from(schema.rooms).where(eq(schema.rooms.uuid, roomUuid));
      return (row?.messagesReceived ?? 0) >= 3;
    }, "the room's messages counted at the edge");
    expect(L.client.state?.djs[0]?.uuid).toBe(dj.user.uuid);
    D.client.close();
    L.client.close();
  }, 60_000);
});

describe("the waitlist", () => {
  it("turned on over REST, lines a listener up when the booth is full and seats them when the DJ steps down", async () => {
    const owner = await t.createUser({ nickname: "wl-owner" });
    const fan = await t.createUser({ nickname: "wl-fan" });
    const late = await t.createUser({ nickname: "wl-late" });
    const roomUuid = await publicRoom(t, owner, "Waitlist room");
    const [O, F, L] = clientsFor(roomUuid, owner.token, fan.token, late.token);
    for (const x of [O, F, L]) await x.client.connect();
    await until(
      async () =>
        (await t.db.select().from(schema.roomPresence).where(eq(schema.roomPresence.roomUuid, roomUuid))).length === 3,
      "presence reported to the edge",
    );
    await expect(F.client.joinWaitlist()).rejects.toMatchObject({
      statusCode: 409,
      message: "This room has no waitlist.",
    });
    const changed = await t.request("PATCH", `${P.room}/rooms/${roomUuid}`, {
      token: owner.token,
      body: { waitlistEnabled: true },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.waitlistEnabled).toBe(true);
    const seats = await t.request("PATCH", `${P.room}/rooms/${roomUuid}/infrastructure`, {
      token: owner.token,
      body: { numberOfDjs: 1 },
    });
    expect(seats.status).toBe(200);
    await until(
      () => F.client.state?.settings.waitlistEnabled && F.client.state.settings.numberOfDjs === 1,
      "settings",
    );

    await O.client.addDj();
    expect(await F.client.joinWaitlist()).toEqual({ position: 1 });
    expect(await L.client.joinWaitlist()).toEqual({ position: 2 });
    await until(() => O.client.state?.waitlist.length === 2, "two waiting, as the owner sees it");
    // The owner moves the latecomer first, then steps down: the latecomer takes the seat.
    await O.client.moveInWaitlist(late.user.uuid, 1);
    await O.client.removeDj();
    await until(() => F.client.state?.djs[0]?.uuid === late.user.uuid, "the first waiting seated");
    expect(F.client.state?.waitlist).toEqual([fan.user.uuid]);
    await F.client.leaveWaitlist();
    await until(() => L.client.state?.waitlist.length === 0, "the fan gone from the list");
    for (const x of [O, F, L]) x.client.close();
  }, 60_000);
});

describe("the room crate", () => {
  it("plays an empty booth from the owner's room crate, set over REST, until a DJ sits with a song", async () => {
    const owner = await t.createUser({ nickname: "rc-owner" });
    const fan = await t.createUser({ nickname: "rc-fan" });
    const roomUuid = await publicRoom(t, owner, "Room crate room");
    const crate = await t.request("POST", `${P.playlist}/crate`, { token: owner.token, body: { name: "Fill-in" } });
    const [c1, c2] = [await song("Crate One", 2), await song("Crate Two", 2)];
    await t.request("POST", `${P.playlist}/crate/${crate.body.crateUuid}/songs`, {
      token: owner.token,
      body: { songIds: [c1.id, c2.id] },
    });
    const [O, F] = clientsFor(roomUuid, owner.token, fan.token);
    for (const x of [O, F]) await x.client.connect();
    expect(F.client.state?.nowPlaying).toBeNull();

    const set = await t.request("PATCH", `${P.room}/rooms/${roomUuid}`, {
      token: owner.token,
      body: { roomCrateId: crate.body.crateUuid },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    // The room plays the crate in order and wraps around, with nobody in the booth.
    const heard: string[] = [];
    F.client.on("state", (state) => {
      const now = state?.nowPlaying;
      if (now?.byRoom && heard.at(-1) !== now.song.trackName) heard.push(now.song.trackName);
    });
    await until(() => heard.length >= 3, "three songs of the room crate", 30_000);
    expect(heard.slice(0, 3)).toEqual(["Crate One", "Crate Two", "Crate One"]);
    expect(F.client.state?.djs).toEqual([]);
    // Votes count on it.
    await F.client.voteOnSong({ like: true });
    await until(() => O.client.state?.voteCounts.likes === 1, "the like on the room's song");

    // A DJ with a song of their own: the room's song ends at once and theirs plays.
    const mine = await song("Fan's own", 600);
    await t.request("POST", `${P.playlist}/crate/special/queue/songs`, { token: fan.token, body: { songId: mine.id } });
    await F.client.addDj();
    await until(() => O.client.state?.nowPlaying?.song.trackName === "Fan's own", "the DJ's song");
    expect(O.client.state?.nowPlaying?.byRoom).toBeUndefined();
    // The room's plays are recorded with no DJ.
    const plays = await t.db.select().from(schema.roomPlays).where(eq(schema.roomPlays.roomUuid, roomUuid));
    expect(plays.some((p) => p.djUuid === null)).toBe(true);
    for (const x of [O, F]) x.client.close();
  }, 90_000);
});

describe("the Durable Object runtime", () => {
  /** How many times a room's object started (its constructor and onStart ran), and with how many open sockets. */
  const startsOf = (roomUuid: string) =>
    party
      .output()
      .split("\n")
      .flatMap((line) => {
        const json = line.slice(line.indexOf("{"));
        try {
          const entry = JSON.parse(json) as { room?: string; msg?: string; connections?: number };
          return entry.room === roomUuid && entry.msg === "room started" ? [entry.connections ?? 0] : [];
        } catch {
          return [];
        }
      });

  it("hibernates a quiet room and, woken by a vote, still knows every connected user and sends the vote to all", async () => {
    const dj = await t.createUser({ nickname: "sleepydj" });
    const fan = await t.createUser({ nickname: "sleepyfan" });
    const guestRes = await t.request("GET", "/api/user-service/auth/guest");
    const roomUuid = await publicRoom(t, dj, "Hibernating room");
    const long = await song("A long one", 900);
    await t.request("POST", `${P.playlist}/crate/special/queue/songs`, { token: dj.token, body: { songId: long.id } });
    const [D, F, G] = clientsFor(roomUuid, dj.token, fan.token, guestRes.body.accessToken);
    for (const x of [D, F, G]) await x.client.connect();
    await D.client.addDj();
    await until(() => G.client.state?.nowPlaying?.song.songId === long.id, "the song playing");
    expect(startsOf(roomUuid)).toEqual([0]);

    // Nothing happens for a while: workerd evicts an idle object after 10 to 20 s; its hibernatable sockets stay open.
    // On a loaded machine the eviction can come much later, so the fan votes after each quiet spell (like, then
    // dislike, ...) until a vote wakes a new instance of the room; each vote must reach every client either way.
    const votesSeen = (x: typeof D) => x.names().filter((n) => n === "votedOnSong").length;
    const deadline = Date.now() + 120_000;
    let like = true;
    for (;;) {
      await new Promise((r) => setTimeout(r, 20_000));
      for (const x of [D, F, G]) expect(x.client.connected).toBe(true);
      const before = [D, F, G].map(votesSeen);
      await F.client.voteOnSong({ like });
      await until(() => [D, F, G].every((x, i) => votesSeen(x) > (before[i] ?? 0)), "the vote at every client");
      if (startsOf(roomUuid).length > 1) break;
      if (Date.now() > deadline) throw new Error("the room never hibernated in two minutes of quiet spells");
      like = !like;
    }
    // The vote woke a new instance of the room, which took the three open sockets back from the runtime (on a loaded
    // machine the room may sleep and wake again before this look: each wake took all three back).
    const [first, ...woken] = startsOf(roomUuid);
    expect(first).toBe(0);
    expect(woken.length).toBeGreaterThan(0);
    expect(woken.every((connections) => connections === 3)).toBe(true);
    for (const x of [D, F, G])
      expect(x.client.state?.voteCounts).toMatchObject({ likes: like ? 1 : 0, dislikes: like ? 0 : 1 });
    const state = (await serverState(roomUuid)) as { allUsers: { uuid: string }[]; djs: { uuid: string }[] };
    expect(state.allUsers.map((u) => u.uuid).sort()).toEqual(
      [dj.user.uuid, fan.user.uuid, G.client.state?.allUsers.find((u) => u.tokenRole === "guest")?.uuid].sort(),
    );
    expect(state.djs.map((d) => d.uuid)).toEqual([dj.user.uuid]);
    // Nobody was taken for gone: no one left, and the grace period never started.
    await new Promise((r) => setTimeout(r, GRACE_MS + 1000));
    expect(F.names()).not.toContain("userLeft");
    for (const x of [D, F, G]) x.client.close();
  }, 180_000);

  it("answers a client's close at once, so the client sees a clean close rather than waiting for a timeout", async () => {
    const user = await t.createUser({ nickname: "closer" });
    const roomUuid = await publicRoom(t, user, "Closing room");
    const ws = new WebSocket(`${party.url.replace("http", "ws")}/parties/main/${roomUuid}?token=${user.token}`);
    await new Promise((r) => ws.once("open", r));
    const replies: unknown[] = [];
    ws.on("message", (d) => replies.push(JSON.parse(String(d))));
    ws.send(JSON.stringify({ action: "joinRoom", params: { roomUuid }, requestId: 1 }));
    await until(() => replies.length === 1, "the join answer");
    const started = Date.now();
    const closed = new Promise<{ code: number; ms: number }>((done) =>
      ws.once("close", (code) => done({ code, ms: Date.now() - started })),
    );
    ws.close(1000, "bye");
    const { code, ms } = await closed;
    // Unanswered, ws reports 1006 after its 30 s close timeout.
    expect(code).toBe(1000);
    expect(ms).toBeLessThan(5000);
  }, 30_000);
});

describe("votes, sanctions and bans against hostile users", () => {
  const within = <T>(work: Promise<T>, what: string, ms = 15_000) =>
    Promise.race([
      work,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms)),
    ]);
  const guestToken = async () => {
    const res = await t.request("GET", "/api/user-service/auth/guest");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.accessToken as string;
  };

  it("pays a DJ nothing for 50 guests' likes, and counts a listener's three sockets once", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const dj = await t.createUser({ nickname: "floodeddj" });
    const fan = await t.createUser({ nickname: "threetabs" });
    const season = await openSeason(admin, "Flood season", 5, 900);
    const roomUuid = await publicRoom(t, dj, "Flood room");
    const tune = await song("Flood Tune", 8);
    await t.request("POST", `${P.playlist}/crate/special/queue/songs`, {
      token: dj.token,
      body: { songIds: [tune.id] },
    });

    const D = clientFor(dj.token, roomUuid);
    const tabs = [1, 2, 3].map(() => clientFor(fan.token, roomUuid));
    const guests = await Promise.all(Array.from({ length: 50 }, async () => clientFor(await guestToken(), roomUuid)));
    await D.client.connect();
    for (const x of tabs) await x.client.connect();
    await Promise.all(guests.map((g) => g.client.connect()));
    await until(() => D.client.state?.allUsers.length === 52, "the DJ, the fan and 50 guests in the room");
    // The season starts once everyone is in, so this song is the only one that can earn points in it.
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(season.start) - Date.now())));

    await D.client.addDj();
    await until(() => D.client.state?.nowPlaying?.song.trackName === "Flood Tune", "the song");
    await Promise.all([...guests, ...tabs].map((x) => x.client.voteOnSong({ like: true })));
    await until(() => D.client.state?.voteCounts.likes === 51, "50 guests' likes and the fan's one");

    const [play] = await until(
      async () => {
        const res = await t.request("GET", `${P.room}/rooms/${roomUuid}/recent-songs`);
        // Rows and total are two queries side by side: wait for the row itself, which may come a moment after its count.
        return res.body.data?.length >= 1 ? res.body.data : null;
      },
      "the play recorded",
      30_000,
    );
    // Everyone's likes show in the room and its history; the fan's three sockets are one like.
    expect(play.voteCounts).toEqual({ likes: 51, dislikes: 0, stars: 0 });
    // The DJ earns for the one signed-in listener: 1 point, not 51.
    const ranking = await until(
      async () => {
        const res = await t.request("GET", `${P.merch}/points/current-ranking-status/${dj.user.uuid}`);
        return res.body?.balance > 0 ? res.body : null;
      },
      "the DJ's points",
      15_000,
    );
    expect(ranking.balance).toBe(1);
    for (const x of [D, ...tabs, ...guests]) x.client.close();
  }, 120_000);

  it("shows a room's sanctions to its moderators and the sanctioned alone, never to members or guests", async () => {
    const owner = await t.createUser({ nickname: "modowner" });
    const member = await t.createUser({ nickname: "plainmember" });
    const muted = await t.createUser({ nickname: "mutedone" });
    const roomUuid = await publicRoom(t, owner, "Sanctions room");
    const [O, M, X, G] = clientsFor(roomUuid, owner.token, member.token, muted.token, await guestToken());
    for (const x of [O, M, X, G]) await x.client.connect();
    await until(() => O.client.state?.allUsers.length === 4, "four in the room");

    const mute = await t.request("POST", `${P.room}/roomUserRoles/${roomUuid}`, {
      token: owner.token,
      body: { userUuid: muted.user.uuid, role: "chatDisabled" },
    });
    expect(mute.status, JSON.stringify(mute.body)).toBe(201);
    const sanction = { userUuid: muted.user.uuid, role: "chatDisabled", expirationTime: null };
    await until(() => O.client.sanctions.length === 1, "the moderator told of the mute");
    expect(O.client.sanctions).toEqual([sanction]);
    await until(() => X.client.sanctions.length === 1, "the muted user told of their own mute");
    await expect(X.client.sendChatMessage({ message: "hello?" })).rejects.toMatchObject({ statusCode: 403 });

    // A member and a guest: nothing in their state, in any message they got, in a fresh join, nor over REST.
    const late = clientFor(member.token, roomUuid);
    const joined = await late.client.connect();
    expect(joined.sanctions).toEqual([]);
    for (const x of [M, G, late]) {
      expect(x.client.sanctions).toEqual([]);
      expect(JSON.stringify(x.client.state)).not.toContain("chatDisabled");
      expect(JSON.stringify(x.seen)).not.toContain("chatDisabled");
    }
    const rest = await t.request("GET", `${P.room}/rooms/room-state/${roomUuid}`);
    expect(rest.status).toBe(200);
    expect(JSON.stringify(rest.body)).not.toContain("chatDisabled");
    // The moderator's rejoin hands the sanctions over again.
    const again = clientFor(owner.token, roomUuid);
    expect((await again.client.connect()).sanctions).toEqual([sanction]);
    for (const x of [O, M, X, G, late, again]) x.client.close();
  }, 60_000);

  it("throws a banned user out of every live room at once and keeps them out", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const owner = await t.createUser({ nickname: "banroomowner" });
    const troll = await t.createUser({ nickname: "troll" });
    const [first, second] = [await publicRoom(t, owner, "Ban room one"), await publicRoom(t, owner, "Ban room two")];
    const O = clientFor(owner.token, first);
    const T1 = clientFor(troll.token, first);
    const T2 = clientFor(troll.token, second);
    for (const x of [O, T1, T2]) await x.client.connect();
    await until(() => O.client.state?.allUsers.length === 2, "the troll in the room");
    await until(async () => {
      const rows = await t.db
        .select()
        .from(schema.roomPresence)
        .where(eq(schema.roomPresence.userUuid, troll.user.uuid));
      return rows.length === 2;
    }, "the troll's presence in both rooms reported");
    await T1.client.sendChatMessage({ message: "spam" });

    const kicked = [T1, T2].map((x) => new Promise<string>((r) => x.client.on("kicked", r)));
    const closed = [T1, T2].map(
      (x) =>
        new Promise<number>((r) =>
          x.client.on("disconnected", ({ code }) => {
            r(code);
          }),
        ),
    );
    const ban = await t.request("POST", "/api/user-service/users/ban", {
      token: admin.token,
      body: { userUuid: troll.user.uuid, reason: "spam" },
    });
    expect(ban.status, JSON.stringify(ban.body)).toBe(201);
    expect(await within(Promise.all(kicked), "kickedFromRoom in both rooms")).toEqual([
      "Your account was banned.",
      "Your account was banned.",
    ]);
    expect(await within(Promise.all(closed), "both sockets closed")).toEqual([4003, 4003]);
    await until(() => O.client.state?.allUsers.length === 1, "the troll gone from the room");

    // A socket opened afterwards (its token is still well signed) gets in nowhere and can do nothing.
    const raw = new WebSocket(`${party.url.replace("http", "ws")}/parties/main/${first}?token=${troll.token}`);
    // biome-ignore lint/suspicious/noExplicitAny: the replies as they come.
    const replies: any[] = [];
    raw.on("message", (d) => replies.push(JSON.parse(String(d))));
    await new Promise((r) => raw.once("open", r));
    raw.send(JSON.stringify({ action: "joinRoom", params: { roomUuid: first }, requestId: "join" }));
    raw.send(JSON.stringify({ action: "sendChatMessage", params: { message: "still here" }, requestId: "chat" }));
    await until(() => replies.length === 2, "both answers");
    expect(replies.find((m) => m.requestId === "join")).toMatchObject({ ok: false, statusCode: 401 });
    expect(replies.find((m) => m.requestId === "chat")).toMatchObject({ ok: false, statusCode: 403 });
    raw.close();
    const retry = clientFor(troll.token, first);
    await expect(retry.client.connect()).rejects.toMatchObject({ statusCode: 401 });
    expect(O.client.chatMessages.map((m) => m.message)).not.toContain("still here");
    O.client.close();
  }, 60_000);
});
