import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { firstRow } from "../../lib/rows.ts";
import { expectRefusal, expectStatuses, multipart, ok, openTestApp, statusOf } from "../../testing.ts";

const t = openTestApp();

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
    const before = await t.api(token).user.GET("/users/profile");
    expect(before.response.status).toBe(200);
    expect(before.data?.nickname).toBe("djfresh");
    const res = await t.api(token).user.POST("/users/profile", {
      body: { color: "#112233", bio: "house and disco", musicProviders: ["spotify", "spotify", "youtube"] },
    });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ nickname: "djfresh", color: "#112233", bio: "house and disco" });
    expect(res.data?.musicProviders).toEqual(["spotify", "youtube"]);
  });

  it("refuses a nickname someone has, in any case, and bad fields, changing nothing", async () => {
    await t.createUser({ nickname: "TakenName" });
    const { token } = await t.createUser({ nickname: "mine" });
    const taken = await t.api(token).user.POST("/users/profile", { body: { nickname: "takenname" } });
    expectRefusal(taken, 409, "This nickname is already taken.");
    const bad = await t.api(token).user.POST("/users/profile", { body: { color: "purple", priceForGig: -1 } });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.message).toHaveLength(2);
    expect((await t.api(token).user.GET("/users/profile")).data).toMatchObject({
      nickname: "mine",
      color: "#8B5CF6",
    });
    expect((await t.api().user.POST("/users/profile", { body: { bio: "x" } })).response.status).toBe(401);
  });

  it("sets and clears social links", async () => {
    const { token } = await t.createUser();
    const set = await t
      .api(token)
      .user.POST("/users/user-socials", { body: { instagram: "@spinner", tiktok: "https://tiktok.com/@spinner" } });
    expect(set.data).toMatchObject({ instagram: "@spinner", tiktok: "https://tiktok.com/@spinner" });
    const cleared = await t.api(token).user.POST("/users/user-socials", { body: { instagram: "" } });
    expect(cleared.data?.instagram).toBeNull();
    expect(cleared.data?.tiktok).toBe("https://tiktok.com/@spinner");
    const script = { body: { twitter: "javascript:alert(1)" } };
    expect(await statusOf(t.api(token).user.POST("/users/user-socials", script))).toBe(400);
  });

  it("tells the caller their capabilities and roles", async () => {
    const { token } = await t.createUser();
    const res = await t.api(token).user.GET("/users/capabilities");
    expect(res.data).toEqual({ capabilities: [], roles: ["user"] });
    expect((await t.api().user.GET("/users/capabilities")).response.status).toBe(401);
  });
});

describe("others' profiles", () => {
  it("shows anyone a public profile without private fields; unknown and deactivated users are not found", async () => {
    const { user } = await t.createUser({ nickname: "publicdj" });
    const res = await t.api().user.GET("/profile/{id}", { params: { path: { id: user.uuid } } });
    expect(res.response.status).toBe(200);
    expect(res.data?.nickname).toBe("publicdj");
    expect((res.data as Record<string, unknown> | undefined)?.allowExplicitAudio).toBeUndefined();
    const missing = await t.api().user.GET("/profile/{id}", { params: { path: { id: crypto.randomUUID() } } });
    expectRefusal(missing, 404, "User profile not found.");
    await t.changeUser(user.uuid, { deactivatedAt: t.clock.now() });
    expect((await t.api().user.GET("/profile/{id}", { params: { path: { id: user.uuid } } })).error?.message).toBe(
      "User profile not found.",
    );
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
    expect((await t.api().user.GET("/users/profiles", { params: { query: { users: tooMany } } })).response.status).toBe(
      400,
    );
    expect((await t.api().user.GET("/users/profiles", { params: { query: { users: "nope" } } })).response.status).toBe(
      400,
    );
  });

  it("shows an account to its owner and to moderators only", async () => {
    const owner = await t.createUser();
    const stranger = await t.createUser();
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const accountAs = (token?: string) =>
      t.api(token).user.GET("/users/user/{id}", { params: { path: { id: owner.user.uuid } } });
    expect((await accountAs(owner.token)).data?.email).toBe(owner.email);
    await expectStatuses(accountAs, [
      [stranger.token, 403],
      [mod.token, 200],
      [undefined, 401],
    ]);
  });
});

