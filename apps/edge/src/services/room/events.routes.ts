import { type Db, schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, asc, count, desc, eq, gt, ne, type SQL } from "drizzle-orm";
import type { Context } from "hono";
import { hasAnyRole, requireUser, STAFF, type User } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import {
  applyCrud,
  type CrudOptions,
  CrudQuerySchema,
  CrudSelectionSchema,
  crudList,
  crudPageSchema,
  parseCrudQuery,
  parseSelection,
  pickFields,
} from "../../lib/crud-query.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { badRequest, forbidden, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, PageQuery, UuidParam } from "../../lib/openapi.ts";
import { findRoom, loadRoom, ROOM_RANK, requireRoomRank, roomRank } from "./access.ts";
import { freeSlugIn, looksLikeSlug, plainText, SlugInput, slugFrom } from "./communities.routes.ts";

export const eventsRoutes = createRouter();
const tags = ["Events"];
const adminTags = ["Admin"];

export const EVENT_NOT_FOUND = "Event not found.";
export const EVENT_MESSAGES = {
  slugTaken: "This event slug is already taken.",
  endsBeforeStart: "endsAt: must be after startsAt",
  endsInPast: "endsAt: must be in the future",
  tooLong: "endsAt: an event lasts at most 30 days",
  notRoomModerator: "Only the room's moderators and up may schedule events in it.",
  mayNotManage: "Only the event's host, the room's owners or staff may change this event.",
} as const;
const MAX_EVENT_MS = 30 * 24 * 3600 * 1000;

type Event = typeof schema.events.$inferSelect;
type RoomSummary = { uuid: string; slug: string; name: string };
type EventRow = Event & { room: RoomSummary | null };

const selectEvents = (db: Db) =>
  db
    .select({
      event: schema.events,
      room: { uuid: schema.rooms.uuid, slug: schema.rooms.slug, name: schema.rooms.name },
    })
    .from(schema.events)
    .leftJoin(schema.rooms, eq(schema.rooms.uuid, schema.events.roomUuid))
    .$dynamic();
const toRow = (r: { event: Event; room: RoomSummary | null }): EventRow => ({ ...r.event, room: r.room });

const eventView = (e: EventRow, now: Date) => ({
  id: e.id,
  slug: e.slug,
  name: e.name,
  description: e.description,
  imageUrl: e.imageUrl,
  roomUuid: e.roomUuid,
  room: e.room,
  hostUuid: e.hostUuid,
  startsAt: e.startsAt.toISOString(),
  endsAt: e.endsAt.toISOString(),
  isLive: e.startsAt <= now && now < e.endsAt,
  createdAt: e.createdAt.toISOString(),
  updatedAt: e.updatedAt.toISOString(),
});

