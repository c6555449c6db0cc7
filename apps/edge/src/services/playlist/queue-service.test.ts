import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { shortId } from "../../lib/ids.ts";
import { ok, openTestApp, statusOf } from "../../testing.ts";
import { SONG_NOT_FOUND, SONG_NOT_READY } from "./queue.ts";

const t = openTestApp();
let service: string;
beforeAll(async () => {
  service = await t.serviceToken();
});

const L = "/api/playlist-service";

async function song(name: string) {
  const [row] = await t.db
    .insert(schema.songs)
    .values({ shortId: shortId(), trackName: name, artistName: "Queue Artist", duration: 120 })
    .returning();
  return row!;
}
/** The next songs of the user's queue, as the live room reads them (with the service token unless another is given). */
const upcoming = (userUuid: string, token: string | null = service, limit?: number) =>
  t.api(token).playlist.GET("/crate/service/user/{userUuid}/queue/upcoming", {
    params: { path: { userUuid }, ...(limit === undefined ? {} : { query: { limit } }) },
  });
/** A song starred for the user, as the live room reports it (with the service token unless another is given). */
const star = (userUuid: string, songId: string, token = service) =>
  t
    .api(token)
    .playlist.POST("/crate/service/user/{userUuid}/likes/songs", { params: { path: { userUuid } }, body: { songId } });
const names = (songs: { trackName: string }[]) => songs.map((s) => s.trackName);

