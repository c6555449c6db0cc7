import { describe, expect, it } from "vitest";
import { expectRefusal, ok, openTestApp, type TestApi } from "../../testing.ts";

const t = openTestApp();

const id = (value: string) => ({ params: { path: { id: value } } });
const follow = (api: TestApi, djUuid: string) => api.social.POST("/dj-fans", { body: { djUuid } });
const invite = (api: TestApi, userUuid: string) => api.social.POST("/friend-invitations", { body: { userUuid } });
const handle = (api: TestApi, invitationId: string, status: "accepted" | "rejected") =>
  api.social.POST("/friend-invitations/handle-friend", { body: { invitationId, status } });

/** Two new users, `a` and `b`, and the typed client of each (`asA`, `asB`). */
async function twoUsers() {
  const a = await t.createUser();
  const b = await t.createUser();
  return { a, b, asA: t.api(a.token), asB: t.api(b.token) };
}

describe("DJ fans", () => {
  it("follows, counts, pages and unfollows", async () => {
    const dj = await t.createUser({ nickname: "djstar" });
    const fans = await Promise.all([1, 2, 3].map(() => t.createUser()));
    const anyone = t.api();
    for (const fan of fans) {
      t.clock.advance(1);
      const res = await follow(t.api(fan.token), dj.user.uuid);
      expect(res.response.status).toBe(201);
    }
    const first = t.api(fans[0]!.token);
    const twice = await follow(first, dj.user.uuid);
    expect(twice.response.status).toBe(409);
    expect((await anyone.social.GET("/dj-fans/count/{id}", id(dj.user.uuid))).data).toEqual({ fans: 3, following: 0 });
    const page = ok(
      await anyone.social.GET("/dj-fans/dj-fans-paginated/{id}", {
        params: { path: { id: dj.user.uuid }, query: { skip: 0, take: 2 } },
      }),
    );
    expect(page.total).toBe(3);
    expect(page.data.map((p) => p.uuid)).toEqual([fans[2]!.user.uuid, fans[1]!.user.uuid]);
    const legacy = await anyone.social.GET("/dj-fans/dj-fans/{id}", id(dj.user.uuid));
    expect(legacy.data).toHaveLength(3);
    const followed = ok(await anyone.social.GET("/dj-fans/{id}/djs-followed", id(fans[0]!.user.uuid)));
    expect(followed.data.map((p) => p.nickname)).toEqual(["djstar"]);
    const mine = ok(await first.social.GET("/dj-fans", { params: { query: { djUuid: dj.user.uuid } } }));
    expect(mine).toHaveLength(1);
    expect((await anyone.social.GET("/dj-fans/dj-fan/{id}", id(mine[0]!.id))).data?.djUuid).toBe(dj.user.uuid);

    expect((await first.social.DELETE("/dj-fans/{id}", id(dj.user.uuid))).response.status).toBe(204);
    expect((await first.social.DELETE("/dj-fans/{id}", id(dj.user.uuid))).response.status).toBe(404);
    expect((await anyone.social.GET("/dj-fans/count/{id}", id(dj.user.uuid))).data?.fans).toBe(2);
  });

  it("refuses bad follows and callers without a token", async () => {
    const { user, token } = await t.createUser();
    const api = t.api(token);
    expect((await follow(t.api(), user.uuid)).response.status).toBe(401);
    expect((await follow(api, user.uuid)).response.status).toBe(400);
    expect((await follow(api, crypto.randomUUID())).response.status).toBe(404);
    expect((await follow(api, "dj")).response.status).toBe(400);
    expect((await t.api().social.GET("/dj-fans/count/{id}", id(user.uuid))).data).toEqual({ fans: 0, following: 0 });
  });

  it("gives staff the fan links and the DJ list in the crud syntax; others get 403", async () => {
    const staff = t.api((await t.createUser({ roles: ["user", "staff"] })).token);
    const dj = await t.createUser({ nickname: "crud_dj" });
    const fan = t.api((await t.createUser()).token);
    ok(await follow(fan, dj.user.uuid));
    const links = ok(await staff.social.GET("/dj-fans/admin/{id}", id(dj.user.uuid)));
    expect(links.fans).toHaveLength(1);
    expect((await fan.social.GET("/dj-fans/admin/{id}", id(dj.user.uuid))).response.status).toBe(403);
    const list = await staff.social.GET("/admin/djs", { params: { query: { filter: "nickname||$eq||crud_dj" } } });
    expect(list.data?.data).toEqual([expect.objectContaining({ nickname: "crud_dj", fans: 1 })]);
    const top = ok(
      await staff.social.GET("/admin/djs", {
        params: { query: { filter: "fans||$gte||1", sort: "fans,DESC", fields: "nickname,fans" } },
      }),
    );
    expect(top.data.every((d) => (d.fans ?? 0) >= 1)).toBe(true);
    expect((await staff.social.GET("/admin/djs/{id}", id(dj.user.uuid))).data?.fans).toBe(1);
    expect((await fan.social.GET("/admin/djs")).response.status).toBe(403);
    expect((await t.api().social.GET("/admin/djs")).response.status).toBe(401);
    expect(
      (await staff.social.GET("/admin/djs", { params: { query: { filter: "secret||$eq||1" } } })).response.status,
    ).toBe(400);
    const devices = { params: { query: { djUuid: dj.user.uuid } } };
    expect((await fan.social.GET("/dj-fans/devices/list", devices)).response.status).toBe(403);
    expect((await t.api(await t.serviceToken()).social.GET("/dj-fans/devices/list", devices)).data).toEqual([]);
  });
});

