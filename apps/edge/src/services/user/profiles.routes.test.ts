// Edge cases of the profile, badge and socials routes (user-profiles.routes.ts), beyond the main paths that
// profiles.test.ts covers: bounds on every field, nothing changed on refusal, guests and banned callers, the service
// and admin routes' unknown users, paging bounds and the batch's limits.
import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { expectRefusal, ok, openTestApp, statusOf } from "../../testing.ts";
import { profilesOf } from "./public-profiles.ts";

const t = openTestApp();

const P = "/api/user-service";
const profileRow = async (uuid: string) =>
  (await t.db.select().from(schema.profiles).where(eq(schema.profiles.userUuid, uuid)))[0];

describe("GET /users/user/{id}", () => {
  it("answers the account view with the own profile to the user themselves", async () => {
    const me = await t.createUser({ nickname: "viewme" });
    const res = await t.api(me.token).user.GET("/users/user/{id}", { params: { path: { id: me.user.uuid } } });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ uuid: me.user.uuid, email: me.email, roles: ["user"], deactivatedAt: null });
    expect(res.data?.profile).toMatchObject({ nickname: "viewme", allowExplicitAudio: false, musicProviders: [] });
  });

  it("lets every moderator rank read it, refuses promoters and guests", async () => {
    const target = await t.createUser();
    for (const role of ["moderator", "globalModerator", "staff", "admin", "superUser"] as const) {
      const mod = await t.createUser({ roles: ["user", role] });
      expect(
        (await t.api(mod.token).user.GET("/users/user/{id}", { params: { path: { id: target.user.uuid } } })).response
          .status,
      ).toBe(200);
    }
    const promoter = await t.createUser({ roles: ["user", "promoter"] });
    const refused = await t
      .api(promoter.token)
      .user.GET("/users/user/{id}", { params: { path: { id: target.user.uuid } } });
    expectRefusal(refused, 403, "Forbidden", "FORBIDDEN");
    const guest = await t.tokenFor(target.user.uuid, "guest");
    expect(
      (await t.api(guest).user.GET("/users/user/{id}", { params: { path: { id: target.user.uuid } } })).response.status,
    ).toBe(401);
  });

  it("answers 404 for an unknown user and 400 for a bad id", async () => {
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    const missing = await t
      .api(mod.token)
      .user.GET("/users/user/{id}", { params: { path: { id: crypto.randomUUID() } } });
    expectRefusal(missing, 404, "User not found.");
    const bad = await t.api(mod.token).user.GET("/users/user/{id}", { params: { path: { id: "not-a-uuid" } } });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.message[0]).toMatch(/^id: /);
  });

  it("refuses a banned caller with the ban message", async () => {
    const me = await t.createUser();
    await t.db.insert(schema.sanctions).values({ userUuid: me.user.uuid, type: "ban", createdAt: t.clock.now() });
    await t.accountChanged(me.user.uuid);
    const res = await t.api(me.token).user.GET("/users/user/{id}", { params: { path: { id: me.user.uuid } } });
    expectRefusal(res, 403, "This account is banned.");
  });
});

describe("GET /users/capabilities", () => {
  it("reflects capabilities and roles as they are now in the database, for a bot token too", async () => {
    const me = await t.createUser({ roles: ["user", "promoter"] });
    await t.changeUser(me.user.uuid, { capabilities: ["uploadMusic", "promoteRoom"] });
    const res = await t.api(me.token).user.GET("/users/capabilities");
    expect(res.response.status).toBe(200);
    expect(res.data).toEqual({ capabilities: ["uploadMusic", "promoteRoom"], roles: ["user", "promoter"] });
    const bot = await t.tokenFor(me.user.uuid, "bot");
    expect((await t.api(bot).user.GET("/users/capabilities")).response.status).toBe(200);
    const guest = await t.tokenFor(me.user.uuid, "guest");
    expect((await t.api(guest).user.GET("/users/capabilities")).response.status).toBe(401);
  });
});

