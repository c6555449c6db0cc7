import { schema } from "@booth/db";
import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, ok, openTestApp, type TestUser } from "../../testing.ts";

const t = openTestApp();
let staff: TestUser;
beforeAll(async () => {
  staff = await t.createUser({ roles: ["user", "staff"] });
});

const R = "/api/room-service";
const tag = () => crypto.randomUUID().slice(0, 8);
const HOUR = 3600;
/** An ISO time `hours` from the test clock's now. */
const at = (hours: number) => new Date(t.clock.now().getTime() + hours * HOUR * 1000).toISOString();

async function insertRoom(ownerUuid: string) {
  const slug = `room-${tag()}`;
  const [room] = await t.db.insert(schema.rooms).values({ slug, name: slug, ownerUuid }).returning();
  return room!;
}
async function grant(roomUuid: string, userUuid: string, role: "coOwner" | "moderator") {
  await t.db.insert(schema.roomUserRoles).values({ roomUuid, userUuid, role });
}
async function createEvent(token: string, body: Record<string, unknown> = {}) {
  const res = await t
    .api(token)
    .room.POST("/events", { body: { name: `Event ${tag()}`, startsAt: at(1), endsAt: at(3), ...body } });
  expect(res.response.status, JSON.stringify(res.error ?? res.data)).toBe(201);
  return ok(res) as { id: string; slug: string; [k: string]: unknown };
}
const eventCount = async () => (await t.db.select({ n: count() }).from(schema.events))[0]!.n;

