import { schema } from "@booth/db";
import type { Schema } from "@booth/sdk";
import { desc, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { expectRefusal, ok, openTestApp, type TestUser } from "../../testing.ts";
import {
  CUSTOM_MESSAGES_PER_HOUR,
  DJ_NOT_FOUND,
  FANS_RECENTLY_NOTIFIED,
  NO_DEVICE,
  NOBODY_TO_NOTIFY,
  ONLY_FRIENDS,
  ROOM_RECENTLY_NOTIFIED,
  ROOM_STAFF_ONLY,
  USER_NOT_FOUND,
} from "./notifications.ts";
import { NOTICE_TOO_LARGE } from "./notify.ts";

const t = openTestApp();
let service = "";
let admin: TestUser;
let staffer: TestUser;
beforeAll(async () => {
  service = await t.serviceToken();
  admin = await t.createUser({ roles: ["user", "admin"] });
  staffer = await t.createUser({ roles: ["user", "staff"] });
});
// Service tokens last an hour and some tests move the clock by hours.
beforeEach(async () => {
  service = await t.serviceToken();
});

const S = "/api/social-service";
/** The social service's typed client, as the holder of `token` (nobody when null). */
const social = (token: string | null) => t.api(token).social;

async function device(u: TestUser, platform: "ios" | "android" | "web" = "android") {
  const token = `${platform}-${crypto.randomUUID()}`;
  const res = await social(u.token).POST("/devices", { body: { token, deviceId: crypto.randomUUID(), platform } });
  expect(res.response.status).toBe(201);
  return token;
}
/** Pushes kept for a token or endpoint, newest first. */
const pushesTo = (target: string) =>
  t.db
    .select()
    .from(schema.pushMessages)
    .where(eq(schema.pushMessages.target, target))
    .orderBy(desc(schema.pushMessages.createdAt));
const pushCount = async () => (await t.db.select({ id: schema.pushMessages.id }).from(schema.pushMessages)).length;

async function room(owner: TestUser, name = "Rooftop") {
  const [row] = await t.db
    .insert(schema.rooms)
    .values({ slug: `room-${crypto.randomUUID().slice(0, 8)}`, name, ownerUuid: owner.user.uuid })
    .returning();
  if (!row) throw new Error("no room");
  return row;
}
const favourite = (u: TestUser, roomUuid: string) =>
  t.db.insert(schema.roomFavorites).values({ userUuid: u.user.uuid, roomUuid });
async function befriend(a: TestUser, b: TestUser) {
  await t.db.insert(schema.friends).values([
    { userUuid: a.user.uuid, friendUuid: b.user.uuid },
    { userUuid: b.user.uuid, friendUuid: a.user.uuid },
  ]);
}
const block = async (blocker: TestUser, blocked: TestUser) =>
  ok(await social(blocker.token).POST("/blocked-users", { body: { userUuid: blocked.user.uuid } }));
const follow = (fan: TestUser, dj: TestUser) => social(fan.token).POST("/dj-fans", { body: { djUuid: dj.user.uuid } });

const notice = { title: "Season finale", body: "Tonight at 9" };

describe("mobile notifications to device tokens", () => {
  it("services send to registered tokens; without a provider each lands in the outbox", async () => {
    const u = await t.createUser();
    const phone = await device(u, "android");
    const tablet = await device(u, "ios");
    const res = await social(service).POST("/mobileNotification", {
      body: { tokens: [phone, tablet, "never-registered"], ...notice, data: { screen: "events" } },
    });
    expect(res.response.status).toBe(200);
    expect(res.data).toEqual({
      users: 1,
      devices: 2,
      webSubscriptions: 0,
      sent: 0,
      queued: 2,
      failed: 0,
      removed: 0,
      unknownTokens: 1,
    });
    const [kept] = await pushesTo(phone);
    expect(kept).toMatchObject({
      channel: "outbox",
      status: "queued",
      userUuid: u.user.uuid,
      title: "Season finale",
      body: "Tonight at 9",
      data: { screen: "events" },
      silent: false,
    });
    expect(await pushesTo(tablet)).toHaveLength(1);
  });

  it("staff and admins send through /admin; users, services and nobody cannot", async () => {
    const u = await t.createUser();
    const phone = await device(u);
    for (const who of [staffer, admin]) {
      const res = await social(who.token).POST("/mobileNotification/admin", { body: { tokens: [phone], ...notice } });
      expect(res.response.status).toBe(200);
    }
    expect(await pushesTo(phone)).toHaveLength(2);
    const body = { tokens: [phone], ...notice };
    const status = async (token: string | null, path: "/mobileNotification" | "/mobileNotification/admin") =>
      (await social(token).POST(path, { body })).response.status;
    expect(await status(u.token, "/mobileNotification/admin")).toBe(403);
    expect(await status(service, "/mobileNotification/admin")).toBe(401);
    expect(await status(null, "/mobileNotification/admin")).toBe(401);
    expect(await status(u.token, "/mobileNotification")).toBe(403);
    expect(await status(staffer.token, "/mobileNotification")).toBe(403);
    expect(await status(null, "/mobileNotification")).toBe(401);
    expect(await status(admin.token, "/mobileNotification")).toBe(200);
    expect(await pushesTo(phone)).toHaveLength(3);
  });

  it("refuses bad input and sends nothing", async () => {
    const u = await t.createUser();
    const phone = await device(u);
    const before = await pushCount();
    const send = (body: Schema<"social", "MobileNotificationToTokens">) =>
      social(service).POST("/mobileNotification", { body });
    // Mistyped bodies (no title, a number in data): only an untyped request can send them.
    const untyped = (body: unknown) => t.request("POST", `${S}/mobileNotification`, { token: service, body });
    expect((await send({ tokens: [], ...notice })).response.status).toBe(400);
    expect((await send({ tokens: [phone], title: "", body: "x" })).response.status).toBe(400);
    expect((await untyped({ tokens: [phone], body: "no title" })).status).toBe(400);
    const reserved = await send({ tokens: [phone], ...notice, data: { aps: "x" } });
    expect(reserved.response.status).toBe(400);
    expect([reserved.error?.message].flat()[0]).toMatch(/^data: .*reserved/);
    expect((await untyped({ tokens: [phone], ...notice, data: { n: 1 } })).status).toBe(400);
    const huge = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`k${i}`, "x".repeat(1000)]));
    const tooLarge = await send({ tokens: [phone], ...notice, data: huge });
    expectRefusal(tooLarge, 400, NOTICE_TOO_LARGE);
    const unknown = await send({ tokens: ["nobody-has-this"], ...notice });
    expectRefusal(unknown, 404, NO_DEVICE);
    expect(await pushCount()).toBe(before);
  });

  it("sends silent notifications as data only", async () => {
    const u = await t.createUser();
    const phone = await device(u);
    const silent = (token: string, data: Record<string, string>) =>
      social(token).POST("/mobileNotification/silent-notification", { body: { tokens: [phone], data } });
    const res = await silent(service, { sync: "crates" });
    expect(res.response.status).toBe(200);
    const [kept] = await pushesTo(phone);
    expect(kept).toMatchObject({ silent: true, title: null, body: null, data: { sync: "crates" } });
    const empty = await silent(service, {});
    expect(empty.response.status).toBe(400);
    const asUser = await silent(u.token, { a: "b" });
    expect(asUser.response.status).toBe(403);
  });
});