describe("the live room's view of a DJ's crates", () => {
  it("answers the next songs of the queue and moves past each played song, wrapping around", async () => {
    const { user, token } = await t.createUser();
    const base = `${L}/crate/service/user/${user.uuid}/queue`;
    expect((await upcoming(user.uuid)).data).toEqual({ songs: [] });
    const [a, b, c] = await Promise.all(["A", "B", "C"].map(song));
    await t.api(token).playlist.POST("/crate/special/queue/songs", { body: { songIds: [a!.id, b!.id, c!.id] } });
    const first = await upcoming(user.uuid);
    expect(first.response.status).toBe(200);
    expect(names(ok(first).songs)).toEqual(["A", "B"]);
    let next = await t.request("POST", `${base}/advance`, {
      token: service,
      body: { crateSongUuid: ok(first).songs[0]!.crateSongUuid },
    });
    expect(names(next.body.songs)).toEqual(["B", "C"]);
    const crateSongC = next.body.songs[1].crateSongUuid;
    next = await t.request("POST", `${base}/advance`, { token: service, body: { crateSongUuid: crateSongC } });
    expect(names(next.body.songs)).toEqual(["A", "B"]);
    // A song that is not in the queue moves nothing.
    next = await t.request("POST", `${base}/advance`, { token: service, body: { crateSongUuid: crypto.randomUUID() } });
    expect(names(next.body.songs)).toEqual(["A", "B"]);
    const own = await t.api(token).playlist.GET("/crate/special/queue");
    expect(own.data?.currentPosition).toBe(0);
  });

  it("adds a starred song to the likes crate once", async () => {
    const { user, token } = await t.createUser();
    const s = await song("Starred");
    const added = await star(user.uuid, s.id);
    expect(added.response.status).toBe(201);
    expect(added.data).toMatchObject({ song: { trackName: "Starred" } });
    const again = await star(user.uuid, s.id);
    expect(again.response.status).toBe(200);
    expect(again.data?.added).toBe(false);
    const likes = await t.api(token).playlist.GET("/crate/special/likes/songs");
    expect(names(ok(likes))).toEqual(["Starred"]);
  });

  it("is for services only, and refuses bad input", async () => {
    const { user, token } = await t.createUser();
    expect(await statusOf(upcoming(user.uuid, null))).toBe(401);
    expect(await statusOf(upcoming(user.uuid, token))).toBe(403);
    expect(await statusOf(star(user.uuid, crypto.randomUUID(), token))).toBe(403);
    const advance = { params: { path: { userUuid: user.uuid } }, body: { crateSongUuid: "x" } };
    expect(await statusOf(t.api(service).playlist.POST("/crate/service/user/{userUuid}/queue/advance", advance))).toBe(
      400,
    );
    expect(await statusOf(upcoming(user.uuid, service, 0))).toBe(400);
    expect(await statusOf(star(user.uuid, crypto.randomUUID()))).toBe(404);
    expect(await statusOf(upcoming(crypto.randomUUID()))).toBe(404);
  });

  describe("a song a DJ names", () => {
    const url = (userUuid: string, songId: string) => `${L}/crate/service/user/${userUuid}/songs/${songId}`;

    it("answers the catalogue's song, in the queue's shape, whatever the DJ claimed about it", async () => {
      const { user, token } = await t.createUser();
      const [row] = await t.db
        .insert(schema.songs)
        .values({
          shortId: shortId(),
          trackName: "Named",
          artistName: "Catalogue Artist",
          duration: 187,
          streamUrls: { hls: "/api/upload-service/songs/x/hls-playlist" },
          previews: { spotify: "https://p.scdn.co/mp3-preview/x" },
        })
        .returning();
      await t.api(token).playlist.POST("/crate/special/queue/songs", { body: { songIds: [row!.id] } });
      const queued = ok(await upcoming(user.uuid)).songs[0];
      const named = await t.request("GET", url(user.uuid, row!.id), {
        token: service,
        query: { crateSongUuid: queued!.crateSongUuid },
      });
      expect(named.status).toBe(200);
      // Exactly what the queue gives for the same crate entry: the room cannot tell the two paths apart.
      expect(named.body).toEqual(queued);
      expect(named.body).toMatchObject({
        duration: 187,
        streamUrls: { hls: "/api/upload-service/songs/x/hls-playlist" },
        previews: { spotify: "https://p.scdn.co/mp3-preview/x" },
      });
      const bare = await t.request("GET", url(user.uuid, row!.id), { token: service });
      expect(bare.status).toBe(200);
      expect(bare.body.crateSongUuid).toBeUndefined();
      expect(bare.body.trackName).toBe("Named");
    });

    it("drops a crate entry that is not the DJ's own, or not that song", async () => {
      const dj = await t.createUser();
      const other = await t.createUser();
      const [a, b] = await Promise.all(["Theirs", "Mine"].map(song));
      await t.api(other.token).playlist.POST("/crate/special/queue/songs", { body: { songIds: [a!.id] } });
      await t.api(dj.token).playlist.POST("/crate/special/queue/songs", { body: { songIds: [b!.id] } });
      const theirs = ok(await upcoming(other.user.uuid)).songs[0]!.crateSongUuid;
      const mine = ok(await upcoming(dj.user.uuid)).songs[0]!.crateSongUuid;
      const stolen = await t.request("GET", url(dj.user.uuid, a!.id), {
        token: service,
        query: { crateSongUuid: theirs },
      });
      expect(stolen.status).toBe(200);
      expect(stolen.body.songId).toBe(a!.id);
      expect(stolen.body.crateSongUuid).toBeUndefined();
      expect(stolen.body.position).toBeUndefined();
      // Their own entry, but for another song than the one named.
      const mismatched = await t.request("GET", url(dj.user.uuid, a!.id), {
        token: service,
        query: { crateSongUuid: mine },
      });
      expect(mismatched.body.crateSongUuid).toBeUndefined();
    });

    it("answers 404 for a song that does not exist or cannot be heard yet", async () => {
      const { user } = await t.createUser();
      const stranger = await t.createUser();
      expect(await t.request("GET", url(user.uuid, crypto.randomUUID()), { token: service })).toMatchObject({
        status: 404,
        body: { message: SONG_NOT_FOUND },
      });
      // An upload is in the catalogue once verified, but nobody hears it until its transcoding succeeds.
      const pending = await song("Still transcoding");
      const [upload] = await t.db
        .insert(schema.songUploads)
        .values({
          ownerUuid: user.uuid,
          originalName: "x.mp3",
          status: "VERIFIED",
          transcodingStatus: "TRANSCODING_IN_PROGRESS",
          songId: pending.id,
        })
        .returning();
      expect(await t.request("GET", url(user.uuid, pending.id), { token: service })).toMatchObject({
        status: 404,
        body: { message: SONG_NOT_READY },
      });
      // Someone else's unfinished upload: not even its existence.
      expect(await t.request("GET", url(stranger.user.uuid, pending.id), { token: service })).toMatchObject({
        status: 404,
        body: { message: SONG_NOT_FOUND },
      });
      await t.db
        .update(schema.songUploads)
        .set({ transcodingStatus: "TRANSCODING_SUCCEED" })
        .where(eq(schema.songUploads.id, upload!.id));
      expect((await t.request("GET", url(stranger.user.uuid, pending.id), { token: service })).status).toBe(200);
      expect((await t.request("GET", url(crypto.randomUUID(), pending.id), { token: service })).status).toBe(404);
      expect((await t.request("GET", url(user.uuid, "not-a-uuid"), { token: service })).status).toBe(400);
    });

    it("is for the room's service token only", async () => {
      const { user, token } = await t.createUser();
      const admin = await t.createUser({ roles: ["user", "admin"] });
      const s = await song("Guarded");
      expect((await t.request("GET", url(user.uuid, s.id))).status).toBe(401);
      expect((await t.request("GET", url(user.uuid, s.id), { token })).status).toBe(403);
      expect((await t.request("GET", url(user.uuid, s.id), { token: admin.token })).status).toBe(403);
      expect((await t.request("GET", url(user.uuid, s.id), { token: service })).status).toBe(200);
    });
  });
});

