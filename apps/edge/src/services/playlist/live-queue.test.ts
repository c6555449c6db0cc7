// A change to a user's queue crate reaches the live rooms they are in at once (`queueChanged`), so a DJ who sat with
// an empty queue and then queues a song is heard: each room they are present in is told, and only those rooms.
import { schema } from "@booth/db";
import { describe, expect, it } from "vitest";
import { shortId } from "../../lib/ids.ts";
import {
  createTestAppWithRoomsDown,
  ok,
  openTestApp,
  presentInTwoRooms,
  publicRoom,
  reportPresent,
  type TestApp,
} from "../../testing.ts";

const t = openTestApp();

const L = "/api/playlist-service";

async function song(app: TestApp, name: string) {
  const [row] = await app.db
    .insert(schema.songs)
    .values({ shortId: shortId(), trackName: name, artistName: "Test Artist", duration: 180 })
    .returning();
  return row!;
}

const queueEventsSince = (from: number) => t.live.events.slice(from).filter((e) => e.event.type === "queueChanged");

describe("a queue changed over REST", () => {
  it("tells every room the user is in, and no other, for each kind of change", async () => {
    const dj = await t.createUser();
    const { a, b } = await presentInTwoRooms(t, dj);
    const [x, y] = [await song(t, "X"), await song(t, "Y")];
    const queue = `${L}/crate/special/queue`;
    const told = { type: "queueChanged", userUuid: dj.user.uuid };

    let from = t.live.events.length;
    const added = await t
      .api(dj.token)
      .playlist.POST("/crate/special/queue/songs", { body: { songIds: [x.id, y.id] } });
    expect(added.response.status).toBe(201);
    expect(
      queueEventsSince(from)
        .map((e) => e.roomUuid)
        .sort(),
    ).toEqual([a, b].sort());
    for (const e of queueEventsSince(from)) expect(e.event).toEqual(told);

    const [first, second] = ok(added) as { crateSongUuid: string }[];
    const changes: [string, string, unknown][] = [
      ["PUT", `${queue}/songs/${second?.crateSongUuid}/position`, { position: 0 }],
      ["PUT", `${queue}/current-position`, { position: 1 }],
      ["POST", `${queue}/songs/shuffle`, undefined],
      ["DELETE", `${queue}/songs/${first?.crateSongUuid}`, undefined],
      ["DELETE", `${queue}/songs`, undefined],
    ];
    for (const [method, path, body] of changes) {
      from = t.live.events.length;
      const res = await t.request(method, path, { token: dj.token, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      expect(queueEventsSince(from).length, `${method} ${path}`).toBe(2);
    }

    // The queue named by its id is the same queue.
    const queueId = ok(await t.api(dj.token).playlist.GET("/crate/special/queue")).crateUuid as string;
    from = t.live.events.length;
    expect(
      (
        await t
          .api(dj.token)
          .playlist.POST("/crate/{id}/songs", { params: { path: { id: queueId } }, body: { songId: x.id } })
      ).response.status,
    ).toBe(201);
    expect(queueEventsSince(from)).toHaveLength(2);
  });

  it("tells no room of a change to a playlist, or of a refused change to the queue", async () => {
    const owner = await t.createUser();
    const dj = await t.createUser();
    const room = await publicRoom(t, owner, "Quiet");
    await reportPresent(t, dj.user.uuid, room);
    const x = await song(t, "Z");
    const crate = ok(await t.api(dj.token).playlist.POST("/crate", { body: { name: "Mine" } }));
    const from = t.live.events.length;
    expect(
      (
        await t
          .api(dj.token)
          .playlist.POST("/crate/{id}/songs", { params: { path: { id: crate.crateUuid } }, body: { songId: x.id } })
      ).response.status,
    ).toBe(201);
    expect(queueEventsSince(from)).toEqual([]);
    await t.api(dj.token).playlist.POST("/crate/special/queue/songs", { body: { songId: x.id } });
    const before = t.live.events.length;
    // The same song again: 409, nothing changed, nothing told.
    const again = await t.api(dj.token).playlist.POST("/crate/special/queue/songs", { body: { songId: x.id } });
    expect(again.response.status).toBe(409);
    expect(queueEventsSince(before)).toEqual([]);
  });
});

describe("a room that cannot be told", () => {
  it("does not fail the change: the song is queued, answered 201, and the failure logged", async () => {
    const { app: other, logged } = await createTestAppWithRoomsDown();
    try {
      const owner = await other.createUser();
      const dj = await other.createUser();
      const room = await publicRoom(other, owner, "Down");
      await reportPresent(other, dj.user.uuid, room);
      const x = await song(other, "Down");
      const res = await other.api(dj.token).playlist.POST("/crate/special/queue/songs", { body: { songId: x.id } });
      expect(res.response.status).toBe(201);
      const queued = await other.api(dj.token).playlist.GET("/crate/special/queue/songs");
      expect(queued.data?.map((s: { trackName: string }) => s.trackName)).toEqual(["Down"]);
      expect(logged).toContainEqual(
        expect.objectContaining({ level: "warn", roomUuid: room, error: "Error: the party is down" }),
      );
    } finally {
      await other.close();
    }
  });
});