describe("scheduling events", () => {
  it("creates an event hosted by the caller, with a unique slug from its name", async () => {
    const host = await t.createUser();
    const name = `Friday Night Disco ${tag()}`;
    const res = await t
      .api(host.token)
      .room.POST("/events", { body: { name, description: "Bring your best", startsAt: at(2), endsAt: at(4) } });
    expect(res.response.status).toBe(201);
    expect(res.data).toMatchObject({
      name,
      slug: name.toLowerCase().replace(/ /g, "-"),
      hostUuid: host.user.uuid,
      roomUuid: null,
      room: null,
      startsAt: at(2),
      endsAt: at(4),
      isLive: false,
    });
    const again = await createEvent(host.token, { name });
    expect(again.slug).toBe(`${ok(res).slug}-2`);
    const symbols = await createEvent(host.token, { name: "♪♪♪" });
    expect(symbols.slug).toMatch(/^event(-\d+)?$/);
  });

  it("refuses bad input and changes nothing", async () => {
    const host = await t.createUser();
    const taken = await createEvent(host.token);
    const before = await eventCount();
    expect(
      (await t.api().room.POST("/events", { body: { name: "Nope", startsAt: at(1), endsAt: at(2) } })).response.status,
    ).toBe(401);
    const cases: [Record<string, unknown>, string?][] = [
      [{ name: "x", startsAt: at(1), endsAt: at(2) }],
      [{ name: "Nul\u0000name", startsAt: at(1), endsAt: at(2) }, "name: must not contain NUL characters"],
      [{ name: "Backwards", startsAt: at(2), endsAt: at(1) }, "endsAt: must be after startsAt"],
      [{ name: "Same time", startsAt: at(2), endsAt: at(2) }, "endsAt: must be after startsAt"],
      [{ name: "Long gone", startsAt: at(-5), endsAt: at(-4) }, "endsAt: must be in the future"],
      [{ name: "Forever", startsAt: at(1), endsAt: at(24 * 40) }, "endsAt: an event lasts at most 30 days"],
      [{ name: "Bad time", startsAt: "tomorrow", endsAt: at(2) }],
      [{ name: "No end", startsAt: at(1) }],
      [{ name: "No such day", startsAt: "2027-02-29T10:00:00Z", endsAt: "2027-03-01T10:00:00Z" }],
      [{ name: "Taken", slug: taken.slug, startsAt: at(1), endsAt: at(2) }, "This event slug is already taken."],
      [{ name: "Bad slug", slug: "Bad Slug", startsAt: at(1), endsAt: at(2) }],
      [{ name: "Bad image", imageUrl: "ftp://x/y.png", startsAt: at(1), endsAt: at(2) }],
      [{ name: "Extra", startsAt: at(1), endsAt: at(2), hostUuid: staff.user.uuid }],
    ];
    // Raw: malformed input, which the typed client cannot send.
    for (const [body, message] of cases) {
      const res = await t.request("POST", `${R}/events`, { token: host.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      if (message) expect([res.body.message].flat()).toContain(message);
    }
    expect(await eventCount()).toBe(before);
  });

  it("in a room, only its moderators and up may schedule one", async () => {
    const { owner, mod, stranger } = await t.createUsers("owner", "mod", "stranger");
    const room = await insertRoom(owner.user.uuid);
    await grant(room.uuid, mod.user.uuid, "moderator");
    const before = await eventCount();
    const refused = await t
      .api(stranger.token)
      .room.POST("/events", { body: { name: "Takeover", roomUuid: room.uuid, startsAt: at(1), endsAt: at(2) } });
    expectRefusal(refused, 403, "Only the room's moderators and up may schedule events in it.");
    expect(
      (
        await t.api(mod.token).room.POST("/events", {
          body: { name: "Nowhere", roomUuid: crypto.randomUUID(), startsAt: at(1), endsAt: at(2) },
        })
      ).response.status,
    ).toBe(404);
    expect(await eventCount()).toBe(before);
    const event = await createEvent(mod.token, { roomUuid: room.uuid });
    expect(event).toMatchObject({ roomUuid: room.uuid, room: { uuid: room.uuid, slug: room.slug, name: room.name } });
    await createEvent(owner.token, { roomUuid: room.uuid });
  });
});

describe("reading events", () => {
  it("reads one by id or slug, lists them and the upcoming ones", async () => {
    const host = await t.createUser();
    const room = await insertRoom(host.user.uuid);
    const later = await createEvent(host.token, { roomUuid: room.uuid, startsAt: at(10), endsAt: at(12) });
    const soon = await createEvent(host.token, { roomUuid: room.uuid, startsAt: at(1), endsAt: at(2) });
    const now = await createEvent(host.token, { roomUuid: room.uuid, startsAt: at(-1), endsAt: at(0.5) });

    const byId = await t.api().room.GET("/events/{id}", { params: { path: { id: soon.id } } });
    expect(byId.response.status).toBe(200);
    expect(byId.data?.slug).toBe(soon.slug);
    expect((await t.api().room.GET("/events/slug/{slug}", { params: { path: { slug: later.slug } } })).data?.id).toBe(
      later.id,
    );
    expect(
      (await t.api().room.GET("/events/slug/{slug}", { params: { path: { slug: "no-such-event" } } })).response.status,
    ).toBe(404);
    expect(
      (await t.api().room.GET("/events/slug/{slug}", { params: { path: { slug: "a%00b" } } })).response.status,
    ).toBe(404);
    expect(
      (await t.api().room.GET("/events/{id}", { params: { path: { id: crypto.randomUUID() } } })).response.status,
    ).toBe(404);
    expect((await t.api().room.GET("/events/{id}", { params: { path: { id: "not-a-uuid" } } })).response.status).toBe(
      400,
    );

    const all = await t.api().room.GET("/events", { params: { query: { roomUuid: room.uuid } } });
    expect(all.data?.total).toBe(3);
    expect(all.data?.data.map((e) => e.id)).toEqual([later.id, soon.id, now.id]);
    const paged = await t
      .api()
      .room.GET("/events", { params: { query: { hostUuid: host.user.uuid, limit: 1, offset: 1 } } });
    expect(paged.data?.data.map((e) => e.id)).toEqual([soon.id]);
    expect((await t.api().room.GET("/events", { params: { query: { roomUuid: "x" } } })).response.status).toBe(400);

    const upcoming = await t.api().room.GET("/events/upcoming", { params: { query: { roomUuid: room.uuid } } });
    expect(upcoming.data?.data.map((e) => [e.id, e.isLive])).toEqual([
      [now.id, true],
      [soon.id, false],
      [later.id, false],
    ]);
    t.clock.advance(2.5 * HOUR);
    const afterwards = await t.api().room.GET("/events/upcoming", { params: { query: { roomUuid: room.uuid } } });
    expect(afterwards.data).toMatchObject({ total: 1, data: [{ id: later.id }] });
  });
});

describe("changing and cancelling events", () => {
  it("the host, the room's owner or co-owners and staff may change an event; others may not", async () => {
    const { owner, coOwner, mod, stranger } = await t.createUsers("owner", "coOwner", "mod", "stranger");
    const room = await insertRoom(owner.user.uuid);
    await grant(room.uuid, coOwner.user.uuid, "coOwner");
    await grant(room.uuid, mod.user.uuid, "moderator");
    const event = await createEvent(mod.token, { roomUuid: room.uuid });
    const patch = (token: string | undefined, body: unknown) =>
      t.request("PATCH", `${R}/events/${event.id}`, { token, body });

    expect((await patch(undefined, { name: "Anon" })).status).toBe(401);
    const refused = await patch(stranger.token, { name: "Stranger" });
    expectRefusal(refused, 403, "Only the event's host, the room's owners or staff may change this event.");
    expect((await patch(mod.token, { name: "By the host" })).body.name).toBe("By the host");
    expect((await patch(coOwner.token, { description: "By a co-owner" })).body.description).toBe("By a co-owner");
    expect((await patch(owner.token, { startsAt: at(2), endsAt: at(5) })).body).toMatchObject({
      startsAt: at(2),
      endsAt: at(5),
    });
    expect((await patch(staff.token, { slug: `staff-${tag()}` })).status).toBe(200);
    expect(
      (await t.api(staff.token).room.PATCH("/events/{id}", { params: { path: { id: crypto.randomUUID() } }, body: {} }))
        .response.status,
    ).toBe(404);

    const before = (await t.db.select().from(schema.events).where(eq(schema.events.id, event.id)))[0];
    const other = await createEvent(mod.token);
    for (const body of [
      { endsAt: at(1) },
      { name: "" },
      { slug: other.slug },
      { startsAt: "2026-13-01T00:00:00Z" },
      { hostUuid: stranger.user.uuid },
    ])
      expect((await patch(owner.token, body)).status, JSON.stringify(body)).toBe(400);
    // Moving it to a room the caller does not run.
    const elsewhere = await insertRoom(stranger.user.uuid);
    expect((await patch(owner.token, { roomUuid: elsewhere.uuid })).status).toBe(403);
    expect((await patch(owner.token, { roomUuid: crypto.randomUUID() })).status).toBe(404);
    const after = (await t.db.select().from(schema.events).where(eq(schema.events.id, event.id)))[0];
    expect(after).toEqual(before);

    const moved = await patch(mod.token, { roomUuid: null });
    expect(moved.body).toMatchObject({ roomUuid: null, room: null });
    // Out of the room, its owner no longer has a say.
    expect((await patch(owner.token, { name: "Owner again" })).status).toBe(403);
  });

  it("cancels an event: the host or staff, not a stranger", async () => {
    const host = await t.createUser();
    const stranger = await t.createUser();
    const first = await createEvent(host.token);
    const second = await createEvent(host.token);
    expect((await t.api().room.DELETE("/events/{id}", { params: { path: { id: first.id } } })).response.status).toBe(
      401,
    );
    expect(
      (await t.api(stranger.token).room.DELETE("/events/{id}", { params: { path: { id: first.id } } })).response.status,
    ).toBe(403);
    expect((await t.api().room.GET("/events/{id}", { params: { path: { id: first.id } } })).response.status).toBe(200);
    expect(
      (await t.api(host.token).room.DELETE("/events/{id}", { params: { path: { id: first.id } } })).response.status,
    ).toBe(204);
    expect(
      (await t.api(host.token).room.DELETE("/events/{id}", { params: { path: { id: first.id } } })).response.status,
    ).toBe(404);
    expect(
      (await t.api(staff.token).room.DELETE("/events/{id}", { params: { path: { id: second.id } } })).response.status,
    ).toBe(204);
    expect((await t.api().room.GET("/events/{id}", { params: { path: { id: second.id } } })).response.status).toBe(404);
  });
});

describe("admin events (nestjsx/crud)", () => {
  it("lists and reads events for staff", async () => {
    const host = await t.createUser();
    const room = await insertRoom(host.user.uuid);
    const marker = tag();
    const a = await createEvent(host.token, { name: `Admin A ${marker}`, roomUuid: room.uuid });
    await createEvent(host.token, { name: `Admin B ${marker}` });
    const list = await t.api(staff.token).room.GET("/admin/events", {
      params: {
        query: { filter: `name||$cont||${marker}`, sort: "name,ASC", fields: "name,roomUuid", join: "room||slug" },
      },
    });
    expect(list.response.status).toBe(200);
    expect(list.data).toMatchObject({ count: 2, total: 2, page: 1, pageCount: 1 });
    expect(list.data?.data[0]).toEqual({ id: a.id, name: a.name, roomUuid: room.uuid, room: { slug: room.slug } });
    expect(list.data?.data[1]?.room).toBeNull();
    expect(
      (await t.api(staff.token).room.GET("/admin/events", { params: { query: { sort: "nope,ASC" } } })).response.status,
    ).toBe(400);
    expect((await t.api(host.token).room.GET("/admin/events")).response.status).toBe(403);
    expect((await t.api().room.GET("/admin/events")).response.status).toBe(401);

    const one = await t.api(staff.token).room.GET("/admin/events/{id}", { params: { path: { id: a.id } } });
    expect(one.data).toMatchObject({ id: a.id, slug: a.slug, hostUuid: host.user.uuid });
    expect(one.data?.room).toBeUndefined();
    expect(
      (await t.api(host.token).room.GET("/admin/events/{id}", { params: { path: { id: a.id } } })).response.status,
    ).toBe(403);
    expect(
      (await t.api(staff.token).room.GET("/admin/events/{id}", { params: { path: { id: crypto.randomUUID() } } }))
        .response.status,
    ).toBe(404);
  });
});
