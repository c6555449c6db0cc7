import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const P = "/api/user-service";
// The smallest valid PNG: a 1x1 transparent pixel.
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (ch) => ch.charCodeAt(0),
);
const form = (bytes: Uint8Array<ArrayBuffer>, type = "profilePicture", name = "me.png") => {
  const f = new FormData();
  f.set("file", new File([bytes], name, { type: "image/png" }));
  f.set("type", type);
  return f;
};

describe("own profile", () => {
  it("reads and updates the own profile, partially", async () => {
    const { token } = await t.createUser({ nickname: "djfresh" });
    const before = await t.request("GET", `${P}/users/profile`, { token });
    expect(before.status).toBe(200);
    expect(before.body.nickname).toBe("djfresh");
    const res = await t.request("POST", `${P}/users/profile`, {
      token,
      body: { color: "#112233", bio: "house and disco", musicProviders: ["spotify", "spotify", "youtube"] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ nickname: "djfresh", color: "#112233", bio: "house and disco" });
    expect(res.body.musicProviders).toEqual(["spotify", "youtube"]);
  });

  it("refuses a nickname someone has, in any case, and bad fields, changing nothing", async () => {
    await t.createUser({ nickname: "TakenName" });
    const { token } = await t.createUser({ nickname: "mine" });
    const taken = await t.request("POST", `${P}/users/profile`, { token, body: { nickname: "takenname" } });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe("This nickname is already taken.");
    const bad = await t.request("POST", `${P}/users/profile`, { token, body: { color: "purple", priceForGig: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toHaveLength(2);
    expect((await t.request("GET", `${P}/users/profile`, { token })).body).toMatchObject({
      nickname: "mine",
      color: "#8B5CF6",
    });
    expect((await t.request("POST", `${P}/users/profile`, { body: { bio: "x" } })).status).toBe(401);
  });

  it("sets and clears social links", async () => {
    const { token } = await t.createUser();
    const set = await t.request("POST", `${P}/users/user-socials`, {
      token,
      body: { instagram: "@spinner", tiktok: "https://tiktok.com/@spinner" },
    });
    expect(set.body).toMatchObject({ instagram: "@spinner", tiktok: "https://tiktok.com/@spinner" });
    const cleared = await t.request("POST", `${P}/users/user-socials`, { token, body: { instagram: "" } });
    expect(cleared.body.instagram).toBeNull();
    expect(cleared.body.tiktok).toBe("https://tiktok.com/@spinner");
    expect(
      (await t.request("POST", `${P}/users/user-socials`, { token, body: { twitter: "javascript:alert(1)" } })).status,
    ).toBe(400);
  });

  it("tells the caller their capabilities and roles", async () => {
    const { token } = await t.createUser();
    const res = await t.request("GET", `${P}/users/capabilities`, { token });
    expect(res.body).toEqual({ capabilities: [], roles: ["user"] });
    expect((await t.request("GET", `${P}/users/capabilities`)).status).toBe(401);
  });
});

describe("others' profiles", () => {
  it("shows anyone a public profile without private fields; unknown and deactivated users are not found", async () => {
    const { user } = await t.createUser({ nickname: "publicdj" });
    const res = await t.request("GET", `${P}/profile/${user.uuid}`);
    expect(res.status).toBe(200);
    expect(res.body.nickname).toBe("publicdj");
    expect(res.body.allowExplicitAudio).toBeUndefined();
    const missing = await t.request("GET", `${P}/profile/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("User profile not found.");
    await t.db.update(schema.users).set({ deactivatedAt: t.clock.now() }).where(eq(schema.users.uuid, user.uuid));
    await t.accountChanged(user.uuid);
    expect((await t.request("GET", `${P}/profile/${user.uuid}`)).body.message).toBe("User profile not found.");
  });

  it("batches profiles in the order asked, skipping unknown ids, up to 150", async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const res = await t.request(
      "GET",
      `${P}/users/profiles?users=${b.user.uuid},${crypto.randomUUID()}&users=${a.user.uuid}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.map((p: { uuid: string }) => p.uuid)).toEqual([b.user.uuid, a.user.uuid]);
    const tooMany = Array.from({ length: 151 }, () => crypto.randomUUID()).join(",");
    expect((await t.request("GET", `${P}/users/profiles?users=${tooMany}`)).status).toBe(400);
    expect((await t.request("GET", `${P}/users/profiles?users=nope`)).status).toBe(400);
  });

  it("shows an account to its owner and to moderators only", async () => {
    const owner = await t.createUser();
    const stranger = await t.createUser();
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    expect((await t.request("GET", `${P}/users/user/${owner.user.uuid}`, { token: owner.token })).body.email).toBe(
      owner.email,
    );
    expect((await t.request("GET", `${P}/users/user/${owner.user.uuid}`, { token: stranger.token })).status).toBe(403);
    expect((await t.request("GET", `${P}/users/user/${owner.user.uuid}`, { token: mod.token })).status).toBe(200);
    expect((await t.request("GET", `${P}/users/user/${owner.user.uuid}`)).status).toBe(401);
  });
});

describe("service and admin routes", () => {
  it("lets services read profiles and manage badges; plain users get 403", async () => {
    const { user, token } = await t.createUser();
    const service = await t.serviceToken();
    expect(
      (await t.request("GET", `${P}/profile/${user.uuid}/service`, { token: service })).body.allowExplicitAudio,
    ).toBe(false);
    expect((await t.request("GET", `${P}/profile/${user.uuid}/service`, { token })).status).toBe(403);
    expect((await t.request("GET", `${P}/profile/${user.uuid}/service`)).status).toBe(401);

    const added = await t.request("POST", `${P}/users/add-badges-service`, {
      token: service,
      body: { userUuid: user.uuid, badges: ["VERIFIED", "JQBX", "VERIFIED"] },
    });
    expect(added.body.badges).toEqual(["VERIFIED", "JQBX"]);
    const removed = await t.request("POST", `${P}/users/remove-badges-service`, {
      token: service,
      body: { userUuid: user.uuid, badges: ["JQBX"] },
    });
    expect(removed.body.badges).toEqual(["VERIFIED"]);
    const refused = await t.request("POST", `${P}/users/add-badges-service`, {
      token,
      body: { userUuid: user.uuid, badges: ["STAFF"] },
    });
    expect(refused.status).toBe(403);
    expect(
      (
        await t.request("POST", `${P}/users/add-badges-service`, {
          token: service,
          body: { userUuid: user.uuid, badges: ["GOLD"] },
        })
      ).status,
    ).toBe(400);
    const [row] = await t.db.select().from(schema.users).where(eq(schema.users.uuid, user.uuid));
    expect(row?.badges).toEqual(["VERIFIED"]);

    const page = await t.request("GET", `${P}/users/service/all-user-profiles`, {
      token: service,
      query: { take: 2, skip: 0 },
    });
    expect(page.body.data).toHaveLength(2);
    expect(page.body.total).toBeGreaterThanOrEqual(2);
    expect((await t.request("GET", `${P}/users/service/all-user-profiles`, { token })).status).toBe(403);
    expect((await t.request("GET", `${P}/users/service/${user.uuid}/user-profile`, { token: service })).body.uuid).toBe(
      user.uuid,
    );
    expect((await t.request("GET", `${P}/users/service/${user.uuid}/user-profile`, { token })).status).toBe(403);
  });

  it("lets admins edit anyone's profile and set badges exactly", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const { user, token } = await t.createUser();
    const edit = await t.request("POST", `${P}/users/profile-admin`, {
      token: admin.token,
      body: { userUuid: user.uuid, bio: "edited" },
    });
    expect(edit.body.bio).toBe("edited");
    expect(
      (await t.request("POST", `${P}/users/profile-admin`, { token, body: { userUuid: user.uuid, bio: "mine" } }))
        .status,
    ).toBe(403);
    const badges = await t.request("POST", `${P}/users/change-badges-admin`, {
      token: admin.token,
      body: { userUuid: user.uuid, badges: ["PLATINUM"] },
    });
    expect(badges.body.badges).toEqual(["PLATINUM"]);
    expect(
      (await t.request("POST", `${P}/users/change-badges-admin`, { token, body: { userUuid: user.uuid, badges: [] } }))
        .status,
    ).toBe(403);
    expect(
      (
        await t.request("POST", `${P}/users/change-badges-admin`, {
          token: admin.token,
          body: { userUuid: crypto.randomUUID(), badges: [] },
        })
      ).status,
    ).toBe(404);
  });
});

describe("images", () => {
  it("uploads a picture that becomes the profile's and is served back", async () => {
    const { user, token } = await t.createUser();
    const res = await t.request("POST", `${P}/users/images`, { token, body: form(PNG) });
    expect(res.status).toBe(201);
    expect(res.body.contentType).toBe("image/png");
    const profile = await t.request("GET", `${P}/profile/${user.uuid}`);
    expect(profile.body.profilePicture).toBe(res.body.url);
    const served = await t.app.request(res.body.url);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
  });

  it("refuses files that are not images whatever they claim, and callers without a token", async () => {
    const { token } = await t.createUser();
    const fake = await t.request("POST", `${P}/users/images`, {
      token,
      body: form(new TextEncoder().encode("<svg onload=x>") as Uint8Array<ArrayBuffer>),
    });
    expect(fake.status).toBe(415);
    expect((await t.request("POST", `${P}/users/images`, { token, body: form(PNG, "wallpaper") })).status).toBe(400);
    expect((await t.request("POST", `${P}/users/images`, { body: form(PNG) })).status).toBe(401);
    expect((await t.db.select().from(schema.images)).every((i) => i.contentType.startsWith("image/"))).toBe(true);
  });

  it("lets only the owner or an admin delete, with the catalogue message for others", async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    const up = await t.request("POST", `${P}/users/images`, { token: owner.token, body: form(PNG, "coverPicture") });
    const denied = await t.request("DELETE", `${P}/users/images/${up.body.id}`, { token: other.token });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe("Unauthorized to delete.");
    expect((await t.request("DELETE", `${P}/users/images/${up.body.id}`)).status).toBe(401);
    expect((await t.request("DELETE", `${P}/users/images/${up.body.id}`, { token: owner.token })).status).toBe(204);
    expect((await t.request("GET", `${P}/users/images/${up.body.id}`)).status).toBe(404);
    expect((await t.request("GET", `${P}/profile/${owner.user.uuid}`)).body.coverPicture).toBeNull();
  });
});
