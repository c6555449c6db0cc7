import { schema } from "@booth/db";
import { count } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ok, openTestApp, type TestUser } from "../../testing.ts";
import { ACTION_NOT_FOUND, MODERATOR_FROM_SERVICES_ONLY, ROOM_NOT_FOUND } from "./moderation-actions.ts";

let admin: TestUser;
let staff: TestUser;
let moderator: TestUser;
let user: TestUser;
const t = openTestApp();
beforeAll(async () => {
  admin = await t.createUser({ roles: ["user", "admin"], nickname: "Ada" });
  staff = await t.createUser({ roles: ["user", "staff"], nickname: "Stef" });
  moderator = await t.createUser({ roles: ["user", "moderator"], nickname: "Mo" });
  user = await t.createUser({ nickname: "Uma" });
});

const A = "/api/audit-service/moderation-actions";
const ONE = "/moderation-actions/{id}";
/** A call and the status it must be answered with. */
type Case = [call: () => Promise<{ response: { status: number } }>, status: number];
/** Makes each call in turn; each must be answered with its status (a failure names the call). */
async function expectStatuses(cases: Case[]) {
  for (const [call, status] of cases) expect((await call()).response.status, call.toString()).toBe(status);
}
const stored = async () => (await t.db.select({ n: count() }).from(schema.moderationActions))[0]?.n ?? 0;
const create = async (body: Record<string, unknown>, token = staff.token) =>
  t.request("POST", A, { token, body: { actionType: "kickUser", targetUuid: user.user.uuid, ...body } });

describe("the user service's moderation lands in the log", () => {
  it("a global ban through POST /users/ban is visible in GET /moderation-actions", async () => {
    const target = await t.createUser({ nickname: "Banned Bob" });
    const ban = await t
      .api(admin.token)
      .user.POST("/users/ban", { body: { userUuid: target.user.uuid, reason: "spam" } });
    expect(ban.response.status).toBe(201);
    const list = await t.api(moderator.token).audit.GET("/moderation-actions", {
      params: { query: { filter: `targetUuid||$eq||${target.user.uuid}`, join: "target" } },
    });
    expect(list.response.status).toBe(200);
    expect(list.data?.total).toBe(1);
    expect(list.data?.data[0]).toMatchObject({
      actionType: "globalBan",
      moderatorUuid: admin.user.uuid,
      targetUuid: target.user.uuid,
      reason: "spam",
      target: { uuid: target.user.uuid, nickname: "Banned Bob" },
    });
  });
});

