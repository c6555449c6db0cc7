import { schema } from "@booth/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const S = "/api/social-service";

/** A user whose phone number is verified. */
async function withPhone(phone: string, verified = true) {
  const u = await t.createUser();
  await t.db.insert(schema.userIdentities).values({ userUuid: u.user.uuid, channel: "sms", value: phone, verified });
  return u;
}

describe("contact book", () => {
  it("stores only hashes of normalised numbers, in any format, once each", async () => {
    const { token } = await t.createUser();
    const res = await t.request("POST", `${S}/user-book-contact`, {
      token,
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
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ added: 2, unchanged: 0, invalid: ["not a phone"] });
    const list = await t.request("GET", `${S}/user-book-contact`, { token });
    expect(list.body).toHaveLength(2);
    expect(JSON.stringify(list.body)).not.toContain("7400");
    expect(list.body[0].phoneHash).toMatch(/^[0-9a-f]{64}$/);
    const again = await t.request("POST", `${S}/user-book-contact/single`, { token, body: { phone: "+447400123456" } });
    expect(again.body).toMatchObject({ added: 0, unchanged: 1 });
    expect((await t.request("POST", `${S}/user-book-contact/single`, { token, body: { phone: "12" } })).status).toBe(
      400,
    );
    expect((await t.request("DELETE", `${S}/user-book-contact`, { token })).status).toBe(204);
    expect((await t.request("GET", `${S}/user-book-contact`, { token })).body).toEqual([]);
  });

  it("matches contacts to users by verified phone, and tells which are friends", async () => {
    const me = await t.createUser();
    const friend = await withPhone("+447400111111");
    const known = await withPhone("+447400222222");
    await withPhone("+447400333333", false);
    await t.request("POST", `${S}/user-book-contact`, {
      token: me.token,
      body: {
        contacts: ["+447400111111", "+447400222222", "+447400333333", "+447400444444"].map((phone) => ({ phone })),
      },
    });
    const found = await t.request("GET", `${S}/user-book-contact/matching-contacts`, { token: me.token });
    expect(found.body.map((p: { uuid: string }) => p.uuid).sort()).toEqual([friend.user.uuid, known.user.uuid].sort());

    const inv = await t.request("POST", `${S}/friend-invitations`, {
      token: me.token,
      body: { userUuid: friend.user.uuid },
    });
    await t.request("POST", `${S}/friend-invitations/handle-friend`, {
      token: friend.token,
      body: { invitationId: inv.body.id, status: "accepted" },
    });
    const friends = await t.request("POST", `${S}/user-book-contact/matching-contacts-friends`, { token: me.token });
    expect(friends.body.map((p: { uuid: string }) => p.uuid)).toEqual([friend.user.uuid]);

    await t.request("POST", `${S}/blocked-users`, { token: known.token, body: { userUuid: me.user.uuid } });
    const afterBlock = await t.request("GET", `${S}/user-book-contact/matching-contacts`, { token: me.token });
    expect(afterBlock.body.map((p: { uuid: string }) => p.uuid)).toEqual([friend.user.uuid]);
  });

  it("lets admins read a user's contacts; others are refused", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const u = await t.createUser();
    await t.request("POST", `${S}/user-book-contact/single`, {
      token: u.token,
      body: { phone: "+447400555555", name: "Cy" },
    });
    expect(
      (await t.request("GET", `${S}/user-book-contact/admin/${u.user.uuid}`, { token: admin.token })).body[0].name,
    ).toBe("Cy");
    expect((await t.request("GET", `${S}/user-book-contact/admin/${u.user.uuid}`, { token: u.token })).status).toBe(
      403,
    );
    expect((await t.request("GET", `${S}/user-book-contact`)).status).toBe(401);
    expect((await t.request("POST", `${S}/user-book-contact`, { token: u.token, body: { contacts: [] } })).status).toBe(
      400,
    );
    expect(
      (
        await t.request("POST", `${S}/user-book-contact`, {
          token: u.token,
          body: { contacts: [{ phone: "1" }], country: "gb" },
        })
      ).status,
    ).toBe(400);
  });
});
