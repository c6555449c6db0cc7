import { beforeAll, describe, expect, it } from "vitest";
import { ok, openTestApp, type TestApi } from "../../testing.ts";

let admin: TestApi;
let service: TestApi;
const t = openTestApp();
beforeAll(async () => {
  admin = t.api((await t.createUser({ roles: ["user", "admin"] })).token);
  service = t.api(await t.serviceToken());
});

const day = 24 * 3600 * 1000;
const iso = (offsetDays: number) => new Date(t.clock.now().getTime() + offsetDays * day).toISOString();
/** A season from `start` to `end` days from now, made by the holder of `api`. */
const makeSeason = (api: TestApi, name: string, start: number, end: number) =>
  api.merch.POST("/points/season", { body: { name, start: iso(start), end: iso(end) } });

describe("seasons and points", () => {
  it("runs a season: points from the live room show in its ranking; seasons do not overlap", async () => {
    const anyone = t.api();
    const past = await makeSeason(admin, "Spring", -60, -30);
    expect(past.response.status).toBe(201);
    const now = ok(await makeSeason(admin, "Summer", -30, 30));
    expect((await makeSeason(admin, "Clash", -1, 1)).response.status).toBe(409);
    expect((await makeSeason(admin, "Backwards", 40, 35)).response.status).toBe(400);
    expect((await anyone.merch.GET("/seasons/current")).data?.name).toBe("Summer");
    expect(
      (
        await anyone.merch.GET("/points/next-season/{seasonStart}", {
          params: { path: { seasonStart: ok(past).start } },
        })
      ).data?.name,
    ).toBe("Summer");
    expect(
      (await anyone.merch.GET("/points/prev-season/{seasonStart}", { params: { path: { seasonStart: now.start } } }))
        .data?.name,
    ).toBe("Spring");

    const dj = await t.createUser({ nickname: "topdj" });
    const other = await t.createUser({ nickname: "seconddj" });
    const award = (userUuid: string, points: number, awardKey?: string) =>
      service.merch.POST("/points/service", { body: { userUuid, points, reason: "likes", awardKey } });
    expect((await award(dj.user.uuid, 5, "play-1")).data).toMatchObject({ awarded: true, balance: 5 });
    expect((await award(dj.user.uuid, 5, "play-1")).data).toMatchObject({ awarded: false, balance: 5 });
    ok(await award(dj.user.uuid, 3, "play-2"));
    ok(await award(other.user.uuid, 4, "play-3"));

    const ranking = ok(await anyone.merch.GET("/points/season-ranking"));
    expect(ranking.data.map((r) => [r.rank, r.nickname, r.balance])).toEqual([
      [1, "topdj", 8],
      [2, "seconddj", 4],
    ]);
    expect(
      ok(
        await anyone.merch.GET("/points/season-ranking/{seasonName}", {
          params: { path: { seasonName: "Summer" }, query: { take: 1, skip: 1 } },
        }),
      ).data[0]?.rank,
    ).toBe(2);
    const mine = await t.api(other.token).merch.GET("/points/current-ranking-status");
    expect(mine.data).toMatchObject({ balance: 4, rank: 2, hasCurrentRankingStatus: true });
    const ofDj = { params: { path: { userUuid: dj.user.uuid } } };
    expect((await anyone.merch.GET("/points/ranking-status/sum/{userUuid}", ofDj)).data?.balance).toBe(8);
    expect((await anyone.merch.GET("/points/ranking-status/{userUuid}", ofDj)).data).toEqual([
      { seasonId: now.id, seasonName: "Summer", balance: 8 },
    ]);
    expect((await anyone.merch.GET("/points/all-seasons-ranking")).data?.total).toBe(2);
  });

  it("keeps admin and service routes to their callers", async () => {
    const u = await t.createUser();
    const user = t.api(u.token);
    const staff = t.api((await t.createUser({ roles: ["user", "staff"] })).token);
    expect((await makeSeason(user, "X", 100, 110)).response.status).toBe(403);
    const points = { body: { userUuid: u.user.uuid, points: 100 } };
    expect((await user.merch.POST("/points/service", points)).response.status).toBe(403);
    expect((await t.api().merch.POST("/points/service", points)).response.status).toBe(401);
    expect(ok(await staff.merch.GET("/admin/seasons")).length).toBeGreaterThan(0);
    expect((await user.merch.GET("/admin/seasons")).response.status).toBe(403);
    expect((await staff.merch.GET("/admin/ranking-status")).response.status).toBe(200);
    expect((await user.merch.GET("/admin/ranking-status-lifetime")).response.status).toBe(403);
    const season = { params: { path: { id: ok(await makeSeason(admin, "Autumn", 100, 110)).id } } };
    expect((await admin.merch.PATCH("/points/season/{id}", { ...season, body: { name: "Fall" } })).data?.name).toBe(
      "Fall",
    );
    expect((await staff.merch.DELETE("/points/season/{id}", season)).response.status).toBe(403);
    expect((await admin.merch.DELETE("/admin/seasons/{id}", season)).response.status).toBe(204);
    expect((await staff.merch.GET("/admin/seasons/{id}", season)).response.status).toBe(404);
  });
});
