import { schema } from "@booth/db";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing.ts";
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

let t: TestApp;
let service = "";
let admin: Awaited<ReturnType<TestApp["createUser"]>>;
let staffer: Awaited<ReturnType<TestApp["createUser"]>>;
beforeAll(async () => {
  t = await createTestApp();
  service = await t.serviceToken();
  admin = await t.createUser({ roles: ["user", "admin"] });
  staffer = await t.createUser({ roles: ["user", "staff"] });
});
afterAll(() => t.close());
// Service tokens last an hour and some tests move the clock by hours.
beforeEach(async () => {
  service = await t.serviceToken();
});

const S = "/api/social-service";
type User = Awaited<ReturnType<TestApp["createUser"]>>;

async function device(u: User, platform: "ios" | "android" | "web" = "android") {
  const token = `${platform}-${crypto.randomUUID()}`;
  const res = await t.request("POST", `${S}/devices`, {
    token: u.token,
    body: { token, deviceId: crypto.randomUUID(), platform },
  });
  expect(res.status).toBe(201);
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

async function room(owner: User, name = "Rooftop") {
  const [row] = await t.db
    .insert(schema.rooms)
    .values({ slug: `room-${crypto.randomUUID().slice(0, 8)}`, name, ownerUuid: owner.user.uuid })
    .returning();
  if (!row) throw new Error("no room");
  return row;
}
const favourite = (u: User, roomUuid: string) =>
  t.db.insert(schema.roomFavorites).values({ userUuid: u.user.uuid, roomUuid });
async function befriend(a: User, b: User) {
  await t.db.insert(schema.friends).values([
    { userUuid: a.user.uuid, friendUuid: b.user.uuid },
    { userUuid: b.user.uuid, friendUuid: a.user.uuid },
  ]);
}
const block = (blocker: User, blocked: User) =>
  t.request("POST", `${S}/blocked-users`, { token: blocker.token, body: { userUuid: blocked.user.uuid } });

const notice = { title: "Season finale", body: "Tonight at 9" };

describe("mobile notifications to device tokens", () => {
  it("services send to registered tokens; without a provider each lands in the outbox", async () => {
    const u = await t.createUser();
    const phone = await device(u, "android");
    const tablet = await device(u, "ios");
    const res = await t.request("POST", `${S}/mobileNotification`, {
      token: service,
      body: { tokens: [phone, tablet, "never-registered"], ...notice, data: { screen: "events" } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
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
      const res = await t.request("POST", `${S}/mobileNotification/admin`, {
        token: who.token,
        body: { tokens: [phone], ...notice },
      });
      expect(res.status).toBe(200);
    }
    expect(await pushesTo(phone)).toHaveLength(2);
    const body = { tokens: [phone], ...notice };
    expect((await t.request("POST", `${S}/mobileNotification/admin`, { token: u.token, body })).status).toBe(403);
    expect((await t.request("POST", `${S}/mobileNotification/admin`, { token: service, body })).status).toBe(401);
    expect((await t.request("POST", `${S}/mobileNotification/admin`, { body })).status).toBe(401);
    expect((await t.request("POST", `${S}/mobileNotification`, { token: u.token, body })).status).toBe(403);
    expect((await t.request("POST", `${S}/mobileNotification`, { token: staffer.token, body })).status).toBe(403);
    expect((await t.request("POST", `${S}/mobileNotification`, { body })).status).toBe(401);
    expect((await t.request("POST", `${S}/mobileNotification`, { token: admin.token, body })).status).toBe(200);
    expect(await pushesTo(phone)).toHaveLength(3);
  });

  it("refuses bad input and sends nothing", async () => {
    const u = await t.createUser();
    const phone = await device(u);
    const before = await pushCount();
    const send = (body: unknown) => t.request("POST", `${S}/mobileNotification`, { token: service, body });
    expect((await send({ tokens: [], ...notice })).status).toBe(400);
    expect((await send({ tokens: [phone], title: "", body: "x" })).status).toBe(400);
    expect((await send({ tokens: [phone], body: "no title" })).status).toBe(400);
    const reserved = await send({ tokens: [phone], ...notice, data: { aps: "x" } });
    expect(reserved.status).toBe(400);
    expect(reserved.body.message[0]).toMatch(/^data: .*reserved/);
    expect((await send({ tokens: [phone], ...notice, data: { n: 1 } })).status).toBe(400);
    const huge = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`k${i}`, "x".repeat(1000)]));
    const tooLarge = await send({ tokens: [phone], ...notice, data: huge });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.message).toBe(NOTICE_TOO_LARGE);
    const unknown = await send({ tokens: ["nobody-has-this"], ...notice });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(NO_DEVICE);
    expect(await pushCount()).toBe(before);
  });

  it("sends silent notifications as data only", async () => {
    const u = await t.createUser();
    const phone = await device(u);
    const res = await t.request("POST", `${S}/mobileNotification/silent-notification`, {
      token: service,
      body: { tokens: [phone], data: { sync: "crates" } },
    });
    expect(res.status).toBe(200);
    const [kept] = await pushesTo(phone);
    expect(kept).toMatchObject({ silent: true, title: null, body: null, data: { sync: "crates" } });
    const empty = await t.request("POST", `${S}/mobileNotification/silent-notification`, {
      token: service,
      body: { tokens: [phone], data: {} },
    });
    expect(empty.status).toBe(400);
    const asUser = await t.request("POST", `${S}/mobileNotification/silent-notification`, {
      token: u.token,
      body: { tokens: [phone], data: { a: "b" } },
    });
    expect(asUser.status).toBe(403);
  });
});

