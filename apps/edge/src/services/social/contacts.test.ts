import { schema } from "@booth/db";
import { describe, expect, it } from "vitest";
import { ok, openTestApp } from "../../testing.ts";

const t = openTestApp();

/** A user whose phone number is verified. */
async function withPhone(phone: string, verified = true) {
  const u = await t.createUser();
  await t.db.insert(schema.userIdentities).values({ userUuid: u.user.uuid, channel: "sms", value: phone, verified });
  return u;
}
const uuids = (people: { uuid: string }[]) => people.map((p) => p.uuid);

describe("contact book", () => {
  it("stores only hashes of normalised numbers, in any format, once each", async () => {
    const api = t.api((await t.createUser()).token);
    const res = await api.social.POST("/user-book-contact", {
      body: {
        country: "GB",
        contacts: [
          { phone: "07400 123456", name: "Ann" },
          { phone: "+44 7400 123456", name: "Ann again" },
          { phone: "+1 415 555 2671", name: "Bo" },
          { phone: "not a phone" },
        ],
      },
    });
    expect(res.response.status).toBe(200);
    expect(res.data).toEqual({ added: 2, unchanged: 0, invalid: ["not a phone"] });
    const list = ok(await api.social.GET("/user-book-contact"));
    expect(list).toHaveLength(2);
    expect(JSON.stringify(list)).not.toContain("7400");
    expect(list[0]?.phoneHash).toMatch(/^[0-9a-f]{64}$/);
    const again = await api.social.POST("/user-book-contact/single", { body: { phone: "+447400123456" } });
    expect(again.data).toMatchObject({ added: 0, unchanged: 1 });
    expect((await api.social.POST("/user-book-contact/single", { body: { phone: "12" } })).response.status).toBe(400);
    expect((await api.social.DELETE("/user-book-contact")).response.status).toBe(204);
    expect((await api.social.GET("/user-book-contact")).data).toEqual([]);
  });

  it("matches contacts to users by verified phone, and tells which are friends", async () => {
    const me = await t.createUser();
    const mine = t.api(me.token);
    const friend = await withPhone("+447400111111");
    const known = await withPhone("+447400222222");
    await withPhone("+447400333333", false);
    ok(
      await mine.social.POST("/user-book-contact", {
        body: {
          contacts: ["+447400111111", "+447400222222", "+447400333333", "+447400444444"].map((phone) => ({ phone })),
        },
      }),
    );
    const found = ok(await mine.social.GET("/user-book-contact/matching-contacts"));
    expect(uuids(found).sort()).toEqual([friend.user.uuid, known.user.uuid].sort());

    const inv = ok(await mine.social.POST("/friend-invitations", { body: { userUuid: friend.user.uuid } }));
    ok(
      await t
        .api(friend.token)
        .social.POST("/friend-invitations/handle-friend", { body: { invitationId: inv.id, status: "accepted" } }),
    );
    const friends = ok(await mine.social.POST("/user-book-contact/matching-contacts-friends"));
    expect(uuids(friends)).toEqual([friend.user.uuid]);

    ok(await t.api(known.token).social.POST("/blocked-users", { body: { userUuid: me.user.uuid } }));
    const afterBlock = ok(await mine.social.GET("/user-book-contact/matching-contacts"));
    expect(uuids(afterBlock)).toEqual([friend.user.uuid]);
  });

  it("lets admins read a user's contacts; others are refused", async () => {
    const admin = t.api((await t.createUser({ roles: ["user", "admin"] })).token);
    const u = await t.createUser();
    const api = t.api(u.token);
    ok(await api.social.POST("/user-book-contact/single", { body: { phone: "+447400555555", name: "Cy" } }));
    const ofU = { params: { path: { id: u.user.uuid } } };
    expect(ok(await admin.social.GET("/user-book-contact/admin/{id}", ofU))[0]?.name).toBe("Cy");
    expect((await api.social.GET("/user-book-contact/admin/{id}", ofU)).response.status).toBe(403);
    expect((await t.api().social.GET("/user-book-contact")).response.status).toBe(401);
    expect((await api.social.POST("/user-book-contact", { body: { contacts: [] } })).response.status).toBe(400);
    expect(
      (await api.social.POST("/user-book-contact", { body: { contacts: [{ phone: "1" }], country: "gb" } })).response
        .status,
    ).toBe(400);
  });
});