describe("mobile notifications to users", () => {
  it("reach every device of a user (services on /user, staff on /user/admin)", async () => {
    const u = await t.createUser();
    const [a, b] = [await device(u, "android"), await device(u, "ios")];
    const res = await social(service).POST("/mobileNotification/user", { body: { userUuid: u.user.uuid, ...notice } });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ users: 1, devices: 2, queued: 2 });
    const viaAdmin = await social(staffer.token).POST("/mobileNotification/user/admin", {
      body: { userUuid: u.user.uuid, title: "Hi", body: "From staff" },
    });
    expect(viaAdmin.data).toMatchObject({ devices: 2, queued: 2 });
    expect((await pushesTo(a)).map((p) => p.body)).toEqual(["From staff", "Tonight at 9"]);
    expect(await pushesTo(b)).toHaveLength(2);
  });

  it("answers 404 for an unknown user, 403 and 401 for wrong callers, 400 for bad input", async () => {
    const u = await t.createUser();
    const missing = await social(service).POST("/mobileNotification/user", {
      body: { userUuid: crypto.randomUUID(), ...notice },
    });
    expectRefusal(missing, 404, USER_NOT_FOUND);
    const body = { userUuid: u.user.uuid, ...notice };
    const status = async (
      token: string | null,
      path: "/mobileNotification/user" | "/mobileNotification/user/admin",
      b: Schema<"social", "MobileNotificationToUser"> = body,
    ) => (await social(token).POST(path, { body: b })).response.status;
    expect(await status(u.token, "/mobileNotification/user")).toBe(403);
    expect(await status(null, "/mobileNotification/user")).toBe(401);
    expect(await status(u.token, "/mobileNotification/user/admin")).toBe(403);
    expect(await status(service, "/mobileNotification/user/admin")).toBe(401);
    expect(await status(admin.token, "/mobileNotification/user/admin", { userUuid: "nope", ...notice })).toBe(400);
  });

  it("sends a silent notification to a user's devices (staff; the path is spelled as the product spells it)", async () => {
    const u = await t.createUser();
    const phone = await device(u);
    const body = { userUuid: u.user.uuid, data: { refresh: "profile" } };
    const send = (token: string | null) =>
      social(token).POST("/mobileNotification/user/admin/silent-nofitication", { body });
    const res = await send(admin.token);
    expect(res.response.status).toBe(200);
    expect((await pushesTo(phone))[0]).toMatchObject({ silent: true, data: { refresh: "profile" } });
    expect((await send(u.token)).response.status).toBe(403);
    expect((await send(null)).response.status).toBe(401);
    // Without data: only an untyped request can leave it out.
    const path = `${S}/mobileNotification/user/admin/silent-nofitication`;
    expect((await t.request("POST", path, { token: admin.token, body: { userUuid: u.user.uuid } })).status).toBe(400);
  });

  it("sends a message on behalf of a user, leaving out those blocked either way", async () => {
    const sender = await t.createUser();
    const [friend, blocker, blocked] = [await t.createUser(), await t.createUser(), await t.createUser()];
    const tokens = [await device(friend), await device(blocker), await device(blocked)];
    await block(blocker, sender);
    await block(sender, blocked);
    const send = (token: string, body: Schema<"social", "MobileCustomMessage">) =>
      social(token).POST("/mobileNotification/custom-message", { body });
    const res = await send(service, {
      senderUuid: sender.user.uuid,
      userUuids: [friend.user.uuid, blocker.user.uuid, blocked.user.uuid],
      title: "Ada",
      body: "See you in the room",
    });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ users: 1, devices: 1, queued: 1 });
    expect((await pushesTo(tokens[0] ?? ""))[0]?.data).toEqual({ type: "customMessage", senderUuid: sender.user.uuid });
    expect(await pushesTo(tokens[1] ?? "")).toEqual([]);
    expect(await pushesTo(tokens[2] ?? "")).toEqual([]);
    const body = { senderUuid: sender.user.uuid, userUuids: [friend.user.uuid], ...notice };
    expect((await send(sender.token, body)).response.status).toBe(403);
    expect((await send(service, { ...body, senderUuid: crypto.randomUUID() })).response.status).toBe(404);
    expect((await send(service, { ...body, userUuids: [friend.user.uuid, friend.user.uuid] })).response.status).toBe(
      400,
    );
  });

  it("broadcasts to every device, or every device of a platform (staff)", async () => {
    const u = await t.createUser();
    const [android, ios] = [await device(u, "android"), await device(u, "ios")];
    const [devices] = await t.db.select({ n: schema.devices.id }).from(schema.devices).limit(1);
    expect(devices).toBeTruthy();
    const all = await t.db.select().from(schema.devices);
    const broadcast = (token: string, body: Schema<"social", "MobileBroadcast">) =>
      social(token).POST("/mobileNotification/all-devices", { body });
    const res = await broadcast(staffer.token, { title: "Maintenance", body: "Back in 5 minutes" });
    expect(res.response.status).toBe(200);
    expect(res.data?.devices).toBe(all.length);
    expect(res.data?.queued).toBe(all.length);
    expect((await pushesTo(android))[0]?.title).toBe("Maintenance");
    const iosOnly = await broadcast(admin.token, { title: "iOS update", body: "Please update", platform: "ios" });
    expect(iosOnly.data?.devices).toBe(all.filter((d) => d.platform === "ios").length);
    expect((await pushesTo(ios))[0]?.title).toBe("iOS update");
    expect((await pushesTo(android))[0]?.title).toBe("Maintenance");
    const body = { title: "x", body: "y" };
    expect((await broadcast(u.token, body)).response.status).toBe(403);
    expect((await broadcast(service, body)).response.status).toBe(401);
    // A platform the contract does not name: only an untyped request can send it.
    expect(
      (
        await t.request("POST", `${S}/mobileNotification/all-devices`, {
          token: admin.token,
          body: { ...body, platform: "palm" },
        })
      ).status,
    ).toBe(400);
  });

  it("reaches a room's users: favourites not in the room, not banned from it", async () => {
    const owner = await t.createUser();
    const r = await room(owner);
    const [away, present, banned, stranger] = [
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
    ];
    for (const u of [away, present, banned]) await favourite(u, r.uuid);
    await t.db.insert(schema.roomPresence).values({ roomUuid: r.uuid, userUuid: present.user.uuid });
    await t.db.insert(schema.roomUserRoles).values({ roomUuid: r.uuid, userUuid: banned.user.uuid, role: "banned" });
    const tokens = [await device(away), await device(present), await device(banned), await device(stranger)];
    const send = (token: string | null, body: Schema<"social", "MobileNotificationToRoomUsers">) =>
      social(token).POST("/mobileNotification/room-users", { body });
    const res = await send(service, { roomUuid: r.uuid, title: "Rooftop is live", body: "DJ set starting" });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ users: 1, devices: 1, queued: 1 });
    expect((await pushesTo(tokens[0] ?? ""))[0]?.data).toEqual({ type: "room", roomUuid: r.uuid, roomSlug: r.slug });
    for (const token of tokens.slice(1)) expect(await pushesTo(token)).toEqual([]);
    const body = { roomUuid: r.uuid, ...notice };
    expect((await send(owner.token, body)).response.status).toBe(403);
    expect((await send(null, body)).response.status).toBe(401);
    const missing = await send(service, { ...body, roomUuid: crypto.randomUUID() });
    expectRefusal(missing, 404, "Room not found.");
  });
});

