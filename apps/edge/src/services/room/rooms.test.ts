import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { firstRow } from "../../lib/rows.ts";
import { expectRefusal, multipart, ok, openTestApp, reportPresent, statusOf } from "../../testing.ts";
import { publicRooms } from "./room-lists.ts";
import { favoritedSet, roomView } from "./rooms.ts";

const t = openTestApp();

const R = "/api/room-service";
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

async function createRoom(token: string, body: Record<string, unknown> = {}) {
  const res = await t
    .api(token)
    .room.POST("/rooms/infrastructure", { body: { name: `Room ${crypto.randomUUID().slice(0, 8)}`, ...body } });
  expect(res.response.status).toBe(201);
  return ok(res) as { uuid: string; slug: string; [k: string]: unknown };
}

/** A room of its owner's, with a co-owner the database names, and a stranger to it. */
async function roomWithCoOwner() {
  const { owner, coOwner, stranger } = await t.createUsers("owner", "coOwner", "stranger");
  const room = await createRoom(owner.token);
  await t.db.insert(schema.roomUserRoles).values({ roomUuid: room.uuid, userUuid: coOwner.user.uuid, role: "coOwner" });
  return { owner, coOwner, stranger, room };
}

describe("creating and changing rooms", () => {
  it("creates a room owned by the caller, with a slug from its name, never showing passwords", async () => {
    const owner = await t.createUser();
    const res = await t.api(owner.token).room.POST("/rooms/infrastructure", {
      body: { name: "Late Night Jazz!", password: "secret1", numberOfDjs: 3, design: "YACHT" },
    });
    expect(res.response.status).toBe(201);
    expect(res.data).toMatchObject({
      slug: "late-night-jazz",
      ownerUuid: owner.user.uuid,
      numberOfDjs: 3,
      design: "YACHT",
      isPasswordProtected: true,
      type: "PUBLIC",
    });
    expect(JSON.stringify(res.error ?? res.data)).not.toContain("secret1");
    expect(JSON.stringify(res.error ?? res.data)).not.toContain("passwordHash");
    const again = await t.api(owner.token).room.POST("/rooms/infrastructure", { body: { name: "Late Night Jazz" } });
    expect(again.data?.slug).toBe("late-night-jazz-2");
    const taken = await t
      .api(owner.token)
      .room.POST("/rooms/infrastructure", { body: { name: "x y", slug: "late-night-jazz" } });
    expectRefusal(taken, 400, "This room slug is already taken.");
    expect(
      (await t.api().room.GET("/rooms/{slug}", { params: { path: { slug: "late-night-jazz" } } })).data?.uuid,
    ).toBe(ok(res).uuid);
    expect(
      (await t.api().room.GET("/rooms/uuid/{uuid}", { params: { path: { uuid: ok(res).uuid } } })).data?.slug,
    ).toBe("late-night-jazz");
  });

  it("refuses bad input and callers without a token, creating nothing", async () => {
    const owner = await t.createUser();
    expect((await t.api().room.POST("/rooms/infrastructure", { body: { name: "No token" } })).response.status).toBe(
      401,
    );
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [
      {},
      { name: "" },
      { name: "ok name", numberOfDjs: 0 },
      { name: "ok name", numberOfDjs: 11 },
      { name: "ok name", type: "SECRET" },
      { name: "ok name", slug: "Bad Slug" },
      { name: "ok name", voteSkipThreshold: 1.5 },
      { name: "ok name", extra: true },
    ]) {
      const res = await t.request("POST", `${R}/rooms/infrastructure`, { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.api(owner.token).room.GET("/rooms/owned-rooms/list")).data).toEqual([]);
  });

  it("lets owners change everything, co-owners how it plays, and nobody else; the live room hears of it", async () => {
    const { owner, coOwner, stranger, room } = await roomWithCoOwner();
    const at = { params: { path: { id: room.uuid } } };

    const byStranger = await t.api(stranger.token).room.PATCH("/rooms/{id}", { ...at, body: { name: "Hijacked" } });
    expect(byStranger.response.status).toBe(403);
    const byCo = await t
      .api(coOwner.token)
      .room.PATCH("/rooms/{id}", { ...at, body: { name: "Renamed", voteSkipThreshold: 0.5 } });
    expect(byCo.response.status).toBe(200);
    expect(byCo.data).toMatchObject({ name: "Renamed", voteSkipThreshold: 0.5 });
    expect(t.live.events.at(-1)).toMatchObject({ roomUuid: room.uuid, event: { type: "updateRoomSettings" } });
    // Who may enter is the owner's: co-owners cannot set a password, not even through /rooms/{id}.
    const password = { ...at, body: { password: "abcd" } };
    expect(await statusOf(t.api(coOwner.token).room.PATCH("/rooms/{id}", password))).toBe(400);
    expect(await statusOf(t.api(coOwner.token).room.PATCH("/rooms/{id}/infrastructure", password))).toBe(403);
    const byOwner = await t.api(owner.token).room.PATCH("/rooms/{id}/infrastructure", {
      ...at,
      body: { password: "abcd", type: "PRIVATE", slug: "renamed-room" },
    });
    expect(byOwner.response.status).toBe(200);
    expect(byOwner.data).toMatchObject({ isPasswordProtected: true, type: "PRIVATE", slug: "renamed-room" });

    const seats = (token: string, numberOfDjs: number) =>
      t.api(token).room.PATCH("/rooms/dj-seats/{id}/infrastructure", { ...at, body: { numberOfDjs } });
    expect((await seats(coOwner.token, 2)).data?.numberOfDjs).toBe(2);
    expect(await statusOf(seats(stranger.token, 4))).toBe(403);
    const djType = await t
      .api(owner.token)
      .room.PATCH("/rooms/dj-type/{id}/infrastructure", { ...at, body: { djType: "INVITE_ONLY" } });
    expect(djType.data?.djType).toBe("INVITE_ONLY");
    const liveAudio = (token: string) =>
      t.api(token).room.PATCH("/rooms/live-audio/{id}/infrastructure", { ...at, body: { liveAudio: true } });
    expect(await statusOf(liveAudio(coOwner.token))).toBe(403);
    expect((await liveAudio(owner.token)).data?.liveAudio).toBe(true);
  });

  it("lets the owner alone pick the room crate, one of their playlists, which the live room reads from its position", async () => {
    const { owner, coOwner, stranger, room } = await roomWithCoOwner();
    const crate = ok(await t.api(owner.token).playlist.POST("/crate", { body: { name: "Room crate" } }));
    const songs = await t.db
      .insert(schema.songs)
      .values(
        ["One", "Two", "Three"].map((n) => ({
          shortId: `rc${crypto.randomUUID().slice(0, 8)}`,
          trackName: n,
          artistName: "A",
        })),
      )
      .returning();
    await t.api(owner.token).playlist.POST("/crate/{id}/songs", {
      params: { path: { id: crate.crateUuid } },
      body: { songIds: songs.map((s) => s.id) },
    });
    const strangers = ok(await t.api(stranger.token).playlist.POST("/crate", { body: { name: "Not the owner's" } }));
    const set = (token: string | undefined, roomCrateId: unknown) =>
      t.api(token).room.PATCH("/rooms/{id}", {
        params: { path: { id: room.uuid } },
        body: { roomCrateId } as { roomCrateId: string | null },
      });
    const readCrate = async (token: string, from?: number) =>
      t.api(token).room.GET("/rooms/service/room/{id}/crate", { params: { path: { id: room.uuid }, query: { from } } });
    const serviceRead = async (from = 0) => (await readCrate(await t.serviceToken(), from)).data;

    // Nothing set: nothing to read.
    expect(await serviceRead()).toEqual({ crateId: null, songs: [] });
    // The wrong callers, another's crate, a missing one, a queue or likes crate, junk: refused, nothing changes.
    const coTry = await set(coOwner.token, crate.crateUuid);
    expectRefusal(coTry, 403, "Only the room's owner picks its room crate.");
    expect((await set(stranger.token, crate.crateUuid)).response.status).toBe(403);
    expect(await statusOf(set(undefined, null))).toBe(401);
    const others = await set(owner.token, strangers.crateUuid);
    expectRefusal(others, 403, "The room crate must be one of the room owner's crates.");
    const missing = await set(owner.token, crypto.randomUUID());
    expectRefusal(missing, 404, "Crate not found.");
    const likes = ok(await t.api(owner.token).playlist.GET("/crate/special/likes"));
    const refused = await set(owner.token, likes.crateUuid);
    expectRefusal(refused, 400, "A queue or likes crate cannot be a room crate: pick a playlist.");
    expect((await set(owner.token, "not-a-uuid")).response.status).toBe(400);
    expect(
      ok(await t.api().room.GET("/rooms/uuid/{uuid}", { params: { path: { uuid: room.uuid } } })).roomCrateId,
    ).toBeNull();

    // The owner picks it: the room's settings carry it (lists too) and the live room hears of it.
    const picked = await set(owner.token, crate.crateUuid);
    expect(picked.response.status).toBe(200);
    expect(picked.data?.roomCrateId).toBe(crate.crateUuid);
    expect(t.live.events.at(-1)).toMatchObject({
      roomUuid: room.uuid,
      event: { type: "updateRoomSettings", settings: { roomCrateId: crate.crateUuid } },
    });
    const listed = ok(await t.api(owner.token).room.GET("/rooms/owned-rooms/list")) as unknown as {
      uuid: string;
      roomCrateId: string;
    }[];
    expect(JSON.stringify(listed)).toContain(crate.crateUuid);

    // The live room reads it from a position on, wrapping around; only with a service token.
    expect((await serviceRead(0))?.songs.map((s) => s.trackName)).toEqual(["One", "Two", "Three"]);
    expect((await serviceRead(2))?.songs.map((s) => s.trackName)).toEqual(["Three", "One", "Two"]);
    expect((await serviceRead(7))?.songs.map((s) => s.trackName)).toEqual(["One", "Two", "Three"]);
    expect(await statusOf(readCrate(owner.token))).toBe(403);
    // The room given to someone else plays nothing of the old owner's crate; the crate deleted clears the setting.
    await t.db.update(schema.rooms).set({ ownerUuid: stranger.user.uuid }).where(eq(schema.rooms.uuid, room.uuid));
    expect(await serviceRead()).toEqual({ crateId: crate.crateUuid, songs: [] });
    await t.db.update(schema.rooms).set({ ownerUuid: owner.user.uuid }).where(eq(schema.rooms.uuid, room.uuid));
    await t.api(owner.token).playlist.DELETE("/crate/{id}", { params: { path: { id: crate.crateUuid } } });
    expect(await serviceRead()).toEqual({ crateId: null, songs: [] });
    // And none again.
    expect((await set(owner.token, null)).data?.roomCrateId).toBeNull();
  });

  it("takes what is playing only from the live room itself", async () => {
    const owner = await t.createUser();
    const room = await createRoom(owner.token);
    const song = { trackName: "Song", artistName: "Artist", duration: 180 };
    const report = (token: string, body: { nowPlaying?: typeof song; isLive?: boolean; numberOfActiveDjs?: number }) =>
      t.api(token).room.PATCH("/rooms/live-state/{id}/infrastructure", { params: { path: { id: room.uuid } }, body });
    expect(await statusOf(report(owner.token, { nowPlaying: song }))).toBe(403);
    expect((await report(owner.token, { isLive: true })).data?.isLive).toBe(true);
    const fromRoom = await report(await t.serviceToken(), { nowPlaying: song, numberOfActiveDjs: 2 });
    expect(fromRoom.response.status).toBe(200);
    const seen = await t.api().room.GET("/rooms/uuid/{uuid}", { params: { path: { uuid: room.uuid } } });
    expect(seen.data).toMatchObject({ song, numberOfActiveDjs: 2, isLive: true });
  });

  it("pins messages, sets a poster and an external link, for the right ranks", async () => {
    const { owner, mod, stranger } = await t.createUsers("owner", "mod", "stranger");
    const room = await createRoom(owner.token);
    await t.db.insert(schema.roomUserRoles).values({ roomUuid: room.uuid, userUuid: mod.user.uuid, role: "moderator" });
    const pin = (token: string, pinnedMessages: unknown) =>
      t.request("POST", `${R}/rooms/${room.uuid}/pinned-messages`, { token, body: { pinnedMessages } });
    expect((await pin(stranger.token, ["hi"])).status).toBe(403);
    const pinned = await pin(mod.token, ["Welcome!", "Be nice"]);
    expect(pinned.status).toBe(200);
    expect(pinned.body.pinnedMessages.map((m: { message: string }) => m.message)).toEqual(["Welcome!", "Be nice"]);
    expect((await pin(mod.token, ["1", "2", "3", "4", "5", "6"])).status).toBe(400);
    const kept = await pin(owner.token, ["Be nice"]);
    expect(kept.body.pinnedMessages).toEqual([pinned.body.pinnedMessages[1]]);

    const link = (token: string, externalUrl: unknown) =>
      t.request("POST", `${R}/rooms/${room.uuid}/externalUrl`, { token, body: { externalUrl } });
    expect((await link(mod.token, "https://example.com/show")).status).toBe(403);
    expect((await link(owner.token, "javascript:alert(1)")).status).toBe(400);
    expect((await link(owner.token, "https://example.com/show")).body.externalUrl).toBe("https://example.com/show");

    const form = () => {
      const f = new FormData();
      f.set("file", new File([PNG], "poster.png", { type: "image/png" }));
      return f;
    };
    const at = { params: { path: { id: room.uuid } } };
    expect(await statusOf(t.api(mod.token).room.POST("/rooms/{id}/poster", { ...at, body: form() }))).toBe(403);
    const notImage = new FormData();
    notImage.set("file", new File(["hello"], "poster.png"));
    expect(await statusOf(t.api(owner.token).room.POST("/rooms/{id}/poster", { ...at, ...multipart(notImage) }))).toBe(
      415,
    );
    const poster = await t.api(owner.token).room.POST("/rooms/{id}/poster", { ...at, body: form() });
    expect(poster.response.status).toBe(200);
    const image = await t.app.request(ok(poster).posterUrl!);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    const removePoster = () => t.api(owner.token).room.DELETE("/rooms/{id}/poster", at);
    expect((await removePoster()).data?.posterUrl).toBe(null);
    expect((await t.app.request(ok(poster).posterUrl!)).status).toBe(404);
    expect(await statusOf(removePoster())).toBe(404);
  });

  it("promotes rooms only for staff or the promoteRoom capability", async () => {
    const owner = await t.createUser();
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const room = await createRoom(owner.token);
    const promote = (token: string, body: unknown) =>
      t.request("PATCH", `${R}/rooms/promote/${room.uuid}/infrastructure`, { token, body });
    expect((await promote(owner.token, { promoted: true })).status).toBe(403);
    expect((await promote(staff.token, { promoted: true, providers: ["spotify"] })).status).toBe(200);
    const forSpotify = await t
      .api()
      .room.GET("/rooms/promoted-rooms", { params: { query: { providers: "spotify,apple" } } });
    expect(forSpotify.data?.map((r) => r.uuid)).toContain(room.uuid);
    const forYoutube = await t.api().room.GET("/rooms/promoted-rooms", { params: { query: { providers: "youtube" } } });
    expect(forYoutube.data?.map((r) => r.uuid)).not.toContain(room.uuid);
  });

  it("deletes a room for its owner or an admin only, and resets the live room", async () => {
    const owner = await t.createUser();
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const coOwner = await t.createUser();
    const a = await createRoom(owner.token);
    const b = await createRoom(owner.token);
    await t.db.insert(schema.roomUserRoles).values({ roomUuid: a.uuid, userUuid: coOwner.user.uuid, role: "coOwner" });
    const remove = (id: string, token?: string) =>
      t.api(token).room.DELETE("/rooms/{id}/infrastructure", { params: { path: { id } } });
    expect(await statusOf(remove(a.uuid))).toBe(401);
    expect(await statusOf(remove(a.uuid, coOwner.token))).toBe(403);
    expect(await statusOf(remove(a.uuid, owner.token))).toBe(204);
    expect(t.live.events.at(-1)).toEqual({ roomUuid: a.uuid, event: { type: "resetRoom" } });
    expect(await statusOf(remove(b.uuid, admin.token))).toBe(204);
    expect(await statusOf(t.api().room.GET("/rooms/uuid/{uuid}", { params: { path: { uuid: a.uuid } } }))).toBe(404);
    expect(await statusOf(remove(a.uuid, owner.token))).toBe(404);
  });

  it("admins change any room and its guest password; others may not", async () => {
    const owner = await t.createUser();
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const room = await createRoom(owner.token);
    const change = (token: string, body: { promoted: boolean; ownerUuid?: string }) =>
      t.api(token).room.PATCH("/rooms/admin/{id}", { params: { path: { id: room.uuid } }, body });
    expect(await statusOf(change(owner.token, { promoted: true }))).toBe(403);
    const changed = await change(staff.token, { promoted: true, ownerUuid: staff.user.uuid });
    expect(changed.data).toMatchObject({ promoted: true, ownerUuid: staff.user.uuid });
    const gp = (token: string) =>
      t.request("POST", `${R}/rooms/admin/guest-password`, {
        token,
        body: { roomUuid: room.uuid, guestPassword: "guests1" },
      });
    expect((await gp(staff.token)).status).toBe(403);
    expect((await gp(admin.token)).body.isGuestPasswordProtected).toBe(true);
    const del = await t.api(admin.token).room.DELETE("/rooms/admin/guest-password", { body: { roomUuid: room.uuid } });
    expect(del.data?.isGuestPasswordProtected).toBe(false);
  });
});