describe("POST /users/profile", () => {
  it("changes every field sent and only those, and clears nullable ones with null", async () => {
    const me = await t.createUser({ nickname: "fields" });
    const admin = await t.createUser({ roles: ["user", "admin"] });
    ok(await t.api(admin.token).merch.POST("/avatars", { body: { slug: "cat-7", name: "Cat 7" } }));
    const body = {
      nickname: "  Fields Two ",
      avatarId: "cat-7",
      firstName: "Ada",
      lastName: "Lovelace",
      pronoun: "she/her",
      displayPronouns: true,
      songOfTheWeek: "https://open.spotify.com/track/abc",
      zodiac: "Leo",
      priceForGig: 250,
      allowExplicitAudio: true,
      musicProviders: ["apple" as const, "uploadService" as const, "sevenDigital" as const],
    };
    const res = await t.api(me.token).user.POST("/users/profile", { body });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ ...body, nickname: "Fields Two", color: "#8B5CF6", bio: null });
    const row = await profileRow(me.user.uuid);
    expect(row).toMatchObject({ nickname: "Fields Two", firstName: "Ada", priceForGig: 250, allowExplicitAudio: true });

    const cleared = await t.api(me.token).user.POST("/users/profile", { body: { firstName: null, priceForGig: null } });
    expect(cleared.data).toMatchObject({ firstName: null, priceForGig: null, lastName: "Lovelace", zodiac: "Leo" });
    expect((await profileRow(me.user.uuid))?.firstName).toBeNull();
  });

  it("lets a user change the case of their own nickname", async () => {
    const me = await t.createUser({ nickname: "casey" });
    const res = await t.api(me.token).user.POST("/users/profile", { body: { nickname: "CASEY" } });
    expect(res.response.status).toBe(200);
    expect((await profileRow(me.user.uuid))?.nickname).toBe("CASEY");
  });

  it("refuses over-long strings, unknown providers and bad nicknames, changing nothing", async () => {
    const me = await t.createUser({ nickname: "bounded" });
    const before = await profileRow(me.user.uuid);
    const cases: Record<string, unknown>[] = [
      { bio: "x".repeat(1001) },
      { firstName: "x".repeat(65) },
      { lastName: "x".repeat(65) },
      { pronoun: "x".repeat(33) },
      { zodiac: "x".repeat(33) },
      { songOfTheWeek: "x".repeat(201) },
      { avatarId: "" },
      { avatarId: "x".repeat(65) },
      { nickname: "a" },
      { nickname: "x".repeat(33) },
      { nickname: "<script>" },
      { color: "#12345" },
      { priceForGig: 1.5 },
      { priceForGig: 1_000_001 },
      { displayPronouns: "yes" },
      { musicProviders: ["napster"] },
      { musicProviders: "spotify" },
    ];
    // Raw: malformed input, which the typed client cannot send.
    for (const body of cases) {
      const res = await t.request("POST", `${P}/users/profile`, { token: me.token, body: { bio: "changed", ...body } });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toHaveLength(1);
      expect(res.body.message[0]).toMatch(new RegExp(`^${Object.keys(body)[0]}`));
    }
    expect(await profileRow(me.user.uuid)).toEqual(before);
  });

  it("refuses a taken nickname under a concurrent rename race: one wins, the other gets 409", async () => {
    const a = await t.createUser({ nickname: "racerA" });
    const b = await t.createUser({ nickname: "racerB" });
    const [ra, rb] = await Promise.all([
      t.request("POST", `${P}/users/profile`, { token: a.token, body: { nickname: "Finish Line" } }),
      t.request("POST", `${P}/users/profile`, { token: b.token, body: { nickname: "finish line" } }),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 409]);
    const loser = ra.status === 409 ? ra : rb;
    expect(loser.body.message).toBe("This nickname is already taken.");
    const names = [(await profileRow(a.user.uuid))?.nickname, (await profileRow(b.user.uuid))?.nickname];
    expect(names.filter((n) => n?.toLowerCase() === "finish line")).toHaveLength(1);
  });

  it("refuses guests and banned users", async () => {
    const me = await t.createUser({ nickname: "guarded" });
    const guest = await t.tokenFor(me.user.uuid, "guest");
    expect((await t.api(guest).user.POST("/users/profile", { body: { bio: "x" } })).response.status).toBe(401);
    await t.db.insert(schema.sanctions).values({
      userUuid: me.user.uuid,
      type: "temporaryBan",
      expiresAt: new Date(t.clock.now().getTime() + 3600_000),
      createdAt: t.clock.now(),
    });
    await t.accountChanged(me.user.uuid);
    const banned = await t.api(me.token).user.POST("/users/profile", { body: { bio: "x" } });
    expectRefusal(banned, 403, "This account is banned.");
    expect((await profileRow(me.user.uuid))?.bio).toBeNull();
  });
});

