import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing.ts";

let t: TestApp;
let admin: Awaited<ReturnType<TestApp["createUser"]>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ roles: ["user", "admin"] });
});
afterAll(() => t.close());

const M = "/api/merch-service";
const day = 24 * 3600 * 1000;
const iso = (offsetDays: number) => new Date(t.clock.now().getTime() + offsetDays * day).toISOString();

describe("avatars", () => {
  it("shows public avatars to all, assigned ones to their wearers, private ones to staff", async () => {
    const user = await t.createUser();
    for (const [slug, avatarStatus] of [
      ["panda", "PUBLIC"],
      ["golden-cat", "PRIVATE"],
      ["vip-fox", "SUBSCRIBER_ONLY"],
    ] as const)
      expect(
        (await t.request("POST", `${M}/avatars`, { token: admin.token, body: { slug, name: slug, avatarStatus } }))
          .status,
      ).toBe(201);
    expect(
      (await t.request("POST", `${M}/avatars`, { token: admin.token, body: { slug: "panda", name: "again" } })).status,
    ).toBe(409);
    expect(
      (await t.request("POST", `${M}/avatars`, { token: user.token, body: { slug: "mine", name: "mine" } })).status,
    ).toBe(403);
    expect(
      (await t.request("POST", `${M}/avatars`, { token: admin.token, body: { slug: "Bad Slug", name: "x" } })).status,
    ).toBe(400);
    const slugs = (r: { body: { slug: string }[] }) => r.body.map((a) => a.slug);
    expect(slugs(await t.request("GET", `${M}/avatars`, { token: user.token }))).toEqual(["panda"]);
    expect(slugs(await t.request("GET", `${M}/all-avatars`)).sort()).toEqual(["panda", "vip-fox"]);
    expect(slugs(await t.request("GET", `${M}/avatars/subscriber`))).toEqual(["vip-fox"]);
    expect((await t.request("GET", `${M}/avatars/golden-cat`)).status).toBe(404);
    expect((await t.request("GET", `${M}/admin/avatars/golden-cat`, { token: admin.token })).body.avatarStatus).toBe(
      "PRIVATE",
    );

    const given = await t.request("POST", `${M}/avatar-assignment/golden-cat`, {
      token: admin.token,
      body: { userUuid: user.user.uuid },
    });
    expect(given.status).toBe(201);
    expect(
      (
        await t.request("POST", `${M}/avatar-assignment/golden-cat`, {
          token: admin.token,
          body: { userUuid: user.user.uuid },
        })
      ).status,
    ).toBe(409);
    expect(slugs(await t.request("GET", `${M}/avatars`, { token: user.token })).sort()).toEqual([
      "golden-cat",
      "panda",
    ]);
    expect((await t.request("GET", `${M}/avatars/golden-cat/${user.user.uuid}`)).body.allowed).toBe(true);
    expect((await t.request("DELETE", `${M}/avatar-assignment/${given.body.id}`, { token: user.token })).status).toBe(
      403,
    );
    expect((await t.request("DELETE", `${M}/avatar-assignment/${given.body.id}`, { token: admin.token })).status).toBe(
      204,
    );
    expect((await t.request("GET", `${M}/avatars/golden-cat/${user.user.uuid}`)).body.allowed).toBe(false);
    expect(
      (await t.request("PATCH", `${M}/avatars/panda`, { token: admin.token, body: { name: "Big Panda" } })).body.name,
    ).toBe("Big Panda");
    expect((await t.request("GET", `${M}/service/avatar/panda`, { token: await t.serviceToken() })).body.name).toBe(
      "Big Panda",
    );
    expect((await t.request("GET", `${M}/service/avatar/panda`, { token: user.token })).status).toBe(403);
    expect((await t.request("DELETE", `${M}/admin/avatars/vip-fox`, { token: admin.token })).status).toBe(204);
    expect((await t.request("GET", `${M}/avatars/vip-fox`)).status).toBe(404);
  });

  it("closing a season gives its award avatar to everyone who earned it, once", async () => {
    const season = (
      await t.request("POST", `${M}/points/season`, {
        token: admin.token,
        body: { name: "Winter", start: iso(-10), end: iso(10) },
      })
    ).body;
    await t.request("POST", `${M}/avatars`, {
      token: admin.token,
      body: {
        slug: "winter-crown",
        name: "Winter crown",
        avatarStatus: "SEASON_AWARD",
        seasonId: season.id,
        minPoints: 10,
      },
    });
    const service = await t.serviceToken();
    const star = await t.createUser();
    const early = await t.createUser();
    const casual = await t.createUser();
    await t.request("POST", `${M}/points/service`, { token: service, body: { userUuid: star.user.uuid, points: 12 } });
    await t.request("POST", `${M}/points/service`, { token: service, body: { userUuid: early.user.uuid, points: 10 } });
    await t.request("POST", `${M}/points/service`, { token: service, body: { userUuid: casual.user.uuid, points: 3 } });

    const tooSoon = await t.request("POST", `${M}/points/season/admin/handle-points`, {
      token: admin.token,
      body: { seasonId: season.id },
    });
    expect(tooSoon.status).toBe(409);
    const backfill = await t.request("POST", `${M}/points/backfill-achieved-avatars/${season.id}`, {
      token: admin.token,
      query: { limit: 1 },
    });
    expect(backfill.status, JSON.stringify(backfill.body)).toBe(200);
    expect(backfill.body.awarded).toBe(1);

    t.clock.advance(11 * 24 * 3600);
    // Eleven days on, tokens have expired: sign in again.
    admin.token = await t.tokenFor(admin.user.uuid);
    star.token = await t.tokenFor(star.user.uuid);
    const handled = await t.request("POST", `${M}/points/season/admin/handle-points`, {
      token: admin.token,
      body: { seasonId: season.id },
    });
    expect(handled.body.awarded).toBe(1);
    for (const [u, allowed] of [
      [star, true],
      [early, true],
      [casual, false],
    ] as const)
      expect((await t.request("GET", `${M}/avatars/winter-crown/${u.user.uuid}`)).body.allowed).toBe(allowed);
    expect((await t.request("GET", `${M}/avatars/winter-crown/${star.user.uuid}`)).body.assignment.assignmentType).toBe(
      "SEASON_AWARD",
    );
    expect(
      (
        await t.request("POST", `${M}/points/season/admin/handle-points`, {
          token: admin.token,
          body: { seasonId: season.id },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await t.request("POST", `${M}/points/season/admin/handle-points`, {
          token: star.token,
          body: { seasonId: season.id },
        })
      ).status,
    ).toBe(403);
  });
});
