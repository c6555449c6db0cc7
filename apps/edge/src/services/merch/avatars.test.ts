import { schema } from "@booth/db";
import { beforeAll, describe, expect, it } from "vitest";
import { multipart, ok, openTestApp, type TestUser } from "../../testing.ts";
import { DISCORD_ONLY } from "./avatars.ts";

let admin: TestUser;
const t = openTestApp();
beforeAll(async () => (admin = await t.createUser({ roles: ["user", "admin"] })));

const day = 24 * 3600 * 1000;
const iso = (offsetDays: number) => new Date(t.clock.now().getTime() + offsetDays * day).toISOString();

describe("avatars", () => {
  it("shows public avatars to all, assigned ones to their wearers, private ones to staff", async () => {
    const user = await t.createUser();
    const staff = t.api(admin.token);
    const wearer = t.api(user.token);
    const anyone = t.api();
    for (const [slug, avatarStatus] of [
      ["panda", "PUBLIC"],
      ["golden-cat", "PRIVATE"],
      ["vip-fox", "SUBSCRIBER_ONLY"],
    ] as const)
      expect((await staff.merch.POST("/avatars", { body: { slug, name: slug, avatarStatus } })).response.status).toBe(
        201,
      );
    expect((await staff.merch.POST("/avatars", { body: { slug: "panda", name: "again" } })).response.status).toBe(409);
    expect((await wearer.merch.POST("/avatars", { body: { slug: "mine", name: "mine" } })).response.status).toBe(403);
    expect((await staff.merch.POST("/avatars", { body: { slug: "Bad Slug", name: "x" } })).response.status).toBe(400);
    const slugs = (avatars: { slug: string }[]) => avatars.map((a) => a.slug);
    expect(slugs(ok(await wearer.merch.GET("/avatars")))).toEqual(["panda"]);
    expect(slugs(ok(await anyone.merch.GET("/all-avatars"))).sort()).toEqual(["panda", "vip-fox"]);
    expect(slugs(ok(await anyone.merch.GET("/avatars/subscriber")))).toEqual(["vip-fox"]);
    const goldenCat = { params: { path: { slug: "golden-cat" } } };
    expect((await anyone.merch.GET("/avatars/{slug}", goldenCat)).response.status).toBe(404);
    expect((await staff.merch.GET("/admin/avatars/{slug}", goldenCat)).data?.avatarStatus).toBe("PRIVATE");

    const assign = () =>
      staff.merch.POST("/avatar-assignment/{slug}", { ...goldenCat, body: { userUuid: user.user.uuid } });
    const given = await assign();
    expect(given.response.status).toBe(201);
    expect((await assign()).response.status).toBe(409);
    expect(slugs(ok(await wearer.merch.GET("/avatars"))).sort()).toEqual(["golden-cat", "panda"]);
    const worn = { params: { path: { slug: "golden-cat", uuid: user.user.uuid } } };
    expect((await anyone.merch.GET("/avatars/{slug}/{uuid}", worn)).data?.allowed).toBe(true);
    // The contract names one schema for an assignment and for "none" (GET /avatars/{slug}/{uuid}), hence the `!`.
    const assignment = { params: { path: { avatarAssignmentId: ok(given)!.id } } };
    expect((await wearer.merch.DELETE("/avatar-assignment/{avatarAssignmentId}", assignment)).response.status).toBe(
      403,
    );
    expect((await staff.merch.DELETE("/avatar-assignment/{avatarAssignmentId}", assignment)).response.status).toBe(204);
    expect((await anyone.merch.GET("/avatars/{slug}/{uuid}", worn)).data?.allowed).toBe(false);
    expect(
      (await staff.merch.PATCH("/avatars/{slug}", { params: { path: { slug: "panda" } }, body: { name: "Big Panda" } }))
        .data?.name,
    ).toBe("Big Panda");
    const panda = { params: { path: { avatarSlug: "panda" } } };
    expect((await t.api(await t.serviceToken()).merch.GET("/service/avatar/{avatarSlug}", panda)).data?.name).toBe(
      "Big Panda",
    );
    expect((await wearer.merch.GET("/service/avatar/{avatarSlug}", panda)).response.status).toBe(403);
    const vipFox = { params: { path: { slug: "vip-fox" } } };
    expect((await staff.merch.DELETE("/admin/avatars/{slug}", vipFox)).response.status).toBe(204);
    expect((await anyone.merch.GET("/avatars/{slug}", vipFox)).response.status).toBe(404);
  });

  it("closing a season gives its award avatar to everyone who earned it, once", async () => {
    const season = ok(
      await t
        .api(admin.token)
        .merch.POST("/points/season", { body: { name: "Winter", start: iso(-10), end: iso(10) } }),
    );
    ok(
      await t.api(admin.token).merch.POST("/avatars", {
        body: {
          slug: "winter-crown",
          name: "Winter crown",
          avatarStatus: "SEASON_AWARD",
          seasonId: season.id,
          minPoints: 10,
        },
      }),
    );
    const service = t.api(await t.serviceToken());
    const star = await t.createUser();
    const early = await t.createUser();
    const casual = await t.createUser();
    for (const [u, points] of [
      [star, 12],
      [early, 10],
      [casual, 3],
    ] as const)
      ok(await service.merch.POST("/points/service", { body: { userUuid: u.user.uuid, points } }));

    const handle = (token: string) =>
      t.api(token).merch.POST("/points/season/admin/handle-points", { body: { seasonId: season.id } });
    const tooSoon = await handle(admin.token);
    expect(tooSoon.response.status).toBe(409);
    const backfill = await t.api(admin.token).merch.POST("/points/backfill-achieved-avatars/{seasonId}", {
      params: { path: { seasonId: season.id }, query: { limit: 1 } },
    });
    expect(backfill.response.status, JSON.stringify(backfill.error)).toBe(200);
    expect(backfill.data?.awarded).toBe(1);

    t.clock.advance(11 * 24 * 3600);
    // Eleven days on, tokens have expired: sign in again.
    admin.token = await t.tokenFor(admin.user.uuid);
    star.token = await t.tokenFor(star.user.uuid);
    const handled = await handle(admin.token);
    expect(handled.data?.awarded).toBe(1);
    const crown = (uuid: string) =>
      t.api().merch.GET("/avatars/{slug}/{uuid}", { params: { path: { slug: "winter-crown", uuid } } });
    for (const [u, allowed] of [
      [star, true],
      [early, true],
      [casual, false],
    ] as const)
      expect((await crown(u.user.uuid)).data?.allowed).toBe(allowed);
    expect((await crown(star.user.uuid)).data?.assignment?.assignmentType).toBe("SEASON_AWARD");
    expect((await handle(admin.token)).response.status).toBe(409);
    expect((await handle(star.token)).response.status).toBe(403);
  });

  it("lists every avatar's picture by slug, private ones included, for anyone", async () => {
    const staff = t.api(admin.token);
    const form = new FormData();
    form.set("file", new File([PNG], "a.png", { type: "image/png" }));
    const file = ok(await staff.merch.POST("/files", multipart(form)));
    for (const [slug, avatarStatus, fileId] of [
      ["pictured-owl", "PUBLIC", file.id],
      ["pictured-secret", "PRIVATE", file.id],
      ["plain-owl", "PUBLIC", null],
    ] as const)
      ok(await staff.merch.POST("/avatars", { body: { slug, name: slug, avatarStatus, fileId } }));
    const res = await t.api().merch.GET("/avatar-images");
    expect(res.response.headers.get("cache-control")).toBe("public, max-age=60");
    const images = ok(res).images;
    expect(images["pictured-owl"]).toBe(file.url);
    expect(images["pictured-secret"]).toBe(file.url);
    expect(images).not.toHaveProperty("plain-owl");
    expect((await t.app.request(file.url)).headers.get("content-type")).toBe("image/png");
  });

  it("a profile wears only an avatar its owner may wear", async () => {
    const staff = t.api(admin.token);
    for (const [slug, avatarStatus] of [
      ["free-bird", "PUBLIC"],
      ["locked-bird", "PRIVATE"],
      ["club-bird", "SUBSCRIBER_ONLY"],
    ] as const)
      ok(await staff.merch.POST("/avatars", { body: { slug, name: slug, avatarStatus } }));
    const me = await t.createUser();
    const wear = (avatarId: string) => t.api(me.token).user.POST("/users/profile", { body: { avatarId } });
    const wearing = async () => ok(await t.api(me.token).user.GET("/users/profile")).avatarId;

    expect((await wear("free-bird")).response.status).toBe(200);
    for (const slug of ["locked-bird", "club-bird"]) {
      const refused = await wear(slug);
      expect(refused.response.status).toBe(403);
      expect(refused.error).toMatchObject({ message: "You have not unlocked this avatar." });
    }
    const unknown = await wear("no-such-bird");
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ message: "Avatar not found." });
    expect(await wearing()).toBe("free-bird");
    // The default is always allowed; an assignment unlocks the locked one.
    expect((await wear("default")).response.status).toBe(200);
    const given = ok(
      await staff.merch.POST("/avatar-assignment/{slug}", {
        params: { path: { slug: "locked-bird" } },
        body: { userUuid: me.user.uuid },
      }),
    );
    expect((await wear("locked-bird")).response.status).toBe(200);
    // Taken back, the avatar stays on the profile until its owner changes it; saving the same one again is no change.
    await staff.merch.DELETE("/avatar-assignment/{avatarAssignmentId}", {
      params: { path: { avatarAssignmentId: given!.id } },
    });
    expect((await wear("locked-bird")).response.status).toBe(200);
    expect((await wear("free-bird")).response.status).toBe(200);
    expect((await wear("locked-bird")).response.status).toBe(403);
  });

  it("a discordOnly avatar is worn only by accounts with Discord linked", async () => {
    const staff = t.api(admin.token);
    ok(await staff.merch.POST("/avatars", { body: { slug: "discord-wumpus", name: "Wumpus", discordOnly: true } }));
    const me = await t.createUser();
    const wear = () => t.api(me.token).user.POST("/users/profile", { body: { avatarId: "discord-wumpus" } });
    const wearable = async () => ok(await t.api(me.token).merch.GET("/avatars")).map((a) => a.slug);
    const allowed = async () =>
      ok(
        await t.api().merch.GET("/avatars/{slug}/{uuid}", {
          params: { path: { slug: "discord-wumpus", uuid: me.user.uuid } },
        }),
      ).allowed;
    const refused = await wear();
    expect(refused.response.status).toBe(403);
    expect(refused.error).toMatchObject({ message: DISCORD_ONLY });
    expect(await wearable()).not.toContain("discord-wumpus");
    expect(await allowed()).toBe(false);
    // Linked to Discord (as /auth/link-discord and the Activity's sign-in leave it), it may.
    await t.db.insert(schema.providerAccounts).values({
      userUuid: me.user.uuid,
      provider: "discord",
      providerUserId: `${Date.now()}`,
      displayName: "wumpus fan",
      details: {},
      createdAt: t.clock.now(),
      updatedAt: t.clock.now(),
    });
    expect((await wear()).response.status).toBe(200);
    expect(await wearable()).toContain("discord-wumpus");
    expect(await allowed()).toBe(true);
  });
});

const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (ch) => ch.charCodeAt(0),
);
