import { schema } from "@booth/db";
import { describe, expect, it } from "vitest";
import { ok, openTestApp, type TestUser } from "../../testing.ts";

const t = openTestApp();

async function roomOf(owner: TestUser, body: Record<string, unknown> = {}) {
  const made = await t.api(owner.token).room.POST("/rooms/infrastructure", {
    body: { name: `Room ${crypto.randomUUID().slice(0, 8)}`, ...body },
  });
  return ok(made);
}

async function enters(person: TestUser, roomUuid: string) {
  const res = await t.api(await t.serviceToken()).room.PATCH("/rooms/user/{user}", {
    params: { path: { user: person.user.uuid } },
    body: { roomUuid },
  });
  expect(res.response.status).toBe(204);
}

describe("GET /rooms/friends-activity", () => {
  it("answers where friends and followed DJs are, in listed public rooms only, never across a block", async () => {
    const [me, friend, dj, stranger, hidden, blocker, owner] = await Promise.all([
      t.createUser(),
      t.createUser(),
      t.createUser(),
      t.createUser(),
      t.createUser(),
      t.createUser(),
      t.createUser(),
    ]);
    const now = t.clock.now();
    await t.db.insert(schema.friends).values([
      { userUuid: me.user.uuid, friendUuid: friend.user.uuid, createdAt: now },
      { userUuid: friend.user.uuid, friendUuid: me.user.uuid, createdAt: now },
      { userUuid: me.user.uuid, friendUuid: hidden.user.uuid, createdAt: now },
      { userUuid: hidden.user.uuid, friendUuid: me.user.uuid, createdAt: now },
    ]);
    await t.db.insert(schema.djFans).values([
      { fanUuid: me.user.uuid, djUuid: dj.user.uuid, createdAt: now },
      { fanUuid: me.user.uuid, djUuid: blocker.user.uuid, createdAt: now },
    ]);
    await t.db.insert(schema.blockedUsers).values({
      blockerUuid: blocker.user.uuid,
      blockedUuid: me.user.uuid,
      createdAt: now,
    });
    const lounge = await roomOf(owner);
    const secret = await roomOf(owner, { type: "PRIVATE" });
    const locked = await roomOf(owner, { password: "let me in" });
    await enters(friend, lounge.uuid);
    await enters(dj, lounge.uuid);
    await enters(stranger, lounge.uuid);
    await enters(blocker, lounge.uuid);
    await enters(hidden, secret.uuid);
    await enters(hidden, locked.uuid);

    const res = await t.api(me.token).room.GET("/rooms/friends-activity");
    expect(res.response.status).toBe(200);
    const seen = ok(res).map((a) => [a.person.uuid, a.relation, a.room.slug]);
    expect(seen).toHaveLength(2);
    expect(seen).toEqual(
      expect.arrayContaining([
        [friend.user.uuid, "friend", lounge.slug],
        [dj.user.uuid, "following", lounge.slug],
      ]),
    );

    // Someone who leaves is no longer listed.
    await t.api(await t.serviceToken()).room.DELETE("/rooms/user/{user}", {
      params: { path: { user: friend.user.uuid }, query: { roomUuid: lounge.uuid } },
    });
    expect(ok(await t.api(me.token).room.GET("/rooms/friends-activity")).map((a) => a.person.uuid)).toEqual([
      dj.user.uuid,
    ]);
  });

  it("is for signed-in people only", async () => {
    expect((await t.api().room.GET("/rooms/friends-activity")).response.status).toBe(401);
    const guest = await t.tokenFor((await t.createUser()).user.uuid, "guest");
    expect((await t.api(guest).room.GET("/rooms/friends-activity")).response.status).toBe(401);
  });
});
