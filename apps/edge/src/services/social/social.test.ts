import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const S = "/api/social-service";

describe("DJ fans", () => {
  it("follows, counts, pages and unfollows", async () => {
    const dj = await t.createUser({ nickname: "djstar" });
    const fans = await Promise.all([1, 2, 3].map(() => t.createUser()));
    for (const fan of fans) {
      t.clock.advance(1);
      const res = await t.request("POST", `${S}/dj-fans`, { token: fan.token, body: { djUuid: dj.user.uuid } });
      expect(res.status).toBe(201);
    }
    const twice = await t.request("POST", `${S}/dj-fans`, { token: fans[0]!.token, body: { djUuid: dj.user.uuid } });
    expect(twice.status).toBe(409);
    expect((await t.request("GET", `${S}/dj-fans/count/${dj.user.uuid}`)).body).toEqual({ fans: 3, following: 0 });
    const page = await t.request("GET", `${S}/dj-fans/dj-fans-paginated/${dj.user.uuid}`, {
      query: { skip: 0, take: 2 },
    });
    expect(page.body.total).toBe(3);
    expect(page.body.data.map((p: { uuid: string }) => p.uuid)).toEqual([fans[2]!.user.uuid, fans[1]!.user.uuid]);
    const legacy = await t.request("GET", `${S}/dj-fans/dj-fans/${dj.user.uuid}`);
    expect(legacy.body).toHaveLength(3);
    const followed = await t.request("GET", `${S}/dj-fans/${fans[0]!.user.uuid}/djs-followed`);
    expect(followed.body.data.map((p: { nickname: string }) => p.nickname)).toEqual(["djstar"]);
    const mine = await t.request("GET", `${S}/dj-fans`, { token: fans[0]!.token, query: { djUuid: dj.user.uuid } });
    expect(mine.body).toHaveLength(1);
    expect((await t.request("GET", `${S}/dj-fans/dj-fan/${mine.body[0].id}`)).body.djUuid).toBe(dj.user.uuid);

    expect((await t.request("DELETE", `${S}/dj-fans/${dj.user.uuid}`, { token: fans[0]!.token })).status).toBe(204);
    expect((await t.request("DELETE", `${S}/dj-fans/${dj.user.uuid}`, { token: fans[0]!.token })).status).toBe(404);
    expect((await t.request("GET", `${S}/dj-fans/count/${dj.user.uuid}`)).body.fans).toBe(2);
  });

  it("refuses bad follows and callers without a token", async () => {
    const { user, token } = await t.createUser();
    expect((await t.request("POST", `${S}/dj-fans`, { body: { djUuid: user.uuid } })).status).toBe(401);
    expect((await t.request("POST", `${S}/dj-fans`, { token, body: { djUuid: user.uuid } })).status).toBe(400);
    expect((await t.request("POST", `${S}/dj-fans`, { token, body: { djUuid: crypto.randomUUID() } })).status).toBe(
      404,
    );
    expect((await t.request("POST", `${S}/dj-fans`, { token, body: { djUuid: "dj" } })).status).toBe(400);
    expect((await t.request("GET", `${S}/dj-fans/count/${user.uuid}`)).body).toEqual({ fans: 0, following: 0 });
  });

  it("gives staff the fan links and the DJ list in the crud syntax; others get 403", async () => {
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const dj = await t.createUser({ nickname: "crud_dj" });
    const fan = await t.createUser();
    await t.request("POST", `${S}/dj-fans`, { token: fan.token, body: { djUuid: dj.user.uuid } });
    const links = await t.request("GET", `${S}/dj-fans/admin/${dj.user.uuid}`, { token: staff.token });
    expect(links.body.fans).toHaveLength(1);
    expect((await t.request("GET", `${S}/dj-fans/admin/${dj.user.uuid}`, { token: fan.token })).status).toBe(403);
    const list = await t.request("GET", `${S}/admin/djs?filter=nickname||$eq||crud_dj`, { token: staff.token });
    expect(list.body.data).toEqual([expect.objectContaining({ nickname: "crud_dj", fans: 1 })]);
    const top = await t.request("GET", `${S}/admin/djs?filter=fans||$gte||1&sort=fans,DESC&fields=nickname,fans`, {
      token: staff.token,
    });
    expect(top.body.data.every((d: { fans: number }) => d.fans >= 1)).toBe(true);
    expect((await t.request("GET", `${S}/admin/djs/${dj.user.uuid}`, { token: staff.token })).body.fans).toBe(1);
    expect((await t.request("GET", `${S}/admin/djs`, { token: fan.token })).status).toBe(403);
    expect((await t.request("GET", `${S}/admin/djs`)).status).toBe(401);
    expect((await t.request("GET", `${S}/admin/djs?filter=secret||$eq||1`, { token: staff.token })).status).toBe(400);
    expect(
      (await t.request("GET", `${S}/dj-fans/devices/list`, { token: fan.token, query: { djUuid: dj.user.uuid } }))
        .status,
    ).toBe(403);
    expect(
      (
        await t.request("GET", `${S}/dj-fans/devices/list`, {
          token: await t.serviceToken(),
          query: { djUuid: dj.user.uuid },
        })
      ).body,
    ).toEqual([]);
  });
});