describe("DJ fans", () => {
  it("the live room's call tells fans once per set, not the blocked nor those already in the room", async () => {
    const dj = await t.createUser({ nickname: "DJ Ada" });
    const r = await room(dj, "Rooftop");
    const [fan, listening, blockedFan, stranger] = [
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
      await t.createUser(),
    ];
    for (const u of [fan, listening, blockedFan]) expect((await follow(u, dj)).response.status).toBe(201);
    await block(dj, blockedFan);
    // Blocking ended that follow; a block stays respected even for a follow that outlived it.
    await t.db.insert(schema.djFans).values({ fanUuid: blockedFan.user.uuid, djUuid: dj.user.uuid });
    await t.db.insert(schema.roomPresence).values({ roomUuid: r.uuid, userUuid: listening.user.uuid });
    const tokens = [await device(fan), await device(listening), await device(blockedFan), await device(stranger)];

    // Exactly the body apps/rooms-party/src/edge.ts sends, with a service token.
    const call = async () =>
      social(await t.serviceToken()).POST("/notifications/dj-fans", {
        body: { djUuid: dj.user.uuid, roomUuid: r.uuid },
      });
    const first = await call();
    expect(first.response.status).toBe(200);
    expect(first.data).toMatchObject({ notified: true, reason: null, users: 1, devices: 1, queued: 1 });
    const [kept] = await pushesTo(tokens[0] ?? "");
    expect(kept).toMatchObject({
      title: "DJ Ada is playing",
      body: "DJ Ada is on the decks in Rooftop. Come and listen!",
      data: { type: "djPlaying", djUuid: dj.user.uuid, roomUuid: r.uuid, roomSlug: r.slug },
    });
    for (const token of tokens.slice(1)) expect(await pushesTo(token)).toEqual([]);

    // The next songs of the same set, and a rejoin within two hours of the last song, stay quiet.
    for (const minutes of [4, 60, 100]) {
      t.clock.advance(minutes * 60);
      const again = await call();
      expect(again.data).toMatchObject({ notified: false, reason: FANS_RECENTLY_NOTIFIED, users: 0 });
    }
    expect(await pushesTo(tokens[0] ?? "")).toHaveLength(1);
    t.clock.advance(2 * 3600 + 1);
    expect((await call()).data?.notified).toBe(true);
    expect(await pushesTo(tokens[0] ?? "")).toHaveLength(2);
  });

  it("notifies once when the room calls several times at the same moment", async () => {
    const dj = await t.createUser();
    const fan = await t.createUser();
    ok(await follow(fan, dj));
    const phone = await device(fan);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        social(service).POST("/notifications/dj-fans", { body: { djUuid: dj.user.uuid } }),
      ),
    );
    expect(results.map((r) => r.response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.filter((r) => r.data?.notified)).toHaveLength(1);
    expect(await pushesTo(phone)).toHaveLength(1);
  });

  it("refuses wrong callers and bad input", async () => {
    const dj = await t.createUser();
    const body = { djUuid: dj.user.uuid };
    const call = (token: string | null, b: Schema<"social", "DjFansNotificationRequest"> = body) =>
      social(token).POST("/notifications/dj-fans", { body: b });
    expect((await call(dj.token)).response.status).toBe(403);
    expect((await call(null)).response.status).toBe(401);
    expect((await call(service, { djUuid: "guest-1" })).response.status).toBe(400);
    const missing = await call(service, { djUuid: crypto.randomUUID() });
    expectRefusal(missing, 404, DJ_NOT_FOUND);
    const noRoom = await call(service, { ...body, roomUuid: crypto.randomUUID() });
    expect(noRoom.response.status).toBe(404);
    // Refused calls do not start the quiet window.
    expect((await call(admin.token)).data?.notified).toBe(true);
  });

  it("GET /dj-fans-notification tells whether fans can be notified now, and how many", async () => {
    const dj = await t.createUser();
    const check = (token: string | null, query: { djUuid?: string } = {}) =>
      social(token).GET("/dj-fans-notification", { params: { query } });
    expect((await check(dj.token)).data).toEqual({
      users: 0,
      devices: 0,
      webSubscriptions: 0,
      canSend: false,
      reason: NOBODY_TO_NOTIFY,
      nextPossibleAt: null,
    });
    const fan = await t.createUser();
    ok(await follow(fan, dj));
    expect((await check(service, { djUuid: dj.user.uuid })).data).toMatchObject({
      users: 1,
      devices: 0,
      canSend: false,
      reason: "None of them has a device or browser registered for notifications.",
    });
    await device(fan);
    expect((await check(dj.token)).data).toMatchObject({ users: 1, devices: 1, canSend: true, reason: null });
    ok(await social(service).POST("/notifications/dj-fans", { body: { djUuid: dj.user.uuid } }));
    const after = await check(admin.token, { djUuid: dj.user.uuid });
    expect(after.data).toMatchObject({ canSend: false, reason: FANS_RECENTLY_NOTIFIED });
    expect(after.data?.nextPossibleAt).toBe(new Date(t.clock.now().getTime() + 2 * 3600 * 1000).toISOString());

    const other = await t.createUser();
    expect((await check(other.token, { djUuid: dj.user.uuid })).response.status).toBe(403);
    expect((await check(null, { djUuid: dj.user.uuid })).response.status).toBe(401);
    expect((await check(service)).response.status).toBe(400);
    expect((await check(service, { djUuid: "x" })).response.status).toBe(400);
    expect((await check(service, { djUuid: crypto.randomUUID() })).response.status).toBe(404);
  });
});