const RoomSummarySchema = z.object({ uuid: z.uuid(), slug: z.string(), name: z.string() }).openapi("EventRoom");
const EventFields = {
  id: z.uuid(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  imageUrl: z.string().nullable(),
  roomUuid: z.uuid().nullable(),
  hostUuid: z.uuid(),
  startsAt: z.string(),
  endsAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
};
const EventSchema = z
  .object({
    ...EventFields,
    room: RoomSummarySchema.nullable(),
    isLive: z.boolean().openapi({ description: "Whether it is on now" }),
  })
  .openapi("Event");
const EventPage = z.object({ data: z.array(EventSchema), total: z.number().int() }).openapi("EventPage");
const AdminEventSchema = z
  .object({ ...EventFields, room: RoomSummarySchema.partial().nullable() })
  .partial()
  .openapi("AdminEvent");

async function loadEvent(db: Db, where: SQL) {
  const [row] = await selectEvents(db).where(where).limit(1);
  if (!row) throw notFound(EVENT_NOT_FOUND);
  return toRow(row);
}

/** The host, staff, and the owners and co-owners of the event's room (global moderators rank above them). */
async function requireManager(c: Context<AppEnv>, event: Event, user: User) {
  if (event.hostUuid === user.uuid || hasAnyRole(user.roles, STAFF)) return;
  const { db, clock } = c.var.deps;
  const room = event.roomUuid ? await findRoom(db, { uuid: event.roomUuid }) : null;
  if (room && (await roomRank(db, room, user, clock.now())) >= ROOM_RANK.coOwner) return;
  throw forbidden(EVENT_MESSAGES.mayNotManage);
}

const dateTime = z.iso.datetime({ offset: true }).openapi({ example: "2026-07-01T20:00:00Z" });
const imageUrl = z
  .url({ protocol: /^https?$/, error: "imageUrl: an http(s) URL" })
  .max(2000)
  .nullable();
const EventInput = z
  .object({
    name: plainText(2, 100),
    slug: SlugInput.optional().openapi({ description: "Made from the name (with a suffix when taken) if not given" }),
    description: plainText(0, 4000).optional(),
    imageUrl: imageUrl.optional(),
    roomUuid: z.uuid().nullable().optional().openapi({ description: "The room it happens in (its moderators and up)" }),
    startsAt: dateTime,
    endsAt: dateTime,
  })
  .strict()
  .openapi("EventInput");
const EventPatch = EventInput.partial().openapi("EventPatch");

function parseTime(value: string, field: string) {
  const date = new Date(value);
  // Date rolls 2026-02-31 over into March; a day the month does not have is an error.
  const [year, month, day] = value.slice(0, 10).split("-").map(Number);
  const calendarDay = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1)).getUTCDate();
  if (Number.isNaN(date.getTime()) || calendarDay !== day) throw badRequest([`${field}: not a valid date and time`]);
  return date;
}

/** Start before end, end in the future, at most 30 days long. */
function checkTimes(startsAt: Date, endsAt: Date, now: Date) {
  if (endsAt <= startsAt) throw badRequest([EVENT_MESSAGES.endsBeforeStart]);
  if (endsAt <= now) throw badRequest([EVENT_MESSAGES.endsInPast]);
  if (endsAt.getTime() - startsAt.getTime() > MAX_EVENT_MS) throw badRequest([EVENT_MESSAGES.tooLong]);
}

async function slugIsFree(db: Db, slug: string, exceptId?: string) {
  const [clash] = await db
    .select({ id: schema.events.id })
    .from(schema.events)
    .where(and(eq(schema.events.slug, slug), exceptId ? ne(schema.events.id, exceptId) : undefined));
  return !clash;
}

const roomQuery = z.object({
  roomUuid: z.uuid().optional().openapi({ description: "Only the events of this room" }),
  hostUuid: z.uuid().optional().openapi({ description: "Only the events of this host" }),
});
const listFilter = (q: { roomUuid?: string | undefined; hostUuid?: string | undefined }) => [
  q.roomUuid ? eq(schema.events.roomUuid, q.roomUuid) : undefined,
  q.hostUuid ? eq(schema.events.hostUuid, q.hostUuid) : undefined,
];

async function page(c: Context<AppEnv>, where: SQL | undefined, orderBy: SQL[], limit: number, offset: number) {
  const { db, clock } = c.var.deps;
  const [rows, [total]] = await Promise.all([
    selectEvents(db)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(schema.events).where(where),
  ]);
  const now = clock.now();
  return { data: rows.map((r) => eventView(toRow(r), now)), total: total?.n ?? 0 };
}

// Admin ------------------------------------------------------------------------------------------------------------

const EVENT_CRUD: CrudOptions = {
  fields: {
    id: schema.events.id,
    slug: schema.events.slug,
    name: schema.events.name,
    description: schema.events.description,
    imageUrl: schema.events.imageUrl,
    roomUuid: schema.events.roomUuid,
    hostUuid: schema.events.hostUuid,
    startsAt: schema.events.startsAt,
    endsAt: schema.events.endsAt,
    createdAt: schema.events.createdAt,
    updatedAt: schema.events.updatedAt,
  },
  primaryKey: "id",
  joins: { room: ["uuid", "slug", "name"] },
  defaultSort: [{ field: "startsAt", order: "DESC" }],
};