describe("friends and invitations", () => {
  it("invite, see it on both sides, accept: both are friends", async () => {
    const { a, b, asA, asB } = await twoUsers();
    const inv = await invite(asA, b.user.uuid);
    expect(inv.response.status).toBe(201);
    expect(inv.data?.status).toBe("pending");
    const invitationId = ok(inv).id;
    expect((await invite(asB, a.user.uuid)).response.status).toBe(409);
    expect((await asB.social.GET("/friend-invitations/user-invitations-for")).data).toHaveLength(1);
    expect((await asA.social.GET("/friend-invitations/user-invitations-from")).data).toHaveLength(1);
    expect((await asA.social.GET("/friend-invitations/user-invitations/{id}", id(a.user.uuid))).data).toHaveLength(1);
    expect((await asB.social.GET("/friend-invitations/user-invitations/{id}", id(a.user.uuid))).response.status).toBe(
      403,
    );

    // Only the recipient handles it.
    const bySender = await handle(asA, invitationId, "accepted");
    expect(bySender.response.status).toBe(404);
    const accepted = await handle(asB, invitationId, "accepted");
    expect(accepted.data?.status).toBe("accepted");
    const again = await handle(asB, invitationId, "rejected");
    expect(again.response.status).toBe(409);

    expect((await asA.social.GET("/friends/single-friend/{id}", id(b.user.uuid))).data?.friendUuid).toBe(b.user.uuid);
    expect((await asB.social.GET("/friends/list/{id}", id(b.user.uuid))).data).toEqual([a.user.uuid]);
    expect((await asB.social.GET("/friends/{id}", id(a.user.uuid))).data?.total).toBe(1);
    expect((await invite(asA, b.user.uuid)).response.status).toBe(409);

    expect((await asB.social.DELETE("/friends/{id}", id(a.user.uuid))).response.status).toBe(204);
    expect((await asA.social.GET("/friends/single-friend/{id}", id(b.user.uuid))).response.status).toBe(404);
    expect((await asB.social.DELETE("/friends/{id}", id(a.user.uuid))).response.status).toBe(404);
  });

  it("a rejected invitation makes no friends; a withdrawn one disappears", async () => {
    const { a, b, asA, asB } = await twoUsers();
    const inv = ok(await invite(asA, b.user.uuid));
    const rejected = await handle(asB, inv.id, "rejected");
    expect(rejected.data?.status).toBe("rejected");
    expect((await asA.social.GET("/friends/list/{id}", id(a.user.uuid))).data).toEqual([]);
    const second = await invite(asA, b.user.uuid);
    expect(second.response.status).toBe(201);
    const stranger = t.api((await t.createUser()).token);
    const secondId = id(ok(second).id);
    expect((await stranger.social.DELETE("/friend-invitations/{id}", secondId)).response.status).toBe(404);
    expect((await asA.social.DELETE("/friend-invitations/{id}", secondId)).response.status).toBe(204);
    expect((await asB.social.GET("/friend-invitations/user-invitations-for")).data).toEqual([]);
  });

  it("refuses bad invitations", async () => {
    const a = await t.createUser();
    const asA = t.api(a.token);
    expect((await invite(t.api(), a.user.uuid)).response.status).toBe(401);
    expect((await invite(asA, a.user.uuid)).response.status).toBe(400);
    expect((await invite(asA, crypto.randomUUID())).response.status).toBe(404);
    // A status the contract does not name: only an untyped request can send it.
    expect(
      (
        await t.request("POST", "/api/social-service/friend-invitations/handle-friend", {
          token: a.token,
          body: { invitationId: crypto.randomUUID(), status: "maybe" },
        })
      ).status,
    ).toBe(400);
  });
});