describe("friends and invitations", () => {
  it("invite, see it on both sides, accept: both are friends", async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const inv = await t.request("POST", `${S}/friend-invitations`, { token: a.token, body: { userUuid: b.user.uuid } });
    expect(inv.status).toBe(201);
    expect(inv.body.status).toBe("pending");
    expect(
      (await t.request("POST", `${S}/friend-invitations`, { token: b.token, body: { userUuid: a.user.uuid } })).status,
    ).toBe(409);
    expect(
      (await t.request("GET", `${S}/friend-invitations/user-invitations-for`, { token: b.token })).body,
    ).toHaveLength(1);
    expect(
      (await t.request("GET", `${S}/friend-invitations/user-invitations-from`, { token: a.token })).body,
    ).toHaveLength(1);
    expect(
      (await t.request("GET", `${S}/friend-invitations/user-invitations/${a.user.uuid}`, { token: a.token })).body,
    ).toHaveLength(1);
    expect(
      (await t.request("GET", `${S}/friend-invitations/user-invitations/${a.user.uuid}`, { token: b.token })).status,
    ).toBe(403);

    // Only the recipient handles it.
    const bySender = await t.request("POST", `${S}/friend-invitations/handle-friend`, {
      token: a.token,
      body: { invitationId: inv.body.id, status: "accepted" },
    });
    expect(bySender.status).toBe(404);
    const accepted = await t.request("POST", `${S}/friend-invitations/handle-friend`, {
      token: b.token,
      body: { invitationId: inv.body.id, status: "accepted" },
    });
    expect(accepted.body.status).toBe("accepted");
    const again = await t.request("POST", `${S}/friend-invitations/handle-friend`, {
      token: b.token,
      body: { invitationId: inv.body.id, status: "rejected" },
    });
    expect(again.status).toBe(409);

    expect(
      (await t.request("GET", `${S}/friends/single-friend/${b.user.uuid}`, { token: a.token })).body.friendUuid,
    ).toBe(b.user.uuid);
    expect((await t.request("GET", `${S}/friends/list/${b.user.uuid}`, { token: b.token })).body).toEqual([
      a.user.uuid,
    ]);
    expect((await t.request("GET", `${S}/friends/${a.user.uuid}`, { token: b.token })).body.total).toBe(1);
    expect(
      (await t.request("POST", `${S}/friend-invitations`, { token: a.token, body: { userUuid: b.user.uuid } })).status,
    ).toBe(409);

    expect((await t.request("DELETE", `${S}/friends/${a.user.uuid}`, { token: b.token })).status).toBe(204);
    expect((await t.request("GET", `${S}/friends/single-friend/${b.user.uuid}`, { token: a.token })).status).toBe(404);
    expect((await t.request("DELETE", `${S}/friends/${a.user.uuid}`, { token: b.token })).status).toBe(404);
  });

  it("a rejected invitation makes no friends; a withdrawn one disappears", async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const inv = await t.request("POST", `${S}/friend-invitations`, { token: a.token, body: { userUuid: b.user.uuid } });
    const rejected = await t.request("POST", `${S}/friend-invitations/handle-friend`, {
      token: b.token,
      body: { invitationId: inv.body.id, status: "rejected" },
    });
    expect(rejected.body.status).toBe("rejected");
    expect((await t.request("GET", `${S}/friends/list/${a.user.uuid}`, { token: a.token })).body).toEqual([]);
    const second = await t.request("POST", `${S}/friend-invitations`, {
      token: a.token,
      body: { userUuid: b.user.uuid },
    });
    expect(second.status).toBe(201);
    const stranger = await t.createUser();
    expect(
      (await t.request("DELETE", `${S}/friend-invitations/${second.body.id}`, { token: stranger.token })).status,
    ).toBe(404);
    expect((await t.request("DELETE", `${S}/friend-invitations/${second.body.id}`, { token: a.token })).status).toBe(
      204,
    );
    expect((await t.request("GET", `${S}/friend-invitations/user-invitations-for`, { token: b.token })).body).toEqual(
      [],
    );
  });

  it("refuses bad invitations", async () => {
    const a = await t.createUser();
    expect((await t.request("POST", `${S}/friend-invitations`, { body: { userUuid: a.user.uuid } })).status).toBe(401);
    expect(
      (await t.request("POST", `${S}/friend-invitations`, { token: a.token, body: { userUuid: a.user.uuid } })).status,
    ).toBe(400);
    expect(
      (await t.request("POST", `${S}/friend-invitations`, { token: a.token, body: { userUuid: crypto.randomUUID() } }))
        .status,
    ).toBe(404);
    expect(
      (
        await t.request("POST", `${S}/friend-invitations/handle-friend`, {
          token: a.token,
          body: { invitationId: crypto.randomUUID(), status: "maybe" },
        })
      ).status,
    ).toBe(400);
  });
});

