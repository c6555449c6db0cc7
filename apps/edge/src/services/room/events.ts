import { type Db, schema } from "@booth/db";
import { and, asc, count, desc, eq, gt, ne, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { hasAnyRole, STAFF, type User } from "../../lib/auth.ts";
import { type CrudOptions, type CrudQuery, crudSelectPage, pickFields } from "../../lib/crud/index.ts";
import { isUniqueViolation, uniqueOr } from "../../lib/db-errors.ts";
import { badRequest, forbidden, found, notFound } from "../../lib/errors.ts";
import { pageWhere } from "../../lib/pages.ts";
import { findRoom, loadRoom, ROOM_RANK, requireRoomRank, roomRank } from "./access.ts";
import { freeSlugIn, slugFrom } from "./slugs.ts";

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
export type EventRow = Event & { room: RoomSummary | null };

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

export const eventView = (e: EventRow, now: Date) => ({
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

export async function loadEvent(db: Db, where: SQL) {
  const [row] = await selectEvents(db).where(where).limit(1);
  return toRow(found(row, EVENT_NOT_FOUND));
}
export const loadEventById = (db: Db, id: string) => loadEvent(db, eq(schema.events.id, id));

/** The event with this slug (as a path gives it), or a 404. */
export async function loadEventBySlug(db: Db, slug: string, looksLikeSlug: boolean) {
  if (!looksLikeSlug) throw notFound(EVENT_NOT_FOUND);
  return loadEvent(db, eq(schema.events.slug, slug));
}

/** The host, staff, and the owners and co-owners of the event's room (global moderators rank above them). */
export async function requireManager(db: Db, event: Event, user: User, now: Date) {
  if (event.hostUuid === user.uuid || hasAnyRole(user.roles, STAFF)) return;
  const room = event.roomUuid ? await findRoom(db, { uuid: event.roomUuid }) : null;
  if (room && (await roomRank(db, room, user, now)) >= ROOM_RANK.coOwner) return;
  throw forbidden(EVENT_MESSAGES.mayNotManage);
}

export function parseTime(value: string, field: string) {
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

/** Events in a room must be scheduled by its moderators and up. */
async function checkRoom(db: Db, roomUuid: string, user: User, now: Date) {
  const room = await loadRoom(db, { uuid: roomUuid });
  await requireRoomRank(db, room, user, now, ROOM_RANK.moderator, EVENT_MESSAGES.notRoomModerator);
}

// Lists ------------------------------------------------------------------------------------------------------------

export interface EventFilter {
  roomUuid?: string | undefined;
  hostUuid?: string | undefined;
}
const listFilter = (q: EventFilter) => [
  q.roomUuid ? eq(schema.events.roomUuid, q.roomUuid) : undefined,
  q.hostUuid ? eq(schema.events.hostUuid, q.hostUuid) : undefined,
];

async function page(db: Db, where: SQL | undefined, orderBy: (SQL | PgColumn)[], limit: number, offset: number) {
  const events = selectEvents(db)
    .where(where)
    .orderBy(...orderBy);
  const { rows, total } = await pageWhere(db, schema.events, where, events, { limit, offset });
  return { rows: rows.map(toRow), total };
}

/** Events, the latest start first. */
export const eventPage = (db: Db, q: EventFilter & { limit: number; offset: number }) =>
  page(db, and(...listFilter(q)), [desc(schema.events.startsAt), asc(schema.events.id)], q.limit, q.offset);

/** Events on now or still to come, the soonest first. */
export const upcomingEventPage = (db: Db, q: EventFilter & { limit: number; offset: number }, now: Date) =>
  page(
    db,
    and(gt(schema.events.endsAt, now), ...listFilter(q)),
    [asc(schema.events.startsAt), asc(schema.events.id)],
    q.limit,
    q.offset,
  );

// Changes ----------------------------------------------------------------------------------------------------------

export interface EventInput {
  name: string;
  slug?: string | undefined;
  description?: string | undefined;
  imageUrl?: string | null | undefined;
  roomUuid?: string | null | undefined;
  startsAt: string;
  endsAt: string;
}

/** Schedules an event hosted by `user`; answers its id. */
export async function createEvent(db: Db, user: User, body: EventInput, now: Date) {
  const startsAt = parseTime(body.startsAt, "startsAt");
  const endsAt = parseTime(body.endsAt, "endsAt");
  checkTimes(startsAt, endsAt, now);
  if (body.roomUuid) await checkRoom(db, body.roomUuid, user, now);
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
      return found(created, EVENT_NOT_FOUND).id;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (body.slug || attempt >= 3) throw badRequest(EVENT_MESSAGES.slugTaken);
    }
  }
}

/** Changes an event (its manager: see `requireManager`); moving it to a room needs moderator or above there. */
export async function updateEvent(db: Db, event: EventRow, user: User, body: Partial<EventInput>, now: Date) {
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
    if (body.roomUuid) await checkRoom(db, body.roomUuid, user, now);
    set.roomUuid = body.roomUuid;
  }
  if (body.slug !== undefined && body.slug !== event.slug) {
    if (!(await slugIsFree(db, body.slug, event.id))) throw badRequest(EVENT_MESSAGES.slugTaken);
    set.slug = body.slug;
  }
  await uniqueOr(
    () =>
      db
        .update(schema.events)
        .set({ ...set, updatedAt: now })
        .where(eq(schema.events.id, event.id)),
    () => badRequest(EVENT_MESSAGES.slugTaken),
  );
}

export async function deleteEvent(db: Db, id: string) {
  await db.delete(schema.events).where(eq(schema.events.id, id));
}

// Admin ------------------------------------------------------------------------------------------------------------

export const EVENT_CRUD: CrudOptions = {
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

export function adminEventView(
  e: EventRow,
  selection: { fields: string[] | null; joins: Record<string, string[] | null> },
) {
  const { room, isLive: _, ...view } = eventView(e, e.startsAt);
  const item: Record<string, unknown> = pickFields(view, selection.fields);
  if ("room" in selection.joins) item.room = room && pickFields(room, selection.joins.room ?? null);
  return item;
}

/** A page of events in the nestjsx/crud query syntax. */
export async function adminEventPage(db: Db, query: CrudQuery) {
  const page = await crudSelectPage(query, {
    total: db.select({ n: count() }).from(schema.events).$dynamic(),
    rows: selectEvents(db),
  });
  return { ...page, data: page.data.map(toRow) };
}