describe("lists", () => {
  it("answers the public list from the database's JSON as the row-by-row views, favourites flagged, page by page", async () => {
    const owner = await t.createUser();
    const fan = await t.createUser();
    const full = await createRoom(owner.token, {
      password: "secret1",
      description: 'line\nbreak "quoted" ünï',
      voteSkipThreshold: 0.1,
      musicProviderKeys: ["spotify", "youtube"],
    });
    await t.db
      .update(schema.rooms)
      .set({
        nowPlaying: { trackName: "Song", duration: 180.5 },
        pinnedMessages: [{ id: "1", message: "hi", userUuid: owner.user.uuid, createdAt: "2026-06-01T12:00:00.000Z" }],
        updatedAt: new Date("2026-06-01T12:34:56.789Z"),
      })
      .where(eq(schema.rooms.uuid, full.uuid));
    await createRoom(owner.token);
    await t.db.insert(schema.roomPresence).values({ roomUuid: full.uuid, userUuid: fan.user.uuid });
    await t.db.insert(schema.roomFavorites).values({ userUuid: fan.user.uuid, roomUuid: full.uuid });
    for (const [token, favoritesOf] of [
      [fan.token, fan.user.uuid],
      [null, undefined],
    ] as const)
      for (const query of [{ limit: 1000 }, { limit: 1, offset: 1 }, { limit: 5, offset: 10_000 }]) {
        const res = await t.request("GET", `${R}/rooms/public`, { token, query });
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toMatch(/^application\/json/);
        const { rows, total } = await publicRooms(t.db, query.limit, query.offset ?? 0);
        const favorites = await favoritedSet(
          t.db,
          favoritesOf,
          rows.map((r) => r.uuid),
        );
        expect(res.body).toEqual({ data: rows.map((r) => roomView(r, { favorited: favorites.has(r.uuid) })), total });
      }
    const mine = await t.request("GET", `${R}/rooms/public`, { token: fan.token, query: { limit: 1000 } });
    expect(mine.body.data.find((r: { uuid: string }) => r.uuid === full.uuid)).toMatchObject({
      favorited: true,
      isPasswordProtected: true,
      voteSkipThreshold: 0.1,
      song: { trackName: "Song", duration: 180.5 },
      updatedAt: "2026-06-01T12:34:56.789Z",
    });
  });

  it("lists public rooms busiest first, hides private and unlisted ones, counts private ones", async () => {
    const owner = await t.createUser();
    const quiet = await createRoom(owner.token);
    const busy = await createRoom(owner.token);
    const hidden = await createRoom(owner.token, { type: "PRIVATE" });
    const unlisted = await createRoom(owner.token, { unlisted: true });
    const listeners = await Promise.all([1, 2].map(() => t.createUser()));
    for (const l of listeners)
      await t.db.insert(schema.roomPresence).values({ roomUuid: busy.uuid, userUuid: l.user.uuid });
    const page = await t.api().room.GET("/rooms/public", { params: { query: { limit: 1000 } } });
    const uuids = ok(page).data.map((r) => r.uuid);
    expect(uuids.indexOf(busy.uuid)).toBeLessThan(uuids.indexOf(quiet.uuid));
    expect(uuids).not.toContain(hidden.uuid);
    expect(uuids).not.toContain(unlisted.uuid);
    expect(page.data?.data.find((r) => r.uuid === busy.uuid)?.numberOfUsersInRoom).toBe(2);
    expect((await t.api().room.GET("/rooms/private-count")).data?.count).toBeGreaterThanOrEqual(1);
    expect((await t.api().room.GET("/rooms/public", { params: { query: { limit: 0 } } })).response.status).toBe(400);

    const multiple = await t.request("GET", `${R}/rooms/multiple/list?room=${quiet.uuid}&room=${hidden.uuid}`);
    expect(multiple.body.map((r: { uuid: string }) => r.uuid).sort()).toEqual([quiet.uuid, hidden.uuid].sort());
    expect(
      (await t.api().room.GET("/rooms/multiple/list", { params: { query: { room: "nope" } } })).response.status,
    ).toBe(400);
  });

  it("answers the caller's owned and staffed rooms", async () => {
    const owner = await t.createUser();
    const mod = await t.createUser();
    const room = await createRoom(owner.token);
    await t.db.insert(schema.roomUserRoles).values({ roomUuid: room.uuid, userUuid: mod.user.uuid, role: "moderator" });
    expect((await t.api().room.GET("/rooms/mine/list")).response.status).toBe(401);
    const mine = await t.api(mod.token).room.GET("/rooms/mine/list");
    expect(mine.data?.map((r) => r.uuid)).toEqual([room.uuid]);
    expect((await t.api(mod.token).room.GET("/rooms/owned-rooms/list")).data).toEqual([]);
    const owned = await t.api(owner.token).room.GET("/rooms/owned-rooms/list");
    expect(owned.data?.map((r) => r.uuid)).toEqual([room.uuid]);
  });

  it("lists rooms by uuid or slug with passwords: a protected room only with the right one", async () => {
    const owner = await t.createUser();
    const open = await createRoom(owner.token);
    const locked = await createRoom(owner.token, { password: "letmein" });
    const ask = (password: string) =>
      t.request("POST", `${R}/rooms/list`, {
        body: { rooms: [{ room: open.slug }, { room: locked.uuid, password }] },
      });
    expect((await ask("wrong")).body.map((r: { uuid: string }) => r.uuid)).toEqual([open.uuid]);
    expect((await ask("letmein")).body.map((r: { uuid: string }) => r.uuid).sort()).toEqual(
      [open.uuid, locked.uuid].sort(),
    );
    expect((await t.api().room.POST("/rooms/list", { body: { rooms: [] } })).response.status).toBe(400);
  });

  it("favourites: add once, list with the flag, hide others' private favourites, remove by room", async () => {
    const { owner, fan, other } = await t.createUsers("owner", "fan", "other");
    const room = await createRoom(owner.token);
    const secret = await createRoom(owner.token, { type: "PRIVATE" });
    const add = (roomUuid: string) =>
      t.request("POST", `${R}/api/v1/room-favorites`, { token: fan.token, body: { roomUuid } });
    expect((await add(room.uuid)).status).toBe(201);
    expect((await add(room.uuid)).status).toBe(200);
    expect((await add(secret.uuid)).status).toBe(201);
    expect((await add(crypto.randomUUID())).status).toBe(404);
    expect((await t.api().room.POST("/api/v1/room-favorites", { body: { roomUuid: room.uuid } })).response.status).toBe(
      401,
    );

    const mine = await t.api(fan.token).room.GET("/api/v1/room-favorites");
    expect(mine.data).toHaveLength(2);
    const seenByOther = await t
      .api(other.token)
      .room.GET("/api/v1/room-favorites", { params: { query: { userUuid: fan.user.uuid } } });
    expect(seenByOther.data?.map((f) => f.roomUuid)).toEqual([room.uuid]);
    const checked = await t
      .api(fan.token)
      .room.GET("/api/v1/room-favorites", { params: { query: { roomUuidIn: `${secret.uuid}` } } });
    expect(checked.data).toHaveLength(1);
    const roomAs = (token: string) =>
      t.api(token).room.GET("/rooms/uuid/{uuid}", { params: { path: { uuid: room.uuid } } });
    expect((await roomAs(fan.token)).data?.favorited).toBe(true);
    expect((await roomAs(other.token)).data?.favorited).toBe(false);

    const favs = await t.api(fan.token).room.GET("/rooms/favorites", { params: { query: { includePrivate: "true" } } });
    expect(favs.data).toHaveLength(2);
    const publicOnly = await t
      .api(other.token)
      .room.GET("/rooms/favorites", { params: { query: { userUuid: fan.user.uuid, includePrivate: "true" } } });
    expect(publicOnly.data?.map((r) => r.uuid)).toEqual([room.uuid]);

    const unfavorite = (token: string, id: string) =>
      t.api(token).room.DELETE("/api/v1/room-favorites/{id}", { params: { path: { id } } });
    expect(await statusOf(unfavorite(other.token, ok(mine)[0]!.id))).toBe(403);
    expect(await statusOf(unfavorite(fan.token, room.uuid))).toBe(204);
    expect((await t.api(fan.token).room.GET("/api/v1/room-favorites")).data).toHaveLength(1);
  });

  it("recent rooms: the caller's visits newest first, and the platform's busiest in a day", async () => {
    const owner = await t.createUser();
    const visitor = await t.createUser();
    const a = await createRoom(owner.token);
    const b = await createRoom(owner.token);
    for (const room of [a, b, a]) {
      t.clock.advance(1);
      expect(
        (await t.request("POST", `${R}/rooms/recent`, { token: visitor.token, body: { roomUuid: room.uuid } })).status,
      ).toBe(201);
    }
    const recent = await t.api(visitor.token).room.GET("/rooms/recent");
    expect(recent.data?.map((r) => r.uuid)).toEqual([a.uuid, b.uuid]);
    const trending = await t.api().room.GET("/rooms/rockset/recently-visited-rooms");
    expect(trending.response.status, JSON.stringify(trending.error ?? trending.data)).toBe(200);
    expect(trending.data?.map((r) => r.uuid)).toEqual(expect.arrayContaining([a.uuid, b.uuid]));
    t.clock.advance(25 * 3600);
    const later = await t.api().room.GET("/rooms/rockset/recently-visited-rooms");
    expect(later.data?.map((r) => r.uuid)).not.toContain(a.uuid);
  });

  it("service lists need a service token; admin lists need staff", async () => {
    const owner = await t.createUser();
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const room = await createRoom(owner.token, { name: "Crud Findable" });
    expect((await t.api(owner.token).room.GET("/rooms/service/list")).response.status).toBe(403);
    const list = await t
      .api(await t.serviceToken())
      .room.GET("/rooms/service/list", { params: { query: { take: 1000 } } });
    expect(list.data?.data.map((r) => r.uuid)).toContain(room.uuid);
    const one = await t
      .api(await t.serviceToken())
      .room.GET("/rooms/service/room/{id}", { params: { path: { id: room.uuid } } });
    expect(one.data?.roomRoles).toEqual([{ userUuid: owner.user.uuid, role: "owner", expirationTime: null }]);
    expect((await t.api(owner.token).room.GET("/admin/rooms")).response.status).toBe(403);
    const crud = await t
      .api(staff.token)
      .room.GET("/admin/rooms", { params: { query: { filter: "name||$eq||Crud Findable", fields: "name" } } });
    expect(crud.data).toMatchObject({ total: 1, data: [{ uuid: room.uuid, name: "Crud Findable" }] });
    const badFilter = { params: { query: { filter: "nope||$eq||1" } } };
    expect(await statusOf(t.api(staff.token).room.GET("/admin/rooms", badFilter))).toBe(400);
    expect(
      (await t.api(staff.token).room.GET("/admin/rooms/{id}", { params: { path: { id: room.uuid } } })).data?.roomRoles,
    ).toHaveLength(1);
  });

  it("discord guild rooms: link an own room or create one, list them", async () => {
    const owner = await t.createUser();
    const stranger = await t.createUser();
    const room = await createRoom(owner.token);
    const guild = "123456789012345678";
    const link = (token: string, body: { roomUuid?: string; name?: string }, at = guild) =>
      t.api(token).room.POST("/rooms/discord/{guild}", { params: { path: { guild: at } }, body });
    expect(await statusOf(link(stranger.token, { roomUuid: room.uuid }))).toBe(403);
    expect(await statusOf(link(owner.token, { roomUuid: room.uuid }))).toBe(200);
    const created = await link(stranger.token, { name: "Guild Hangout" });
    expect(created.response.status).toBe(201);
    expect(await statusOf(link(owner.token, { name: "x y" }, "not-a-guild"))).toBe(400);
    expect(await statusOf(link(owner.token, {}))).toBe(400);
    const list = await t.api().room.GET("/rooms/discord/list/{guild}", { params: { path: { guild } } });
    expect(list.data?.map((r) => r.uuid).sort()).toEqual([room.uuid, ok(created).uuid].sort());
  });
});