describe("mobile notifications to users", () => {
  it("reach every device of a user (services on /user, staff on /user/admin)", async () => {
    const u = await t.createUser();
    const [a, b] = [await device(u, "android"), await device(u, "ios")];
    const res = await t.request("POST", `${S}/mobileNotification/user`, {
      token: service,
      body: { userUuid: u.user.uuid, ...notice },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ users: 1, devices: 2, queued: 2 });
    const viaAdmin = await t.request("POST", `${S}/mobileNotification/user/admin`, {
      token: staffer.token,
      body: { userUuid: u.user.uuid, title: "Hi", body: "From staff" },
    });
    expect(viaAdmin.body).toMatchObject({ devices: 2, queued: 2 });
    expect((await pushesTo(a)).map((p) => p.body)).toEqual(["From staff", "Tonight at 9"]);
    expect(await pushesTo(b)).toHaveLength(2);
  });

  it("answers 404 for an unknown user, 403 and 401 for wrong callers, 400 for bad input", async () => {
    const u = await t.createUser();
    const missing = await t.request("POST", `${S}/mobileNotification/user`, {
      token: service,
      body: { userUuid: crypto.randomUUID(), ...notice },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(USER_NOT_FOUND);
    const body = { userUuid: u.user.uuid, ...notice };
    expect((await t.request("POST", `${S}/mobileNotification/user`, { token: u.token, body })).status).toBe(403);
    expect((await t.request("POST", `${S}/mobileNotification/user`, { body })).status).toBe(401);
    expect((await t.request("POST", `${S}/mobileNotification/user/admin`, { token: u.token, body })).status).toBe(403);
    expect((await t.request("POST", `${S}/mobileNotification/user/admin`, { token: service, body })).status).toBe(401);
    const bad = await t.request("POST", `${S}/mobileNotification/user/admin`, {
      token: admin.token,
      body: { userUuid: "nope", ...notice },
    });
    expect(bad.status).toBe(400);
  });

  it("sends a silent notification to a user's devices (staff; the path is spelled as the product spells it)", async () => {
    const u = await t.createUser();
    const phone = await device(u);
    const path = `${S}/mobileNotification/user/admin/silent-nofitication`;
    const res = await t.request("POST", path, {
      token: admin.token,
      body: { userUuid: u.user.uuid, data: { refresh: "profile" } },
    });
    expect(res.status).toBe(200);
    expect((await pushesTo(phone))[0]).toMatchObject({ silent: true, data: { refresh: "profile" } });
    const body = { userUuid: u.user.uuid, data: { refresh: "profile" } };
    expect((await t.request("POST", path, { token: u.token, body })).status).toBe(403);
    expect((await t.request("POST", path, { body })).status).toBe(401);
    expect((await t.request("POST", path, { token: admin.token, body: { userUuid: u.user.uuid } })).status).toBe(400);
  });

  it("sends a message on behalf of a user, leaving out those blocked either way", async () => {
    const sender = await t.createUser();
    const [friend, blocker, blocked] = [await t.createUser(), await t.createUser(), await t.createUser()];
    const tokens = [await device(friend), await device(blocker), await device(blocked)];
    await block(blocker, sender);
    await block(sender, blocked);
    const res = await t.request("POST", `${S}/mobileNotification/custom-message`, {
      token: service,
      body: {
        senderUuid: sender.user.uuid,
        userUuids: [friend.user.uuid, blocker.user.uuid, blocked.user.uuid],
        title: "Ada",
        body: "See you in the room",
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ users: 1, devices: 1, queued: 1 });
    expect((await pushesTo(tokens[0] ?? ""))[0]?.data).toEqual({ type: "customMessage", senderUuid: sender.user.uuid });
    expect(await pushesTo(tokens[1] ?? "")).toEqual([]);
    expect(await pushesTo(tokens[2] ?? "")).toEqual([]);
    const body = { senderUuid: sender.user.uuid, userUuids: [friend.user.uuid], ...notice };
    expect(
      (await t.request("POST", `${S}/mobileNotification/custom-message`, { token: sender.token, body })).status,
    ).toBe(403);
    expect(
      (
        await t.request("POST", `${S}/mobileNotification/custom-message`, {
          token: service,
          body: { ...body, senderUuid: crypto.randomUUID() },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request("POST", `${S}/mobileNotification/custom-message`, {
          token: service,
          body: { ...body, userUuids: [friend.user.uuid, friend.user.uuid] },
        })
      ).status,
    ).toBe(400);
  });

  it("broadcasts to every device, or every device of a platform (staff)", async () => {
    const u = await t.createUser();
    const [android, ios] = [await device(u, "android"), await device(u, "ios")];
    const [devices] = await t.db.select({ n: schema.devices.id }).from(schema.devices).limit(1);
    expect(devices).toBeTruthy();
    const all = await t.db.select().from(schema.devices);
    const res = await t.request("POST", `${S}/mobileNotification/all-devices`, {
      token: staffer.token,
      body: { title: "Maintenance", body: "Back in 5 minutes" },
    });
    expect(res.status).toBe(200);
    expect(res.body.devices).toBe(all.length);
    expect(res.body.queued).toBe(all.length);
    expect((await pushesTo(android))[0]?.title).toBe("Maintenance");
    const iosOnly = await t.request("POST", `${S}/mobileNotification/all-devices`, {
      token: admin.token,
      body: { title: "iOS update", body: "Please update", platform: "ios" },
    });
    expect(iosOnly.body.devices).toBe(all.filter((d) => d.platform === "ios").length);
    expect((await pushesTo(ios))[0]?.title).toBe("iOS update");
    expect((await pushesTo(android))[0]?.title).toBe("Maintenance");
    const body = { title: "x", body: "y" };
    expect((await t.request("POST", `${S}/mobileNotification/all-devices`, { token: u.token, body })).status).toBe(403);
    expect((await t.request("POST", `${S}/mobileNotification/all-devices`, { token: service, body })).status).toBe(401);
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
    const res = await t.request("POST", `${S}/mobileNotification/room-users`, {
      token: service,
      body: { roomUuid: r.uuid, title: "Rooftop is live", body: "DJ set starting" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ users: 1, devices: 1, queued: 1 });
    expect((await pushesTo(tokens[0] ?? ""))[0]?.data).toEqual({ type: "room", roomUuid: r.uuid, roomSlug: r.slug });
    for (const token of tokens.slice(1)) expect(await pushesTo(token)).toEqual([]);
    const body = { roomUuid: r.uuid, ...notice };
    expect((await t.request("POST", `${S}/mobileNotification/room-users`, { token: owner.token, body })).status).toBe(
      403,
    );
    expect((await t.request("POST", `${S}/mobileNotification/room-users`, { body })).status).toBe(401);
    const missing = await t.request("POST", `${S}/mobileNotification/room-users`, {
      token: service,
      body: { ...body, roomUuid: crypto.randomUUID() },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("Room not found.");
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
    for (const u of [fan, listening, blockedFan])
      expect((await t.request("POST", `${S}/dj-fans`, { token: u.token, body: { djUuid: dj.user.uuid } })).status).toBe(
        201,
      );
    await block(dj, blockedFan);
    // Blocking ended that follow; a block stays respected even for a follow that outlived it.
    await t.db.insert(schema.djFans).values({ fanUuid: blockedFan.user.uuid, djUuid: dj.user.uuid });
    await t.db.insert(schema.roomPresence).values({ roomUuid: r.uuid, userUuid: listening.user.uuid });
    const tokens = [await device(fan), await device(listening), await device(blockedFan), await device(stranger)];

    // Exactly the body apps/rooms-party/src/edge.ts sends, with a service token.
    const call = async () =>
      t.request("POST", `${S}/notifications/dj-fans`, {
        token: await t.serviceToken(),
        body: { djUuid: dj.user.uuid, roomUuid: r.uuid },
      });
    const first = await call();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ notified: true, reason: null, users: 1, devices: 1, queued: 1 });
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
      expect(again.body).toMatchObject({ notified: false, reason: FANS_RECENTLY_NOTIFIED, users: 0 });
    }
    expect(await pushesTo(tokens[0] ?? "")).toHaveLength(1);
    t.clock.advance(2 * 3600 + 1);
    expect((await call()).body.notified).toBe(true);
    expect(await pushesTo(tokens[0] ?? "")).toHaveLength(2);
  });

  it("notifies once when the room calls several times at the same moment", async () => {
    const dj = await t.createUser();
    const fan = await t.createUser();
    await t.request("POST", `${S}/dj-fans`, { token: fan.token, body: { djUuid: dj.user.uuid } });
    const phone = await device(fan);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.request("POST", `${S}/notifications/dj-fans`, { token: service, body: { djUuid: dj.user.uuid } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.filter((r) => r.body.notified)).toHaveLength(1);
    expect(await pushesTo(phone)).toHaveLength(1);
  });

  it("refuses wrong callers and bad input", async () => {
    const dj = await t.createUser();
    const body = { djUuid: dj.user.uuid };
    expect((await t.request("POST", `${S}/notifications/dj-fans`, { token: dj.token, body })).status).toBe(403);
    expect((await t.request("POST", `${S}/notifications/dj-fans`, { body })).status).toBe(401);
    expect(
      (await t.request("POST", `${S}/notifications/dj-fans`, { token: service, body: { djUuid: "guest-1" } })).status,
    ).toBe(400);
    const missing = await t.request("POST", `${S}/notifications/dj-fans`, {
      token: service,
      body: { djUuid: crypto.randomUUID() },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(DJ_NOT_FOUND);
    const noRoom = await t.request("POST", `${S}/notifications/dj-fans`, {
      token: service,
      body: { ...body, roomUuid: crypto.randomUUID() },
    });
    expect(noRoom.status).toBe(404);
    // Refused calls do not start the quiet window.
    expect((await t.request("POST", `${S}/notifications/dj-fans`, { token: admin.token, body })).body.notified).toBe(
      true,
    );
  });

  it("GET /dj-fans-notification tells whether fans can be notified now, and how many", async () => {
    const dj = await t.createUser();
    const check = (token: string | null, query: Record<string, string> = {}) =>
      t.request("GET", `${S}/dj-fans-notification`, { token, query });
    expect((await check(dj.token)).body).toEqual({
      users: 0,
      devices: 0,
      webSubscriptions: 0,
      canSend: false,
      reason: NOBODY_TO_NOTIFY,
      nextPossibleAt: null,
    });
    const fan = await t.createUser();
    await t.request("POST", `${S}/dj-fans`, { token: fan.token, body: { djUuid: dj.user.uuid } });
    expect((await check(service, { djUuid: dj.user.uuid })).body).toMatchObject({
      users: 1,
      devices: 0,
      canSend: false,
      reason: "None of them has a device or browser registered for notifications.",
    });
    await device(fan);
    expect((await check(dj.token)).body).toMatchObject({ users: 1, devices: 1, canSend: true, reason: null });
    await t.request("POST", `${S}/notifications/dj-fans`, { token: service, body: { djUuid: dj.user.uuid } });
    const after = await check(admin.token, { djUuid: dj.user.uuid });
    expect(after.body).toMatchObject({ canSend: false, reason: FANS_RECENTLY_NOTIFIED });
    expect(after.body.nextPossibleAt).toBe(new Date(t.clock.now().getTime() + 2 * 3600 * 1000).toISOString());

    const other = await t.createUser();
    expect((await check(other.token, { djUuid: dj.user.uuid })).status).toBe(403);
    expect((await check(null, { djUuid: dj.user.uuid })).status).toBe(401);
    expect((await check(service)).status).toBe(400);
    expect((await check(service, { djUuid: "x" })).status).toBe(400);
    expect((await check(service, { djUuid: crypto.randomUUID() })).status).toBe(404);
  });
});

describe("custom messages to friends", () => {
  it("reach the chosen friends' devices, titled with the sender's nickname", async () => {
    const ada = await t.createUser({ nickname: "Ada" });
    const [bob, cy] = [await t.createUser(), await t.createUser()];
    await befriend(ada, bob);
    await befriend(ada, cy);
    const [bobPhone, cyPhone] = [await device(bob), await device(cy)];
    const res = await t.request("POST", `${S}/notifications/custom-message`, {
      token: ada.token,
      body: { userUuids: [bob.user.uuid, cy.user.uuid], message: "Come to Rooftop!" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ users: 2, devices: 2, queued: 2 });
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
    const res = await t.request("POST", `${S}/notifications/custom-message`, {
      token: ada.token,
      body: { userUuids: [bob.user.uuid, stranger.user.uuid], message: "hi" },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(ONLY_FRIENDS);
    expect(await pushesTo(bobPhone)).toEqual([]);
    const send = (body: unknown, token: string | null = ada.token) =>
      t.request("POST", `${S}/notifications/custom-message`, { token, body });
    expect((await send({ userUuids: [ada.user.uuid], message: "me" })).status).toBe(403);
    expect((await send({ userUuids: [bob.user.uuid], message: "   " })).status).toBe(400);
    expect((await send({ userUuids: [], message: "hi" })).status).toBe(400);
    expect((await send({ userUuids: [bob.user.uuid], message: "hi" }, null)).status).toBe(401);
    expect((await send({ userUuids: [bob.user.uuid], message: "hi" }, service)).status).toBe(401);
    expect(await pushesTo(bobPhone)).toEqual([]);
  });

  it(`allows ${CUSTOM_MESSAGES_PER_HOUR} messages an hour`, async () => {
    const ada = await t.createUser();
    const bob = await t.createUser();
    await befriend(ada, bob);
    const send = () =>
      t.request("POST", `${S}/notifications/custom-message`, {
        token: ada.token,
        body: { userUuids: [bob.user.uuid], message: "ping" },
      });
    for (let i = 0; i < CUSTOM_MESSAGES_PER_HOUR; i++) expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(429);
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
      t.request("GET", `${S}/room-users-notification`, { token, query: { roomUuid: r.uuid } });
    expect((await check(owner.token)).body).toEqual({
      users: 1,
      devices: 1,
      webSubscriptions: 0,
      canSend: true,
      reason: null,
      nextPossibleAt: null,
    });
    const send = (token: string, message = "Live at 9 tonight") =>
      t.request("POST", `${S}/notifications/custom-message-from-room`, {
        token,
        body: { roomUuid: r.uuid, message },
      });
    const sent = await send(owner.token);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ users: 1, devices: 1, queued: 1 });
    expect((await pushesTo(phone))[0]).toMatchObject({
      title: "Basement",
      body: "Live at 9 tonight",
      data: { type: "roomMessage", roomUuid: r.uuid, roomSlug: r.slug, senderUuid: owner.user.uuid },
    });
    expect(await pushesTo(blockerPhone)).toEqual([]);

    const waiting = await check(moderator.token);
    expect(waiting.body).toMatchObject({ canSend: false, reason: ROOM_RECENTLY_NOTIFIED });
    const tooSoon = await send(moderator.token);
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body.message).toBe(ROOM_RECENTLY_NOTIFIED);
    t.clock.advance(3601);
    expect((await check(await t.serviceToken())).body.canSend).toBe(true);
    expect((await send(moderator.token, "Second set")).status).toBe(200);
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
    const post = (token: string | null, b: unknown = body) =>
      t.request("POST", `${S}/notifications/custom-message-from-room`, { token, body: b });
    const refused = await post(listener.token);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(ROOM_STAFF_ONLY);
    expect((await post(null)).status).toBe(401);
    expect((await post(service)).status).toBe(401);
    expect((await post(owner.token, { roomUuid: crypto.randomUUID(), message: "hi" })).status).toBe(404);
    expect((await post(owner.token, { roomUuid: r.uuid, message: "" })).status).toBe(400);
    expect((await post(owner.token, { roomUuid: r.uuid, message: "x".repeat(501) })).status).toBe(400);
    expect(await pushesTo(phone)).toEqual([]);
    // Refusals did not use up the hour.
    expect((await post(owner.token)).status).toBe(200);

    const get = (token: string | null, roomUuid = r.uuid) =>
      t.request("GET", `${S}/room-users-notification`, { token, query: { roomUuid } });
    expect((await get(listener.token)).status).toBe(403);
    expect((await get(null)).status).toBe(401);
    expect((await get(service, "nope")).status).toBe(400);
    expect((await get(service, crypto.randomUUID())).status).toBe(404);
  });

  it("with nobody to tell, sends nothing and keeps the hour", async () => {
    const owner = await t.createUser();
    const r = await room(owner);
    const res = await t.request("POST", `${S}/notifications/custom-message-from-room`, {
      token: owner.token,
      body: { roomUuid: r.uuid, message: "anyone?" },
    });
    expect(res.body).toMatchObject({ users: 0, sent: 0, queued: 0 });
    const check = await t.request("GET", `${S}/room-users-notification`, {
      token: owner.token,
      query: { roomUuid: r.uuid },
    });
    expect(check.body).toMatchObject({ canSend: false, reason: NOBODY_TO_NOTIFY, nextPossibleAt: null });
  });
});