describe("blocked users", () => {
  it("blocking ends friendship, invitations and follows, and stops new ones both ways", async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const inv = await t.request("POST", `${S}/friend-invitations`, { token: a.token, body: { userUuid: b.user.uuid } });
    await t.request("POST", `${S}/friend-invitations/handle-friend`, {
      token: b.token,
      body: { invitationId: inv.body.id, status: "accepted" },
    });
    await t.request("POST", `${S}/dj-fans`, { token: b.token, body: { djUuid: a.user.uuid } });

    const block = await t.request("POST", `${S}/blocked-users`, { token: a.token, body: { userUuid: b.user.uuid } });
    expect(block.status).toBe(201);
    expect((await t.request("GET", `${S}/friends/list/${a.user.uuid}`, { token: a.token })).body).toEqual([]);
    expect((await t.request("GET", `${S}/dj-fans/count/${a.user.uuid}`)).body.fans).toBe(0);
    const follow = await t.request("POST", `${S}/dj-fans`, { token: b.token, body: { djUuid: a.user.uuid } });
    expect(follow.status).toBe(403);
    expect(follow.body.message).toBe("You cannot follow this DJ.");
    const invite = await t.request("POST", `${S}/friend-invitations`, {
      token: b.token,
      body: { userUuid: a.user.uuid },
    });
    expect(invite.status).toBe(403);
    expect(invite.body.message).toBe("You cannot invite this user.");
    expect(
      (await t.request("POST", `${S}/friend-invitations`, { token: a.token, body: { userUuid: b.user.uuid } })).status,
    ).toBe(403);

    expect(
      (await t.request("GET", `${S}/blocked-users`, { token: a.token })).body.map(
        (x: { blockedUuid: string }) => x.blockedUuid,
      ),
    ).toEqual([b.user.uuid]);
    expect((await t.request("GET", `${S}/blocked-users/${b.user.uuid}`, { token: a.token })).status).toBe(200);
    expect((await t.request("GET", `${S}/blocked-users/${a.user.uuid}`, { token: b.token })).status).toBe(404);
    expect(
      (await t.request("POST", `${S}/blocked-users`, { token: a.token, body: { userUuid: b.user.uuid } })).status,
    ).toBe(409);

    expect((await t.request("DELETE", `${S}/blocked-users/${b.user.uuid}`, { token: b.token })).status).toBe(404);
    expect((await t.request("DELETE", `${S}/blocked-users/${b.user.uuid}`, { token: a.token })).status).toBe(204);
    expect((await t.request("POST", `${S}/dj-fans`, { token: b.token, body: { djUuid: a.user.uuid } })).status).toBe(
      201,
    );
  });

  it("refuses bad blocks and anonymous callers", async () => {
    const a = await t.createUser();
    expect((await t.request("GET", `${S}/blocked-users`)).status).toBe(401);
    expect(
      (await t.request("POST", `${S}/blocked-users`, { token: a.token, body: { userUuid: a.user.uuid } })).status,
    ).toBe(400);
    expect((await t.request("POST", `${S}/blocked-users`, { token: a.token, body: { userUuid: "x" } })).status).toBe(
      400,
    );
    expect(
      (await t.request("POST", `${S}/blocked-users`, { token: a.token, body: { userUuid: crypto.randomUUID() } }))
        .status,
    ).toBe(404);
  });
});