describe("joining", () => {
  /** Joins the room `slug` (its slug or uuid) with no password, as the caller `token`. */
  const joinAs = (token: string | undefined, slug: string) =>
    t.api(token).room.POST("/rooms/{slug}/join", { params: { path: { slug } }, body: {} });

  it("admits users, records the visit, and answers the room's config with its roles", async () => {
    const owner = await t.createUser();
    const listener = await t.createUser();
    const room = await createRoom(owner.token);
    const res = await joinAs(listener.token, room.slug);
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ uuid: room.uuid, roomRoles: [{ userUuid: owner.user.uuid, role: "owner" }] });
    const recent = await t.api(listener.token).room.GET("/rooms/recent");
    expect(recent.data?.map((r) => r.uuid)).toEqual([room.uuid]);
    expect(await statusOf(joinAs(undefined, room.slug))).toBe(401);
    expect(await statusOf(joinAs(await t.serviceToken(), room.slug))).toBe(401);
    expect(await statusOf(joinAs(listener.token, "no-such-room"))).toBe(404);
  });

  it("asks for the password, except of co-owners and up", async () => {
    const owner = await t.createUser();
    const listener = await t.createUser();
    const room = await createRoom(owner.token, { password: "opensesame" });
    const join = (token: string, body: unknown) => t.request("POST", `${R}/rooms/${room.uuid}/join`, { token, body });
    expect((await join(listener.token, {})).body.message).toBe("This room needs a password.");
    const wrong = await join(listener.token, { password: "nope" });
    expectRefusal(wrong, 403, "Wrong room password.");
    expect((await join(listener.token, { password: "opensesame" })).status).toBe(200);
    expect((await join(owner.token, {})).status).toBe(200);
  });

  it("refuses banned and kicked users until it expires, and admits guests only as the room allows", async () => {
    const owner = await t.createUser();
    const banned = await t.createUser();
    const room = await createRoom(owner.token);
    const ban = await t.api(owner.token).room.POST("/roomUserRoles/{room}", {
      params: { path: { room: room.uuid } },
      body: {
        userUuid: banned.user.uuid,
        role: "banned",
        expirationTime: new Date(t.clock.now().getTime() + 3600_000).toISOString(),
      },
    });
    expect(ban.response.status).toBe(201);
    const refused = await joinAs(banned.token, room.uuid);
    expectRefusal(refused, 403, "You are banned from this room.");
    t.clock.advance(3601);
    const back = await joinAs(await t.tokenFor(banned.user.uuid), room.uuid);
    expect(back.response.status).toBe(200);

    const guest = ok(await t.api().user.GET("/auth/guest")).accessToken as string;
    expect(await statusOf(joinAs(guest, room.uuid))).toBe(200);
    const locked = await createRoom(owner.token, { password: "members" });
    const lockedJoin = await joinAs(guest, locked.uuid);
    expect(lockedJoin.error?.message).toBe("Guests cannot join this room.");
    const admin = await t.createUser({ roles: ["user", "admin"] });
    await t
      .api(admin.token)
      .room.POST("/rooms/admin/guest-password", { body: { roomUuid: locked.uuid, guestPassword: "guestpass" } });
    const withGuestPassword = await t.api(guest).room.POST("/rooms/{slug}/join", {
      params: { path: { slug: locked.uuid } },
      body: { guestPassword: "guestpass" },
    });
    expect(withGuestPassword.response.status).toBe(200);
  });

  it("refuses people when the room is full, but not its moderators", async () => {
    const owner = await t.createUser();
    const room = await createRoom(owner.token, { roomSize: 2 });
    const inside = await Promise.all([1, 2].map(() => t.createUser()));
    const service = await t.serviceToken();
    for (const u of inside) await reportPresent(t, u.user.uuid, room.uuid);
    const late = await t.createUser();
    const full = await joinAs(late.token, room.uuid);
    expect(full.error?.message).toBe("This room is full.");
    expect(await statusOf(joinAs(inside[0]!.token, room.uuid))).toBe(200);
    expect(await statusOf(joinAs(owner.token, room.uuid))).toBe(200);
    // Someone leaves: there is room again.
    const leave = { params: { path: { user: inside[1]!.user.uuid }, query: { roomUuid: room.uuid } } };
    expect(await statusOf(t.api(service).room.DELETE("/rooms/user/{user}", leave))).toBe(204);
    expect(await statusOf(joinAs(late.token, room.uuid))).toBe(200);
  });
});

