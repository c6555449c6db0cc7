import { schema } from "@booth/db";
import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ok, openTestApp } from "../../testing.ts";
import { OWN_EVENTS_ONLY, SOCKET_EVENTS_ONLY_FROM_SERVICES } from "./analytics.ts";
import { SOCKET_EVENT_NAMES, SocketEvent, USER_EVENT_NAMES, UserEvent } from "./event-names.ts";

const t = openTestApp();

const A = "/api/audit-service";
const stored = async () => (await t.db.select({ n: count() }).from(schema.analyticsEvents))[0]?.n ?? 0;

describe("the event catalogue", () => {
  it("holds the spec's named topics among about seventy user events, apart from the live room's names", () => {
    for (const topic of [
      "pageView",
      "likedTrack",
      "dislikedTrack",
      "createdRoom",
      "chatMessageSent",
      "becameDj",
      "tokenChange",
      "consumablePurchased",
      "tokenBundleSelected",
      "trackStartedPlaying",
      "trackFailedToPlay",
      "forcedLogout",
      "loggedOut",
      "updatedStageDesign",
    ])
      expect(USER_EVENT_NAMES).toContain(topic);
    expect(USER_EVENT_NAMES.length).toBeGreaterThanOrEqual(65);
    expect(USER_EVENT_NAMES.length).toBeLessThanOrEqual(80);
    expect(SOCKET_EVENT_NAMES).toEqual(expect.arrayContaining(["joinRoom", "playedSong", "roomReset", "chatMessage"]));
    expect(USER_EVENT_NAMES.filter((n) => (SOCKET_EVENT_NAMES as string[]).includes(n))).toEqual([]);
  });
});