describe("GET /users/profile", () => {
  it("answers the own profile with the private fields, and 401 without a token", async () => {
    const me = await t.createUser({ nickname: "ownview" });
    await t.db
      .update(schema.profiles)
      .set({ musicProviders: ["spotify"], allowExplicitAudio: true })
      .where(eq(schema.profiles.userUuid, me.user.uuid));
    const res = await t.api(me.token).user.GET("/users/profile");
    expect(res.data).toMatchObject({ uuid: me.user.uuid, musicProviders: ["spotify"], allowExplicitAudio: true });
    expect((await t.api().user.GET("/users/profile")).response.status).toBe(401);
  });
});

describe("POST /users/user-socials", () => {
  it("changes socials only: other profile fields in the body are ignored", async () => {
    const me = await t.createUser();
    const res = await t.api(me.token).user.POST("/users/user-socials", {
      body: { facebook: "dj.page", snapchat: "snappy", twitter: "@djtweets", bio: "sneaky", nickname: "sneaky" },
    });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ facebook: "dj.page", snapchat: "snappy", twitter: "@djtweets", bio: null });
    expect((await profileRow(me.user.uuid))?.bio).toBeNull();
  });

  it("refuses bad links and callers without a token, changing nothing", async () => {
    const me = await t.createUser();
    await t.api(me.token).user.POST("/users/user-socials", { body: { twitter: "@kept" } });
    // Raw: malformed input, which the typed client cannot send.
    for (const twitter of ["http://insecure.example", "two words", `@${"x".repeat(101)}`, 42]) {
      const res = await t.request("POST", `${P}/users/user-socials`, { token: me.token, body: { twitter } });
      expect(res.status, String(twitter)).toBe(400);
      expect(res.body.message[0]).toMatch(/^twitter: /);
    }
    expect((await t.api().user.POST("/users/user-socials", { body: { twitter: "@nobody" } })).response.status).toBe(
      401,
    );
    expect((await profileRow(me.user.uuid))?.twitter).toBe("@kept");
  });
});

describe("GET /profile/{id} and /profile/{id}/service", () => {
  it("shows the public profile to anyone, signed in or not, without the private fields", async () => {
    const owner = await t.createUser({ nickname: "shown" });
    const viewer = await t.createUser();
    const res = await t.api(viewer.token).user.GET("/profile/{id}", { params: { path: { id: owner.user.uuid } } });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ uuid: owner.user.uuid, nickname: "shown", badges: [], isBot: false });
    expect((res.data as Record<string, unknown> | undefined)?.musicProviders).toBeUndefined();
    expect((res.data as Record<string, unknown> | undefined)?.email).toBeUndefined();
    expect((await t.api().user.GET("/profile/{id}", { params: { path: { id: "nope" } } })).response.status).toBe(400);
  });

  it("gives services and admins the full profile; deactivated and unknown users are not found", async () => {
    const owner = await t.createUser();
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const byAdmin = await t
      .api(admin.token)
      .user.GET("/profile/{id}/service", { params: { path: { id: owner.user.uuid } } });
    expect(byAdmin.response.status).toBe(200);
    expect(byAdmin.data?.musicProviders).toEqual([]);
    expect(
      (await t.api(staff.token).user.GET("/profile/{id}/service", { params: { path: { id: owner.user.uuid } } }))
        .response.status,
    ).toBe(403);
    const service = await t.serviceToken();
    const missing = await t
      .api(service)
      .user.GET("/profile/{id}/service", { params: { path: { id: crypto.randomUUID() } } });
    expectRefusal(missing, 404, "User profile not found.");
    await t.changeUser(owner.user.uuid, { deactivatedAt: t.clock.now() });
    const gone = await t.api(service).user.GET("/profile/{id}/service", { params: { path: { id: owner.user.uuid } } });
    expectRefusal(gone, 404, "User profile not found.");
  });
});