const grabInto = (as: string, userUuid: string, crate: string, songId: string) =>
  t.api(as).playlist.POST("/crate/service/user/{userUuid}/crates/{crate}/songs", {
    params: { path: { userUuid, crate } },
    body: { songId },
  });

describe("a grab (the live room adding the song playing to a listener's crate)", () => {
  it("adds the song to a crate of theirs or their queue, once, and answers 200 when it is there already", async () => {
    const { user, token } = await t.createUser();
    const crate = ok(await t.api(token).playlist.POST("/crate", { body: { name: "Grabbed" } }));
    const s = await song("Grab me");
    const added = await grabInto(service, user.uuid, crate.crateUuid, s.id);
    expect(added.response.status).toBe(201);
    expect(added.data).toMatchObject({ added: true, song: { trackName: "Grab me" } });
    const again = await grabInto(service, user.uuid, crate.crateUuid, s.id);
    expect(again.response.status).toBe(200);
    expect(again.data).toMatchObject({ added: false });
    expect((await grabInto(service, user.uuid, "queue", s.id)).response.status).toBe(201);
    const songs = ok(
      await t.api(token).playlist.GET("/crate/{id}/songs", { params: { path: { id: crate.crateUuid } } }),
    );
    expect(songs.map((x) => x.trackName)).toEqual(["Grab me"]);
  });

  it("never into another's crate, and only for services", async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    const crate = ok(await t.api(owner.token).playlist.POST("/crate", { body: { name: "Not yours" } }));
    const s = await song("Keep out");
    expect((await grabInto(service, other.user.uuid, crate.crateUuid, s.id)).response.status).toBe(403);
    expect((await grabInto(service, other.user.uuid, crypto.randomUUID(), s.id)).response.status).toBe(404);
    expect((await grabInto(owner.token, owner.user.uuid, crate.crateUuid, s.id)).response.status).toBe(403);
    expect((await grabInto("", owner.user.uuid, crate.crateUuid, s.id)).response.status).toBe(401);
    const bad = await t.request(
      "POST",
      `/api/playlist-service/crate/service/user/${owner.user.uuid}/crates/mine/songs`,
      {
        token: service,
        body: { songId: s.id },
      },
    );
    expect(bad.status).toBe(400);
    const empty = ok(
      await t.api(owner.token).playlist.GET("/crate/{id}/songs", { params: { path: { id: crate.crateUuid } } }),
    );
    expect(empty).toEqual([]);
  });
});