describe("POST /kinesis", () => {
  it("records a signed-in user's event as theirs", async () => {
    const u = await t.createUser();
    const res = await t
      .api(u.token)
      .audit.POST("/kinesis", { body: { topic: UserEvent.pageView, data: { path: "/rooms/disco" } } });
    expect(res.response.status).toBe(201);
    expect(res.data).toMatchObject({
      topic: "pageView",
      stream: "user-events",
      userUuid: u.user.uuid,
      data: { path: "/rooms/disco" },
      createdAt: t.clock.now().toISOString(),
    });
    const mine = await t.api(u.token).audit.POST("/kinesis", { body: { topic: "likedTrack", userUuid: u.user.uuid } });
    expect(mine.response.status).toBe(201);
    expect(mine.data?.data).toBeNull();
  });

  it("records guests' events under their guest uuid, and lets services record socket events for anyone", async () => {
    const guest = await t.api().user.GET("/auth/guest");
    const res = await t.api(ok(guest).accessToken).audit.POST("/kinesis", { body: { topic: "pageView" } });
    expect(res.response.status).toBe(201);
    expect(res.data?.userUuid).toBe(ok(guest).guestUuid);
    const u = await t.createUser();
    const svc = await t.api(await t.serviceToken()).audit.POST("/kinesis", {
      body: { topic: SocketEvent.addedDj, userUuid: u.user.uuid, data: { roomUuid: crypto.randomUUID() } },
    });
    expect(svc.response.status).toBe(201);
    expect(svc.data).toMatchObject({ topic: "addedDj", stream: "socket-events", userUuid: u.user.uuid });
    const anonymous = await t.api(await t.serviceToken()).audit.POST("/kinesis", { body: { topic: "roomReset" } });
    expect(anonymous.data?.userUuid).toBeNull();
  });

  it("refuses callers without a token, socket events from users and events in someone else's name", async () => {
    const before = await stored();
    expect((await t.api().audit.POST("/kinesis", { body: { topic: "pageView" } })).response.status).toBe(401);
    const u = await t.createUser();
    const other = await t.createUser();
    const socket = await t.api(u.token).audit.POST("/kinesis", { body: { topic: "playedSong" } });
    expect(socket.response.status).toBe(403);
    expect(socket.error?.message).toBe(SOCKET_EVENTS_ONLY_FROM_SERVICES);
    const forged = await t
      .api(u.token)
      .audit.POST("/kinesis", { body: { topic: "pageView", userUuid: other.user.uuid } });
    expect(forged.response.status).toBe(403);
    expect(forged.error?.message).toBe(OWN_EVENTS_ONLY);
    expect(await stored()).toBe(before);
  });

  it("refuses unknown topics and bad data, storing nothing", async () => {
    const u = await t.createUser();
    const before = await stored();
    const bodies: unknown[] = [
      {},
      { topic: "notATopic" },
      { topic: "pageView", data: "text" },
      { topic: "pageView", data: [1, 2] },
      { topic: "pageView", data: { big: "x".repeat(20_000) } },
      { topic: "pageView", data: { nul: "a\u0000b" } },
      { topic: "pageView", data: JSON.parse(`${'{"a":'.repeat(40)}1${"}".repeat(40)}`) },
      { topic: "pageView", userUuid: "not-a-uuid" },
      { topic: "pageView", extra: 1 },
    ];
    // Raw: malformed events, which the typed client cannot send.
    for (const body of bodies) {
      const res = await t.request("POST", "/api/audit-service/kinesis", { token: u.token, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    const unknown = await t.request("POST", "/api/audit-service/kinesis", {
      token: u.token,
      body: { topic: "notATopic" },
    });
    expect(JSON.stringify(unknown.body.message)).toContain("topic");
    expect(await stored()).toBe(before);
  });
});

describe("info-admin event names and the last event", () => {
  it("lists the names to staff and services", async () => {
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const users = await t.api(staff.token).audit.GET("/info-admin/user-events-names");
    expect(users.response.status).toBe(200);
    expect(users.data).toEqual(USER_EVENT_NAMES);
    const sockets = await t.api(await t.serviceToken()).audit.GET("/info-admin/socket-events-names");
    expect(sockets.response.status).toBe(200);
    expect(sockets.data).toEqual(SOCKET_EVENT_NAMES);
  });

  it("refuses the lists to anyone else", async () => {
    const u = await t.createUser();
    const mod = await t.createUser({ roles: ["user", "moderator"] });
    for (const path of ["user-events-names", "socket-events-names"]) {
      expect((await t.request("GET", `${A}/info-admin/${path}`)).status).toBe(401);
      expect((await t.request("GET", `${A}/info-admin/${path}`, { token: u.token })).status).toBe(403);
      expect((await t.request("GET", `${A}/info-admin/${path}`, { token: mod.token })).status).toBe(403);
    }
  });

  it("answers the newest event of a name", async () => {
    const admin = await t.createUser({ roles: ["user", "admin"] });
    const u = await t.createUser();
    t.clock.advance(60);
    await t.api(u.token).audit.POST("/kinesis", { body: { topic: "tokenChange", data: { n: 1 } } });
    t.clock.advance(1);
    await t.api(u.token).audit.POST("/kinesis", { body: { topic: "tokenChange", data: { n: 2 } } });
    const last = await t
      .api(admin.token)
      .audit.GET("/info-admin/event-last/{name}", { params: { path: { name: "tokenChange" } } });
    expect(last.response.status).toBe(200);
    expect(last.data).toMatchObject({ topic: "tokenChange", userUuid: u.user.uuid, data: { n: 2 } });
    const none = await t
      .api(await t.serviceToken())
      .audit.GET("/info-admin/event-last/{name}", { params: { path: { name: "updatedStageDesign" } } });
    expect(none.response.status).toBe(404);
    expect(none.error?.message).toBe("No updatedStageDesign event has been recorded.");
  });

  it("refuses the last event to users, and unknown names with 400", async () => {
    const u = await t.createUser();
    const admin = await t.createUser({ roles: ["user", "admin"] });
    expect(
      (await t.api().audit.GET("/info-admin/event-last/{name}", { params: { path: { name: "pageView" } } })).response
        .status,
    ).toBe(401);
    expect(
      (await t.api(u.token).audit.GET("/info-admin/event-last/{name}", { params: { path: { name: "pageView" } } }))
        .response.status,
    ).toBe(403);
    for (const name of ["nope", "%27%22--", "x".repeat(101)]) {
      const res = await t.api(admin.token).audit.GET("/info-admin/event-last/{name}", { params: { path: { name } } });
      expect(res.response.status, name).toBe(400);
    }
  });
});