describe("POST /moderation-actions", () => {
  it("records an action in the staff member's name", async () => {
    const [room] = await t.db
      .insert(schema.rooms)
      .values({ slug: `mod-room-${crypto.randomUUID().slice(0, 8)}`, name: "Mod room", ownerUuid: admin.user.uuid })
      .returning({ uuid: schema.rooms.uuid });
    const res = await create({
      actionType: "grantRole",
      roomUuid: room?.uuid,
      role: "chatDisabled",
      reason: "  flooding  ",
      expiresAt: "2026-06-02T12:00:00Z",
      metadata: { source: "cli" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      actionType: "grantRole",
      moderatorUuid: staff.user.uuid,
      targetUuid: user.user.uuid,
      roomUuid: room?.uuid,
      role: "chatDisabled",
      reason: "flooding",
      expiresAt: "2026-06-02T12:00:00.000Z",
      metadata: { source: "cli" },
      createdAt: t.clock.now().toISOString(),
    });
  });

  it("lets a service name the moderator, but not a staff member", async () => {
    const svc = await create({ moderatorUuid: moderator.user.uuid }, await t.serviceToken());
    expect(svc.status).toBe(201);
    expect(svc.body.moderatorUuid).toBe(moderator.user.uuid);
    const before = await stored();
    const forged = await create({ moderatorUuid: moderator.user.uuid });
    expect(forged.status).toBe(403);
    expect(forged.body.message).toBe(MODERATOR_FROM_SERVICES_ONLY);
    expect(await stored()).toBe(before);
  });

  it("refuses moderators, users and callers without a token", async () => {
    const before = await stored();
    expect(
      (
        await t
          .api()
          .audit.POST("/moderation-actions", { body: { actionType: "kickUser", targetUuid: user.user.uuid } })
      ).response.status,
    ).toBe(401);
    expect((await create({}, moderator.token)).status).toBe(403);
    expect((await create({}, user.token)).status).toBe(403);
    expect(await stored()).toBe(before);
  });

  it("refuses bad input and unknown users or rooms, storing nothing", async () => {
    const before = await stored();
    for (const body of [
      { actionType: "hug" },
      { targetUuid: "x" },
      { role: "emperor" },
      { reason: "x".repeat(1001) },
      { reason: "a\u0000b" },
      { expiresAt: "tomorrow" },
      { metadata: [1] },
      { extra: true },
    ]) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const nobody = await create({ targetUuid: crypto.randomUUID() });
    expect(nobody.status).toBe(404);
    expect(nobody.body.message).toBe("targetUuid: User not found.");
    const noRoom = await create({ roomUuid: crypto.randomUUID() });
    expect(noRoom.status).toBe(404);
    expect(noRoom.body.message).toBe(`roomUuid: ${ROOM_NOT_FOUND}`);
    expect(await stored()).toBe(before);
  });
});

describe("POST /moderation-actions/bulk", () => {
  it("records several actions at once", async () => {
    const res = await t.api(admin.token).audit.POST("/moderation-actions/bulk", {
      body: {
        bulk: [
          { actionType: "kickUser", targetUuid: user.user.uuid },
          { actionType: "banUser", targetUuid: moderator.user.uuid, reason: "r" },
        ],
      },
    });
    expect(res.response.status).toBe(201);
    expect(res.data).toHaveLength(2);
    expect(res.data?.map((a) => a.actionType)).toEqual(["kickUser", "banUser"]);
    expect(res.data?.every((a) => a.moderatorUuid === admin.user.uuid)).toBe(true);
  });

  it("refuses moderators and anonymous callers", async () => {
    const body = { bulk: [{ actionType: "kickUser" as const, targetUuid: user.user.uuid }] };
    expect((await t.api().audit.POST("/moderation-actions/bulk", { body })).response.status).toBe(401);
    expect((await t.api(moderator.token).audit.POST("/moderation-actions/bulk", { body })).response.status).toBe(403);
  });

  it("stores none when one is wrong", async () => {
    const before = await stored();
    const ghost = crypto.randomUUID();
    const res = await t.api(admin.token).audit.POST("/moderation-actions/bulk", {
      body: {
        bulk: [
          { actionType: "kickUser", targetUuid: user.user.uuid },
          { actionType: "kickUser", targetUuid: ghost },
        ],
      },
    });
    expect(res.response.status).toBe(404);
    expect(res.error?.message).toBe("bulk.1.targetUuid: User not found.");
    // Raw: malformed bodies, which the typed client cannot send.
    for (const body of [{ bulk: [] }, { bulk: "x" }, {}, { bulk: Array(101).fill({ actionType: "kickUser" }) }])
      expect(
        (await t.request("POST", "/api/audit-service/moderation-actions/bulk", { token: admin.token, body })).status,
      ).toBe(400);
    expect(await stored()).toBe(before);
  });
});

describe("GET /moderation-actions", () => {
  it("lists in the nestjsx/crud syntax: fields, filter, or, s, sort, paging and joins", async () => {
    const target = await t.createUser({ nickname: "Listed" });
    for (const actionType of ["kickUser", "banUser", "globalKick"]) {
      t.clock.advance(1);
      await create({ actionType, targetUuid: target.user.uuid, reason: `because ${actionType}` });
    }
    const mine = `targetUuid||$eq||${target.user.uuid}`;
    const page = await t.api(staff.token).audit.GET("/moderation-actions", {
      params: { query: { filter: mine, sort: "createdAt,ASC", limit: 2, page: 1, fields: "actionType" } },
    });
    expect(page.response.status).toBe(200);
    expect(page.data).toMatchObject({ count: 2, total: 3, page: 1, pageCount: 2 });
    expect(page.data?.data.map((a) => a.actionType)).toEqual(["kickUser", "banUser"]);
    expect(Object.keys(ok(page).data[0] ?? {}).sort()).toEqual(["actionType", "id"]);
    const second = await t.api(staff.token).audit.GET("/moderation-actions", {
      params: { query: { filter: mine, sort: "createdAt,ASC", limit: 2, offset: 2 } },
    });
    expect(second.data?.data.map((a) => a.actionType)).toEqual(["globalKick"]);
    const search = await t.api(staff.token).audit.GET("/moderation-actions", {
      params: {
        query: {
          s: JSON.stringify({ targetUuid: target.user.uuid, reason: { $cont: "ban" } }),
          join: "moderator||nickname",
        },
      },
    });
    expect(search.data?.total).toBe(1);
    expect(search.data?.data[0]?.moderator).toEqual({ nickname: "Stef" });
    const newest = await t
      .api(await t.serviceToken())
      .audit.GET("/moderation-actions", { params: { query: { filter: mine } } });
    expect(newest.data?.data[0]?.actionType).toBe("globalKick");
  });

  it("refuses users and anonymous callers", async () => {
    expect((await t.api().audit.GET("/moderation-actions")).response.status).toBe(401);
    expect((await t.api(user.token).audit.GET("/moderation-actions")).response.status).toBe(403);
  });

  it("refuses malformed queries with 400", async () => {
    for (const query of [
      { filter: "nope||$eq||1" },
      { filter: "targetUuid||$eq||x" },
      { sort: "createdAt,UP" },
      { fields: "password" },
      { s: "{" },
      { join: "users" },
      { limit: 0 },
      { filter: "reason||$cont||a\u0000" },
    ]) {
      const res = await t.api(staff.token).audit.GET("/moderation-actions", { params: { query } });
      expect(res.response.status, JSON.stringify(query)).toBe(400);
    }
  });
});

describe("one moderation action: GET, PATCH, PUT, DELETE /moderation-actions/{id}", () => {
  it("reads, corrects, replaces and erases an action", async () => {
    const created = (await create({ actionType: "temporaryBan", reason: "first", metadata: { a: 1 } })).body;
    const one = await t
      .api(moderator.token)
      .audit.GET("/moderation-actions/{id}", { params: { path: { id: created.id }, query: { join: "target" } } });
    expect(one.response.status).toBe(200);
    expect(one.data).toMatchObject({ id: created.id, reason: "first", target: { nickname: "Uma" } });
    const picked = await t
      .api(staff.token)
      .audit.GET("/moderation-actions/{id}", { params: { path: { id: created.id }, query: { fields: "reason" } } });
    expect(picked.data).toEqual({ id: created.id, reason: "first" });

    t.clock.advance(5);
    const patched = await t.api(staff.token).audit.PATCH("/moderation-actions/{id}", {
      params: { path: { id: created.id } },
      body: { reason: "corrected", expiresAt: "2026-07-01T00:00:00Z" },
    });
    expect(patched.response.status).toBe(200);
    expect(patched.data).toMatchObject({
      reason: "corrected",
      expiresAt: "2026-07-01T00:00:00.000Z",
      metadata: { a: 1 },
      moderatorUuid: staff.user.uuid,
      updatedAt: t.clock.now().toISOString(),
    });
    expect(patched.data?.createdAt).toBe(created.createdAt);

    const replaced = await t.api(await t.serviceToken()).audit.PUT("/moderation-actions/{id}", {
      params: { path: { id: created.id } },
      body: { actionType: "globalBan", targetUuid: moderator.user.uuid },
    });
    expect(replaced.response.status).toBe(200);
    expect(replaced.data).toMatchObject({
      actionType: "globalBan",
      targetUuid: moderator.user.uuid,
      reason: null,
      expiresAt: null,
      metadata: null,
      moderatorUuid: staff.user.uuid,
    });

    expect(
      (await t.api(admin.token).audit.DELETE("/moderation-actions/{id}", { params: { path: { id: created.id } } }))
        .response.status,
    ).toBe(204);
    const gone = await t
      .api(admin.token)
      .audit.GET("/moderation-actions/{id}", { params: { path: { id: created.id } } });
    expect(gone.response.status).toBe(404);
    expect(gone.error?.message).toBe(ACTION_NOT_FOUND);
  });

  it("refuses callers without the right role, and changes nothing", async () => {
    const created = (await create({ reason: "keep" })).body;
    const byId = { params: { path: { id: created.id } } };
    const patch = { ...byId, body: { reason: "changed" } };
    const put = { ...byId, body: { actionType: "kickUser" as const, targetUuid: user.user.uuid } };
    const service = await t.serviceToken();
    await expectStatuses([
      [() => t.api().audit.GET(ONE, byId), 401],
      [() => t.api(user.token).audit.GET(ONE, byId), 403],
      [() => t.api(moderator.token).audit.PATCH(ONE, patch), 403],
      [() => t.api().audit.PATCH(ONE, patch), 401],
      [() => t.api(moderator.token).audit.PUT(ONE, put), 403],
      [() => t.api(staff.token).audit.DELETE(ONE, byId), 403],
      [() => t.api(service).audit.DELETE(ONE, byId), 401],
    ]);
    expect((await t.api(staff.token).audit.GET(ONE, byId)).data?.reason).toBe("keep");
  });

  it("refuses bad ids and bodies, and answers 404 for unknown actions", async () => {
    const created = (await create({ reason: "keep" })).body;
    const at = (id: string) => ({ params: { path: { id } } });
    const ghost = at(crypto.randomUUID());
    const staffApi = t.api(staff.token).audit;
    const adminApi = t.api(admin.token).audit;
    // Raw: malformed bodies, which the typed client cannot send.
    const raw = (method: string, body: unknown) => async () => ({
      response: await t.request(method, `${A}/${created.id}`, { token: staff.token, body }),
    });
    await expectStatuses([
      [() => staffApi.GET(ONE, at("not-a-uuid")), 400],
      [() => staffApi.GET(ONE, ghost), 404],
      [() => staffApi.GET(ONE, { params: { path: { id: created.id }, query: { join: "x" } } }), 400],
      ...[{}, { reason: 5 }, { moderatorUuid: admin.user.uuid }, { actionType: "hug" }].map(
        (body): Case => [raw("PATCH", body), 400],
      ),
      [() => staffApi.PATCH(ONE, { ...at(created.id), body: { targetUuid: ghost.params.path.id } }), 404],
      // A PUT without its required fields.
      [raw("PUT", { reason: "x" }), 400],
      [() => staffApi.PATCH(ONE, { ...ghost, body: { reason: "x" } }), 404],
      [() => adminApi.DELETE(ONE, ghost), 404],
      [() => adminApi.DELETE(ONE, at("x")), 400],
    ]);
    expect((await staffApi.GET(ONE, at(created.id))).data?.reason).toBe("keep");
  });
});
