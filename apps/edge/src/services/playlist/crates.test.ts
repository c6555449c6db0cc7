import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shortId } from "../../lib/ids.ts";
import { createTestApp, type TestApp } from "../../testing.ts";
import { crateSongs } from "./crates.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const L = "/api/playlist-service";

async function song(name: string, extra: Partial<typeof schema.songs.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(schema.songs)
    .values({ shortId: shortId(), trackName: name, artistName: "Test Artist", duration: 180, ...extra })
    .returning();
  return row!;
}
const names = (body: { trackName: string }[]) => body.map((s) => s.trackName);
const positions = (body: { position: number }[]) => body.map((s) => s.position);

describe("crates", () => {
  it("numbers unnamed crates with the first unused number", async () => {
    const { token } = await t.createUser();
    const a = await t.request("POST", `${L}/crate`, { token, body: {} });
    const b = await t.request("POST", `${L}/crate`, { token, body: {} });
    expect([a.body.crateName, b.body.crateName]).toEqual(["New Playlist #1", "New Playlist #2"]);
    await t.request("DELETE", `${L}/crate/${a.body.crateUuid}`, { token });
    expect((await t.request("POST", `${L}/crate`, { token, body: {} })).body.crateName).toBe("New Playlist #1");
    const named = await t.request("POST", `${L}/crate`, { token, body: { name: "Disco", description: "for Fridays" } });
    expect(named.body).toMatchObject({
      crateName: "Disco",
      description: "for Fridays",
      crateSongsNumber: 0,
      kind: "default",
    });
    const list = await t.request("GET", `${L}/crate/user`, { token });
    expect(list.body.total).toBe(3);
  });

  it("adds, inserts, moves, removes and shuffles with dense positions", async () => {
    const { token } = await t.createUser();
    const crate = (await t.request("POST", `${L}/crate`, { token, body: { name: "Order" } })).body;
    const [a, b, c, d] = await Promise.all(["A", "B", "C", "D"].map((n) => song(n)));
    const url = `${L}/crate/${crate.crateUuid}/songs`;
    expect((await t.request("POST", url, { token, body: { songIds: [a!.id, b!.id] } })).status).toBe(201);
    await t.request("POST", url, { token, body: { songId: c!.id, position: 0 } });
    await t.request("POST", url, { token, body: { songId: d!.id } });
    let songs = (await t.request("GET", url, { token })).body;
    expect(names(songs)).toEqual(["C", "A", "B", "D"]);
    expect(positions(songs)).toEqual([0, 1, 2, 3]);

    const moved = await t.request("PUT", `${url}/${songs[0].crateSongUuid}/position`, { token, body: { position: 3 } });
    expect(names(moved.body)).toEqual(["A", "B", "D", "C"]);
    const back = await t.request("PUT", `${url}/${moved.body[3].crateSongUuid}/position`, {
      token,
      body: { position: 99 },
    });
    expect(names(back.body)).toEqual(["A", "B", "D", "C"]);
    expect((await t.request("DELETE", `${url}/${back.body[1].crateSongUuid}`, { token })).status).toBe(204);
    songs = (await t.request("GET", url, { token })).body;
    expect(names(songs)).toEqual(["A", "D", "C"]);
    expect(positions(songs)).toEqual([0, 1, 2]);

    const shuffled = await t.request("POST", `${url}/shuffle`, { token });
    expect(names(shuffled.body).sort()).toEqual(["A", "C", "D"]);
    expect(positions(shuffled.body)).toEqual([0, 1, 2]);
    expect((await t.request("GET", `${L}/crate/${crate.crateUuid}`, { token })).body.crateSongsNumber).toBe(3);
  });

  it("keeps positions dense and unique under concurrent adds and moves", async () => {
    const { token } = await t.createUser();
    const crate = (await t.request("POST", `${L}/crate`, { token, body: {} })).body;
    const url = `${L}/crate/${crate.crateUuid}/songs`;
    const many = await Promise.all(Array.from({ length: 12 }, (_, i) => song(`S${i}`)));
    await Promise.all(many.map((s, i) => t.request("POST", url, { token, body: { songId: s.id, position: i % 3 } })));
    const listed = (await t.request("GET", url, { token })).body;
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
    const crate = (await t.request("POST", `${L}/crate`, { token, body: {} })).body;
    const url = `${L}/crate/${crate.crateUuid}/songs`;
    const original = await song("Original", { isrc: "USRC17607839", musicProviders: { spotify: "sp1" } });
    const sameIsrc = await song("Remaster", { isrc: "USRC17607839" });
    const sameProvider = await song("Other upload", { musicProviders: { spotify: "sp1" } });
    await t.request("POST", url, { token, body: { songId: original.id } });
    for (const s of [original, sameIsrc, sameProvider]) {
      const res = await t.request("POST", url, { token, body: { songId: s.id } });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe("This song is already in the crate.");
    }
    expect((await t.request("POST", url, { token, body: { songId: crypto.randomUUID() } })).status).toBe(404);
    expect((await t.request("POST", url, { token, body: {} })).status).toBe(400);
  });

  it("renames, copies and deletes; others may read but never change a playlist", async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    const crate = (await t.request("POST", `${L}/crate`, { token: owner.token, body: { name: "Mine" } })).body;
    await t.request("POST", `${L}/crate/${crate.crateUuid}/songs`, {
      token: owner.token,
      body: { songId: (await song("X")).id },
    });
    const renamed = await t.request("PATCH", `${L}/crate/${crate.crateUuid}`, {
      token: owner.token,
      body: { name: "Ours" },
    });
    expect(renamed.body.crateName).toBe("Ours");
    expect((await t.request("GET", `${L}/crate/${crate.crateUuid}/songs`, { token: other.token })).status).toBe(200);
    expect(
      (await t.request("PATCH", `${L}/crate/${crate.crateUuid}`, { token: other.token, body: { name: "Theirs" } }))
        .status,
    ).toBe(403);
    expect(
      (await t.request("POST", `${L}/crate/${crate.crateUuid}/songs/shuffle`, { token: other.token })).status,
    ).toBe(403);
    expect((await t.request("DELETE", `${L}/crate/${crate.crateUuid}`, { token: other.token })).status).toBe(403);
    const copy = await t.request("PUT", `${L}/crate/${crate.crateUuid}/copy`, { token: other.token });
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ crateName: "Ours (copy)", userUuid: other.user.uuid, crateSongsNumber: 1 });
    expect((await t.request("GET", `${L}/crate/user/${owner.user.uuid}`, { token: other.token })).body.total).toBe(1);
    expect((await t.request("DELETE", `${L}/crate/${crate.crateUuid}`, { token: owner.token })).status).toBe(204);
    expect((await t.request("GET", `${L}/crate/${crate.crateUuid}`, { token: owner.token })).status).toBe(404);
    expect((await t.request("GET", `${L}/crate/${crate.crateUuid}`)).status).toBe(401);
    expect(
      (await t.request("PATCH", `${L}/crate/${copy.body.crateUuid}`, { token: other.token, body: { name: "" } }))
        .status,
    ).toBe(400);
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
    const queue = await t.request("GET", `${L}/crate/special/queue`, { token });
    expect(queue.body).toMatchObject({ kind: "queue", crateSongsNumber: 0, userUuid: user.uuid });
    expect((await t.request("GET", `${L}/crate/special/queue`, { token })).body.crateUuid).toBe(queue.body.crateUuid);
    const [x, y] = [await song("Q1"), await song("Q2")];
    await t.request("POST", `${L}/crate/special/queue/songs`, { token, body: { songIds: [x.id, y.id] } });
    const current = await t.request("PUT", `${L}/crate/special/queue/current-position`, {
      token,
      body: { position: 1 },
    });
    expect(current.body.currentPosition).toBe(1);
    expect(
      (await t.request("PUT", `${L}/crate/special/queue/current-position`, { token, body: { position: 5 } })).status,
    ).toBe(400);
    expect((await t.request("GET", `${L}/crate/${queue.body.crateUuid}/songs`, { token: other.token })).status).toBe(
      403,
    );
    expect((await t.request("DELETE", `${L}/crate/${queue.body.crateUuid}`, { token })).status).toBe(403);
    expect((await t.request("DELETE", `${L}/crate/special/queue/songs`, { token })).status).toBe(204);
    expect((await t.request("GET", `${L}/crate/special/queue/songs`, { token })).body).toEqual([]);

    await t.request("POST", `${L}/crate/special/likes/songs`, { token, body: { songId: x.id } });
    expect(names((await t.request("GET", `${L}/crate/special/likes/songs`, { token })).body)).toEqual(["Q1"]);
    expect((await t.request("GET", `${L}/crate/user`, { token })).body.total).toBe(0);
    expect((await t.request("GET", `${L}/crate/special/likes`)).status).toBe(401);
  });

  it("services read any user's crates, the special ones included", async () => {
    const { token, user } = await t.createUser();
    await t.request("GET", `${L}/crate/special/queue`, { token });
    const service = await t.serviceToken();
    const all = await t.request("GET", `${L}/crate/user/service/${user.uuid}`, { token: service });
    expect(all.body.data.map((c: { kind: string }) => c.kind)).toEqual(["queue"]);
    const shortId = all.body.data[0].crateShortId;
    expect((await t.request("GET", `${L}/crate/service/${shortId}/songs`, { token: service })).body).toEqual([]);
    expect((await t.request("GET", `${L}/crate/service/all-crates`, { token: service })).body.total).toBeGreaterThan(0);
    expect((await t.request("GET", `${L}/crate/service/all-crates`, { token })).status).toBe(403);
    expect((await t.request("GET", `${L}/crate/user/service/${user.uuid}`, { token })).status).toBe(403);
  });
});