describe("service and admin routes", () => {
  it("lets services read profiles and manage badges; plain users get 403", async () => {
    const { user, token } = await t.createUser();
    const service = await t.serviceToken();
    expect(
      (await t.api(service).user.GET("/profile/{id}/service", { params: { path: { id: user.uuid } } })).data
        ?.allowExplicitAudio,
    ).toBe(false);
    expect(
      (await t.api(token).user.GET("/profile/{id}/service", { params: { path: { id: user.uuid } } })).response.status,
    ).toBe(403);
    expect(
      (await t.api().user.GET("/profile/{id}/service", { params: { path: { id: user.uuid } } })).response.status,
    ).toBe(401);

    const added = await t.api(service).user.POST("/users/add-badges-service", {
      body: { userUuid: user.uuid, badges: ["VERIFIED", "JQBX", "VERIFIED"] },
    });
    expect(added.data?.badges).toEqual(["VERIFIED", "JQBX"]);
    const removed = await t
      .api(service)
      .user.POST("/users/remove-badges-service", { body: { userUuid: user.uuid, badges: ["JQBX"] } });
    expect(removed.data?.badges).toEqual(["VERIFIED"]);
    const refused = await t
      .api(token)
      .user.POST("/users/add-badges-service", { body: { userUuid: user.uuid, badges: ["STAFF"] } });
    expect(refused.response.status).toBe(403);
    // Raw: input the typed client cannot send (it is wrong on purpose).
    expect(
      (
        await t.request("POST", "/api/user-service/users/add-badges-service", {
          token: service,
          body: { userUuid: user.uuid, badges: ["GOLD"] },
        })
      ).status,
    ).toBe(400);
    const row = await firstRow(t.db, schema.users, eq(schema.users.uuid, user.uuid));
    expect(row?.badges).toEqual(["VERIFIED"]);

    const page = await t
      .api(service)
      .user.GET("/users/service/all-user-profiles", { params: { query: { take: 2, skip: 0 } } });
    expect(page.data?.data).toHaveLength(2);
    expect(page.data?.total).toBeGreaterThanOrEqual(2);
    expect((await t.api(token).user.GET("/users/service/all-user-profiles")).response.status).toBe(403);
    const profileAs = (caller: string) =>
      t.api(caller).user.GET("/users/service/{id}/user-profile", { params: { path: { id: user.uuid } } });
    expect((await profileAs(service)).data?.uuid).toBe(user.uuid);
    expect(await statusOf(profileAs(token))).toBe(403);
  });

  it("lets admins edit anyone's profile and set badges exactly", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const { user, token } = await t.createUser();
    const edit = await t
      .api(admin.token)
      .user.POST("/users/profile-admin", { body: { userUuid: user.uuid, bio: "edited" } });
    expect(edit.data?.bio).toBe("edited");
    const mine = { body: { userUuid: user.uuid, bio: "mine" } };
    expect(await statusOf(t.api(token).user.POST("/users/profile-admin", mine))).toBe(403);
    const setBadges = (caller: string, userUuid: string, badges: "PLATINUM"[]) =>
      t.api(caller).user.POST("/users/change-badges-admin", { body: { userUuid, badges } });
    expect((await setBadges(admin.token, user.uuid, ["PLATINUM"])).data?.badges).toEqual(["PLATINUM"]);
    expect(await statusOf(setBadges(token, user.uuid, []))).toBe(403);
    expect(await statusOf(setBadges(admin.token, crypto.randomUUID(), []))).toBe(404);
  });
});

describe("images", () => {
  it("uploads a picture that becomes the profile's and is served back", async () => {
    const { user, token } = await t.createUser();
    const res = await t.api(token).user.POST("/users/images", multipart(form(PNG)));
    expect(res.response.status).toBe(201);
    expect(res.data?.contentType).toBe("image/png");
    const profile = await t.api().user.GET("/profile/{id}", { params: { path: { id: user.uuid } } });
    expect(profile.data?.profilePicture).toBe(ok(res).url);
    const served = await t.app.request(ok(res).url);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
  });

  it("refuses files that are not images whatever they claim, and callers without a token", async () => {
    const { token } = await t.createUser();
    const fake = await t
      .api(token)
      .user.POST(
        "/users/images",
        multipart(form(new TextEncoder().encode("<svg onload=x>") as Uint8Array<ArrayBuffer>)),
      );
    expect(fake.response.status).toBe(415);
    expect((await t.api(token).user.POST("/users/images", multipart(form(PNG, "wallpaper")))).response.status).toBe(
      400,
    );
    expect((await t.api().user.POST("/users/images", multipart(form(PNG)))).response.status).toBe(401);
    expect((await t.db.select().from(schema.images)).every((i) => i.contentType.startsWith("image/"))).toBe(true);
  });

  it("lets only the owner or an admin delete, with the catalogue message for others", async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    const up = await t.api(owner.token).user.POST("/users/images", multipart(form(PNG, "coverPicture")));
    const denied = await t.api(other.token).user.DELETE("/users/images/{id}", { params: { path: { id: ok(up).id } } });
    expectRefusal(denied, 403, "Unauthorized to delete.");
    const theImage = { params: { path: { id: ok(up).id } } };
    expect(await statusOf(t.api().user.DELETE("/users/images/{id}", theImage))).toBe(401);
    expect(await statusOf(t.api(owner.token).user.DELETE("/users/images/{id}", theImage))).toBe(204);
    expect((await t.request("GET", `${P}/users/images/${ok(up).id}`)).status).toBe(404);
    expect(
      (await t.api().user.GET("/profile/{id}", { params: { path: { id: owner.user.uuid } } })).data?.coverPicture,
    ).toBeNull();
  });
});
