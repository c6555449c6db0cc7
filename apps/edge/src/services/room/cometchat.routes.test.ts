import { schema } from "@booth/db";
import type { RoomRole } from "@booth/db/schema";
import { describe, expect, it } from "vitest";
import type { FakeProviders } from "../../testing/fake-providers.ts";
import { withProviderApps } from "../../testing/provider-apps.ts";
import { expectRefusal, ok, type TestApp } from "../../testing.ts";
import { ROOM_CHAT_MESSAGES } from "./room-chat.ts";

let fake: FakeProviders;
let t: TestApp;
let bare: TestApp;
withProviderApps({ bare: true }, (apps) => ({ fake, t, bare } = apps));

const R = "/api/room-service";

async function makeRoom(app: TestApp, ownerUuid: string, extra: Partial<typeof schema.rooms.$inferInsert> = {}) {
  const [room] = await app.db
    .insert(schema.rooms)
    .values({ slug: `chat-${crypto.randomUUID().slice(0, 8)}`, name: "Chat room", ownerUuid, ...extra })
    .returning();
  if (!room) throw new Error("no room");
  return room;
}
const grant = (roomUuid: string, userUuid: string, role: RoomRole) =>
  t.db.insert(schema.roomUserRoles).values({ roomUuid, userUuid, role });
const members = (guid: string) => Object.fromEntries(fake.chat.members.get(guid) ?? []);

describe("POST /roomUserRoles/cometchat/join/{id}", () => {
  it("puts the caller in the room's group with the scope of their room role", async () => {
    const owner = await t.createUser({ nickname: "Owner" });
    const mod = await t.createUser();
    const listener = await t.createUser();
    const room = await makeRoom(t, owner.user.uuid);
    await grant(room.uuid, mod.user.uuid, "moderator");
    const join = (token: string) => t.request("POST", `${R}/roomUserRoles/cometchat/join/${room.uuid}`, { token });
    const a = await join(listener.token);
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ guid: room.uuid, uid: listener.user.uuid, scope: "participant" });
    expect((await join(mod.token)).body.scope).toBe("moderator");
    expect((await join(owner.token)).body.scope).toBe("admin");
    expect(fake.chat.groups.get(room.uuid)).toMatchObject({ name: "Chat room", type: "public" });
    expect(members(room.uuid)).toEqual({
      [owner.user.uuid]: "admin",
      [mod.user.uuid]: "moderator",
      [listener.user.uuid]: "participant",
    });
    // Joining again is harmless.
    expect((await join(listener.token)).status).toBe(200);
  });

  it("refuses banned users, guests, strangers to a private room, callers without a token", async () => {
    const owner = await t.createUser();
    const banned = await t.createUser();
    const room = await makeRoom(t, owner.user.uuid);
    await grant(room.uuid, banned.user.uuid, "banned");
    const refused = await t
      .api(banned.token)
      .room.POST("/roomUserRoles/cometchat/join/{id}", { params: { path: { id: room.uuid } } });
    expectRefusal(refused, 403, "You are banned from this room.");
    const guest = ok(await t.api().user.GET("/auth/guest")).accessToken;
    const asGuest = await t
      .api(guest)
      .room.POST("/roomUserRoles/cometchat/join/{id}", { params: { path: { id: room.uuid } } });
    expectRefusal(asGuest, 403, ROOM_CHAT_MESSAGES.guests);
    expect(
      (await t.api().room.POST("/roomUserRoles/cometchat/join/{id}", { params: { path: { id: room.uuid } } })).response
        .status,
    ).toBe(401);
    const secret = await makeRoom(t, owner.user.uuid, { type: "PRIVATE" });
    const stranger = await t.createUser();
    const outside = await t
      .api(stranger.token)
      .room.POST("/roomUserRoles/cometchat/join/{id}", { params: { path: { id: secret.uuid } } });
    expect(outside.response.status).toBe(403);
    expect(fake.chat.members.get(secret.uuid)?.has(stranger.user.uuid) ?? false).toBe(false);
    expect(members(room.uuid)[banned.user.uuid]).toBeUndefined();
  });

  it("answers 404 for an unknown room, 400 for a bad id, 503 unconfigured", async () => {
    const me = await t.createUser();
    const unknown = await t
      .api(me.token)
      .room.POST("/roomUserRoles/cometchat/join/{id}", { params: { path: { id: crypto.randomUUID() } } });
    expect(unknown.response.status).toBe(404);
    expect(
      (await t.api(me.token).room.POST("/roomUserRoles/cometchat/join/{id}", { params: { path: { id: "lobby" } } }))
        .response.status,
    ).toBe(400);
    const user = await bare.createUser();
    const room = await makeRoom(bare, user.user.uuid);
    const off = await bare
      .api(user.token)
      .room.POST("/roomUserRoles/cometchat/join/{id}", { params: { path: { id: room.uuid } } });
    expect(off.response.status).toBe(503);
    expect(off.error?.message).toContain("CometChat is not configured");
  });
});

