import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { shortId } from "../../lib/ids.ts";
import { expectRefusal, ok, openTestApp, statusOf } from "../../testing.ts";
import { crateSongs } from "./crates.ts";

const t = openTestApp();

const L = "/api/playlist-service";

async function song(name: string, extra: Partial<typeof schema.songs.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(schema.songs)
    .values({ shortId: shortId(), trackName: name, artistName: "Test Artist", duration: 180, ...extra })
    .returning();
  return row!;
}
/** Adds songs to the crate `id` as the caller `token` (the body names them: `songId`, `songIds`, `position`). */
const addToCrate = (token: string, id: string, body: { songId?: string; songIds?: string[]; position?: number }) =>
  t.api(token).playlist.POST("/crate/{id}/songs", { params: { path: { id } }, body });
/** The request options that name the crate `id`. */
const crateAt = (id: string) => ({ params: { path: { id } } });
const names = (body: { trackName: string }[]) => body.map((s) => s.trackName);
const positions = (body: { position: number }[]) => body.map((s) => s.position);

describe("crates", () => {
  it("numbers unnamed crates with the first unused number", async () => {
    const { token } = await t.createUser();
    const a = await t.api(token).playlist.POST("/crate", { body: {} });
    const b = await t.api(token).playlist.POST("/crate", { body: {} });
    expect([a.data?.crateName, b.data?.crateName]).toEqual(["New Playlist #1", "New Playlist #2"]);
    await t.api(token).playlist.DELETE("/crate/{id}", { params: { path: { id: ok(a).crateUuid } } });
    expect((await t.api(token).playlist.POST("/crate", { body: {} })).data?.crateName).toBe("New Playlist #1");
    const named = await t.api(token).playlist.POST("/crate", { body: { name: "Disco", description: "for Fridays" } });
    expect(named.data).toMatchObject({
      crateName: "Disco",
      description: "for Fridays",
      crateSongsNumber: 0,
      kind: "default",
    });
    const list = await t.api(token).playlist.GET("/crate/user");
    expect(list.data?.total).toBe(3);
  });

  it("adds, inserts, moves, removes and shuffles with dense positions", async () => {
    const { token } = await t.createUser();
    const crate = ok(await t.api(token).playlist.POST("/crate", { body: { name: "Order" } }));
    const [a, b, c, d] = await Promise.all(["A", "B", "C", "D"].map((n) => song(n)));
    const at = crateAt(crate.crateUuid);
    expect(await statusOf(addToCrate(token, crate.crateUuid, { songIds: [a!.id, b!.id] }))).toBe(201);
    await addToCrate(token, crate.crateUuid, { songId: c!.id, position: 0 });
    await addToCrate(token, crate.crateUuid, { songId: d!.id });
    let songs = ok(await t.api(token).playlist.GET("/crate/{id}/songs", at));
    expect(names(songs)).toEqual(["C", "A", "B", "D"]);
    expect(positions(songs)).toEqual([0, 1, 2, 3]);

    const moved = await t.api(token).playlist.PUT("/crate/{id}/songs/{crateSongUuid}/position", {
      params: { path: { id: crate.crateUuid, crateSongUuid: songs[0]!.crateSongUuid } },
      body: { position: 3 },
    });
    expect(names(ok(moved))).toEqual(["A", "B", "D", "C"]);
    const back = await t.api(token).playlist.PUT("/crate/{id}/songs/{crateSongUuid}/position", {
      params: { path: { id: crate.crateUuid, crateSongUuid: ok(moved)[3]!.crateSongUuid } },
      body: { position: 99 },
    });
    expect(names(ok(back))).toEqual(["A", "B", "D", "C"]);
    const second = { params: { path: { id: crate.crateUuid, crateSongUuid: ok(back)[1]!.crateSongUuid } } };
    expect(await statusOf(t.api(token).playlist.DELETE("/crate/{id}/songs/{crateSongUuid}", second))).toBe(204);
    songs = ok(await t.api(token).playlist.GET("/crate/{id}/songs", at));
    expect(names(songs)).toEqual(["A", "D", "C"]);
    expect(positions(songs)).toEqual([0, 1, 2]);

    const shuffled = await t.api(token).playlist.POST("/crate/{id}/songs/shuffle", at);
    expect(names(ok(shuffled)).sort()).toEqual(["A", "C", "D"]);
    expect(positions(ok(shuffled))).toEqual([0, 1, 2]);
    expect((await t.api(token).playlist.GET("/crate/{id}", at)).data?.crateSongsNumber).toBe(3);
  });

  it("keeps positions dense and unique under concurrent adds and moves", async () => {
    const { token } = await t.createUser();
    const crate = ok(await t.api(token).playlist.POST("/crate", { body: {} }));
    const url = `${L}/crate/${crate.crateUuid}/songs`;
    const many = await Promise.all(Array.from({ length: 12 }, (_, i) => song(`S${i}`)));
    await Promise.all(many.map((s, i) => t.request("POST", url, { token, body: { songId: s.id, position: i % 3 } })));
    const listed = ok(await t.api(token).playlist.GET("/crate/{id}/songs", crateAt(crate.crateUuid)));
    await Promise.all(
      listed
        .slice(0, 6)
        .map((s: { crateSongUuid: string }, i: number) =>
          t.request("PUT", `${url}/${s.crateSongUuid}/position`, { token, body: { position: 11 - i } }),
        ),
    );
    const rows = await t.db.select().from(schema.crateSongs).where(eq(schema.crateSongs.crateId, crate.crateUuid));
    expect(rows.map((r) => r.position).sort((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it("refuses the same song twice by id, ISRC or a shared provider id", async () => {
    const { token } = await t.createUser();
    const crate = ok(await t.api(token).playlist.POST("/crate", { body: {} }));
    const original = await song("Original", { isrc: "USRC17607839", musicProviders: { spotify: "sp1" } });
    const sameIsrc = await song("Remaster", { isrc: "USRC17607839" });
    const sameProvider = await song("Other upload", { musicProviders: { spotify: "sp1" } });
    await addToCrate(token, crate.crateUuid, { songId: original.id });
    for (const s of [original, sameIsrc, sameProvider]) {
      const res = await addToCrate(token, crate.crateUuid, { songId: s.id });
      expectRefusal(res, 409, "This song is already in the crate.");
    }
    expect(await statusOf(addToCrate(token, crate.crateUuid, { songId: crypto.randomUUID() }))).toBe(404);
    expect(await statusOf(addToCrate(token, crate.crateUuid, {}))).toBe(400);
  });

  it("renames, copies and deletes; others may read but never change a playlist", async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    const crate = ok(await t.api(owner.token).playlist.POST("/crate", { body: { name: "Mine" } }));
    const at = crateAt(crate.crateUuid);
    await addToCrate(owner.token, crate.crateUuid, { songId: (await song("X")).id });
    const rename = (token: string, id: string, name: string) =>
      t.api(token).playlist.PATCH("/crate/{id}", { ...crateAt(id), body: { name } });
    const renamed = await rename(owner.token, crate.crateUuid, "Ours");
    expect(renamed.data?.crateName).toBe("Ours");
    const asOther = t.api(other.token).playlist;
    expect(await statusOf(asOther.GET("/crate/{id}/songs", at))).toBe(200);
    expect(await statusOf(rename(other.token, crate.crateUuid, "Theirs"))).toBe(403);
    expect(await statusOf(asOther.POST("/crate/{id}/songs/shuffle", at))).toBe(403);
    expect(await statusOf(asOther.DELETE("/crate/{id}", at))).toBe(403);
    const copy = await asOther.PUT("/crate/{id}/copy", at);
    expect(copy.response.status).toBe(201);
    expect(copy.data).toMatchObject({ crateName: "Ours (copy)", userUuid: other.user.uuid, crateSongsNumber: 1 });
    const ofOwner = { params: { path: { userUuid: owner.user.uuid } } };
    expect((await asOther.GET("/crate/user/{userUuid}", ofOwner)).data?.total).toBe(1);
    expect(await statusOf(t.api(owner.token).playlist.DELETE("/crate/{id}", at))).toBe(204);
    expect(await statusOf(t.api(owner.token).playlist.GET("/crate/{id}", at))).toBe(404);
    expect(await statusOf(t.api().playlist.GET("/crate/{id}", at))).toBe(401);
    expect(await statusOf(rename(other.token, ok(copy).crateUuid, ""))).toBe(400);
  });
});

describe("crate songs written as JSON by the database", () => {
  it("answers what the row-by-row view answers, field for field, page by page", async () => {
    const { token } = await t.createUser();
    const [album] = await t.db.insert(schema.albums).values({ shortId: shortId(), title: "Night Drive" }).returning();
    const full = await song('Full "quoted" ünïcode', {
      albumId: album!.id,
      genre: "house",
      explicit: true,
      isrc: "USRC17607839",
      musicProviders: { spotify: "sp1", youtube: "yt1" },
      thumbnails: { small: "https://img/1.jpg" },
      links: { spotify: "https://open.spotify.com/track/sp1" },
      previews: { spotify: "https://p/1.mp3" },
      streamUrls: { hls: "https://s/1.m3u8" },
      description: "line one\nline two",
      isGenerated: true,
      releaseYear: 1999,
    });
    const bare = await song("Bare");
    const third = await song("Third");
    const crate = (await t.request("POST", `${L}/crate`, { token, body: {} })).body.crateUuid;
    await t.request("POST", `${L}/crate/${crate}/songs`, { token, body: { songIds: [full.id, bare.id, third.id] } });
    const whole = await t.request("GET", `${L}/crate/${crate}/songs`, { token });
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toMatch(/^application\/json/);
    const rows = await crateSongs(t.db, crate);
    expect(whole.body).toEqual(rows);
    expect(whole.body[0]).toMatchObject({ album: "Night Drive", musicProviders: { spotify: "sp1", youtube: "yt1" } });
    const page = await t.request("GET", `${L}/crate/${crate}/songs`, { token, query: { limit: 1, offset: 1 } });
    expect(page.body).toEqual(rows.slice(1, 2));
    const past = await t.request("GET", `${L}/crate/${crate}/songs`, { token, query: { offset: 10 } });
    expect(past.body).toEqual([]);
  });
});

describe("queue and likes", () => {
  it("each user has one private queue and one likes crate with the same operations plus clear", async () => {
    const { token, user } = await t.createUser();
    const other = await t.createUser();
    const queue = await t.api(token).playlist.GET("/crate/special/queue");
    expect(queue.data).toMatchObject({ kind: "queue", crateSongsNumber: 0, userUuid: user.uuid });
    expect((await t.api(token).playlist.GET("/crate/special/queue")).data?.crateUuid).toBe(ok(queue).crateUuid);
    const [x, y] = [await song("Q1"), await song("Q2")];
    await t.api(token).playlist.POST("/crate/special/queue/songs", { body: { songIds: [x.id, y.id] } });
    const current = await t.api(token).playlist.PUT("/crate/special/queue/current-position", { body: { position: 1 } });
    expect(current.data?.currentPosition).toBe(1);
    const pastTheEnd = { body: { position: 5 } };
    expect(await statusOf(t.api(token).playlist.PUT("/crate/special/queue/current-position", pastTheEnd))).toBe(400);
    const theQueue = crateAt(ok(queue).crateUuid);
    expect(await statusOf(t.api(other.token).playlist.GET("/crate/{id}/songs", theQueue))).toBe(403);
    expect(await statusOf(t.api(token).playlist.DELETE("/crate/{id}", theQueue))).toBe(403);
    expect((await t.api(token).playlist.DELETE("/crate/special/queue/songs")).response.status).toBe(204);
    expect((await t.api(token).playlist.GET("/crate/special/queue/songs")).data).toEqual([]);

    await t.api(token).playlist.POST("/crate/special/likes/songs", { body: { songId: x.id } });
    expect(names(ok(await t.api(token).playlist.GET("/crate/special/likes/songs")))).toEqual(["Q1"]);
    expect((await t.api(token).playlist.GET("/crate/user")).data?.total).toBe(0);
    expect((await t.api().playlist.GET("/crate/special/likes")).response.status).toBe(401);
  });

  it("services read any user's crates, the special ones included", async () => {
    const { token, user } = await t.createUser();
    await t.api(token).playlist.GET("/crate/special/queue");
    const service = await t.serviceToken();
    const ofUser = { params: { path: { userUuid: user.uuid } } };
    const all = await t.api(service).playlist.GET("/crate/user/service/{userUuid}", ofUser);
    expect(all.data?.data.map((c) => c.kind)).toEqual(["queue"]);
    const shortId = ok(all).data[0]!.crateShortId;
    const byShortId = { params: { path: { crateShortId: shortId } } };
    expect((await t.api(service).playlist.GET("/crate/service/{crateShortId}/songs", byShortId)).data).toEqual([]);
    expect((await t.api(service).playlist.GET("/crate/service/all-crates")).data?.total).toBeGreaterThan(0);
    expect((await t.api(token).playlist.GET("/crate/service/all-crates")).response.status).toBe(403);
    expect(await statusOf(t.api(token).playlist.GET("/crate/user/service/{userUuid}", ofUser))).toBe(403);
  });
});
