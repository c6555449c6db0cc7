import { schema } from "@booth/db";
import { count, eq } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, expectStatuses, ok, openTestApp, statusOf, type TestUser } from "../../testing.ts";

const t = openTestApp();
let admin: TestUser;
let staff: TestUser;
beforeAll(async () => {
  admin = await t.createUser({ roles: ["user", "admin"] });
  staff = await t.createUser({ roles: ["user", "staff"] });
});

const R = "/api/room-service";
const tag = () => crypto.randomUUID().slice(0, 8);

async function insertRoom(ownerUuid: string, extra: Partial<typeof schema.rooms.$inferInsert> = {}) {
  const slug = `room-${tag()}`;
  const [room] = await t.db
    .insert(schema.rooms)
    .values({ slug, name: slug, ownerUuid, ...extra })
    .returning();
  return room!;
}

/** Adds a room to a community, as the caller `token`. */
const addToCommunity = (token: string | undefined, id: string, roomId: string) =>
  t.api(token).room.PUT("/communities/{id}/rooms/{roomId}", { params: { path: { id, roomId } } });

async function grant(roomUuid: string, userUuid: string, role: "owner" | "coOwner" | "moderator") {
  await t.db.insert(schema.roomUserRoles).values({ roomUuid, userUuid, role });
}

async function createCommunity(body: Record<string, unknown> = {}) {
  const res = await t
    .api(admin.token)
    .room.POST("/admin/communities", { body: { name: `Community ${tag()}`, ...body } });
  expect(res.response.status, JSON.stringify(res.error ?? res.data)).toBe(201);
  return ok(res) as { id: string; slug: string; [k: string]: unknown };
}

const communityCount = async () => (await t.db.select({ n: count() }).from(schema.communities))[0]!.n;
/** The uuids in `column` of the rows of its table that link to community `id` (its members, its rooms). */
const linkedTo = async (id: string, column: AnyPgColumn, communityId: AnyPgColumn) =>
  (await t.db.select({ uuid: column }).from(column.table).where(eq(communityId, id))).map((r) => r.uuid as string);
const membersOf = (id: string) => linkedTo(id, schema.communityMembers.userUuid, schema.communityMembers.communityId);
const roomsOf = (id: string) => linkedTo(id, schema.communityRooms.roomUuid, schema.communityRooms.communityId);

