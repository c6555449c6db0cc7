import { schema } from "@booth/db";
import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing.ts";
import { OWN_EVENTS_ONLY, SOCKET_EVENTS_ONLY_FROM_SERVICES } from "./analytics.ts";
import { SOCKET_EVENT_NAMES, SocketEvent, USER_EVENT_NAMES, UserEvent } from "./event-names.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

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
    const res = await t.request("POST", `${A}/kinesis`, {
      token: u.token,
      body: { topic: UserEvent.pageView, data: { path: "/rooms/disco" } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      topic: "pageView",
      stream: "user-events",
      userUuid: u.user.uuid,
      data: { path: "/rooms/disco" },
      createdAt: t.clock.now().toISOString(),
    });
    const mine = await t.request("POST", `${A}/kinesis`, {
      token: u.token,
      body: { topic: "likedTrack", userUuid: u.user.uuid },
    });
    expect(mine.status).toBe(201);
    expect(mine.body.data).toBeNull();
  });

  it("records guests' events under their guest uuid, and lets services record socket events for anyone", async () => {
    const guest = await t.request("GET", "/api/user-service/auth/guest");
    const res = await t.request("POST", `${A}/kinesis`, {
      token: guest.body.accessToken,
      body: { topic: "pageView" },
    });
    expect(res.status).toBe(201);
    expect(res.body.userUuid).toBe(guest.body.guestUuid);
    const u = await t.createUser();
    const svc = await t.request("POST", `${A}/kinesis`, {
      token: await t.serviceToken(),
      body: { topic: SocketEvent.addedDj, userUuid: u.user.uuid, data: { roomUuid: crypto.randomUUID() } },
    });
    expect(svc.status).toBe(201);
    expect(svc.body).toMatchObject({ topic: "addedDj", stream: "socket-events", userUuid: u.user.uuid });
    const anonymous = await t.request("POST", `${A}/kinesis`, {
      token: await t.serviceToken(),
      body: { topic: "roomReset" },
    });
    expect(anonymous.body.userUuid).toBeNull();
  });

  it("refuses callers without a token, socket events from users and events in someone else's name", async () => {
    const before = await stored();
    expect((await t.request("POST", `${A}/kinesis`, { body: { topic: "pageView" } })).status).toBe(401);
    const u = await t.createUser();
    const other = await t.createUser();
    const socket = await t.request("POST", `${A}/kinesis`, { token: u.token, body: { topic: "playedSong" } });
    expect(socket.status).toBe(403);
    expect(socket.body.message).toBe(SOCKET_EVENTS_ONLY_FROM_SERVICES);
    const forged = await t.request("POST", `${A}/kinesis`, {
      token: u.token,
      body: { topic: "pageView", userUuid: other.user.uuid },
    });
    expect(forged.status).toBe(403);
    expect(forged.body.message).toBe(OWN_EVENTS_ONLY);
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
    for (const body of bodies) {
      const res = await t.request("POST", `${A}/kinesis`, { token: u.token, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    const unknown = await t.request("POST", `${A}/kinesis`, { token: u.token, body: { topic: "notATopic" } });
    expect(JSON.stringify(unknown.body.message)).toContain("topic");
    expect(await stored()).toBe(before);
  });
});

describe("info-admin event names and the last event", () => {
  it("lists the names to staff and services", async () => {
    const staff = await t.createUser({ roles: ["user", "staff"] });
    const users = await t.request("GET", `${A}/info-admin/user-events-names`, { token: staff.token });
    expect(users.status).toBe(200);
    expect(users.body).toEqual(USER_EVENT_NAMES);
    const sockets = await t.request("GET", `${A}/info-admin/socket-events-names`, { token: await t.serviceToken() });
    expect(sockets.status).toBe(200);
    expect(sockets.body).toEqual(SOCKET_EVENT_NAMES);
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
    await t.request("POST", `${A}/kinesis`, { token: u.token, body: { topic: "tokenChange", data: { n: 1 } } });
    t.clock.advance(1);
    await t.request("POST", `${A}/kinesis`, { token: u.token, body: { topic: "tokenChange", data: { n: 2 } } });
    const last = await t.request("GET", `${A}/info-admin/event-last/tokenChange`, { token: admin.token });
    expect(last.status).toBe(200);
    expect(last.body).toMatchObject({ topic: "tokenChange", userUuid: u.user.uuid, data: { n: 2 } });
    const none = await t.request("GET", `${A}/info-admin/event-last/updatedStageDesign`, {
      token: await t.serviceToken(),
    });
    expect(none.status).toBe(404);
    expect(none.body.message).toBe("No updatedStageDesign event has been recorded.");
  });

  it("refuses the last event to users, and unknown names with 400", async () => {
    const u = await t.createUser();
    const admin = await t.createUser({ roles: ["user", "admin"] });
    expect((await t.request("GET", `${A}/info-admin/event-last/pageView`)).status).toBe(401);
    expect((await t.request("GET", `${A}/info-admin/event-last/pageView`, { token: u.token })).status).toBe(403);
    for (const name of ["nope", "%27%22--", "x".repeat(101)]) {
      const res = await t.request("GET", `${A}/info-admin/event-last/${name}`, { token: admin.token });
      expect(res.status, name).toBe(400);
    }
  });
});
