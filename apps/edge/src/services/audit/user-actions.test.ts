import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing.ts";
import { UNAUTHORIZED_ACTION } from "./user-actions.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const A = "/api/audit-service";

/** A user with two events and one kick on record, done through the real routes. */
async function userWithHistory() {
  const admin = await t.createUser({ roles: ["user", "admin"] });
  const u = await t.createUser();
  await t.request("POST", `${A}/kinesis`, { token: u.token, body: { topic: "pageView" } });
  t.clock.advance(1);
  await t.request("POST", `${A}/kinesis`, { token: u.token, body: { topic: "likedTrack", data: { songId: "s1" } } });
  t.clock.advance(1);
  await t.request("POST", "/api/user-service/users/kick", {
    token: admin.token,
    body: { userUuid: u.user.uuid, reason: "calm down" },
  });
  // The kick ended the user's sessions: a fresh token.
  return { admin, u, token: await t.tokenFor(u.user.uuid) };
}

describe("GET /user-actions/{id}", () => {
  it("answers a user's events and the moderation on them, newest first, to moderators and services", async () => {
    const { admin, u } = await userWithHistory();
    const mod = await t.createUser({ roles: ["user", "globalModerator"] });
    const res = await t.request("GET", `${A}/user-actions/${u.user.uuid}`, { token: mod.token });
    expect(res.status).toBe(200);
    expect(res.body.userUuid).toBe(u.user.uuid);
    expect(res.body.events.map((e: { topic: string }) => e.topic)).toEqual(["likedTrack", "pageView"]);
    expect(res.body.events[0].data).toEqual({ songId: "s1" });
    expect(res.body.moderationActions).toHaveLength(1);
    expect(res.body.moderationActions[0]).toMatchObject({
      actionType: "globalKick",
      moderatorUuid: admin.user.uuid,
      reason: "calm down",
    });
    const svc = await t.request("GET", `${A}/user-actions/${u.user.uuid}`, {
      token: await t.serviceToken(),
      query: { limit: 1 },
    });
    expect(svc.status).toBe(200);
    expect(svc.body.events).toHaveLength(1);
    expect(svc.body.moderationActions[0].moderatorUuid).toBe(admin.user.uuid);
  });

  it("answers a user their own, without naming the moderators", async () => {
    const { u, token } = await userWithHistory();
    const res = await t.request("GET", `${A}/user-actions/${u.user.uuid}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.events).toHaveLength(2);
    expect(res.body.moderationActions[0]).toMatchObject({ actionType: "globalKick", moderatorUuid: null });
  });

  it(`labels 401 "${UNAUTHORIZED_ACTION}" for any caller without rights`, async () => {
    const { u } = await userWithHistory();
    const other = await t.createUser();
    const guest = (await t.request("GET", "/api/user-service/auth/guest")).body.accessToken as string;
    for (const token of [undefined, "garbage", other.token, guest, u.token /* revoked by the kick */]) {
      const res = await t.request("GET", `${A}/user-actions/${u.user.uuid}`, { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ statusCode: 401, message: UNAUTHORIZED_ACTION, error: "Unauthorized" });
    }
  });

  it("refuses a bad id or limit with 400", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    expect((await t.request("GET", `${A}/user-actions/not-a-uuid`, { token: admin.token })).status).toBe(400);
    for (const limit of ["0", "201", "x"]) {
      const res = await t.request("GET", `${A}/user-actions/${admin.user.uuid}`, {
        token: admin.token,
        query: { limit },
      });
      expect(res.status, limit).toBe(400);
    }
  });

  it("answers empty lists for someone with no history", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const res = await t.request("GET", `${A}/user-actions/${crypto.randomUUID()}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ events: [], moderationActions: [] });
  });
});