describe("custom messages to friends", () => {
  it("reach the chosen friends' devices, titled with the sender's nickname", async () => {
    const ada = await t.createUser({ nickname: "Ada" });
    const [bob, cy] = [await t.createUser(), await t.createUser()];
    await befriend(ada, bob);
    await befriend(ada, cy);
    const [bobPhone, cyPhone] = [await device(bob), await device(cy)];
    const res = await social(ada.token).POST("/notifications/custom-message", {
      body: { userUuids: [bob.user.uuid, cy.user.uuid], message: "Come to Rooftop!" },
    });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ users: 2, devices: 2, queued: 2 });
    expect((await pushesTo(bobPhone))[0]).toMatchObject({
      title: "Ada",
      body: "Come to Rooftop!",
      data: { type: "customMessage", senderUuid: ada.user.uuid },
    });
    expect(await pushesTo(cyPhone)).toHaveLength(1);
  });

  it("refuses anyone who is not a friend, as a whole, and refuses bad input", async () => {
    const ada = await t.createUser();
    const [bob, stranger] = [await t.createUser(), await t.createUser()];
    await befriend(ada, bob);
    const bobPhone = await device(bob);
    const send = (body: Schema<"social", "CustomMessageToFriends">, token: string | null = ada.token) =>
      social(token).POST("/notifications/custom-message", { body });
    const res = await send({ userUuids: [bob.user.uuid, stranger.user.uuid], message: "hi" });
    expectRefusal(res, 403, ONLY_FRIENDS);
    expect(await pushesTo(bobPhone)).toEqual([]);
    expect((await send({ userUuids: [ada.user.uuid], message: "me" })).response.status).toBe(403);
    expect((await send({ userUuids: [bob.user.uuid], message: "   " })).response.status).toBe(400);
    expect((await send({ userUuids: [], message: "hi" })).response.status).toBe(400);
    expect((await send({ userUuids: [bob.user.uuid], message: "hi" }, null)).response.status).toBe(401);
    expect((await send({ userUuids: [bob.user.uuid], message: "hi" }, service)).response.status).toBe(401);
    expect(await pushesTo(bobPhone)).toEqual([]);
  });

  it(`allows ${CUSTOM_MESSAGES_PER_HOUR} messages an hour`, async () => {
    const ada = await t.createUser();
    const bob = await t.createUser();
    await befriend(ada, bob);
    const send = async () =>
      (
        await social(ada.token).POST("/notifications/custom-message", {
          body: { userUuids: [bob.user.uuid], message: "ping" },
        })
      ).response.status;
    for (let i = 0; i < CUSTOM_MESSAGES_PER_HOUR; i++) expect(await send()).toBe(200);
    expect(await send()).toBe(429);
  });
});