describe("GET /users/profiles", () => {
  it("accepts exactly 150 ids, skips deactivated users and answers [] for an empty list", async () => {
    const a = await t.createUser();
    const off = await t.createUser();
    await t.changeUser(off.user.uuid, { deactivatedAt: t.clock.now() });
    const ids = [off.user.uuid, a.user.uuid, ...Array.from({ length: 148 }, () => crypto.randomUUID())];
    const res = await t.api().user.GET("/users/profiles", { params: { query: { users: ids.join(",") } } });
    expect(res.response.status).toBe(200);
    expect(res.data?.map((p) => p.uuid)).toEqual([a.user.uuid]);
    expect((res.data?.[0] as Record<string, unknown> | undefined)?.allowExplicitAudio).toBeUndefined();
    expect((await t.api().user.GET("/users/profiles", { params: { query: { users: "" } } })).data).toEqual([]);
  });

  it("answers from the database's JSON what the row-by-row view answers, field for field, in the asked order", async () => {
    const plain = await t.createUser({ nickname: "plain" });
    const bot = await t.createUser({ roles: ["bot"], nickname: 'bot "quoted" ünï' });
    const full = await t.createUser({ nickname: "full" });
    await t.db
      .update(schema.users)
      .set({ badges: ["VERIFIED"], verifiedAt: new Date("2026-05-01T10:20:30.456Z") })
      .where(eq(schema.users.uuid, full.user.uuid));
    await t.db
      .update(schema.profiles)
      .set({ bio: "line\nbreak", instagram: "@full", priceForGig: 250, displayPronouns: true, pronoun: "they" })
      .where(eq(schema.profiles.userUuid, full.user.uuid));
    const ids = [full.user.uuid, crypto.randomUUID(), bot.user.uuid, plain.user.uuid.toUpperCase(), plain.user.uuid];
    const res = await t.request("GET", `${P}/users/profiles?users=${ids.join(",")}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toEqual(await profilesOf(t.db, ids));
    expect(res.body.map((p: { nickname: string }) => p.nickname)).toEqual(["full", 'bot "quoted" ünï', "plain"]);
    expect(res.body[0]).toMatchObject({
      verifiedAt: "2026-05-01T10:20:30.456Z",
      badges: ["VERIFIED"],
      priceForGig: 250,
    });
    expect(res.body[1].isBot).toBe(true);
  });

  it("counts repeated and comma-separated ids together against the limit, and needs the parameter", async () => {
    const half = Array.from({ length: 76 }, () => crypto.randomUUID());
    const other = Array.from({ length: 75 }, () => crypto.randomUUID());
    const res = await t.request("GET", `${P}/users/profiles?users=${half.join(",")}&users=${other.join(",")}`);
    expectRefusal(res, 400, ["users: at most 150 ids per call"]);
    // Raw: input the typed client cannot send (it is wrong on purpose).
    expect((await t.request("GET", "/api/user-service/users/profiles")).status).toBe(400);
    const bad = await t
      .api()
      .user.GET("/users/profiles", { params: { query: { users: `${crypto.randomUUID()},xyz` } } });
    expect(bad.error?.message).toEqual(["users: xyz is not a uuid"]);
  });
});

describe("badges by services", () => {
  it("is idempotent: adding a badge twice or removing one the user lacks changes nothing", async () => {
    const { user } = await t.createUser();
    const service = await t.serviceToken();
    const add = () =>
      t.request("POST", `${P}/users/add-badges-service`, {
        token: service,
        body: { userUuid: user.uuid, badges: ["STAFF"] },
      });
    expect((await add()).body.badges).toEqual(["STAFF"]);
    expect((await add()).body.badges).toEqual(["STAFF"]);
    const removed = await t
      .api(service)
      .user.POST("/users/remove-badges-service", { body: { userUuid: user.uuid, badges: ["JQBX"] } });
    expect(removed.response.status).toBe(200);
    expect(removed.data).toMatchObject({ uuid: user.uuid, badges: ["STAFF"] });
    expect((await t.userRow(user.uuid))?.badges).toEqual(["STAFF"]);
  });

  it("lets an admin call them by hand; unknown users 404; an empty list 400; no token 401", async () => {
    const { user } = await t.createUser();
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const byAdmin = await t
      .api(admin.token)
      .user.POST("/users/add-badges-service", { body: { userUuid: user.uuid, badges: ["IDENTITY_VERIFIED"] } });
    expect(byAdmin.data?.badges).toEqual(["IDENTITY_VERIFIED"]);
    const service = await t.serviceToken();
    const unknown = await t
      .api(service)
      .user.POST("/users/remove-badges-service", { body: { userUuid: crypto.randomUUID(), badges: ["VERIFIED"] } });
    expectRefusal(unknown, 404, "User not found.");
    const empty = await t
      .api(service)
      .user.POST("/users/remove-badges-service", { body: { userUuid: user.uuid, badges: [] } });
    expect(empty.response.status).toBe(400);
    const anon = await t
      .api()
      .user.POST("/users/remove-badges-service", { body: { userUuid: user.uuid, badges: ["IDENTITY_VERIFIED"] } });
    expect(anon.response.status).toBe(401);
    const plain = await t.createUser();
    const refused = await t
      .api(plain.token)
      .user.POST("/users/remove-badges-service", { body: { userUuid: user.uuid, badges: ["IDENTITY_VERIFIED"] } });
    expect(refused.response.status).toBe(403);
    expect((await t.userRow(user.uuid))?.badges).toEqual(["IDENTITY_VERIFIED"]);
  });
});

describe("service profile reads", () => {
  it("pages all profiles in a stable order without deactivated users, and bounds take and skip", async () => {
    const service = await t.serviceToken();
    const off = await t.createUser();
    await t.changeUser(off.user.uuid, { deactivatedAt: t.clock.now() });
    const all = await t.api(service).user.GET("/users/service/all-user-profiles");
    expect(all.response.status).toBe(200);
    expect(all.data?.data.length).toBe(ok(all).total);
    expect(all.data?.data.some((p) => p.uuid === off.user.uuid)).toBe(false);
    expect(all.data?.data[0]?.musicProviders).toBeDefined();
    const second = await t
      .api(service)
      .user.GET("/users/service/all-user-profiles", { params: { query: { take: 1, skip: 1 } } });
    expect(second.data?.data.map((p) => p.uuid)).toEqual([ok(all).data[1]?.uuid]);
    // Raw: malformed input, which the typed client cannot send.
    for (const query of [{ take: 1001 }, { take: 0 }, { skip: -1 }, { take: "many" }]) {
      const res = await t.request("GET", `${P}/users/service/all-user-profiles`, { token: service, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
    }
    expect((await t.api().user.GET("/users/service/all-user-profiles")).response.status).toBe(401);
  });

  it("reads one user's account for services; unknown users are not found; users are refused", async () => {
    const service = await t.serviceToken();
    const owner = await t.createUser({ nickname: "oneuser" });
    const account = (token: string | undefined, id: string) =>
      t.api(token).user.GET("/users/service/{id}/user-profile", { params: { path: { id } } });
    const res = await account(service, owner.user.uuid);
    expect(res.data).toMatchObject({ uuid: owner.user.uuid, email: owner.email, profile: { nickname: "oneuser" } });
    expectRefusal(await account(service, crypto.randomUUID()), 404, "User profile not found.");
    expect(await statusOf(account(undefined, owner.user.uuid))).toBe(401);
    expect(await statusOf(account(service, "bad"))).toBe(400);
  });
});

describe("admin profile and badge edits", () => {
  it("edits another user's profile, with the nickname rule; unknown users are not found", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    await t.createUser({ nickname: "Occupied" });
    const { user } = await t.createUser({ nickname: "editable" });
    const edit = await t.api(admin.token).user.POST("/users/profile-admin", {
      body: { userUuid: user.uuid, nickname: "Renamed", musicProviders: ["youtube"], instagram: "@renamed" },
    });
    expect(edit.response.status).toBe(200);
    expect(await profileRow(user.uuid)).toMatchObject({
      nickname: "Renamed",
      musicProviders: ["youtube"],
      instagram: "@renamed",
    });
    const taken = await t
      .api(admin.token)
      .user.POST("/users/profile-admin", { body: { userUuid: user.uuid, nickname: "OCCUPIED" } });
    expectRefusal(taken, 409, "This nickname is already taken.");
    const missing = await t
      .api(admin.token)
      .user.POST("/users/profile-admin", { body: { userUuid: crypto.randomUUID(), bio: "x" } });
    expectRefusal(missing, 404, "User profile not found.");
    const bad = await t
      .api(admin.token)
      .user.POST("/users/profile-admin", { body: { userUuid: user.uuid, bio: "x".repeat(1001) } });
    expect(bad.response.status).toBe(400);
    expect((await t.api().user.POST("/users/profile-admin", { body: { userUuid: user.uuid } })).response.status).toBe(
      401,
    );
    const staff = await t.createUser({ roles: ["user", "staff"] });
    expect(
      (await t.api(staff.token).user.POST("/users/profile-admin", { body: { userUuid: user.uuid } })).response.status,
    ).toBe(403);
    expect((await profileRow(user.uuid))?.nickname).toBe("Renamed");
    expect((await profileRow(user.uuid))?.bio).toBeNull();
  });

  it("sets the badge list exactly, deduplicated; bad badges change nothing", async () => {
    const admin = await t.createUser({ roles: ["user", "superUser"] });
    const { user } = await t.createUser();
    const set = await t.api(admin.token).user.POST("/users/change-badges-admin", {
      body: { userUuid: user.uuid, badges: ["VERIFIED", "JQBX", "VERIFIED"] },
    });
    expect(set.data?.badges).toEqual(["VERIFIED", "JQBX"]);
    // Raw: input the typed client cannot send (it is wrong on purpose).
    const bad = await t.request("POST", "/api/user-service/users/change-badges-admin", {
      token: admin.token,
      body: { userUuid: user.uuid, badges: ["VERIFIED", "ROCKSTAR"] },
    });
    expect(bad.status).toBe(400);
    expect((await t.userRow(user.uuid))?.badges).toEqual(["VERIFIED", "JQBX"]);
    const cleared = await t
      .api(admin.token)
      .user.POST("/users/change-badges-admin", { body: { userUuid: user.uuid, badges: [] } });
    expect(cleared.data?.badges).toEqual([]);
    expect((await t.userRow(user.uuid))?.badges).toEqual([]);
    expect(
      (await t.api().user.POST("/users/change-badges-admin", { body: { userUuid: user.uuid, badges: [] } })).response
        .status,
    ).toBe(401);
  });

  it("lets an admin edit only accounts they outrank (or their own); a superUser edits any", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"], nickname: "rank-admin" });
    const other = await t.createUser({ roles: ["user", "admin"], nickname: "rank-other" });
    const su = await t.createUser({ roles: ["user", "superUser"], nickname: "rank-su" });
    const profileEdit = (token: string, userUuid: string) =>
      t.request("POST", `${P}/users/profile-admin`, { token, body: { userUuid, bio: "edited" } });
    const badgeEdit = (token: string, userUuid: string) =>
      t.request("POST", `${P}/users/change-badges-admin`, { token, body: { userUuid, badges: ["JQBX"] } });

    for (const target of [other.user.uuid, su.user.uuid]) {
      expect((await profileEdit(admin.token, target)).status).toBe(403);
      expect((await badgeEdit(admin.token, target)).status).toBe(403);
    }
    expect((await profileRow(other.user.uuid))?.bio).toBeNull();
    expect((await t.userRow(other.user.uuid))?.badges).toEqual([]);
    expect((await t.userRow(su.user.uuid))?.badges).toEqual([]);

    expect((await profileEdit(admin.token, admin.user.uuid)).status).toBe(200);
    expect((await badgeEdit(admin.token, admin.user.uuid)).status).toBe(200);
    expect((await profileEdit(su.token, other.user.uuid)).status).toBe(200);
    expect((await badgeEdit(su.token, other.user.uuid)).status).toBe(200);
    expect((await profileRow(other.user.uuid))?.bio).toBe("edited");
    expect((await t.userRow(other.user.uuid))?.badges).toEqual(["JQBX"]);
  });
});