describe("POST /roomUserRoles/cometchat/sync/{id}", () => {
  it("brings the group in line with the room: scopes, presence, bans, kicks, demotions", async () => {
    const { owner, coOwner, mod, present, named, troll, kicked, exMod } = await t.createUsers(
      "owner",
      "coOwner",
      "mod",
      "present",
      "named",
      "troll",
      "kicked",
      "exMod",
    );
    const room = await makeRoom(t, owner.user.uuid, { passwordHash: "x" });

    // Earlier: the ex-moderator and the kicked user joined while they were moderators / welcome.
    await grant(room.uuid, exMod.user.uuid, "moderator");
    await grant(room.uuid, kicked.user.uuid, "moderator");
    await t.db.insert(schema.roomPresence).values([
      { roomUuid: room.uuid, userUuid: exMod.user.uuid },
      { roomUuid: room.uuid, userUuid: kicked.user.uuid },
    ]);
    // Raw: the contract marks userUuids required, though the route takes an empty body (every member).
    const first = await t.request("POST", `/api/room-service/roomUserRoles/cometchat/sync/${room.uuid}`, {
      token: owner.token,
      body: {},
    });
    expect(first.status).toBe(200);
    expect(members(room.uuid)[exMod.user.uuid]).toBe("moderator");

    // Now: roles changed.
    await t.db.delete(schema.roomUserRoles);
    await grant(room.uuid, coOwner.user.uuid, "coOwner");
    await grant(room.uuid, mod.user.uuid, "moderator");
    await grant(room.uuid, troll.user.uuid, "banned");
    await grant(room.uuid, kicked.user.uuid, "kicked");
    await t.db.insert(schema.roomPresence).values({ roomUuid: room.uuid, userUuid: present.user.uuid });
    const res = await t.api(await t.serviceToken()).room.POST("/roomUserRoles/cometchat/sync/{id}", {
      params: { path: { id: room.uuid } },
      body: { userUuids: [named.user.uuid, crypto.randomUUID()] },
    });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ guid: room.uuid, admins: 2, moderators: 1, banned: 1, removed: 1 });
    expect(members(room.uuid)).toEqual({
      [owner.user.uuid]: "admin",
      [coOwner.user.uuid]: "admin",
      [mod.user.uuid]: "moderator",
      [present.user.uuid]: "participant",
      [named.user.uuid]: "participant",
      [exMod.user.uuid]: "participant",
    });
    expect(fake.chat.banned.get(room.uuid)).toEqual(new Set([troll.user.uuid]));
    expect(fake.chat.groups.get(room.uuid)?.type).toBe("private");

    // The ban is lifted: the next sync lifts it in the group too.
    await t.db.delete(schema.roomUserRoles);
    // Raw: the contract marks userUuids required, though the route takes an empty body (every member).
    const again = await t.request("POST", `/api/room-service/roomUserRoles/cometchat/sync/${room.uuid}`, {
      token: owner.token,
      body: {},
    });
    expect(again.body.unbanned).toBe(1);
    expect(fake.chat.banned.get(room.uuid)?.size).toBe(0);
  });

  it("is for the room's moderators and services only", async () => {
    const owner = await t.createUser();
    const listener = await t.createUser();
    const room = await makeRoom(t, owner.user.uuid);
    // Raw: the contract marks userUuids required, though the route takes an empty body (every member).
    const refused = await t.request("POST", `/api/room-service/roomUserRoles/cometchat/sync/${room.uuid}`, {
      token: listener.token,
      body: {},
    });
    expectRefusal(refused, 403, ROOM_CHAT_MESSAGES.notAllowed);
    expect(fake.chat.groups.has(room.uuid)).toBe(false);
    // Raw: the contract marks userUuids required, though the route takes an empty body (every member).
    expect(
      (await t.request("POST", `/api/room-service/roomUserRoles/cometchat/sync/${room.uuid}`, { body: {} })).status,
    ).toBe(401);
  });

  it("answers 400 for bad input, 404 for an unknown room, 502 when CometChat fails, 503 unconfigured", async () => {
    const owner = await t.createUser();
    const room = await makeRoom(t, owner.user.uuid);
    const path = `${R}/roomUserRoles/cometchat/sync/${room.uuid}`;
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [{ userUuids: ["x"] }, { userUuids: "x" }, { other: 1 }]) {
      const res = await t.request("POST", path, { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    // Raw: the contract marks userUuids required, though the route takes an empty body (every member).
    const unknown = await t.request("POST", `/api/room-service/roomUserRoles/cometchat/sync/${crypto.randomUUID()}`, {
      token: owner.token,
      body: {},
    });
    expect(unknown.status).toBe(404);
    fake.control.failWith = 502;
    try {
      // Raw: the contract marks userUuids required, though the route takes an empty body (every member).
      const res = await t.request("POST", `/api/room-service/roomUserRoles/cometchat/sync/${room.uuid}`, {
        token: owner.token,
        body: {},
      });
      expectRefusal(res, 502, "CometChat answered 502.");
    } finally {
      fake.control.failWith = null;
    }
    const user = await bare.createUser();
    const other = await makeRoom(bare, user.user.uuid);
    // Raw: the contract marks userUuids required, though the route takes an empty body (every member).
    const off = await bare.request("POST", `/api/room-service/roomUserRoles/cometchat/sync/${other.uuid}`, {
      token: user.token,
      body: {},
    });
    expect(off.status).toBe(503);
  });

  it("adds more members than CometChat takes in one call, in batches", async () => {
    const owner = await t.createUser();
    const room = await makeRoom(t, owner.user.uuid);
    const crowd = await Promise.all(Array.from({ length: 30 }, () => t.createUser()));
    await t.db.insert(schema.roomPresence).values(crowd.map((u) => ({ roomUuid: room.uuid, userUuid: u.user.uuid })));
    // Raw: the contract marks userUuids required, though the route takes an empty body (every member).
    const res = await t.request("POST", `/api/room-service/roomUserRoles/cometchat/sync/${room.uuid}`, {
      token: owner.token,
      body: {},
    });
    expect(res.status).toBe(200);
    expect(res.body.participants).toBe(30);
    expect(Object.keys(members(room.uuid))).toHaveLength(31);
  });
});