describe("presence, plays and state", () => {
  it("keeps who is in a room as the live room reports it; only services report", async () => {
    const owner = await t.createUser({ nickname: "roomowner" });
    const room = await createRoom(owner.token);
    const service = await t.serviceToken();
    const report = (token: string) =>
      t.request("PATCH", `${R}/rooms/user/${owner.user.uuid}`, { token, body: { roomUuid: room.uuid } });
    expect((await report(owner.token)).status).toBe(403);
    expect((await report(service)).status).toBe(204);
    expect((await report(service)).status).toBe(204);
    const users = await t.api().room.GET("/rooms/users/{room}", { params: { path: { room: room.slug } } });
    expect(users.data?.map((p) => p.nickname)).toEqual(["roomowner"]);
    const uuids = await t
      .api(service)
      .room.GET("/rooms/users/service/{room}", { params: { path: { room: room.uuid } } });
    expect(uuids.data?.userUuids).toEqual([owner.user.uuid]);
    const inRoom = { params: { path: { room: room.uuid } } };
    expect(await statusOf(t.api(owner.token).room.GET("/rooms/users/service/{room}", inRoom))).toBe(403);
    const nobody = { params: { path: { user: crypto.randomUUID() } }, body: { roomUuid: room.uuid } };
    expect(await statusOf(t.api(service).room.PATCH("/rooms/user/{user}", nobody))).toBe(404);
    await t.api(service).room.DELETE("/rooms/user/{user}", { params: { path: { user: owner.user.uuid } } });
    expect((await t.api().room.GET("/rooms/users/{room}", { params: { path: { room: room.uuid } } })).data).toEqual([]);
  });

  it("records plays from the live room, lists them newest first and sums the time played", async () => {
    const owner = await t.createUser();
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const room = await createRoom(owner.token);
    const service = await t.serviceToken();
    const play = (token: string, trackName: string, duration: number) =>
      t.request("POST", `${R}/rooms/${room.slug}/recent-songs`, {
        token,
        body: {
          song: { trackName, artistName: "A", duration, isrc: "X" },
          djUuid: owner.user.uuid,
          voteCounts: { likes: 2, dislikes: 0, stars: 1 },
        },
      });
    expect((await play(owner.token, "Mine", 10)).status).toBe(403);
    for (const [name, duration] of [
      ["First", 100],
      ["Second", 50.4],
    ] as const) {
      t.clock.advance(60);
      expect((await play(service, name, duration)).status).toBe(201);
    }
    // Raw: input the typed client cannot send (it is wrong on purpose).
    const bad = await t.request("POST", `/api/room-service/rooms/${room.slug}/recent-songs`, {
      token: service,
      body: { song: { trackName: "x" }, voteCounts: { likes: -1, dislikes: 0, stars: 0 } },
    });
    expect(bad.status).toBe(400);
    const recent = await t
      .api()
      .room.GET("/rooms/{slug}/recent-songs", { params: { path: { slug: room.slug }, query: { limit: 1 } } });
    expect(recent.data?.total).toBe(2);
    expect(recent.data?.data[0]).toMatchObject({ song: { trackName: "Second" }, voteCounts: { likes: 2, stars: 1 } });
    const played = await t.api().room.GET("/rooms/room-played-time/{id}", { params: { path: { id: room.uuid } } });
    expect(played.data).toEqual({ roomUuid: room.uuid, playedSeconds: 150, songs: 2 });
    expect((await t.api(owner.token).room.GET("/info-admin/played-seconds")).response.status).toBe(403);
    const total = await t.api(staff.token).room.GET("/info-admin/played-seconds");
    expect(total.data?.playedSeconds).toBeGreaterThanOrEqual(150);
    const since = await t.api(staff.token).room.GET("/info-admin/played-seconds", {
      params: { query: { since: new Date(t.clock.now().getTime() + 1000).toISOString() } },
    });
    expect(since.data).toEqual({ playedSeconds: 0, songs: 0 });
  });

  it("answers the live state the room reports, and 404 when nobody is in it", async () => {
    const owner = await t.createUser();
    const stranger = await t.createUser();
    const room = await createRoom(owner.token);
    const stateOf = (id: string, token?: string) =>
      t.api(token).room.GET("/rooms/room-state/{id}", { params: { path: { id } } });
    expect(await statusOf(stateOf(room.uuid))).toBe(404);
    t.live.states.set(room.uuid, { djs: [], nowPlaying: null });
    const state = await stateOf(room.uuid);
    expect(state.data).toEqual({ roomUuid: room.uuid, state: { djs: [], nowPlaying: null } });
    const secret = await createRoom(owner.token, { type: "PRIVATE" });
    t.live.states.set(secret.uuid, { djs: [] });
    expect(await statusOf(stateOf(secret.uuid, stranger.token))).toBe(403);
    expect(await statusOf(stateOf(secret.uuid, owner.token))).toBe(200);
  });

  it("clears the room's chat for moderators", async () => {
    const owner = await t.createUser();
    const stranger = await t.createUser();
    const room = await createRoom(owner.token);
    const clearChat = (token: string) =>
      t.api(token).room.DELETE("/rooms/conversation/{id}", { params: { path: { id: room.uuid } } });
    expect(await statusOf(clearChat(stranger.token))).toBe(403);
    expect(await statusOf(clearChat(owner.token))).toBe(204);
    expect(t.live.events.at(-1)).toEqual({ roomUuid: room.uuid, event: { type: "clearChat" } });
  });

  it("resets the live room for its owner and global moderators, nobody else", async () => {
    const owner = await t.createUser();
    const coOwner = await t.createUser();
    const globalModerator = await t.createUser({ roles: ["user", "globalModerator"] });
    const room = await createRoom(owner.token);
    await t.api(owner.token).room.POST("/roomUserRoles/{room}", {
      params: { path: { room: room.uuid } },
      body: { userUuid: coOwner.user.uuid, role: "coOwner" },
    });
    const before = t.live.events.length;
    const reset = (token?: string) => t.request("POST", `${R}/rooms/reset/${room.uuid}/infrastructure`, { token });
    expect((await reset()).status).toBe(401);
    const refused = await reset(coOwner.token);
    expectRefusal(refused, 403, "Only the room's owner may reset it.");
    expect(t.live.events.length).toBe(before);
    expect((await reset(owner.token)).status).toBe(204);
    expect(t.live.events.at(-1)).toEqual({ roomUuid: room.uuid, event: { type: "resetRoom" } });
    expect((await reset(globalModerator.token)).status).toBe(204);
    expect(t.live.events.length).toBe(before + 2);
    const missing = { params: { path: { id: crypto.randomUUID() } } };
    expect(await statusOf(t.api(owner.token).room.POST("/rooms/reset/{id}/infrastructure", missing))).toBe(404);
  });
});