describe("blocked users", () => {
  it("blocking ends friendship, invitations and follows, and stops new ones both ways", async () => {
    const { a, b, asA, asB } = await twoUsers();
    const inv = ok(await invite(asA, b.user.uuid));
    ok(await handle(asB, inv.id, "accepted"));
    ok(await follow(asB, a.user.uuid));

    const block = await asA.social.POST("/blocked-users", { body: { userUuid: b.user.uuid } });
    expect(block.response.status).toBe(201);
    expect((await asA.social.GET("/friends/list/{id}", id(a.user.uuid))).data).toEqual([]);
    expect((await t.api().social.GET("/dj-fans/count/{id}", id(a.user.uuid))).data?.fans).toBe(0);
    const refusedFollow = await follow(asB, a.user.uuid);
    expectRefusal(refusedFollow, 403, "You cannot follow this DJ.");
    const refusedInvite = await invite(asB, a.user.uuid);
    expectRefusal(refusedInvite, 403, "You cannot invite this user.");
    expect((await invite(asA, b.user.uuid)).response.status).toBe(403);

    expect(ok(await asA.social.GET("/blocked-users")).map((x) => x.blockedUuid)).toEqual([b.user.uuid]);
    expect((await asA.social.GET("/blocked-users/{id}", id(b.user.uuid))).response.status).toBe(200);
    expect((await asB.social.GET("/blocked-users/{id}", id(a.user.uuid))).response.status).toBe(404);
    expect((await asA.social.POST("/blocked-users", { body: { userUuid: b.user.uuid } })).response.status).toBe(409);

    expect((await asB.social.DELETE("/blocked-users/{id}", id(b.user.uuid))).response.status).toBe(404);
    expect((await asA.social.DELETE("/blocked-users/{id}", id(b.user.uuid))).response.status).toBe(204);
    expect((await follow(asB, a.user.uuid)).response.status).toBe(201);
  });

  it("refuses bad blocks and anonymous callers", async () => {
    const a = await t.createUser();
    const asA = t.api(a.token);
    const block = (userUuid: string) => asA.social.POST("/blocked-users", { body: { userUuid } });
    expect((await t.api().social.GET("/blocked-users")).response.status).toBe(401);
    expect((await block(a.user.uuid)).response.status).toBe(400);
    expect((await block("x")).response.status).toBe(400);
    expect((await block(crypto.randomUUID())).response.status).toBe(404);
  });
});
