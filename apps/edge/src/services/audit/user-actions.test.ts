import { describe, expect, it } from "vitest";
import { ok, openTestApp } from "../../testing.ts";
import { UNAUTHORIZED_ACTION } from "./user-actions.ts";

const t = openTestApp();

/** A user with two events and one kick on record, done through the real routes. */
async function userWithHistory() {
  const admin = await t.createUser({ roles: ["user", "admin"] });
  const u = await t.createUser();
  await t.api(u.token).audit.POST("/kinesis", { body: { topic: "pageView" } });
  t.clock.advance(1);
  await t.api(u.token).audit.POST("/kinesis", { body: { topic: "likedTrack", data: { songId: "s1" } } });
  t.clock.advance(1);
  await t.api(admin.token).user.POST("/users/kick", { body: { userUuid: u.user.uuid, reason: "calm down" } });
  // The kick ended the user's sessions: a fresh token.
  return { admin, u, token: await t.tokenFor(u.user.uuid) };
}

describe("GET /user-actions/{id}", () => {
  it("answers a user's events and the moderation on them, newest first, to moderators and services", async () => {
    const { admin, u } = await userWithHistory();
    const mod = await t.createUser({ roles: ["user", "globalModerator"] });
    const res = await t.api(mod.token).audit.GET("/user-actions/{id}", { params: { path: { id: u.user.uuid } } });
    expect(res.response.status).toBe(200);
    expect(res.data?.userUuid).toBe(u.user.uuid);
    expect(res.data?.events.map((e: { topic: string }) => e.topic)).toEqual(["likedTrack", "pageView"]);
    expect(res.data?.events[0]?.data).toEqual({ songId: "s1" });
    expect(res.data?.moderationActions).toHaveLength(1);
    expect(res.data?.moderationActions[0]).toMatchObject({
      actionType: "globalKick",
      moderatorUuid: admin.user.uuid,
      reason: "calm down",
    });
    const svc = await t
      .api(await t.serviceToken())
      .audit.GET("/user-actions/{id}", { params: { path: { id: u.user.uuid }, query: { limit: 1 } } });
    expect(svc.response.status).toBe(200);
    expect(svc.data?.events).toHaveLength(1);
    expect(svc.data?.moderationActions[0]?.moderatorUuid).toBe(admin.user.uuid);
  });

  it("answers a user their own, without naming the moderators", async () => {
    const { u, token } = await userWithHistory();
    const res = await t.api(token).audit.GET("/user-actions/{id}", { params: { path: { id: u.user.uuid } } });
    expect(res.response.status).toBe(200);
    expect(res.data?.events).toHaveLength(2);
    expect(res.data?.moderationActions[0]).toMatchObject({ actionType: "globalKick", moderatorUuid: null });
  });

  it(`labels 401 "${UNAUTHORIZED_ACTION}" for any caller without rights`, async () => {
    const { u } = await userWithHistory();
    const other = await t.createUser();
    const guest = ok(await t.api().user.GET("/auth/guest")).accessToken as string;
    for (const token of [undefined, "garbage", other.token, guest, u.token /* revoked by the kick */]) {
      const res = await t.api(token).audit.GET("/user-actions/{id}", { params: { path: { id: u.user.uuid } } });
      expect(res.response.status).toBe(401);
      expect(res.error).toEqual({
        statusCode: 401,
        message: UNAUTHORIZED_ACTION,
        error: "Unauthorized",
        code: "UNAUTHORIZED",
      });
    }
  });

  it("refuses a bad id or limit with 400", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    expect(
      (await t.api(admin.token).audit.GET("/user-actions/{id}", { params: { path: { id: "not-a-uuid" } } })).response
        .status,
    ).toBe(400);
    for (const limit of ["0", "201", "x"]) {
      // Raw: limits that are not numbers, which the typed client cannot send.
      const res = await t.request("GET", `/api/audit-service/user-actions/${admin.user.uuid}`, {
        token: admin.token,
        query: { limit },
      });
      expect(res.status, limit).toBe(400);
    }
  });

  it("answers empty lists for someone with no history", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const res = await t
      .api(admin.token)
      .audit.GET("/user-actions/{id}", { params: { path: { id: crypto.randomUUID() } } });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ events: [], moderationActions: [] });
  });
});
