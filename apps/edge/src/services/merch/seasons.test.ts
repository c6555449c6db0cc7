import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing.ts";

let t: TestApp;
let admin: Awaited<ReturnType<TestApp["createUser"]>>;
let service: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ roles: ["user", "admin"] });
  service = await t.serviceToken();
});
afterAll(() => t.close());

const M = "/api/merch-service";
const day = 24 * 3600 * 1000;
const iso = (offsetDays: number) => new Date(t.clock.now().getTime() + offsetDays * day).toISOString();

describe("seasons and points", () => {
  it("runs a season: points from the live room show in its ranking; seasons do not overlap", async () => {
    const past = await t.request("POST", `${M}/points/season`, {
      token: admin.token,
      body: { name: "Spring", start: iso(-60), end: iso(-30) },
    });
    expect(past.status).toBe(201);
    const now = await t.request("POST", `${M}/points/season`, {
      token: admin.token,
      body: { name: "Summer", start: iso(-30), end: iso(30) },
    });
    expect(
      (
        await t.request("POST", `${M}/points/season`, {
          token: admin.token,
          body: { name: "Clash", start: iso(-1), end: iso(1) },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await t.request("POST", `${M}/points/season`, {
          token: admin.token,
          body: { name: "Backwards", start: iso(40), end: iso(35) },
        })
      ).status,
    ).toBe(400);
    expect((await t.request("GET", `${M}/seasons/current`)).body.name).toBe("Summer");
    expect((await t.request("GET", `${M}/points/next-season/${encodeURIComponent(past.body.start)}`)).body.name).toBe(
      "Summer",
    );
    expect((await t.request("GET", `${M}/points/prev-season/${encodeURIComponent(now.body.start)}`)).body.name).toBe(
      "Spring",
    );

    const dj = await t.createUser({ nickname: "topdj" });
    const other = await t.createUser({ nickname: "seconddj" });
    const award = (userUuid: string, points: number, awardKey?: string) =>
      t.request("POST", `${M}/points/service`, {
        token: service,
        body: { userUuid, points, reason: "likes", awardKey },
      });
    expect((await award(dj.user.uuid, 5, "play-1")).body).toMatchObject({ awarded: true, balance: 5 });
    expect((await award(dj.user.uuid, 5, "play-1")).body).toMatchObject({ awarded: false, balance: 5 });
    await award(dj.user.uuid, 3, "play-2");
    await award(other.user.uuid, 4, "play-3");

    const ranking = await t.request("GET", `${M}/points/season-ranking`);
    expect(
      ranking.body.data.map((r: { nickname: string; balance: number; rank: number }) => [
        r.rank,
        r.nickname,
        r.balance,
      ]),
    ).toEqual([
      [1, "topdj", 8],
      [2, "seconddj", 4],
    ]);
    expect(
      (await t.request("GET", `${M}/points/season-ranking/Summer`, { query: { take: 1, skip: 1 } })).body.data[0].rank,
    ).toBe(2);
    const mine = await t.request("GET", `${M}/points/current-ranking-status`, { token: other.token });
    expect(mine.body).toMatchObject({ balance: 4, rank: 2, hasCurrentRankingStatus: true });
    expect((await t.request("GET", `${M}/points/ranking-status/sum/${dj.user.uuid}`)).body.balance).toBe(8);
    expect((await t.request("GET", `${M}/points/ranking-status/${dj.user.uuid}`)).body).toEqual([
      { seasonId: now.body.id, seasonName: "Summer", balance: 8 },
    ]);
    expect((await t.request("GET", `${M}/points/all-seasons-ranking`)).body.total).toBe(2);
  });

  it("keeps admin and service routes to their callers", async () => {
    const user = await t.createUser();
    const staff = await t.createUser({ roles: ["user", "staff"] });
    expect(
      (
        await t.request("POST", `${M}/points/season`, {
          token: user.token,
          body: { name: "X", start: iso(100), end: iso(110) },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.request("POST", `${M}/points/service`, {
          token: user.token,
          body: { userUuid: user.user.uuid, points: 100 },
        })
      ).status,
    ).toBe(403);
    expect(
      (await t.request("POST", `${M}/points/service`, { body: { userUuid: user.user.uuid, points: 100 } })).status,
    ).toBe(401);
    expect((await t.request("GET", `${M}/admin/seasons`, { token: staff.token })).body.length).toBeGreaterThan(0);
    expect((await t.request("GET", `${M}/admin/seasons`, { token: user.token })).status).toBe(403);
    expect((await t.request("GET", `${M}/admin/ranking-status`, { token: staff.token })).status).toBe(200);
    expect((await t.request("GET", `${M}/admin/ranking-status-lifetime`, { token: user.token })).status).toBe(403);
    const season = (
      await t.request("POST", `${M}/points/season`, {
        token: admin.token,
        body: { name: "Autumn", start: iso(100), end: iso(110) },
      })
    ).body;
    expect(
      (await t.request("PATCH", `${M}/points/season/${season.id}`, { token: admin.token, body: { name: "Fall" } })).body
        .name,
    ).toBe("Fall");
    expect((await t.request("DELETE", `${M}/points/season/${season.id}`, { token: staff.token })).status).toBe(403);
    expect((await t.request("DELETE", `${M}/admin/seasons/${season.id}`, { token: admin.token })).status).toBe(204);
    expect((await t.request("GET", `${M}/admin/seasons/${season.id}`, { token: staff.token })).status).toBe(404);
  });
});