describe("admin communities (nestjsx/crud)", () => {
  it("creates a community: admins only, slug from the name, the creator as its admin", async () => {
    const name = `Lo-Fi Lovers ${tag()}`;
    const res = await t.api(admin.token).room.POST("/admin/communities", {
      body: { name, description: "Chill beats", imageUrl: "https://img.example/lofi.png" },
    });
    expect(res.response.status).toBe(201);
    expect(res.data).toMatchObject({
      name,
      slug: name.toLowerCase().replace(/ /g, "-"),
      description: "Chill beats",
      isPublic: true,
      createdBy: admin.user.uuid,
      memberCount: 0,
      roomCount: 0,
    });
    const again = await t.api(admin.token).room.POST("/admin/communities", { body: { name } });
    expect(again.data?.slug).toBe(`${ok(res).slug}-2`);

    const before = await communityCount();
    const user = await t.createUser();
    const createAs = (token?: string) => t.api(token).room.POST("/admin/communities", { body: { name: "Nope" } });
    await expectStatuses(createAs, [
      [undefined, 401],
      [user.token, 403],
      [staff.token, 403],
    ]);
    // Raw: malformed input, which the typed client cannot send.
    for (const body of [
      { name: "x" },
      { name: "Nul\u0000name" },
      { name: "Good name", imageUrl: "javascript:alert(1)" },
      { name: "Good name", extra: 1 },
      { name: "Good name", slug: "Not A Slug!" },
      { name: "Good name", slug: "00000000-0000-4000-8000-000000000000" },
      { name: "Good name", slug: ok(res).slug },
    ]) {
      const bad = await t.request("POST", `${R}/admin/communities`, { token: admin.token, body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    const unknownOwner = await t
      .api(admin.token)
      .room.POST("/admin/communities", { body: { name: "Good name", createdBy: crypto.randomUUID() } });
    expect(unknownOwner.response.status).toBe(404);
    expect(await communityCount()).toBe(before);
  });

  it("creates in bulk, all or none", async () => {
    const createBulk = (bulk: { name: string; slug?: string; isPublic?: boolean }[], token = admin.token) =>
      t.api(token).room.POST("/admin/communities/bulk", { body: { bulk } });
    const a = `bulk-a-${tag()}`;
    const res = await createBulk([
      { name: "Bulk A", slug: a },
      { name: "Bulk B", isPublic: false },
    ]);
    expect(res.response.status).toBe(201);
    expect(res.data?.map((c) => c.slug)[0]).toBe(a);
    expect(res.data?.[1]?.isPublic).toBe(false);
    const before = await communityCount();
    const dup = `bulk-dup-${tag()}`;
    const clash = await createBulk([
      { name: "One", slug: dup },
      { name: "Two", slug: dup },
    ]);
    expect(clash.response.status).toBe(400);
    const taken = await createBulk([{ name: "One more" }, { name: "Two", slug: a }]);
    expect(taken.response.status).toBe(400);
    expect((await createBulk([])).response.status).toBe(400);
    expect((await createBulk([{ name: "No" }], staff.token)).response.status).toBe(403);
    expect(await communityCount()).toBe(before);
  });

  it("lists, reads, changes and deletes; staff may read only", async () => {
    const marker = tag();
    const one = await createCommunity({ name: `Zeta ${marker}` });
    await createCommunity({ name: `Alpha ${marker}` });
    const list = await t.api(staff.token).room.GET("/admin/communities", {
      params: { query: { filter: `name||$cont||${marker}`, sort: "name,ASC", fields: "name,memberCount", limit: 1 } },
    });
    expect(list.response.status).toBe(200);
    expect(list.data).toMatchObject({ count: 1, total: 2, page: 1, pageCount: 2 });
    expect(list.data?.data[0]).toEqual({ id: expect.any(String), name: `Alpha ${marker}`, memberCount: 0 });
    expect(
      (await t.api(staff.token).room.GET("/admin/communities", { params: { query: { filter: "nope||$eq||1" } } }))
        .response.status,
    ).toBe(400);
    const user = await t.createUser();
    const listAs = (token?: string) => t.api(token).room.GET("/admin/communities");
    await expectStatuses(listAs, [
      [user.token, 403],
      [undefined, 401],
    ]);

    const read = (id: string) => t.api(staff.token).room.GET("/admin/communities/{id}", { params: { path: { id } } });
    expect((await read(one.id)).data).toMatchObject({ id: one.id, slug: one.slug });
    await expectStatuses(read, [
      [crypto.randomUUID(), 404],
      ["not-a-uuid", 400],
    ]);

    const patched = await t.api(admin.token).room.PATCH("/admin/communities/{id}", {
      params: { path: { id: one.id } },
      body: { description: "Now described", isPublic: false },
    });
    expect(patched.data).toMatchObject({ name: `Zeta ${marker}`, description: "Now described", isPublic: false });
    const staffPatch = { params: { path: { id: one.id } }, body: { name: "Staff" } };
    expect(await statusOf(t.api(staff.token).room.PATCH("/admin/communities/{id}", staffPatch))).toBe(403);
    const other = await createCommunity();
    const clash = await t
      .api(admin.token)
      .room.PATCH("/admin/communities/{id}", { params: { path: { id: one.id } }, body: { slug: other.slug } });
    expectRefusal(clash, 400, "This community slug is already taken.");
    // Raw: input the typed client cannot send (it is wrong on purpose).
    expect(
      (
        await t.request("PUT", `/api/room-service/admin/communities/${one.id}`, {
          token: admin.token,
          body: { description: "x" },
        })
      ).status,
    ).toBe(400);
    const put = await t
      .api(admin.token)
      .room.PUT("/admin/communities/{id}", { params: { path: { id: one.id } }, body: { name: "Replaced name" } });
    expect(put.data).toMatchObject({ name: "Replaced name", slug: one.slug, description: "Now described" });
    const ghost = { params: { path: { id: crypto.randomUUID() } }, body: { name: "Ghost" } };
    expect(await statusOf(t.api(admin.token).room.PUT("/admin/communities/{id}", ghost))).toBe(404);

    const deleteAs = (token: string) =>
      t.api(token).room.DELETE("/admin/communities/{id}", { params: { path: { id: one.id } } });
    await expectStatuses(deleteAs, [
      [staff.token, 403],
      [admin.token, 204],
      [admin.token, 404],
    ]);
  });
});

describe("reading, joining and leaving", () => {
  it("finds a community by id or slug; a private one only for its members and admins", async () => {
    const pub = await createCommunity();
    const user = await t.createUser();
    const byId = await t.api().room.GET("/communities/{id}", { params: { path: { id: pub.id } } });
    expect(byId.response.status).toBe(200);
    expect(byId.data).toMatchObject({ id: pub.id, joined: false });
    expect(
      (await t.api().room.GET("/communities/{id}", { params: { path: { id: pub.slug.toUpperCase() } } })).data?.id,
    ).toBe(pub.id);
    const readById = (id: string) => t.api().room.GET("/communities/{id}", { params: { path: { id } } });
    await expectStatuses(readById, [
      ["no-such-community", 404],
      ["a%00b", 404],
    ]);
    expect(
      (await t.api().room.GET("/room-communities/{roomId}", { params: { path: { roomId: "a%00b" } } })).response.status,
    ).toBe(404);
    expect(await statusOf(readById(crypto.randomUUID()))).toBe(404);

    const creator = await t.createUser();
    const priv = await createCommunity({ isPublic: false, createdBy: creator.user.uuid });
    const path = { params: { path: { id: priv.id } } };
    const readPrivate = (token?: string) => t.api(token).room.GET("/communities/{id}", path);
    await expectStatuses(readPrivate, [
      [undefined, 404],
      [user.token, 404],
    ]);
    expect(await statusOf(t.api(user.token).room.POST("/communities/{id}/join", path))).toBe(404);
    expect(await statusOf(t.api(user.token).room.GET("/communities/{id}/users", path))).toBe(404);
    await expectStatuses(readPrivate, [
      [creator.token, 200],
      [staff.token, 200],
    ]);
    await t
      .api(creator.token)
      .room.PUT("/communities/{id}/users/{userId}", { params: { path: { id: priv.id, userId: user.user.uuid } } });
    const asMember = await t.api(user.token).room.GET("/communities/{id}", { params: { path: { id: priv.slug } } });
    expect(asMember.data).toMatchObject({ joined: true, memberCount: 1 });
  });

  it("joins and leaves, idempotently; lists the caller's communities and the members", async () => {
    const community = await createCommunity();
    const [a, b] = [await t.createUser({ nickname: `a${tag()}` }), await t.createUser()];
    const byId = { params: { path: { id: community.id } } };
    expect(await statusOf(t.api().room.POST("/communities/{id}/join", byId))).toBe(401);
    const joined = await t
      .api(a.token)
      .room.POST("/communities/{id}/join", { params: { path: { id: community.slug } } });
    expect(joined.response.status).toBe(200);
    expect(joined.data).toMatchObject({ joined: true, memberCount: 1 });
    expect((await t.api(a.token).room.POST("/communities/{id}/join", byId)).data?.memberCount).toBe(1);
    t.clock.advance(1);
    await t.api(b.token).room.POST("/communities/{id}/join", byId);

    const members = await t
      .api()
      .room.GET("/communities/{id}/users", { params: { path: { id: community.id }, query: { limit: 1 } } });
    expect(members.data?.total).toBe(2);
    expect(members.data?.data).toEqual([
      expect.objectContaining({ userUuid: a.user.uuid, nickname: a.profile.nickname, joinedAt: expect.any(String) }),
    ]);
    const next = await t
      .api()
      .room.GET("/communities/{id}/users", { params: { path: { id: community.id }, query: { limit: 1, offset: 1 } } });
    expect(next.data?.data[0]?.userUuid).toBe(b.user.uuid);
    expect(
      (
        await t
          .api()
          .room.GET("/communities/{id}/users", { params: { path: { id: community.id }, query: { limit: 0 } } })
      ).response.status,
    ).toBe(400);

    const other = await createCommunity();
    t.clock.advance(1);
    await t.api(a.token).room.POST("/communities/{id}/join", { params: { path: { id: other.id } } });
    const mine = await t.api(a.token).room.GET("/user-communities");
    expect(mine.data?.total).toBe(2);
    expect(mine.data?.data.map((c) => c.id)).toEqual([other.id, community.id]);
    expect((await t.api().room.GET("/user-communities")).response.status).toBe(401);

    const leave = (token?: string) => t.api(token).room.POST("/communities/{id}/leave", byId);
    await expectStatuses(leave, [
      [undefined, 401],
      [a.token, 204],
      [a.token, 204],
    ]);
    expect(await membersOf(community.id)).toEqual([b.user.uuid]);
  });

  it("adds and removes members: the community's creator or staff; members may remove themselves", async () => {
    const creator = await t.createUser();
    const community = await createCommunity({ createdBy: creator.user.uuid });
    const [member, stranger] = [await t.createUser(), await t.createUser()];
    const put = (token: string | undefined, userUuid: string) =>
      t.request("PUT", `${R}/communities/${community.id}/users/${userUuid}`, { token });
    const del = (token: string | undefined, userUuid: string) =>
      t.request("DELETE", `${R}/communities/${community.id}/users/${userUuid}`, { token });
    expect((await put(undefined, member.user.uuid)).status).toBe(401);
    expect((await put(stranger.token, member.user.uuid)).status).toBe(403);
    expect((await put(creator.token, crypto.randomUUID())).status).toBe(404);
    expect((await put(creator.token, "not-a-uuid")).status).toBe(400);
    expect(await membersOf(community.id)).toEqual([]);
    const added = await put(creator.token, member.user.uuid);
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ communityId: community.id, userUuid: member.user.uuid });
    expect((await put(staff.token, stranger.user.uuid)).status).toBe(200);

    expect((await del(stranger.token, member.user.uuid)).status).toBe(403);
    expect((await del(creator.token, member.user.uuid)).status).toBe(204);
    expect((await del(creator.token, member.user.uuid)).status).toBe(404);
    expect((await del(stranger.token, stranger.user.uuid)).status).toBe(204);
    expect(await membersOf(community.id)).toEqual([]);
  });
});

describe("rooms in communities", () => {
  it("a room's owner or co-owner adds it to a public community; others may not", async () => {
    const community = await createCommunity();
    const [owner, coOwner, mod, stranger] = [
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
    ];
    const room = await insertRoom(owner.user.uuid);
    const second = await insertRoom(owner.user.uuid);
    await grant(second.uuid, coOwner.user.uuid, "coOwner");
    await grant(room.uuid, mod.user.uuid, "moderator");
    const addRoom = (token?: string, id = community.id, roomId = room.uuid) => addToCommunity(token, id, roomId);
    await expectStatuses(addRoom, [
      [undefined, 401],
      [stranger.token, 403],
    ]);
    expect((await addRoom(mod.token)).error?.message).toBe(
      "Only the room's owner or co-owners may add it to a community.",
    );
    expect(await statusOf(addRoom(owner.token, community.id, crypto.randomUUID()))).toBe(404);
    expect(await statusOf(addRoom(owner.token, "nope-nope"))).toBe(404);
    expect(await roomsOf(community.id)).toEqual([]);
    const added = await addRoom(owner.token);
    expect(added.response.status).toBe(201);
    expect(added.data).toMatchObject({ communityId: community.id, roomUuid: room.uuid });
    expect(await statusOf(addRoom(owner.token))).toBe(200);
    // The spec's short form, with the room's slug.
    const viaAlias = await t
      .api(coOwner.token)
      .room.POST("/communities/{id}/{roomId}", { params: { path: { id: community.slug, roomId: second.slug } } });
    expect(viaAlias.response.status).toBe(201);
    expect((await roomsOf(community.id)).sort()).toEqual([room.uuid, second.uuid].sort());
    expect(
      (await t.api().room.GET("/communities/{id}", { params: { path: { id: community.id } } })).data?.roomCount,
    ).toBe(2);
  });

  it("private communities take rooms only from their admins", async () => {
    const creator = await t.createUser();
    const member = await t.createUser();
    const community = await createCommunity({ isPublic: false, createdBy: creator.user.uuid });
    await t.api(creator.token).room.PUT("/communities/{id}/users/{userId}", {
      params: { path: { id: community.id, userId: member.user.uuid } },
    });
    const memberRoom = await insertRoom(member.user.uuid);
    const creatorRoom = await insertRoom(creator.user.uuid);
    const outsider = await t.createUser();
    const outsiderRoom = await insertRoom(outsider.user.uuid);
    const add = (token: string, uuid: string) =>
      t.request("PUT", `${R}/communities/${community.id}/rooms/${uuid}`, { token });
    expect((await add(outsider.token, outsiderRoom.uuid)).status).toBe(404);
    const refused = await add(member.token, memberRoom.uuid);
    expectRefusal(refused, 403, "Only this community's admins may add rooms to a private community.");
    // Running the community is not owning the room.
    expect((await add(creator.token, memberRoom.uuid)).status).toBe(403);
    expect((await add(creator.token, creatorRoom.uuid)).status).toBe(201);
    expect((await add(staff.token, memberRoom.uuid)).status).toBe(201);
  });

  it("lists public rooms to all, hidden ones to those who run them and staff", async () => {
    const community = await createCommunity();
    const owner = await t.createUser();
    const mod = await t.createUser();
    const open = await insertRoom(owner.user.uuid);
    const unlisted = await insertRoom(owner.user.uuid, { unlisted: true });
    const privateRoom = await insertRoom(owner.user.uuid, { type: "PRIVATE" });
    await grant(privateRoom.uuid, mod.user.uuid, "moderator");
    for (const room of [open, unlisted, privateRoom])
      expect(await statusOf(addToCommunity(owner.token, community.id, room.uuid))).toBe(201);
    const uuids = (body: { data: { uuid: string }[] }) => body.data.map((r) => r.uuid).sort();
    const roomsAs = (token?: string) =>
      t.api(token).room.GET("/communities/{id}/rooms", { params: { path: { id: community.id } } });
    const anyone = await roomsAs();
    expect(anyone.response.status).toBe(200);
    expect(anyone.data?.total).toBe(1);
    expect(uuids(ok(anyone))).toEqual([open.uuid]);
    const stranger = await t.createUser();
    expect(uuids(ok(await roomsAs(stranger.token)))).toEqual([open.uuid]);
    expect(uuids(ok(await roomsAs(mod.token)))).toEqual([open.uuid, privateRoom.uuid].sort());
    expect((await roomsAs(owner.token)).data?.total).toBe(3);
    expect((await roomsAs(staff.token)).data?.total).toBe(3);
    expect(
      (
        await t
          .api()
          .room.GET("/communities/{id}/rooms", { params: { path: { id: community.id }, query: { offset: -1 } } })
      ).response.status,
    ).toBe(400);

    const communities = await t
      .api()
      .room.GET("/room-communities/{roomId}", { params: { path: { roomId: open.uuid } } });
    expect(communities.data?.map((c) => c.id)).toEqual([community.id]);
    expect(
      (await t.api().room.GET("/room-communities/{roomId}", { params: { path: { roomId: open.slug } } })).data,
    ).toHaveLength(1);
    expect(
      (await t.api().room.GET("/room-communities/{roomId}", { params: { path: { roomId: crypto.randomUUID() } } }))
        .response.status,
    ).toBe(404);
  });

  it("room-communities hides private communities from outsiders", async () => {
    const creator = await t.createUser();
    const pub = await createCommunity();
    const priv = await createCommunity({ isPublic: false, createdBy: creator.user.uuid });
    const room = await insertRoom(creator.user.uuid);
    for (const c of [pub, priv]) await addToCommunity(creator.token, c.id, room.uuid);
    const communitiesAs = (token?: string) =>
      t.api(token).room.GET("/room-communities/{roomId}", { params: { path: { roomId: room.uuid } } });
    expect((await communitiesAs()).data).toHaveLength(1);
    expect((await communitiesAs(creator.token)).data).toHaveLength(2);
  });

  it("takes rooms out: the community's admins or the room's owners", async () => {
    const creator = await t.createUser();
    const community = await createCommunity({ createdBy: creator.user.uuid });
    const owner = await t.createUser();
    const stranger = await t.createUser();
    const rooms = [
      await insertRoom(owner.user.uuid),
      await insertRoom(owner.user.uuid),
      await insertRoom(owner.user.uuid),
    ];
    for (const room of rooms) await addToCommunity(owner.token, community.id, room.uuid);
    const del = (token: string | undefined, uuid: string) =>
      t.request("DELETE", `${R}/communities/${community.id}/rooms/${uuid}`, { token });
    expect((await del(undefined, rooms[0]!.uuid)).status).toBe(401);
    expect((await del(stranger.token, rooms[0]!.uuid)).status).toBe(403);
    expect((await roomsOf(community.id)).length).toBe(3);
    expect((await del(creator.token, rooms[0]!.uuid)).status).toBe(204);
    expect((await del(creator.token, rooms[0]!.uuid)).status).toBe(404);
    expect((await del(owner.token, rooms[1]!.uuid)).status).toBe(204);
    expect(
      (
        await t
          .api(staff.token)
          .room.DELETE("/communities/{id}/{roomId}", { params: { path: { id: community.id, roomId: rooms[2]!.uuid } } })
      ).response.status,
    ).toBe(204);
    expect(await roomsOf(community.id)).toEqual([]);
  });
});

describe("adding and removing several at once", () => {
  it("adds rooms and members in one go, or nothing when one of them is refused", async () => {
    const creator = await t.createUser();
    const community = await createCommunity({ createdBy: creator.user.uuid });
    const owner = await t.createUser();
    const [mine, theirs] = [await insertRoom(creator.user.uuid), await insertRoom(owner.user.uuid)];
    const [u1, u2] = [await t.createUser(), await t.createUser()];
    const add = (token: string | undefined, body: unknown) =>
      t.request("POST", `${R}/communities/${community.id}/add`, { token, body });

    expect((await add(undefined, { roomUuids: [mine.uuid] })).status).toBe(401);
    expect((await add(creator.token, {})).status).toBe(400);
    expect((await add(creator.token, { roomUuids: ["nope"] })).status).toBe(400);
    expect((await add(creator.token, { roomUuids: [mine.uuid, theirs.uuid], userUuids: [u1.user.uuid] })).status).toBe(
      403,
    );
    expect((await add(creator.token, { roomUuids: [mine.uuid, crypto.randomUUID()] })).status).toBe(404);
    expect((await add(creator.token, { userUuids: [u1.user.uuid, crypto.randomUUID()] })).status).toBe(404);
    expect((await add(u1.token, { userUuids: [u1.user.uuid, u2.user.uuid] })).status).toBe(403);
    expect(await roomsOf(community.id)).toEqual([]);
    expect(await membersOf(community.id)).toEqual([]);

    const done = await add(creator.token, { roomUuids: [mine.uuid], userUuids: [u1.user.uuid, u2.user.uuid] });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ roomCount: 1, memberCount: 2 });
    // Anyone may add themselves (and their own rooms) to a public community.
    const self = await add(owner.token, { roomUuids: [theirs.uuid], userUuids: [owner.user.uuid] });
    expect(self.body).toMatchObject({ roomCount: 2, memberCount: 3, joined: true });

    const remove = (token: string, body: unknown) =>
      t.request("POST", `${R}/communities/${community.id}/remove`, { token, body });
    expect((await remove(u1.token, { userUuids: [u2.user.uuid] })).status).toBe(403);
    expect((await remove(u1.token, { roomUuids: [mine.uuid] })).status).toBe(403);
    expect((await roomsOf(community.id)).length).toBe(2);
    const removed = await remove(creator.token, {
      roomUuids: [mine.uuid, theirs.uuid],
      userUuids: [u1.user.uuid, u2.user.uuid],
    });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ roomCount: 0, memberCount: 1 });
    expect((await remove(owner.token, { userUuids: [owner.user.uuid] })).body.memberCount).toBe(0);
  });
});