describe("room roles", () => {
  async function staffedRoom() {
    const { owner, coOwner, mod, listener } = await t.createUsers("owner", "coOwner", "mod", "listener");
    const room = await createRoom(owner.token);
    const grant = (token: string, userUuid: string, role: string, expirationTime?: string) =>
      t.request("POST", `${R}/roomUserRoles/${room.uuid}`, { token, body: { userUuid, role, expirationTime } });
    expect((await grant(owner.token, coOwner.user.uuid, "coOwner")).status).toBe(201);
    expect((await grant(coOwner.token, mod.user.uuid, "moderator")).status).toBe(201);
    return { owner, coOwner, mod, listener, room, grant };
  }

  it("follows the ranks: owner > coOwner > moderator > everyone, each only above the target", async () => {
    const { owner, coOwner, mod, listener, room, grant } = await staffedRoom();
    // A moderator cannot name moderators, nor sanction a co-owner, nor themselves.
    expect((await grant(mod.token, listener.user.uuid, "moderator")).status).toBe(403);
    expect((await grant(mod.token, coOwner.user.uuid, "chatDisabled")).status).toBe(403);
    expect((await grant(mod.token, mod.user.uuid, "dj")).body.message).toBe(
      "You cannot change your own roles this way.",
    );
    expect((await grant(listener.token, mod.user.uuid, "banned")).status).toBe(403);
    expect((await grant(coOwner.token, listener.user.uuid, "coOwner")).status).toBe(403);
    expect((await grant(owner.token, listener.user.uuid, "owner")).status).toBe(400);
    expect((await grant(owner.token, crypto.randomUUID(), "dj")).status).toBe(404);
    expect((await grant(owner.token, listener.user.uuid, "dj", "2000-01-01T00:00:00Z")).status).toBe(400);
    expect((await grant(owner.token, listener.user.uuid, "superstar")).status).toBe(400);
    const dj = { params: { path: { room: room.uuid } }, body: { userUuid: listener.user.uuid, role: "dj" as const } };
    expect(await statusOf(t.api().room.POST("/roomUserRoles/{room}", dj))).toBe(401);
    // A global moderator outranks the owner.
    const globalMod = await t.createUser({ roles: ["user", "globalModerator"] });
    expect((await grant(globalMod.token, owner.user.uuid, "chatDisabled")).status).toBe(201);

    const mute = await grant(
      mod.token,
      listener.user.uuid,
      "chatDisabled",
      new Date(t.clock.now().getTime() + 60_000).toISOString(),
    );
    expect(mute.status).toBe(201);
    expect(t.live.events.at(-1)).toEqual({ roomUuid: room.uuid, event: { type: "updateRoles" } });
    const rolesOf = (token: string, user: string) =>
      t.api(token).room.GET("/roomUserRoles/{room}/{user}", { params: { path: { room: room.uuid, user } } });
    const roles = await rolesOf(listener.token, listener.user.uuid);
    expect(roles.data?.map((r) => r.role)).toEqual(["chatDisabled"]);
    // Sanctions are the moderators' business: others see only who runs the room.
    const publicView = await t.api().room.GET("/roomUserRoles/{room}", { params: { path: { room: room.uuid } } });
    expect(publicView.data?.map((r) => r.role).sort()).toEqual(["coOwner", "moderator", "owner"]);
    const modView = await t.api(mod.token).room.GET("/roomUserRoles/{room}", { params: { path: { room: room.uuid } } });
    expect(modView.data?.map((r) => r.role)).toContain("chatDisabled");
    expect(await statusOf(rolesOf(listener.token, mod.user.uuid))).toBe(403);
    // The mute clears itself.
    t.clock.advance(61);
    const later = await rolesOf(await t.tokenFor(listener.user.uuid), listener.user.uuid);
    expect(later.data).toEqual([]);
  });

  it("removes roles with the same ranks; a moderator may step down", async () => {
    const { owner, coOwner, mod, listener, room, grant } = await staffedRoom();
    const remove = (token: string, userUuid: string, role: string) =>
      t.request("DELETE", `${R}/roomUserRoles/${room.uuid}`, { token, body: { userUuid, role } });
    await grant(mod.token, listener.user.uuid, "djDisabled");
    expect((await remove(listener.token, listener.user.uuid, "djDisabled")).status).toBe(403);
    expect((await remove(mod.token, coOwner.user.uuid, "coOwner")).status).toBe(403);
    expect((await remove(mod.token, listener.user.uuid, "djDisabled")).status).toBe(204);
    expect((await remove(mod.token, listener.user.uuid, "djDisabled")).status).toBe(404);
    expect((await remove(mod.token, mod.user.uuid, "moderator")).status).toBe(204);
    expect((await remove(owner.token, coOwner.user.uuid, "coOwner")).status).toBe(204);
    const log = await t.db
      .select()
      .from(schema.moderationActions)
      .where(eq(schema.moderationActions.roomUuid, room.uuid));
    expect(log.map((a) => a.actionType).sort()).toEqual(
      ["grantRole", "grantRole", "grantRole", "removeRole", "removeRole", "removeRole"].sort(),
    );
  });

  it("kicks: the live room closes their connections, the join is refused for a while, a moderation action remains", async () => {
    const { mod, listener, room, coOwner } = await staffedRoom();
    const kick = (token: string, userUuid: string) =>
      t.request("POST", `${R}/roomUserRoles/kick-user-from-room`, {
        token,
        body: { roomUuid: room.uuid, userUuid, reason: "spam" },
      });
    const byListener = await kick(listener.token, mod.user.uuid);
    expect(byListener.status, JSON.stringify(byListener.body)).toBe(403);
    expect((await kick(mod.token, coOwner.user.uuid)).status).toBe(403);
    await t.db.insert(schema.roomPresence).values({ roomUuid: room.uuid, userUuid: listener.user.uuid });
    const kicked = await kick(mod.token, listener.user.uuid);
    expect(kicked.status).toBe(201);
    expect(t.live.events.at(-1)).toEqual({
      roomUuid: room.uuid,
      event: { type: "kickUser", userUuid: listener.user.uuid },
    });
    expect(
      (
        await t
          .api(await t.serviceToken())
          .room.GET("/rooms/users/service/{room}", { params: { path: { room: room.uuid } } })
      ).data?.userUuids,
    ).toEqual([]);
    const refused = await t
      .api(listener.token)
      .room.POST("/rooms/{slug}/join", { params: { path: { slug: room.uuid } }, body: {} });
    expect(refused.error?.message).toBe("You were removed from this room. Try again later.");
    const action = await firstRow(
      t.db,
      schema.moderationActions,
      eq(schema.moderationActions.targetUuid, listener.user.uuid),
    );
    expect(action).toMatchObject({
      actionType: "kickUser",
      roomUuid: room.uuid,
      moderatorUuid: mod.user.uuid,
      reason: "spam",
    });
    t.clock.advance(5 * 60 + 1);
    const back = await t
      .api(await t.tokenFor(listener.user.uuid))
      .room.POST("/rooms/{slug}/join", { params: { path: { slug: room.uuid } }, body: {} });
    expect(back.response.status).toBe(200);
  });

  it("changes the owner: only the owner or an admin; the old owner stays as co-owner", async () => {
    const { owner, coOwner, room } = await staffedRoom();
    const next = await t.createUser();
    const change = (token: string, userUuid: string) =>
      t.request("PUT", `${R}/roomUserRoles/change-owner/${room.uuid}`, { token, body: { userUuid } });
    expect((await change(coOwner.token, coOwner.user.uuid)).status).toBe(403);
    expect((await change(owner.token, owner.user.uuid)).status).toBe(400);
    expect((await change(owner.token, crypto.randomUUID())).status).toBe(404);
    const changed = await change(owner.token, next.user.uuid);
    expect(changed.status).toBe(200);
    expect(changed.body.ownerUuid).toBe(next.user.uuid);
    const roles = await t
      .api(owner.token)
      .room.GET("/roomUserRoles/{room}/{user}", { params: { path: { room: room.uuid, user: owner.user.uuid } } });
    expect(roles.data?.map((r) => r.role)).toEqual(["coOwner"]);
    // The new owner can now do what owners do; the old one cannot.
    const resize = (token: string) =>
      t
        .api(token)
        .room.PATCH("/rooms/{id}/infrastructure", { params: { path: { id: room.uuid } }, body: { roomSize: 10 } });
    expect(await statusOf(resize(owner.token))).toBe(403);
    expect(await statusOf(resize(next.token))).toBe(200);
  });

  it("tells which users must stay off the dance floor", async () => {
    const { owner, mod, listener, room, grant } = await staffedRoom();
    const globallyBanned = await t.createUser();
    const admin = await t.createUser({ roles: ["user", "admin"] });
    await grant(mod.token, listener.user.uuid, "banned");
    const ban = await t
      .api(admin.token)
      .user.POST("/users/ban", { body: { userUuid: globallyBanned.user.uuid, reason: "spam" } });
    expect(ban.response.status).toBeLessThan(300);
    const res = await t.api(owner.token).room.POST("/roomUserRoles/no-dancefloor-users", {
      body: { roomUuid: room.uuid, userUuids: [owner.user.uuid, listener.user.uuid, globallyBanned.user.uuid] },
    });
    expect(res.data?.userUuids.sort()).toEqual([listener.user.uuid, globallyBanned.user.uuid].sort());
    expect(
      (await t.api().room.POST("/roomUserRoles/no-dancefloor-users", { body: { roomUuid: room.uuid, userUuids: [] } }))
        .response.status,
    ).toBe(401);
  });
});