describe("messages from a room to its users", () => {
  it("the room's staff message its users once an hour; GET /room-users-notification says when", async () => {
    const owner = await t.createUser();
    const moderator = await t.createUser();
    const r = await room(owner, "Basement");
    await t.db
      .insert(schema.roomUserRoles)
      .values({ roomUuid: r.uuid, userUuid: moderator.user.uuid, role: "moderator" });
    const [regular, blocker] = [await t.createUser(), await t.createUser()];
    await favourite(regular, r.uuid);
    await favourite(blocker, r.uuid);
    await block(blocker, owner);
    const [phone, blockerPhone] = [await device(regular, "ios"), await device(blocker)];

    const check = (token: string | null) =>
      social(token).GET("/room-users-notification", { params: { query: { roomUuid: r.uuid } } });
    expect((await check(owner.token)).data).toEqual({
      users: 1,
      devices: 1,
      webSubscriptions: 0,
      canSend: true,
      reason: null,
      nextPossibleAt: null,
    });
    const send = (token: string, message = "Live at 9 tonight") =>
      social(token).POST("/notifications/custom-message-from-room", { body: { roomUuid: r.uuid, message } });
    const sent = await send(owner.token);
    expect(sent.response.status).toBe(200);
    expect(sent.data).toMatchObject({ users: 1, devices: 1, queued: 1 });
    expect((await pushesTo(phone))[0]).toMatchObject({
      title: "Basement",
      body: "Live at 9 tonight",
      data: { type: "roomMessage", roomUuid: r.uuid, roomSlug: r.slug, senderUuid: owner.user.uuid },
    });
    expect(await pushesTo(blockerPhone)).toEqual([]);

    const waiting = await check(moderator.token);
    expect(waiting.data).toMatchObject({ canSend: false, reason: ROOM_RECENTLY_NOTIFIED });
    const tooSoon = await send(moderator.token);
    expectRefusal(tooSoon, 429, ROOM_RECENTLY_NOTIFIED);
    t.clock.advance(3601);
    expect((await check(await t.serviceToken())).data?.canSend).toBe(true);
    expect((await send(moderator.token, "Second set")).response.status).toBe(200);
    expect((await pushesTo(phone))[0]?.body).toBe("Second set");
  });

  it("refuses everyone else, unknown rooms and bad input", async () => {
    const owner = await t.createUser();
    const r = await room(owner);
    const fan = await t.createUser();
    await favourite(fan, r.uuid);
    const phone = await device(fan);
    const listener = await t.createUser();
    const body = { roomUuid: r.uuid, message: "hi" };
    const post = async (token: string | null, b: Schema<"social", "CustomMessageFromRoom"> = body) =>
      social(token).POST("/notifications/custom-message-from-room", { body: b });
    const refused = await post(listener.token);
    expectRefusal(refused, 403, ROOM_STAFF_ONLY);
    expect((await post(null)).response.status).toBe(401);
    expect((await post(service)).response.status).toBe(401);
    expect((await post(owner.token, { roomUuid: crypto.randomUUID(), message: "hi" })).response.status).toBe(404);
    expect((await post(owner.token, { roomUuid: r.uuid, message: "" })).response.status).toBe(400);
    expect((await post(owner.token, { roomUuid: r.uuid, message: "x".repeat(501) })).response.status).toBe(400);
    expect(await pushesTo(phone)).toEqual([]);
    // Refusals did not use up the hour.
    expect((await post(owner.token)).response.status).toBe(200);

    const get = async (token: string | null, roomUuid = r.uuid) =>
      (await social(token).GET("/room-users-notification", { params: { query: { roomUuid } } })).response.status;
    expect(await get(listener.token)).toBe(403);
    expect(await get(null)).toBe(401);
    expect(await get(service, "nope")).toBe(400);
    expect(await get(service, crypto.randomUUID())).toBe(404);
  });

  it("with nobody to tell, sends nothing and keeps the hour", async () => {
    const owner = await t.createUser();
    const r = await room(owner);
    const res = await social(owner.token).POST("/notifications/custom-message-from-room", {
      body: { roomUuid: r.uuid, message: "anyone?" },
    });
    expect(res.data).toMatchObject({ users: 0, sent: 0, queued: 0 });
    const check = await social(owner.token).GET("/room-users-notification", {
      params: { query: { roomUuid: r.uuid } },
    });
    expect(check.data).toMatchObject({ canSend: false, reason: NOBODY_TO_NOTIFY, nextPossibleAt: null });
  });
});