function adminView(e: EventRow, selection: { fields: string[] | null; joins: Record<string, string[] | null> }) {
  const { room, isLive: _, ...view } = eventView(e, e.startsAt);
  const item: Record<string, unknown> = pickFields(view, selection.fields);
  if ("room" in selection.joins) item.room = room && pickFields(room, selection.joins.room ?? null);
  return item;
}

eventsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/events",
    tags: adminTags,
    summary: "Events, in the nestjsx/crud query syntax; join=room adds the room (staff and above)",
    security: bearer,
    request: { query: CrudQuerySchema },
    responses: { 200: json(crudPageSchema(AdminEventSchema).openapi("AdminEventPage")), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const query = parseCrudQuery(c.req.valid("query"), EVENT_CRUD);
    const { db } = c.var.deps;
    const result = await crudList(query, {
      total: async (where) => {
        const [row] = await db.select({ n: count() }).from(schema.events).where(where);
        return row?.n ?? 0;
      },
      rows: (q) => applyCrud(selectEvents(db), q),
    });
    return c.json({ ...result, data: result.data.map((r) => adminView(toRow(r), query)) }, 200);
  },
);

eventsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/events/{id}",
    tags: adminTags,
    summary: "One event, with the same fields and join options (staff and above)",
    security: bearer,
    request: { params: UuidParam, query: CrudSelectionSchema },
    responses: { 200: json(AdminEventSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const selection = parseSelection(c.req.valid("query"), EVENT_CRUD);
    const event = await loadEvent(c.var.deps.db, eq(schema.events.id, c.req.valid("param").id));
    return c.json(adminView(event, selection), 200);
  },
);

// Public -----------------------------------------------------------------------------------------------------------

eventsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/events",
    tags,
    summary: "Events, the latest start first; roomUuid and hostUuid narrow the list (anyone)",
    request: { query: PageQuery.extend(roomQuery.shape) },
    responses: { 200: json(EventPage), ...errors(400) },
  }),
  async (c) => {
    const q = c.req.valid("query");
    return c.json(
      await page(c, and(...listFilter(q)), [desc(schema.events.startsAt), asc(schema.events.id)], q.limit, q.offset),
      200,
    );
  },
);

eventsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/events",
    tags,
    summary:
      "Schedule an event hosted by the caller (signed in, bots too); in a room, the caller must be one of its moderators or above",
    security: bearer,
    request: jsonBody(EventInput),
    responses: { 201: json(EventSchema, "Created"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const body = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const now = clock.now();
    const startsAt = parseTime(body.startsAt, "startsAt");
    const endsAt = parseTime(body.endsAt, "endsAt");
    checkTimes(startsAt, endsAt, now);
    if (body.roomUuid) {
      const room = await loadRoom(db, { uuid: body.roomUuid });
      await requireRoomRank(db, room, user, now, ROOM_RANK.moderator, EVENT_MESSAGES.notRoomModerator);
    }
    if (body.slug && !(await slugIsFree(db, body.slug))) throw badRequest(EVENT_MESSAGES.slugTaken);
    const values = {
      name: body.name,
      description: body.description ?? "",
      imageUrl: body.imageUrl ?? null,
      roomUuid: body.roomUuid ?? null,
      hostUuid: user.uuid,
      startsAt,
      endsAt,
      createdAt: now,
      updatedAt: now,
    };
    // A generated slug may be taken between the check and the insert by a concurrent request: try the next one.
    for (let attempt = 0; ; attempt++) {
      const slug = body.slug ?? (await freeSlugIn(db, schema.events.slug, slugFrom(body.name, "event")));
      try {
        const [created] = await db
          .insert(schema.events)
          .values({ ...values, slug })
          .returning();
        if (!created) throw notFound(EVENT_NOT_FOUND);
        return c.json(eventView(await loadEvent(db, eq(schema.events.id, created.id)), now), 201);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        if (body.slug || attempt >= 3) throw badRequest(EVENT_MESSAGES.slugTaken);
      }
    }
  },
);

eventsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/events/upcoming",
    tags,
    summary: "Events on now or still to come, the soonest first; roomUuid and hostUuid narrow the list (anyone)",
    request: { query: PageQuery.extend(roomQuery.shape) },
    responses: { 200: json(EventPage), ...errors(400) },
  }),
  async (c) => {
    const q = c.req.valid("query");
    const where = and(gt(schema.events.endsAt, c.var.deps.clock.now()), ...listFilter(q));
    return c.json(await page(c, where, [asc(schema.events.startsAt), asc(schema.events.id)], q.limit, q.offset), 200);
  },
);

eventsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/events/slug/{slug}",
    tags,
    summary: "An event by slug (anyone)",
    request: {
      params: z.object({
        slug: z
          .string()
          .min(1)
          .max(100)
          .openapi({ param: { name: "slug", in: "path" } }),
      }),
    },
    responses: { 200: json(EventSchema), ...errors(400, 404) },
  }),
  async (c) => {
    const { db, clock } = c.var.deps;
    const slug = c.req.valid("param").slug.trim().toLowerCase();
    if (!looksLikeSlug(slug)) throw notFound(EVENT_NOT_FOUND);
    return c.json(eventView(await loadEvent(db, eq(schema.events.slug, slug)), clock.now()), 200);
  },
);

eventsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/events/{id}",
    tags,
    summary: "An event (anyone)",
    request: { params: UuidParam },
    responses: { 200: json(EventSchema), ...errors(400, 404) },
  }),
  async (c) => {
    const { db, clock } = c.var.deps;
    return c.json(eventView(await loadEvent(db, eq(schema.events.id, c.req.valid("param").id)), clock.now()), 200);
  },
);

eventsRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/events/{id}",
    tags,
    summary:
      "Change an event (its host, the owners and co-owners of its room, staff); moving it to a room needs moderator or above there",
    security: bearer,
    request: { params: UuidParam, ...jsonBody(EventPatch) },
    responses: { 200: json(EventSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const { db, clock } = c.var.deps;
    const id = c.req.valid("param").id;
    const body = c.req.valid("json");
    const event = await loadEvent(db, eq(schema.events.id, id));
    await requireManager(c, event, user);
    const now = clock.now();
    const set: Partial<typeof schema.events.$inferInsert> = {};
    if (body.name !== undefined) set.name = body.name;
    if (body.description !== undefined) set.description = body.description;
    if (body.imageUrl !== undefined) set.imageUrl = body.imageUrl;
    if (body.startsAt !== undefined || body.endsAt !== undefined) {
      const startsAt = body.startsAt !== undefined ? parseTime(body.startsAt, "startsAt") : event.startsAt;
      const endsAt = body.endsAt !== undefined ? parseTime(body.endsAt, "endsAt") : event.endsAt;
      checkTimes(startsAt, endsAt, now);
      set.startsAt = startsAt;
      set.endsAt = endsAt;
    }
    if (body.roomUuid !== undefined && body.roomUuid !== event.roomUuid) {
      if (body.roomUuid) {
        const room = await loadRoom(db, { uuid: body.roomUuid });
        await requireRoomRank(db, room, user, now, ROOM_RANK.moderator, EVENT_MESSAGES.notRoomModerator);
      }
      set.roomUuid = body.roomUuid;
    }
    if (body.slug !== undefined && body.slug !== event.slug) {
      if (!(await slugIsFree(db, body.slug, id))) throw badRequest(EVENT_MESSAGES.slugTaken);
      set.slug = body.slug;
    }
    try {
      await db
        .update(schema.events)
        .set({ ...set, updatedAt: now })
        .where(eq(schema.events.id, id));
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest(EVENT_MESSAGES.slugTaken);
      throw err;
    }
    return c.json(eventView(await loadEvent(db, eq(schema.events.id, id)), now), 200);
  },
);

eventsRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/events/{id}",
    tags,
    summary: "Cancel an event (its host, the owners and co-owners of its room, staff)",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const { db } = c.var.deps;
    const id = c.req.valid("param").id;
    await requireManager(c, await loadEvent(db, eq(schema.events.id, id)), user);
    await db.delete(schema.events).where(eq(schema.events.id, id));
    return c.body(null, 204);
  },
);
