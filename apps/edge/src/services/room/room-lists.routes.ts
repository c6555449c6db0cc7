import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, arrayOverlaps, count, desc, eq, gt, inArray, or, sql } from "drizzle-orm";
import { requireService, requireUser, STAFF } from "../../lib/auth.ts";
import {
  applyCrud,
  CrudQuerySchema,
  CrudSelectionSchema,
  crudList,
  crudPageSchema,
  parseCrudQuery,
  parseSelection,
  pickFields,
} from "../../lib/crud-query.ts";
import { badRequest, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, PageQuery, UuidParam } from "../../lib/openapi.ts";
import { verifyPassword } from "../../lib/password.ts";
import { isUuid, ROOM_NOT_FOUND, RoomSlugParam } from "./access.ts";
import {
  type RoomRow,
  RoomSchema,
  RoomSettingsSchema,
  roomUsersCount,
  roomViews,
  selectRooms,
  settingsView,
} from "./rooms.ts";

/** Lists and single reads of rooms. Mounted before routes with a `/rooms/{slug}` shape so fixed paths win. */
export const roomListsRoutes = createRouter();
const tags = ["Rooms"];

const RoomList = z.array(RoomSchema).openapi("RoomList");
const RoomPage = z.object({ data: RoomList, total: z.number().int() }).openapi("RoomPage");

/** Rooms anyone may find in lists: public and listed. */
const listed = and(eq(schema.rooms.type, "PUBLIC"), eq(schema.rooms.unlisted, false));
const busiestFirst = [desc(roomUsersCount), desc(schema.rooms.createdAt), schema.rooms.uuid] as const;

roomListsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/public",
    tags,
    summary: "Public rooms, the busiest first (anyone)",
    request: { query: PageQuery },
    responses: { 200: json(RoomPage), ...errors(400) },
  }),
  async (c) => {
    const { limit, offset } = c.req.valid("query");
    const { db } = c.var.deps;
    const [rows, [total]] = await Promise.all([
      selectRooms(db)
        .where(listed)
        .orderBy(...busiestFirst)
        .limit(limit)
        .offset(offset),
      db.select({ n: count() }).from(schema.rooms).where(listed),
    ]);
    return c.json({ data: await roomViews(c, rows), total: total?.n ?? 0 }, 200);
  },
);

roomListsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/promoted-rooms",
    tags,
    summary:
      "Promoted rooms; with providers (comma-separated), only those promoted to listeners of one of them (anyone)",
    request: { query: z.object({ providers: z.string().max(500).optional() }) },
    responses: { 200: json(RoomList), ...errors(400) },
  }),
  async (c) => {
    const providers = (c.req.valid("query").providers ?? "")
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean);
    const { db } = c.var.deps;
    const rows = await selectRooms(db)
      .where(
        and(
          eq(schema.rooms.promoted, true),
          eq(schema.rooms.unlisted, false),
          providers.length
            ? or(
                eq(sql`cardinality(${schema.rooms.promotedProviders})`, 0),
                arrayOverlaps(schema.rooms.promotedProviders, providers),
              )
            : undefined,
        ),
      )
      .orderBy(...busiestFirst)
      .limit(100);
    return c.json(await roomViews(c, rows), 200);
  },
);

roomListsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/private-count",
    tags,
    summary: "How many private rooms there are (anyone)",
    responses: { 200: json(z.object({ count: z.number().int() }).openapi("PrivateRoomCount")) },
  }),
  async (c) => {
    const [row] = await c.var.deps.db.select({ n: count() }).from(schema.rooms).where(eq(schema.rooms.type, "PRIVATE"));
    return c.json({ count: row?.n ?? 0 }, 200);
  },
);

roomListsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/uuid/{uuid}",
    tags,
    summary: "A room by uuid (anyone)",
    request: { params: z.object({ uuid: z.uuid().openapi({ param: { name: "uuid", in: "path" } }) }) },
    responses: { 200: json(RoomSchema), ...errors(400, 404) },
  }),
  async (c) => {
    const [row] = await selectRooms(c.var.deps.db).where(eq(schema.rooms.uuid, c.req.valid("param").uuid));
    if (!row) throw notFound(ROOM_NOT_FOUND);
    return c.json((await roomViews(c, [row]))[0], 200);
  },
);

roomListsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/multiple/list",
    tags,
    summary:
      "Several rooms by uuid: `room` repeated or comma-separated, at most 100 (anyone); unknown ones are left out",
    request: {
      query: z.object({
        room: z.union([z.string().max(4000), z.array(z.string().max(100)).max(100)]).optional(),
      }),
    },
    responses: { 200: json(RoomList), ...errors(400) },
  }),
  async (c) => {
    const raw = c.req.valid("query").room ?? [];
    const ids = [
      ...new Set((Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(",")).map((s) => s.trim())),
    ].filter(Boolean);
    const bad = ids.filter((id) => !isUuid(id));
    if (bad.length) throw badRequest(bad.map((id) => `room: ${id} is not a uuid`));
    if (ids.length > 100) throw badRequest("room: at most 100 rooms at once");
    if (!ids.length) return c.json([], 200);
    const rows = await selectRooms(c.var.deps.db).where(inArray(schema.rooms.uuid, ids));
    return c.json(await roomViews(c, rows), 200);
  },
);

roomListsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/mine/list",
    tags,
    summary: "Rooms the caller runs: owns, co-owns or moderates (signed in)",
    security: bearer,
    responses: { 200: json(RoomList), ...errors(401) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const { db, clock } = c.var.deps;
    const staffed = db
      .select({ roomUuid: schema.roomUserRoles.roomUuid })
      .from(schema.roomUserRoles)
      .where(
        and(
          eq(schema.roomUserRoles.userUuid, user.uuid),
          inArray(schema.roomUserRoles.role, ["owner", "coOwner", "moderator"]),
          or(sql`${schema.roomUserRoles.expirationTime} is null`, gt(schema.roomUserRoles.expirationTime, clock.now())),
        ),
      );
    const rows = await selectRooms(db)
      .where(or(eq(schema.rooms.ownerUuid, user.uuid), inArray(schema.rooms.uuid, staffed)))
      .orderBy(desc(schema.rooms.updatedAt))
      .limit(500);
    return c.json(await roomViews(c, rows), 200);
  },
);

roomListsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/owned-rooms/list",
    tags,
    summary: "Rooms the caller owns (signed in)",
    security: bearer,
    responses: { 200: json(RoomList), ...errors(401) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const rows = await selectRooms(c.var.deps.db)
      .where(eq(schema.rooms.ownerUuid, user.uuid))
      .orderBy(desc(schema.rooms.createdAt));
    return c.json(await roomViews(c, rows), 200);
  },
);

roomListsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/rooms/list",
    tags,
    summary:
      "Rooms by uuid or slug with the passwords the caller knows: protected rooms come back only with the right one (anyone)",
    request: jsonBody(
      z
        .object({
          rooms: z
            .array(
              z.object({ room: z.string().trim().min(1).max(100), password: z.string().max(128).optional() }).strict(),
            )
            .min(1)
            .max(50),
        })
        .strict(),
    ),
    responses: { 200: json(RoomList), ...errors(400) },
  }),
  async (c) => {
    const { db } = c.var.deps;
    const wanted = c.req.valid("json").rooms;
    const uuids = wanted.filter((w) => isUuid(w.room)).map((w) => w.room.toLowerCase());
    const slugs = wanted.filter((w) => !isUuid(w.room)).map((w) => w.room.toLowerCase());
    const rows = await selectRooms(db).where(
      or(
        uuids.length ? inArray(schema.rooms.uuid, uuids) : undefined,
        slugs.length ? inArray(schema.rooms.slug, slugs) : undefined,
      ),
    );
    const admitted: RoomRow[] = [];
    for (const row of rows) {
      const ask = wanted.find((w) => w.room.toLowerCase() === row.uuid || w.room.toLowerCase() === row.slug);
      if (!row.passwordHash || (await verifyPassword(ask?.password ?? "", row.passwordHash))) admitted.push(row);
    }
    return c.json(await roomViews(c, admitted), 200);
  },
);

roomListsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/favorites",
    tags,
    summary:
      "A user's favourite rooms (the caller's by default); private ones only to the user themselves with includePrivate",
    security: bearer,
    request: {
      query: z.object({
        userUuid: z.uuid().optional(),
        includePrivate: z.enum(["true", "false"]).optional(),
      }),
    },
    responses: { 200: json(RoomList), ...errors(400, 401) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const query = c.req.valid("query");
    const owner = query.userUuid ?? user.uuid;
    const withPrivate = query.includePrivate === "true" && owner === user.uuid;
    const { db } = c.var.deps;
    const rows = await selectRooms(db)
      .innerJoin(schema.roomFavorites, eq(schema.roomFavorites.roomUuid, schema.rooms.uuid))
      .where(and(eq(schema.roomFavorites.userUuid, owner), withPrivate ? undefined : listed))
      .orderBy(desc(schema.roomFavorites.createdAt))
      .limit(500);
    return c.json(await roomViews(c, rows), 200);
  },
);

roomListsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/rooms/recent",
    tags,
    summary: "Remember that the caller visited a room (signed in); joining a room does it too",
    security: bearer,
    request: jsonBody(z.object({ roomUuid: z.uuid() }).strict()),
    responses: {
      201: json(z.object({ roomUuid: z.uuid(), visitedAt: z.string() }).openapi("RoomVisit")),
      ...errors(400, 401, 404),
    },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const { db, clock } = c.var.deps;
    const { roomUuid } = c.req.valid("json");
    const [room] = await db
      .select({ uuid: schema.rooms.uuid })
      .from(schema.rooms)
      .where(eq(schema.rooms.uuid, roomUuid));
    if (!room) throw notFound(ROOM_NOT_FOUND);
    const visitedAt = await recordVisit(db, user.uuid, roomUuid, clock.now());
    return c.json({ roomUuid, visitedAt: visitedAt.toISOString() }, 201);
  },
);

export async function recordVisit(
  db: Parameters<typeof selectRooms>[0],
  userUuid: string,
  roomUuid: string,
  now: Date,
) {
  await db
    .insert(schema.roomVisits)
    .values({ userUuid, roomUuid, visitedAt: now })
    .onConflictDoUpdate({ target: [schema.roomVisits.userUuid, schema.roomVisits.roomUuid], set: { visitedAt: now } });
  return now;
}

roomListsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/recent",
    tags,
    summary: "The rooms the caller visited, the latest first (signed in)",
    security: bearer,
    request: { query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }) },
    responses: { 200: json(RoomList), ...errors(400, 401) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const rows = await selectRooms(c.var.deps.db)
      .innerJoin(schema.roomVisits, eq(schema.roomVisits.roomUuid, schema.rooms.uuid))
      .where(eq(schema.roomVisits.userUuid, user.uuid))
      .orderBy(desc(schema.roomVisits.visitedAt))
      .limit(c.req.valid("query").limit);
    return c.json(await roomViews(c, rows), 200);
  },
);

roomListsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/rockset/recently-visited-rooms",
    tags,
    summary: "Public rooms visited by the most people in the last 24 hours (anyone)",
    request: { query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }) },
    responses: { 200: json(RoomList), ...errors(400) },
  }),
  async (c) => {
    const { db, clock } = c.var.deps;
    const since = new Date(clock.now().getTime() - 24 * 3600 * 1000);
    const visitors = sql<number>`(select count(*)::int from ${schema.roomVisits} where ${schema.roomVisits.roomUuid} = ${schema.rooms.uuid} and ${schema.roomVisits.visitedAt} > ${since.toISOString()}::timestamptz)`;
    const rows = await selectRooms(db)
      .where(and(listed, sql`${visitors} > 0`))
      .orderBy(desc(visitors), desc(schema.rooms.createdAt), schema.rooms.uuid)
      .limit(c.req.valid("query").limit);
    return c.json(await roomViews(c, rows), 200);
  },
);

roomListsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/discord/list/{guild}",
    tags: ["Discord"],
    summary: "The rooms of a Discord guild (anyone)",
    request: { params: z.object({ guild: z.string().regex(/^\d{5,25}$/, "guild: a Discord guild id") }) },
    responses: { 200: json(RoomList), ...errors(400) },
  }),
  async (c) => {
    const rows = await selectRooms(c.var.deps.db)
      .where(eq(schema.rooms.discordGuildId, c.req.valid("param").guild))
      .orderBy(desc(schema.rooms.createdAt));
    return c.json(await roomViews(c, rows), 200);
  },
);

// Services and admins ----------------------------------------------------------------------------------------------

roomListsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/service/list",
    tags: ["Service"],
    summary: "Every room, oldest first, with take/skip (services)",
    security: bearer,
    request: {
      query: z.object({
        take: z.coerce.number().int().min(1).max(1000).default(100),
        skip: z.coerce.number().int().min(0).default(0),
      }),
    },
    responses: { 200: json(RoomPage), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireService(c);
    const { take, skip } = c.req.valid("query");
    const { db } = c.var.deps;
    const [rows, [total]] = await Promise.all([
      selectRooms(db).orderBy(schema.rooms.createdAt, schema.rooms.uuid).limit(take).offset(skip),
      db.select({ n: count() }).from(schema.rooms),
    ]);
    return c.json({ data: await roomViews(c, rows), total: total?.n ?? 0 }, 200);
  },
);

roomListsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/service/room/{id}",
    tags: ["Service"],
    summary: "A room's full settings with every role in force, as the live room needs them (services)",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(RoomSettingsSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const { db, clock } = c.var.deps;
    const [row] = await selectRooms(db).where(eq(schema.rooms.uuid, c.req.valid("param").id));
    if (!row) throw notFound(ROOM_NOT_FOUND);
    return c.json(await settingsView(db, row, clock.now()), 200);
  },
);

const ADMIN_ROOM_CRUD = {
  fields: {
    uuid: schema.rooms.uuid,
    slug: schema.rooms.slug,
    name: schema.rooms.name,
    type: schema.rooms.type,
    unlisted: schema.rooms.unlisted,
    djType: schema.rooms.djType,
    numberOfDjs: schema.rooms.numberOfDjs,
    roomSize: schema.rooms.roomSize,
    promoted: schema.rooms.promoted,
    design: schema.rooms.design,
    isLive: schema.rooms.isLive,
    ownerUuid: schema.rooms.ownerUuid,
    discordGuildId: schema.rooms.discordGuildId,
    createdAt: schema.rooms.createdAt,
    updatedAt: schema.rooms.updatedAt,
  },
  primaryKey: "uuid",
  defaultSort: [{ field: "createdAt", order: "DESC" }],
} as const;

roomListsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/rooms",
    tags: ["Admin"],
    summary: "Every room, in the nestjsx/crud query syntax (staff)",
    security: bearer,
    request: { query: CrudQuerySchema },
    responses: { 200: json(crudPageSchema(RoomSchema.partial()).openapi("AdminRoomPage")), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const query = parseCrudQuery(c.req.valid("query"), ADMIN_ROOM_CRUD);
    const { db } = c.var.deps;
    const page = await crudList(query, {
      total: async (where) => {
        const [row] = await db.select({ n: count() }).from(schema.rooms).where(where);
        return row?.n ?? 0;
      },
      rows: (q) => applyCrud(selectRooms(db), q),
    });
    const views = await roomViews(c, page.data);
    return c.json({ ...page, data: views.map((v) => pickFields(v, query.fields)) }, 200);
  },
);

roomListsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/rooms/{id}",
    tags: ["Admin"],
    summary: "One room with its roles (staff)",
    security: bearer,
    request: { params: UuidParam, query: CrudSelectionSchema },
    responses: { 200: json(RoomSettingsSchema.partial()), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const selection = parseSelection(c.req.valid("query"), ADMIN_ROOM_CRUD);
    const { db, clock } = c.var.deps;
    const [row] = await selectRooms(db).where(eq(schema.rooms.uuid, c.req.valid("param").id));
    if (!row) throw notFound(ROOM_NOT_FOUND);
    return c.json(pickFields(await settingsView(db, row, clock.now()), selection.fields), 200);
  },
);

// Last: `/rooms/{slug}` would otherwise answer for the fixed paths above.
roomListsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/rooms/{slug}",
    tags,
    summary: "A room by slug (or uuid) (anyone)",
    request: { params: RoomSlugParam },
    responses: { 200: json(RoomSchema), ...errors(400, 404) },
  }),
  async (c) => {
    const key = c.req.valid("param").slug.toLowerCase();
    const [row] = await selectRooms(c.var.deps.db).where(
      isUuid(key) ? eq(schema.rooms.uuid, key) : eq(schema.rooms.slug, key),
    );
    if (!row) throw notFound(ROOM_NOT_FOUND);
    return c.json((await roomViews(c, [row]))[0], 200);
  },
);
