import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { recordingLiveRooms } from "../../ports/live-rooms.ts";
import { createTestApp, type TestApp } from "../../testing.ts";
import { publicRooms } from "./room-lists.ts";
import { favoritedSet, roomView } from "./rooms.ts";

let t: TestApp;
let live: ReturnType<typeof recordingLiveRooms>;
beforeAll(async () => {
  t = await createTestApp();
  live = t.deps.liveRooms as ReturnType<typeof recordingLiveRooms>;
});
afterAll(() => t.close());

const R = "/api/room-service";
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

async function createRoom(token: string, body: Record<string, unknown> = {}) {
  const res = await t.request("POST", `${R}/rooms/infrastructure`, {
    token,
    body: { name: `Room ${crypto.randomUUID().slice(0, 8)}`, ...body },
  });
  expect(res.status).toBe(201);
  return res.body as { uuid: string; slug: string; [k: string]: unknown };
}

describe("creating and changing rooms", () => {
  it("creates a room owned by the caller, with a slug from its name, never showing passwords", async () => {
    const owner = await t.createUser();
    const res = await t.request("POST", `${R}/rooms/infrastructure`, {
      token: owner.token,
      body: { name: "Late Night Jazz!", password: "secret1", numberOfDjs: 3, design: "YACHT" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      slug: "late-night-jazz",
      ownerUuid: owner.user.uuid,
      numberOfDjs: 3,
      design: "YACHT",
      isPasswordProtected: true,
      type: "PUBLIC",
    });
    expect(JSON.stringify(res.body)).not.toContain("secret1");
    expect(JSON.stringify(res.body)).not.toContain("passwordHash");
    const again = await t.request("POST", `${R}/rooms/infrastructure`, {
      token: owner.token,
      body: { name: "Late Night Jazz" },
    });
    expect(again.body.slug).toBe("late-night-jazz-2");
    const taken = await t.request("POST", `${R}/rooms/infrastructure`, {
      token: owner.token,
      body: { name: "x y", slug: "late-night-jazz" },
    });
    expect(taken.status).toBe(400);
    expect(taken.body.message).toBe("This room slug is already taken.");
    expect((await t.request("GET", `${R}/rooms/late-night-jazz`)).body.uuid).toBe(res.body.uuid);
    expect((await t.request("GET", `${R}/rooms/uuid/${res.body.uuid}`)).body.slug).toBe("late-night-jazz");
  });

  it("refuses bad input and callers without a token, creating nothing", async () => {
    const owner = await t.createUser();
    expect((await t.request("POST", `${R}/rooms/infrastructure`, { body: { name: "No token" } })).status).toBe(401);
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
    expect((await t.request("GET", `${R}/rooms/owned-rooms/list`, { token: owner.token })).body).toEqual([]);
  });

  it("lets owners change everything, co-owners how it plays, and nobody else; the live room hears of it", async () => {
    const owner = await t.createUser();
    const coOwner = await t.createUser();
    const stranger = await t.createUser();
    const room = await createRoom(owner.token);
    await t.db
      .insert(schema.roomUserRoles)
      .values({ roomUuid: room.uuid, userUuid: coOwner.user.uuid, role: "coOwner" });

    const byStranger = await t.request("PATCH", `${R}/rooms/${room.uuid}`, {
      token: stranger.token,
      body: { name: "Hijacked" },
    });
    expect(byStranger.status).toBe(403);
    const byCo = await t.request("PATCH", `${R}/rooms/${room.uuid}`, {
      token: coOwner.token,
      body: { name: "Renamed", voteSkipThreshold: 0.5 },
    });
    expect(byCo.status).toBe(200);
    expect(byCo.body).toMatchObject({ name: "Renamed", voteSkipThreshold: 0.5 });
    expect(live.events.at(-1)).toMatchObject({ roomUuid: room.uuid, event: { type: "updateRoomSettings" } });
    // Who may enter is the owner's: co-owners cannot set a password, not even through /rooms/{id}.
    expect(
      (await t.request("PATCH", `${R}/rooms/${room.uuid}`, { token: coOwner.token, body: { password: "abcd" } }))
        .status,
    ).toBe(400);
    expect(
      (
        await t.request("PATCH", `${R}/rooms/${room.uuid}/infrastructure`, {
          token: coOwner.token,
          body: { password: "abcd" },
        })
      ).status,
    ).toBe(403);
    const byOwner = await t.request("PATCH", `${R}/rooms/${room.uuid}/infrastructure`, {
      token: owner.token,
      body: { password: "abcd", type: "PRIVATE", slug: "renamed-room" },
    });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body).toMatchObject({ isPasswordProtected: true, type: "PRIVATE", slug: "renamed-room" });

    const seats = await t.request("PATCH", `${R}/rooms/dj-seats/${room.uuid}/infrastructure`, {
      token: coOwner.token,
      body: { numberOfDjs: 2 },
    });
    expect(seats.body.numberOfDjs).toBe(2);
    expect(
      (
        await t.request("PATCH", `${R}/rooms/dj-seats/${room.uuid}/infrastructure`, {
          token: stranger.token,
          body: { numberOfDjs: 4 },
        })
      ).status,
    ).toBe(403);
    const djType = await t.request("PATCH", `${R}/rooms/dj-type/${room.uuid}/infrastructure`, {
      token: owner.token,
      body: { djType: "INVITE_ONLY" },
    });
    expect(djType.body.djType).toBe("INVITE_ONLY");
    expect(
      (
        await t.request("PATCH", `${R}/rooms/live-audio/${room.uuid}/infrastructure`, {
          token: coOwner.token,
          body: { liveAudio: true },
        })
      ).status,
    ).toBe(403);
    const liveAudio = await t.request("PATCH", `${R}/rooms/live-audio/${room.uuid}/infrastructure`, {
      token: owner.token,
      body: { liveAudio: true },
    });
    expect(liveAudio.body.liveAudio).toBe(true);
  });

  it("takes what is playing only from the live room itself", async () => {
    const owner = await t.createUser();
    const room = await createRoom(owner.token);
    const path = `${R}/rooms/live-state/${room.uuid}/infrastructure`;
    const song = { trackName: "Song", artistName: "Artist", duration: 180 };
    expect((await t.request("PATCH", path, { token: owner.token, body: { nowPlaying: song } })).status).toBe(403);
    expect((await t.request("PATCH", path, { token: owner.token, body: { isLive: true } })).body.isLive).toBe(true);
    const fromRoom = await t.request("PATCH", path, {
      token: await t.serviceToken(),
      body: { nowPlaying: song, numberOfActiveDjs: 2 },
    });
    expect(fromRoom.status).toBe(200);
    const seen = await t.request("GET", `${R}/rooms/uuid/${room.uuid}`);
    expect(seen.body).toMatchObject({ song, numberOfActiveDjs: 2, isLive: true });
  });

  it("pins messages, sets a poster and an external link, for the right ranks", async () => {
    const owner = await t.createUser();
    const mod = await t.createUser();
    const stranger = await t.createUser();
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
    expect((await t.request("POST", `${R}/rooms/${room.uuid}/poster`, { token: mod.token, body: form() })).status).toBe(
      403,
    );
    const notImage = new FormData();
    notImage.set("file", new File(["hello"], "poster.png"));
    expect(
      (await t.request("POST", `${R}/rooms/${room.uuid}/poster`, { token: owner.token, body: notImage })).status,
    ).toBe(415);
    const poster = await t.request("POST", `${R}/rooms/${room.uuid}/poster`, { token: owner.token, body: form() });
    expect(poster.status).toBe(200);
    const image = await t.app.request(poster.body.posterUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect((await t.request("DELETE", `${R}/rooms/${room.uuid}/poster`, { token: owner.token })).body.posterUrl).toBe(
      null,
    );
    expect((await t.app.request(poster.body.posterUrl)).status).toBe(404);
    expect((await t.request("DELETE", `${R}/rooms/${room.uuid}/poster`, { token: owner.token })).status).toBe(404);
  });

  it("promotes rooms only for staff or the promoteRoom capability", async () => {
    const owner = await t.createUser();
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const room = await createRoom(owner.token);
    const promote = (token: string, body: unknown) =>
      t.request("PATCH", `${R}/rooms/promote/${room.uuid}/infrastructure`, { token, body });
    expect((await promote(owner.token, { promoted: true })).status).toBe(403);
    expect((await promote(staff.token, { promoted: true, providers: ["spotify"] })).status).toBe(200);
    const forSpotify = await t.request("GET", `${R}/rooms/promoted-rooms`, { query: { providers: "spotify,apple" } });
    expect(forSpotify.body.map((r: { uuid: string }) => r.uuid)).toContain(room.uuid);
    const forYoutube = await t.request("GET", `${R}/rooms/promoted-rooms`, { query: { providers: "youtube" } });
    expect(forYoutube.body.map((r: { uuid: string }) => r.uuid)).not.toContain(room.uuid);
  });

  it("deletes a room for its owner or an admin only, and resets the live room", async () => {
    const owner = await t.createUser();
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const coOwner = await t.createUser();
    const a = await createRoom(owner.token);
    const b = await createRoom(owner.token);
    await t.db.insert(schema.roomUserRoles).values({ roomUuid: a.uuid, userUuid: coOwner.user.uuid, role: "coOwner" });
    expect((await t.request("DELETE", `${R}/rooms/${a.uuid}/infrastructure`)).status).toBe(401);
    expect((await t.request("DELETE", `${R}/rooms/${a.uuid}/infrastructure`, { token: coOwner.token })).status).toBe(
      403,
    );
    expect((await t.request("DELETE", `${R}/rooms/${a.uuid}/infrastructure`, { token: owner.token })).status).toBe(204);
    expect(live.events.at(-1)).toEqual({ roomUuid: a.uuid, event: { type: "resetRoom" } });
    expect((await t.request("DELETE", `${R}/rooms/${b.uuid}/infrastructure`, { token: admin.token })).status).toBe(204);
    expect((await t.request("GET", `${R}/rooms/uuid/${a.uuid}`)).status).toBe(404);
    expect((await t.request("DELETE", `${R}/rooms/${a.uuid}/infrastructure`, { token: owner.token })).status).toBe(404);
  });

  it("admins change any room and its guest password; others may not", async () => {
    const owner = await t.createUser();
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const room = await createRoom(owner.token);
    expect(
      (await t.request("PATCH", `${R}/rooms/admin/${room.uuid}`, { token: owner.token, body: { promoted: true } }))
        .status,
    ).toBe(403);
    const changed = await t.request("PATCH", `${R}/rooms/admin/${room.uuid}`, {
      token: staff.token,
      body: { promoted: true, ownerUuid: staff.user.uuid },
    });
    expect(changed.body).toMatchObject({ promoted: true, ownerUuid: staff.user.uuid });
    const gp = (token: string) =>
      t.request("POST", `${R}/rooms/admin/guest-password`, {
        token,
        body: { roomUuid: room.uuid, guestPassword: "guests1" },
      });
    expect((await gp(staff.token)).status).toBe(403);
    expect((await gp(admin.token)).body.isGuestPasswordProtected).toBe(true);
    const del = await t.request("DELETE", `${R}/rooms/admin/guest-password`, {
      token: admin.token,
      body: { roomUuid: room.uuid },
    });
    expect(del.body.isGuestPasswordProtected).toBe(false);
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
    const page = await t.request("GET", `${R}/rooms/public`, { query: { limit: 1000 } });
    const uuids = page.body.data.map((r: { uuid: string }) => r.uuid);
    expect(uuids.indexOf(busy.uuid)).toBeLessThan(uuids.indexOf(quiet.uuid));
    expect(uuids).not.toContain(hidden.uuid);
    expect(uuids).not.toContain(unlisted.uuid);
    expect(page.body.data.find((r: { uuid: string }) => r.uuid === busy.uuid).numberOfUsersInRoom).toBe(2);
    expect((await t.request("GET", `${R}/rooms/private-count`)).body.count).toBeGreaterThanOrEqual(1);
    expect((await t.request("GET", `${R}/rooms/public`, { query: { limit: 0 } })).status).toBe(400);

    const multiple = await t.request("GET", `${R}/rooms/multiple/list?room=${quiet.uuid}&room=${hidden.uuid}`);
    expect(multiple.body.map((r: { uuid: string }) => r.uuid).sort()).toEqual([quiet.uuid, hidden.uuid].sort());
    expect((await t.request("GET", `${R}/rooms/multiple/list?room=nope`)).status).toBe(400);
  });

  it("answers the caller's owned and staffed rooms", async () => {
    const owner = await t.createUser();
    const mod = await t.createUser();
    const room = await createRoom(owner.token);
    await t.db.insert(schema.roomUserRoles).values({ roomUuid: room.uuid, userUuid: mod.user.uuid, role: "moderator" });
    expect((await t.request("GET", `${R}/rooms/mine/list`)).status).toBe(401);
    const mine = await t.request("GET", `${R}/rooms/mine/list`, { token: mod.token });
    expect(mine.body.map((r: { uuid: string }) => r.uuid)).toEqual([room.uuid]);
    expect((await t.request("GET", `${R}/rooms/owned-rooms/list`, { token: mod.token })).body).toEqual([]);
    const owned = await t.request("GET", `${R}/rooms/owned-rooms/list`, { token: owner.token });
    expect(owned.body.map((r: { uuid: string }) => r.uuid)).toEqual([room.uuid]);
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
    expect((await t.request("POST", `${R}/rooms/list`, { body: { rooms: [] } })).status).toBe(400);
  });

  it("favourites: add once, list with the flag, hide others' private favourites, remove by room", async () => {
    const owner = await t.createUser();
    const fan = await t.createUser();
    const other = await t.createUser();
    const room = await createRoom(owner.token);
    const secret = await createRoom(owner.token, { type: "PRIVATE" });
    const add = (roomUuid: string) =>
      t.request("POST", `${R}/api/v1/room-favorites`, { token: fan.token, body: { roomUuid } });
    expect((await add(room.uuid)).status).toBe(201);
    expect((await add(room.uuid)).status).toBe(200);
    expect((await add(secret.uuid)).status).toBe(201);
    expect((await add(crypto.randomUUID())).status).toBe(404);
    expect((await t.request("POST", `${R}/api/v1/room-favorites`, { body: { roomUuid: room.uuid } })).status).toBe(401);

    const mine = await t.request("GET", `${R}/api/v1/room-favorites`, { token: fan.token });
    expect(mine.body).toHaveLength(2);
    const seenByOther = await t.request("GET", `${R}/api/v1/room-favorites`, {
      token: other.token,
      query: { userUuid: fan.user.uuid },
    });
    expect(seenByOther.body.map((f: { roomUuid: string }) => f.roomUuid)).toEqual([room.uuid]);
    const checked = await t.request("GET", `${R}/api/v1/room-favorites`, {
      token: fan.token,
      query: { roomUuidIn: `${secret.uuid}` },
    });
    expect(checked.body).toHaveLength(1);
    expect((await t.request("GET", `${R}/rooms/uuid/${room.uuid}`, { token: fan.token })).body.favorited).toBe(true);
    expect((await t.request("GET", `${R}/rooms/uuid/${room.uuid}`, { token: other.token })).body.favorited).toBe(false);

    const favs = await t.request("GET", `${R}/rooms/favorites`, {
      token: fan.token,
      query: { includePrivate: "true" },
    });
    expect(favs.body).toHaveLength(2);
    const publicOnly = await t.request("GET", `${R}/rooms/favorites`, {
      token: other.token,
      query: { userUuid: fan.user.uuid, includePrivate: "true" },
    });
    expect(publicOnly.body.map((r: { uuid: string }) => r.uuid)).toEqual([room.uuid]);

    const favId = mine.body[0].id;
    expect((await t.request("DELETE", `${R}/api/v1/room-favorites/${favId}`, { token: other.token })).status).toBe(403);
    expect((await t.request("DELETE", `${R}/api/v1/room-favorites/${room.uuid}`, { token: fan.token })).status).toBe(
      204,
    );
    expect((await t.request("GET", `${R}/api/v1/room-favorites`, { token: fan.token })).body).toHaveLength(1);
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
    const recent = await t.request("GET", `${R}/rooms/recent`, { token: visitor.token });
    expect(recent.body.map((r: { uuid: string }) => r.uuid)).toEqual([a.uuid, b.uuid]);
    const trending = await t.request("GET", `${R}/rooms/rockset/recently-visited-rooms`);
    expect(trending.status, JSON.stringify(trending.body)).toBe(200);
    expect(trending.body.map((r: { uuid: string }) => r.uuid)).toEqual(expect.arrayContaining([a.uuid, b.uuid]));
    t.clock.advance(25 * 3600);
    const later = await t.request("GET", `${R}/rooms/rockset/recently-visited-rooms`);
    expect(later.body.map((r: { uuid: string }) => r.uuid)).not.toContain(a.uuid);
  });

  it("service lists need a service token; admin lists need staff", async () => {
    const owner = await t.createUser();
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const room = await createRoom(owner.token, { name: "Crud Findable" });
    expect((await t.request("GET", `${R}/rooms/service/list`, { token: owner.token })).status).toBe(403);
    const list = await t.request("GET", `${R}/rooms/service/list`, {
      token: await t.serviceToken(),
      query: { take: 1000 },
    });
    expect(list.body.data.map((r: { uuid: string }) => r.uuid)).toContain(room.uuid);
    const one = await t.request("GET", `${R}/rooms/service/room/${room.uuid}`, { token: await t.serviceToken() });
    expect(one.body.roomRoles).toEqual([{ userUuid: owner.user.uuid, role: "owner", expirationTime: null }]);
    expect((await t.request("GET", `${R}/admin/rooms`, { token: owner.token })).status).toBe(403);
    const crud = await t.request("GET", `${R}/admin/rooms`, {
      token: staff.token,
      query: { filter: "name||$eq||Crud Findable", fields: "name" },
    });
    expect(crud.body).toMatchObject({ total: 1, data: [{ uuid: room.uuid, name: "Crud Findable" }] });
    expect(
      (await t.request("GET", `${R}/admin/rooms`, { token: staff.token, query: { filter: "nope||$eq||1" } })).status,
    ).toBe(400);
    expect(
      (await t.request("GET", `${R}/admin/rooms/${room.uuid}`, { token: staff.token })).body.roomRoles,
    ).toHaveLength(1);
  });

  it("discord guild rooms: link an own room or create one, list them", async () => {
    const owner = await t.createUser();
    const stranger = await t.createUser();
    const room = await createRoom(owner.token);
    const guild = "123456789012345678";
    expect(
      (await t.request("POST", `${R}/rooms/discord/${guild}`, { token: stranger.token, body: { roomUuid: room.uuid } }))
        .status,
    ).toBe(403);
    expect(
      (await t.request("POST", `${R}/rooms/discord/${guild}`, { token: owner.token, body: { roomUuid: room.uuid } }))
        .status,
    ).toBe(200);
    const created = await t.request("POST", `${R}/rooms/discord/${guild}`, {
      token: stranger.token,
      body: { name: "Guild Hangout" },
    });
    expect(created.status).toBe(201);
    expect(
      (await t.request("POST", `${R}/rooms/discord/not-a-guild`, { token: owner.token, body: { name: "x y" } })).status,
    ).toBe(400);
    expect((await t.request("POST", `${R}/rooms/discord/${guild}`, { token: owner.token, body: {} })).status).toBe(400);
    const list = await t.request("GET", `${R}/rooms/discord/list/${guild}`);
    expect(list.body.map((r: { uuid: string }) => r.uuid).sort()).toEqual([room.uuid, created.body.uuid].sort());
  });
});

describe("joining", () => {
  it("admits users, records the visit, and answers the room's config with its roles", async () => {
    const owner = await t.createUser();
    const listener = await t.createUser();
    const room = await createRoom(owner.token);
    const res = await t.request("POST", `${R}/rooms/${room.slug}/join`, { token: listener.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uuid: room.uuid, roomRoles: [{ userUuid: owner.user.uuid, role: "owner" }] });
    const recent = await t.request("GET", `${R}/rooms/recent`, { token: listener.token });
    expect(recent.body.map((r: { uuid: string }) => r.uuid)).toEqual([room.uuid]);
    expect((await t.request("POST", `${R}/rooms/${room.slug}/join`, { body: {} })).status).toBe(401);
    expect(
      (await t.request("POST", `${R}/rooms/${room.slug}/join`, { token: await t.serviceToken(), body: {} })).status,
    ).toBe(401);
    expect((await t.request("POST", `${R}/rooms/no-such-room/join`, { token: listener.token, body: {} })).status).toBe(
      404,
    );
  });

  it("asks for the password, except of co-owners and up", async () => {
    const owner = await t.createUser();
    const listener = await t.createUser();
    const room = await createRoom(owner.token, { password: "opensesame" });
    const join = (token: string, body: unknown) => t.request("POST", `${R}/rooms/${room.uuid}/join`, { token, body });
    expect((await join(listener.token, {})).body.message).toBe("This room needs a password.");
    const wrong = await join(listener.token, { password: "nope" });
    expect(wrong.status).toBe(403);
    expect(wrong.body.message).toBe("Wrong room password.");
    expect((await join(listener.token, { password: "opensesame" })).status).toBe(200);
    expect((await join(owner.token, {})).status).toBe(200);
  });

  it("refuses banned and kicked users until it expires, and admits guests only as the room allows", async () => {
    const owner = await t.createUser();
    const banned = await t.createUser();
    const room = await createRoom(owner.token);
    const ban = await t.request("POST", `${R}/roomUserRoles/${room.uuid}`, {
      token: owner.token,
      body: {
        userUuid: banned.user.uuid,
        role: "banned",
        expirationTime: new Date(t.clock.now().getTime() + 3600_000).toISOString(),
      },
    });
    expect(ban.status).toBe(201);
    const refused = await t.request("POST", `${R}/rooms/${room.uuid}/join`, { token: banned.token, body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("You are banned from this room.");
    t.clock.advance(3601);
    const back = await t.request("POST", `${R}/rooms/${room.uuid}/join`, {
      token: await t.tokenFor(banned.user.uuid),
      body: {},
    });
    expect(back.status).toBe(200);

    const guest = (await t.request("GET", "/api/user-service/auth/guest")).body.accessToken as string;
    expect((await t.request("POST", `${R}/rooms/${room.uuid}/join`, { token: guest, body: {} })).status).toBe(200);
    const locked = await createRoom(owner.token, { password: "members" });
    const lockedJoin = await t.request("POST", `${R}/rooms/${locked.uuid}/join`, { token: guest, body: {} });
    expect(lockedJoin.body.message).toBe("Guests cannot join this room.");
    const admin = await t.createUser({ roles: ["user", "admin"] });
    await t.request("POST", `${R}/rooms/admin/guest-password`, {
      token: admin.token,
      body: { roomUuid: locked.uuid, guestPassword: "guestpass" },
    });
    const withGuestPassword = await t.request("POST", `${R}/rooms/${locked.uuid}/join`, {
      token: guest,
      body: { guestPassword: "guestpass" },
    });
    expect(withGuestPassword.status).toBe(200);
  });

  it("refuses people when the room is full, but not its moderators", async () => {
    const owner = await t.createUser();
    const room = await createRoom(owner.token, { roomSize: 2 });
    const inside = await Promise.all([1, 2].map(() => t.createUser()));
    const service = await t.serviceToken();
    for (const u of inside)
      expect(
        (await t.request("PATCH", `${R}/rooms/user/${u.user.uuid}`, { token: service, body: { roomUuid: room.uuid } }))
          .status,
      ).toBe(204);
    const late = await t.createUser();
    const full = await t.request("POST", `${R}/rooms/${room.uuid}/join`, { token: late.token, body: {} });
    expect(full.body.message).toBe("This room is full.");
    expect(
      (await t.request("POST", `${R}/rooms/${room.uuid}/join`, { token: inside[0]!.token, body: {} })).status,
    ).toBe(200);
    expect((await t.request("POST", `${R}/rooms/${room.uuid}/join`, { token: owner.token, body: {} })).status).toBe(
      200,
    );
    // Someone leaves: there is room again.
    expect(
      (
        await t.request("DELETE", `${R}/rooms/user/${inside[1]!.user.uuid}`, {
          token: service,
          query: { roomUuid: room.uuid },
        })
      ).status,
    ).toBe(204);
    expect((await t.request("POST", `${R}/rooms/${room.uuid}/join`, { token: late.token, body: {} })).status).toBe(200);
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
    const users = await t.request("GET", `${R}/rooms/users/${room.slug}`);
    expect(users.body.map((p: { nickname: string }) => p.nickname)).toEqual(["roomowner"]);
    const uuids = await t.request("GET", `${R}/rooms/users/service/${room.uuid}`, { token: service });
    expect(uuids.body.userUuids).toEqual([owner.user.uuid]);
    expect((await t.request("GET", `${R}/rooms/users/service/${room.uuid}`, { token: owner.token })).status).toBe(403);
    expect(
      (
        await t.request("PATCH", `${R}/rooms/user/${crypto.randomUUID()}`, {
          token: service,
          body: { roomUuid: room.uuid },
        })
      ).status,
    ).toBe(404);
    await t.request("DELETE", `${R}/rooms/user/${owner.user.uuid}`, { token: service });
    expect((await t.request("GET", `${R}/rooms/users/${room.uuid}`)).body).toEqual([]);
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
    const bad = await t.request("POST", `${R}/rooms/${room.slug}/recent-songs`, {
      token: service,
      body: { song: { trackName: "x" }, voteCounts: { likes: -1, dislikes: 0, stars: 0 } },
    });
    expect(bad.status).toBe(400);
    const recent = await t.request("GET", `${R}/rooms/${room.slug}/recent-songs`, { query: { limit: 1 } });
    expect(recent.body.total).toBe(2);
    expect(recent.body.data[0]).toMatchObject({ song: { trackName: "Second" }, voteCounts: { likes: 2, stars: 1 } });
    const played = await t.request("GET", `${R}/rooms/room-played-time/${room.uuid}`);
    expect(played.body).toEqual({ roomUuid: room.uuid, playedSeconds: 150, songs: 2 });
    expect((await t.request("GET", `${R}/info-admin/played-seconds`, { token: owner.token })).status).toBe(403);
    const total = await t.request("GET", `${R}/info-admin/played-seconds`, { token: staff.token });
    expect(total.body.playedSeconds).toBeGreaterThanOrEqual(150);
    const since = await t.request("GET", `${R}/info-admin/played-seconds`, {
      token: staff.token,
      query: { since: new Date(t.clock.now().getTime() + 1000).toISOString() },
    });
    expect(since.body).toEqual({ playedSeconds: 0, songs: 0 });
  });

  it("answers the live state the room reports, and 404 when nobody is in it", async () => {
    const owner = await t.createUser();
    const stranger = await t.createUser();
    const room = await createRoom(owner.token);
    expect((await t.request("GET", `${R}/rooms/room-state/${room.uuid}`)).status).toBe(404);
    live.states.set(room.uuid, { djs: [], nowPlaying: null });
    const state = await t.request("GET", `${R}/rooms/room-state/${room.uuid}`);
    expect(state.body).toEqual({ roomUuid: room.uuid, state: { djs: [], nowPlaying: null } });
    const secret = await createRoom(owner.token, { type: "PRIVATE" });
    live.states.set(secret.uuid, { djs: [] });
    expect((await t.request("GET", `${R}/rooms/room-state/${secret.uuid}`, { token: stranger.token })).status).toBe(
      403,
    );
    expect((await t.request("GET", `${R}/rooms/room-state/${secret.uuid}`, { token: owner.token })).status).toBe(200);
  });

  it("clears the room's chat for moderators", async () => {
    const owner = await t.createUser();
    const stranger = await t.createUser();
    const room = await createRoom(owner.token);
    expect((await t.request("DELETE", `${R}/rooms/conversation/${room.uuid}`, { token: stranger.token })).status).toBe(
      403,
    );
    expect((await t.request("DELETE", `${R}/rooms/conversation/${room.uuid}`, { token: owner.token })).status).toBe(
      204,
    );
    expect(live.events.at(-1)).toEqual({ roomUuid: room.uuid, event: { type: "clearChat" } });
  });

  it("resets the live room for its owner and global moderators, nobody else", async () => {
    const owner = await t.createUser();
    const coOwner = await t.createUser();
    const globalModerator = await t.createUser({ roles: ["user", "globalModerator"] });
    const room = await createRoom(owner.token);
    await t.request("POST", `${R}/roomUserRoles/${room.uuid}`, {
      token: owner.token,
      body: { userUuid: coOwner.user.uuid, role: "coOwner" },
    });
    const before = live.events.length;
    const reset = (token?: string) => t.request("POST", `${R}/rooms/reset/${room.uuid}/infrastructure`, { token });
    expect((await reset()).status).toBe(401);
    const refused = await reset(coOwner.token);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Only the room's owner may reset it.");
    expect(live.events.length).toBe(before);
    expect((await reset(owner.token)).status).toBe(204);
    expect(live.events.at(-1)).toEqual({ roomUuid: room.uuid, event: { type: "resetRoom" } });
    expect((await reset(globalModerator.token)).status).toBe(204);
    expect(live.events.length).toBe(before + 2);
    expect(
      (await t.request("POST", `${R}/rooms/reset/${crypto.randomUUID()}/infrastructure`, { token: owner.token }))
        .status,
    ).toBe(404);
  });
});

describe("room roles", () => {
  async function staffedRoom() {
    const owner = await t.createUser();
    const coOwner = await t.createUser();
    const mod = await t.createUser();
    const listener = await t.createUser();
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
    expect(
      (
        await t.request("POST", `${R}/roomUserRoles/${room.uuid}`, {
          body: { userUuid: listener.user.uuid, role: "dj" },
        })
      ).status,
    ).toBe(401);
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
    expect(live.events.at(-1)).toEqual({ roomUuid: room.uuid, event: { type: "updateRoles" } });
    const roles = await t.request("GET", `${R}/roomUserRoles/${room.uuid}/${listener.user.uuid}`, {
      token: listener.token,
    });
    expect(roles.body.map((r: { role: string }) => r.role)).toEqual(["chatDisabled"]);
    // Sanctions are the moderators' business: others see only who runs the room.
    const publicView = await t.request("GET", `${R}/roomUserRoles/${room.uuid}`);
    expect(publicView.body.map((r: { role: string }) => r.role).sort()).toEqual(["coOwner", "moderator", "owner"]);
    const modView = await t.request("GET", `${R}/roomUserRoles/${room.uuid}`, { token: mod.token });
    expect(modView.body.map((r: { role: string }) => r.role)).toContain("chatDisabled");
    expect(
      (await t.request("GET", `${R}/roomUserRoles/${room.uuid}/${mod.user.uuid}`, { token: listener.token })).status,
    ).toBe(403);
    // The mute clears itself.
    t.clock.advance(61);
    const later = await t.request("GET", `${R}/roomUserRoles/${room.uuid}/${listener.user.uuid}`, {
      token: await t.tokenFor(listener.user.uuid),
    });
    expect(later.body).toEqual([]);
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
    expect(live.events.at(-1)).toEqual({
      roomUuid: room.uuid,
      event: { type: "kickUser", userUuid: listener.user.uuid },
    });
    expect(
      (await t.request("GET", `${R}/rooms/users/service/${room.uuid}`, { token: await t.serviceToken() })).body
        .userUuids,
    ).toEqual([]);
    const refused = await t.request("POST", `${R}/rooms/${room.uuid}/join`, { token: listener.token, body: {} });
    expect(refused.body.message).toBe("You were removed from this room. Try again later.");
    const [action] = await t.db
      .select()
      .from(schema.moderationActions)
      .where(eq(schema.moderationActions.targetUuid, listener.user.uuid));
    expect(action).toMatchObject({
      actionType: "kickUser",
      roomUuid: room.uuid,
      moderatorUuid: mod.user.uuid,
      reason: "spam",
    });
    t.clock.advance(5 * 60 + 1);
    const back = await t.request("POST", `${R}/rooms/${room.uuid}/join`, {
      token: await t.tokenFor(listener.user.uuid),
      body: {},
    });
    expect(back.status).toBe(200);
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
    const roles = await t.request("GET", `${R}/roomUserRoles/${room.uuid}/${owner.user.uuid}`, { token: owner.token });
    expect(roles.body.map((r: { role: string }) => r.role)).toEqual(["coOwner"]);
    // The new owner can now do what owners do; the old one cannot.
    expect(
      (
        await t.request("PATCH", `${R}/rooms/${room.uuid}/infrastructure`, {
          token: owner.token,
          body: { roomSize: 10 },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.request("PATCH", `${R}/rooms/${room.uuid}/infrastructure`, {
          token: next.token,
          body: { roomSize: 10 },
        })
      ).status,
    ).toBe(200);
  });

  it("tells which users must stay off the dance floor", async () => {
    const { owner, mod, listener, room, grant } = await staffedRoom();
    const globallyBanned = await t.createUser();
    const admin = await t.createUser({ roles: ["user", "admin"] });
    await grant(mod.token, listener.user.uuid, "banned");
    const ban = await t.request("POST", "/api/user-service/users/ban", {
      token: admin.token,
      body: { userUuid: globallyBanned.user.uuid, reason: "spam" },
    });
    expect(ban.status).toBeLessThan(300);
    const res = await t.request("POST", `${R}/roomUserRoles/no-dancefloor-users`, {
      token: owner.token,
      body: { roomUuid: room.uuid, userUuids: [owner.user.uuid, listener.user.uuid, globallyBanned.user.uuid] },
    });
    expect(res.body.userUuids.sort()).toEqual([listener.user.uuid, globallyBanned.user.uuid].sort());
    expect(
      (
        await t.request("POST", `${R}/roomUserRoles/no-dancefloor-users`, {
          body: { roomUuid: room.uuid, userUuids: [] },
        })
      ).status,
    ).toBe(401);
  });
});
