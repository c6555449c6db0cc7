import { type Db, schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, asc, count, desc, eq, exists, getTableColumns, inArray, ne, or, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Context } from "hono";
import { ADMINS, hasAnyRole, highestRank, ROLE_RANK, requireUser, STAFF, type User } from "../../lib/auth.ts";
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
import { findRoom, ROOM_NOT_FOUND, ROOM_RANK, type Room, roleInForce, roomRank } from "./access.ts";
import { RoomSchema, roomUsersCount, roomViews, SLUG_PATTERN, selectRooms } from "./rooms.ts";

export const communitiesRoutes = createRouter();
const tags = ["Communities"];
const adminTags = ["Admin"];

export const COMMUNITY_NOT_FOUND = "Community not found.";
export const USER_NOT_FOUND = "User not found.";
export const COMMUNITY_MESSAGES = {
  slugTaken: "This community slug is already taken.",
  notAdmin: "Only this community's admins may do that.",
  notRoomOwner: "Only the room's owner or co-owners may add it to a community.",
  privateCommunity: "Only this community's admins may add rooms to a private community.",
  mayNotRemoveRoom: "Only this community's admins or the room's owner or co-owners may take it out.",
  roomNotInCommunity: "This room is not in this community.",
  userNotMember: "This user is not a member of this community.",
  emptyChange: "Give roomUuids or userUuids.",
} as const;

// Slugs and callers, shared with events ----------------------------------------------------------------------------

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const looksLikeUuid = (key: string) => UUID_SHAPE.test(key);
/** What a slug in a path may look like; anything else names nothing (and never reaches the database). */
export const looksLikeSlug = (key: string) => /^[a-z0-9-]{1,100}$/i.test(key);

/** Trimmed text the database can store (Postgres text refuses NUL characters). */
export const plainText = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((s) => !s.includes("\u0000"), "must not contain NUL characters");

/** A slug given by a client: lower-case words joined by dashes, never shaped like a uuid (paths take either). */
export const SlugInput = z
  .string()
  .trim()
  .toLowerCase()
  .min(2)
  .max(60)
  .regex(SLUG_PATTERN, "slug: lower-case words joined by dashes")
  .refine((s) => !looksLikeUuid(s), "slug: must not look like a uuid");

/** A slug from a name: lower-case words joined by dashes, `fallback` when the name has no letters or digits. */
export function slugFrom(name: string, fallback: string) {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50)
    .replace(/-+$/, "");
  return slug.length >= 2 && !looksLikeUuid(slug) ? slug : fallback;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** `wanted`, or `wanted-2`, `wanted-3`... whichever no row holds in `column` (a unique slug column). */
export async function freeSlugIn(db: Db, column: PgColumn, wanted: string) {
  const rows = await db
    .select({ slug: column })
    .from(column.table)
    .where(or(eq(column, wanted), sql`${column} like ${`${escapeLike(wanted)}-%`}`));
  const used = new Set(rows.map((r) => r.slug as string));
  if (!used.has(wanted)) return wanted;
  for (let n = 2; ; n++) if (!used.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
}

/** The signed-in caller when there is one (user or bot token); reads stay open to everyone else. */
export async function callerIfAny(c: Context<AppEnv>): Promise<User | null> {
  const type = c.var.auth?.type;
  if (type !== "user" && type !== "bot") return null;
  return (await requireUser(c, { types: ["user", "bot"] })).user;
}

/** A path key naming a room: its uuid or its slug. */
export const findRoomByKey = async (db: Db, key: string) =>
  looksLikeUuid(key) ? findRoom(db, { uuid: key }) : looksLikeSlug(key) ? findRoom(db, { slug: key }) : null;

const iso = (d: Date) => d.toISOString();

// Communities ----------------------------------------------------------------------------------------------------

type Community = typeof schema.communities.$inferSelect;

const memberCount = sql<number>`(select count(*)::int from ${schema.communityMembers} where ${schema.communityMembers.communityId} = ${schema.communities.id})`;
const roomCount = sql<number>`(select count(*)::int from ${schema.communityRooms} where ${schema.communityRooms.communityId} = ${schema.communities.id})`;
const joinedBy = (userUuid: string | undefined) =>
  userUuid
    ? sql<boolean>`exists (select 1 from ${schema.communityMembers} where ${schema.communityMembers.communityId} = ${schema.communities.id} and ${schema.communityMembers.userUuid} = ${userUuid})`
    : sql<boolean>`false`;

const selectCommunities = (db: Db, viewerUuid?: string) =>
  db
    .select({ ...getTableColumns(schema.communities), memberCount, roomCount, joined: joinedBy(viewerUuid) })
    .from(schema.communities)
    .$dynamic();
type CommunityRow = Community & { memberCount: number; roomCount: number; joined: boolean };

const communityView = (row: CommunityRow) => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  description: row.description,
  imageUrl: row.imageUrl,
  isPublic: row.isPublic,
  createdBy: row.createdBy,
  memberCount: row.memberCount,
  roomCount: row.roomCount,
  joined: row.joined,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

const CommunityFields = {
  id: z.uuid(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  imageUrl: z.string().nullable(),
  isPublic: z.boolean(),
  createdBy: z.uuid().nullable().openapi({ description: "The community's admin (with staff)" }),
  memberCount: z.number().int(),
  roomCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
};
const CommunitySchema = z
  .object({ ...CommunityFields, joined: z.boolean().openapi({ description: "Whether the caller is a member" }) })
  .openapi("Community");
const CommunityPage = z.object({ data: z.array(CommunitySchema), total: z.number().int() }).openapi("CommunityPage");
const AdminCommunitySchema = z.object(CommunityFields).partial().openapi("AdminCommunity");

const isCommunityAdmin = (community: Community, user: User | null) =>
  !!user && (community.createdBy === user.uuid || hasStaffRole(user));
const hasStaffRole = (user: User) => hasAnyRole(user.roles, STAFF);

/** Public communities are open to all; private ones only to their members and admins (others get a 404). */
const visibleTo = (row: CommunityRow, user: User | null) => row.isPublic || row.joined || isCommunityAdmin(row, user);

async function loadCommunity(c: Context<AppEnv>, key: string, user: User | null) {
  if (!looksLikeUuid(key) && !looksLikeSlug(key)) throw notFound(COMMUNITY_NOT_FOUND);
  const where = looksLikeUuid(key)
    ? eq(schema.communities.id, key)
    : eq(schema.communities.slug, key.trim().toLowerCase());
  const [row] = await selectCommunities(c.var.deps.db, user?.uuid).where(where).limit(1);
  if (!row || !visibleTo(row, user)) throw notFound(COMMUNITY_NOT_FOUND);
  return row;
}

async function reloadCommunity(db: Db, id: string, user: User | null) {
  const [row] = await selectCommunities(db, user?.uuid).where(eq(schema.communities.id, id)).limit(1);
  if (!row) throw notFound(COMMUNITY_NOT_FOUND);
  return row;
}

const CommunityKeyParam = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: "id", in: "path", description: "The community's id or slug" } }),
});
const roomKey = z
  .string()
  .min(1)
  .max(100)
  .openapi({ param: { name: "roomId", in: "path", description: "The room's uuid or slug" } });
const CommunityRoomParams = CommunityKeyParam.extend({ roomId: roomKey });
const CommunityUserParams = CommunityKeyParam.extend({
  userId: z.uuid().openapi({ param: { name: "userId", in: "path" } }),
});

/** Rooms a caller may see in a community's list: listed public ones, and those they help run (staff: all). */
function roomsVisibleTo(user: User | null, now: Date): SQL | undefined {
  const listed = and(eq(schema.rooms.type, "PUBLIC"), eq(schema.rooms.unlisted, false));
  if (!user) return listed;
  if (highestRank(user.roles) >= ROLE_RANK.globalModerator) return undefined;
  const r = schema.roomUserRoles;
  return or(
    listed,
    eq(schema.rooms.ownerUuid, user.uuid),
    exists(
      sql`(select 1 from ${r} where ${r.roomUuid} = ${schema.rooms.uuid} and ${r.userUuid} = ${user.uuid} and ${inArray(r.role, ["owner", "coOwner", "moderator"])} and ${roleInForce(now) ?? sql`true`})`,
    ),
  );
}

/** May `user` put `room` into the community? Its owner or co-owners may, into public ones or ones they run. */
async function checkRoomAddition(db: Db, community: CommunityRow, room: Room, user: User, now: Date) {
  if ((await roomRank(db, room, user, now)) < ROOM_RANK.coOwner) throw forbidden(COMMUNITY_MESSAGES.notRoomOwner);
  if (!community.isPublic && !isCommunityAdmin(community, user)) throw forbidden(COMMUNITY_MESSAGES.privateCommunity);
}

async function checkRoomRemoval(db: Db, community: CommunityRow, room: Room, user: User, now: Date) {
  if (isCommunityAdmin(community, user)) return;
  if ((await roomRank(db, room, user, now)) < ROOM_RANK.coOwner) throw forbidden(COMMUNITY_MESSAGES.mayNotRemoveRoom);
}

async function loadRoomByKey(db: Db, key: string) {
  const room = await findRoomByKey(db, key);
  if (!room) throw notFound(ROOM_NOT_FOUND);
  return room;
}

async function requireActiveUsers(db: Db, uuids: string[]) {
  if (!uuids.length) return;
  const rows = await db
    .select({ uuid: schema.users.uuid, deactivatedAt: schema.users.deactivatedAt })
    .from(schema.users)
    .where(inArray(schema.users.uuid, uuids));
  const active = new Set(rows.filter((r) => !r.deactivatedAt).map((r) => r.uuid));
  if (uuids.some((u) => !active.has(u))) throw notFound(USER_NOT_FOUND);
}

const MembershipSchema = z
  .object({ communityId: z.uuid(), userUuid: z.uuid(), joinedAt: z.string() })
  .openapi("CommunityMembership");
const CommunityRoomSchema = z
  .object({ communityId: z.uuid(), roomUuid: z.uuid(), addedAt: z.string() })
  .openapi("CommunityRoom");

// Admin: nestjsx/crud style ---------------------------------------------------------------------------------------

const COMMUNITY_CRUD: CrudOptions = {
  fields: {
    id: schema.communities.id,
    slug: schema.communities.slug,
    name: schema.communities.name,
    description: schema.communities.description,
    imageUrl: schema.communities.imageUrl,
    isPublic: schema.communities.isPublic,
    createdBy: schema.communities.createdBy,
    createdAt: schema.communities.createdAt,
    updatedAt: schema.communities.updatedAt,
    memberCount: { column: memberCount, type: "integer" },
    roomCount: { column: roomCount, type: "integer" },
  },
  primaryKey: "id",
  defaultSort: [{ field: "createdAt", order: "DESC" }],
};

const adminView = (row: CommunityRow, fields: string[] | null) => {
  const { joined: _, ...view } = communityView(row);
  return pickFields(view, fields);
};

const imageUrl = z
  .url({ protocol: /^https?$/, error: "imageUrl: an http(s) URL" })
  .max(2000)
  .nullable();
const CommunityInput = z
  .object({
    name: plainText(2, 80),
    slug: SlugInput.optional().openapi({ description: "Made from the name when not given" }),
    description: plainText(0, 2000).optional(),
    imageUrl: imageUrl.optional(),
    isPublic: z.boolean().optional(),
    createdBy: z.uuid().nullable().optional().openapi({ description: "The user who runs it (its community admin)" }),
  })
  .strict()
  .openapi("CommunityInput");
type CommunityInput = z.infer<typeof CommunityInput>;
const CommunityPatch = CommunityInput.partial().openapi("CommunityPatch");

/** The rows to insert for new communities: slugs free among existing ones and among each other. */
async function newCommunityRows(db: Db, inputs: CommunityInput[], by: User, now: Date) {
  await requireActiveUsers(db, [...new Set(inputs.map((i) => i.createdBy).filter((u): u is string => !!u))]);
  const taken = new Set<string>();
  const rows: (typeof schema.communities.$inferInsert)[] = [];
  for (const input of inputs) {
    let slug: string;
    if (input.slug) {
      if (taken.has(input.slug) || (await freeSlugIn(db, schema.communities.slug, input.slug)) !== input.slug)
        throw badRequest(COMMUNITY_MESSAGES.slugTaken);
      slug = input.slug;
    } else {
      const base = slugFrom(input.name, "community");
      slug = await freeSlugIn(db, schema.communities.slug, base);
      for (let n = 2; taken.has(slug); n++) slug = await freeSlugIn(db, schema.communities.slug, `${base}-${n}`);
    }
    taken.add(slug);
    rows.push({
      slug,
      name: input.name,
      description: input.description ?? "",
      imageUrl: input.imageUrl ?? null,
      isPublic: input.isPublic ?? true,
      createdBy: input.createdBy === undefined ? by.uuid : input.createdBy,
      createdAt: now,
      updatedAt: now,
    });
  }
  return rows;
}

async function insertCommunities(db: Db, rows: (typeof schema.communities.$inferInsert)[]) {
  try {
    return await db.transaction((tx) => tx.insert(schema.communities).values(rows).returning());
  } catch (err) {
    // Two requests raced for one slug.
    if (isUniqueViolation(err)) throw badRequest(COMMUNITY_MESSAGES.slugTaken);
    throw err;
  }
}

communitiesRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/communities",
    tags: adminTags,
    summary: "Communities, in the nestjsx/crud query syntax (staff and above)",
    security: bearer,
    request: { query: CrudQuerySchema },
    responses: {
      200: json(crudPageSchema(AdminCommunitySchema).openapi("AdminCommunityPage")),
      ...errors(400, 401, 403),
    },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const query = parseCrudQuery(c.req.valid("query"), COMMUNITY_CRUD);
    const { db } = c.var.deps;
    const page = await crudList(query, {
      total: async (where) => {
        const [row] = await db.select({ n: count() }).from(schema.communities).where(where);
        return row?.n ?? 0;
      },
      rows: (q) => applyCrud(selectCommunities(db), q),
    });
    return c.json({ ...page, data: page.data.map((row) => adminView(row, query.fields)) }, 200);
  },
);

communitiesRoutes.openapi(
  createRoute({
    method: "post",
    path: "/admin/communities",
    tags: adminTags,
    summary: "Create a community (admins); createdBy (default: the caller) becomes its admin",
    security: bearer,
    request: jsonBody(CommunityInput),
    responses: { 201: json(AdminCommunitySchema, "Created"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { roles: ADMINS });
    const { db, clock } = c.var.deps;
    const [created] = await insertCommunities(db, await newCommunityRows(db, [c.req.valid("json")], user, clock.now()));
    if (!created) throw notFound(COMMUNITY_NOT_FOUND);
    return c.json(adminView(await reloadCommunity(db, created.id, null), null), 201);
  },
);

communitiesRoutes.openapi(
  createRoute({
    method: "post",
    path: "/admin/communities/bulk",
    tags: adminTags,
    summary: "Create several communities at once, all or none (admins)",
    security: bearer,
    request: jsonBody(z.object({ bulk: z.array(CommunityInput).min(1).max(100) }).strict()),
    responses: { 201: json(z.array(AdminCommunitySchema), "Created"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { roles: ADMINS });
    const { db, clock } = c.var.deps;
    const created = await insertCommunities(
      db,
      await newCommunityRows(db, c.req.valid("json").bulk, user, clock.now()),
    );
    const rows = await selectCommunities(db)
      .where(
        inArray(
          schema.communities.id,
          created.map((r) => r.id),
        ),
      )
      .orderBy(asc(schema.communities.createdAt));
    const order = new Map(created.map((r, i) => [r.id, i]));
    rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    return c.json(
      rows.map((r) => adminView(r, null)),
      201,
    );
  },
);

communitiesRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/communities/{id}",
    tags: adminTags,
    summary: "One community, with the same fields option (staff and above)",
    security: bearer,
    request: { params: UuidParam, query: CrudSelectionSchema },
    responses: { 200: json(AdminCommunitySchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const { fields } = parseSelection(c.req.valid("query"), COMMUNITY_CRUD);
    return c.json(adminView(await reloadCommunity(c.var.deps.db, c.req.valid("param").id, null), fields), 200);
  },
);

async function updateCommunity(c: Context<AppEnv>, id: string, input: Partial<CommunityInput>) {
  const { db, clock } = c.var.deps;
  const [current] = await db.select().from(schema.communities).where(eq(schema.communities.id, id));
  if (!current) throw notFound(COMMUNITY_NOT_FOUND);
  if (input.createdBy) await requireActiveUsers(db, [input.createdBy]);
  if (input.slug !== undefined && input.slug !== current.slug) {
    const [clash] = await db
      .select({ id: schema.communities.id })
      .from(schema.communities)
      .where(and(eq(schema.communities.slug, input.slug), ne(schema.communities.id, id)));
    if (clash) throw badRequest(COMMUNITY_MESSAGES.slugTaken);
  }
  try {
    await db
      .update(schema.communities)
      .set({ ...input, updatedAt: clock.now() })
      .where(eq(schema.communities.id, id));
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest(COMMUNITY_MESSAGES.slugTaken);
    throw err;
  }
  return c.json(adminView(await reloadCommunity(db, id, null), null), 200);
}

communitiesRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/admin/communities/{id}",
    tags: adminTags,
    summary: "Change some of a community's fields (admins)",
    security: bearer,
    request: { params: UuidParam, ...jsonBody(CommunityPatch) },
    responses: { 200: json(AdminCommunitySchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    return updateCommunity(c, c.req.valid("param").id, c.req.valid("json"));
  },
);

communitiesRoutes.openapi(
  createRoute({
    method: "put",
    path: "/admin/communities/{id}",
    tags: adminTags,
    summary:
      "Replace a community (admins): the body is checked as on creation and laid over the stored community, as nestjsx/crud does",
    security: bearer,
    request: { params: UuidParam, ...jsonBody(CommunityInput) },
    responses: { 200: json(AdminCommunitySchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    return updateCommunity(c, c.req.valid("param").id, c.req.valid("json"));
  },
);

communitiesRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/admin/communities/{id}",
    tags: adminTags,
    summary: "Delete a community with its memberships and room list (admins); the rooms stay",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const deleted = await c.var.deps.db
      .delete(schema.communities)
      .where(eq(schema.communities.id, c.req.valid("param").id))
      .returning({ id: schema.communities.id });
    if (!deleted.length) throw notFound(COMMUNITY_NOT_FOUND);
    return c.body(null, 204);
  },
);

// Lists of communities -------------------------------------------------------------------------------------------

communitiesRoutes.openapi(
  createRoute({
    method: "get",
    path: "/user-communities",
    tags,
    summary: "The communities the caller belongs to or runs, the latest joined first (signed in, bots too)",
    security: bearer,
    request: { query: PageQuery },
    responses: { 200: json(CommunityPage), ...errors(400, 401, 403) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const { limit, offset } = c.req.valid("query");
    const { db } = c.var.deps;
    const m = schema.communityMembers;
    const mine = or(
      eq(schema.communities.createdBy, user.uuid),
      exists(
        sql`(select 1 from ${m} where ${m.communityId} = ${schema.communities.id} and ${m.userUuid} = ${user.uuid})`,
      ),
    );
    const joinedAt = sql`(select ${m.joinedAt} from ${m} where ${m.communityId} = ${schema.communities.id} and ${m.userUuid} = ${user.uuid})`;
    const [rows, [total]] = await Promise.all([
      selectCommunities(db, user.uuid)
        .where(mine)
        .orderBy(sql`${joinedAt} desc nulls last`, desc(schema.communities.createdAt), schema.communities.id)
        .limit(limit)
        .offset(offset),
      db.select({ n: count() }).from(schema.communities).where(mine),
    ]);
    return c.json({ data: rows.map(communityView), total: total?.n ?? 0 }, 200);
  },
);

communitiesRoutes.openapi(
  createRoute({
    method: "get",
    path: "/room-communities/{roomId}",
    tags,
    summary: "The communities a room is in (anyone; private communities only to their members and admins)",
    request: { params: z.object({ roomId: roomKey }) },
    responses: { 200: json(z.array(CommunitySchema).openapi("CommunityList")), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const user = await callerIfAny(c);
    const { db } = c.var.deps;
    const room = await loadRoomByKey(db, c.req.valid("param").roomId);
    const rows = await selectCommunities(db, user?.uuid)
      .where(
        inArray(
          schema.communities.id,
          db
            .select({ id: schema.communityRooms.communityId })
            .from(schema.communityRooms)
            .where(eq(schema.communityRooms.roomUuid, room.uuid)),
        ),
      )
      .orderBy(asc(schema.communities.name), schema.communities.id);
    return c.json(rows.filter((r) => visibleTo(r, user)).map(communityView), 200);
  },
);

// One community ----------------------------------------------------------------------------------------------------

communitiesRoutes.openapi(
  createRoute({
    method: "get",
    path: "/communities/{id}",
    tags,
    summary: "A community by id or slug (anyone; a private one only to its members and admins)",
    request: { params: CommunityKeyParam },
    responses: { 200: json(CommunitySchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const user = await callerIfAny(c);
    return c.json(communityView(await loadCommunity(c, c.req.valid("param").id, user)), 200);
  },
);

const MemberSchema = z
  .object({
    userUuid: z.uuid(),
    nickname: z.string().nullable(),
    avatarId: z.string().nullable(),
    profilePicture: z.string().nullable(),
    joinedAt: z.string(),
  })
  .openapi("CommunityMember");

communitiesRoutes.openapi(
  createRoute({
    method: "get",
    path: "/communities/{id}/users",
    tags,
    summary: "A community's members, the earliest first (as the community: anyone, or its members and admins)",
    request: { params: CommunityKeyParam, query: PageQuery },
    responses: {
      200: json(z.object({ data: z.array(MemberSchema), total: z.number().int() }).openapi("CommunityMemberPage")),
      ...errors(400, 401, 403, 404),
    },
  }),
  async (c) => {
    const user = await callerIfAny(c);
    const community = await loadCommunity(c, c.req.valid("param").id, user);
    const { limit, offset } = c.req.valid("query");
    const m = schema.communityMembers;
    const rows = await c.var.deps.db
      .select({
        userUuid: m.userUuid,
        nickname: schema.profiles.nickname,
        avatarId: schema.profiles.avatarId,
        profilePicture: schema.profiles.profilePicture,
        joinedAt: m.joinedAt,
      })
      .from(m)
      .leftJoin(schema.profiles, eq(schema.profiles.userUuid, m.userUuid))
      .where(eq(m.communityId, community.id))
      .orderBy(asc(m.joinedAt), m.userUuid)
      .limit(limit)
      .offset(offset);
    return c.json(
      {
        data: rows.map((r) => ({ ...r, joinedAt: iso(r.joinedAt) })),
        total: community.memberCount,
      },
      200,
    );
  },
);

communitiesRoutes.openapi(
  createRoute({
    method: "post",
    path: "/communities/{id}/join",
    tags,
    summary: "Join a public community (signed in, bots too); joining again changes nothing",
    security: bearer,
    request: { params: CommunityKeyParam },
    responses: { 200: json(CommunitySchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const community = await loadCommunity(c, c.req.valid("param").id, user);
    // A private community is seen only by its members and admins: members are in already, admins may add themselves.
    const { db, clock } = c.var.deps;
    await db
      .insert(schema.communityMembers)
      .values({ communityId: community.id, userUuid: user.uuid, joinedAt: clock.now() })
      .onConflictDoNothing();
    return c.json(communityView(await reloadCommunity(db, community.id, user)), 200);
  },
);

communitiesRoutes.openapi(
  createRoute({
    method: "post",
    path: "/communities/{id}/leave",
    tags,
    summary: "Leave a community (signed in, bots too); leaving one the caller is not in changes nothing",
    security: bearer,
    request: { params: CommunityKeyParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const community = await loadCommunity(c, c.req.valid("param").id, user);
    await c.var.deps.db
      .delete(schema.communityMembers)
      .where(
        and(eq(schema.communityMembers.communityId, community.id), eq(schema.communityMembers.userUuid, user.uuid)),
      );
    return c.body(null, 204);
  },
);

const ChangeBody = z
  .object({
    roomUuids: z.array(z.uuid()).max(100).optional(),
    userUuids: z.array(z.uuid()).max(100).optional(),
  })
  .strict()
  .openapi("CommunityChange");

/**
 * Checks every room and user of an /add or /remove before anything changes: users only by the community's admins
 * (anyone may name themselves), rooms as the single routes allow.
 */
async function checkChange(
  c: Context<AppEnv>,
  community: CommunityRow,
  user: User,
  body: z.infer<typeof ChangeBody>,
  adding: boolean,
) {
  const { db, clock } = c.var.deps;
  const roomUuids = [...new Set(body.roomUuids ?? [])];
  const userUuids = [...new Set(body.userUuids ?? [])];
  if (!roomUuids.length && !userUuids.length) throw badRequest(COMMUNITY_MESSAGES.emptyChange);
  const admin = isCommunityAdmin(community, user);
  const onlySelf = userUuids.every((u) => u === user.uuid);
  if (!admin && !onlySelf) throw forbidden(COMMUNITY_MESSAGES.notAdmin);
  if (adding && !admin && userUuids.length && !community.isPublic) throw forbidden(COMMUNITY_MESSAGES.notAdmin);
  if (adding) await requireActiveUsers(db, userUuids);
  const rooms = roomUuids.length
    ? await db.select().from(schema.rooms).where(inArray(schema.rooms.uuid, roomUuids))
    : [];
  if (rooms.length !== roomUuids.length) throw notFound(ROOM_NOT_FOUND);
  const now = clock.now();
  for (const room of rooms) await (adding ? checkRoomAddition : checkRoomRemoval)(db, community, room, user, now);
  return { roomUuids, userUuids };
}

communitiesRoutes.openapi(
  createRoute({
    method: "post",
    path: "/communities/{id}/add",
    tags,
    summary:
      "Add rooms and members at once, all or none (rooms: as PUT /communities/{id}/rooms/{roomId}; members: the community's admins, or the caller themselves in a public one)",
    security: bearer,
    request: { params: CommunityKeyParam, ...jsonBody(ChangeBody) },
    responses: { 200: json(CommunitySchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const community = await loadCommunity(c, c.req.valid("param").id, user);
    const { roomUuids, userUuids } = await checkChange(c, community, user, c.req.valid("json"), true);
    const { db, clock } = c.var.deps;
    const now = clock.now();
    await db.transaction(async (tx) => {
      if (roomUuids.length)
        await tx
          .insert(schema.communityRooms)
          .values(roomUuids.map((roomUuid) => ({ communityId: community.id, roomUuid, addedAt: now })))
          .onConflictDoNothing();
      if (userUuids.length)
        await tx
          .insert(schema.communityMembers)
          .values(userUuids.map((userUuid) => ({ communityId: community.id, userUuid, joinedAt: now })))
          .onConflictDoNothing();
    });
    return c.json(communityView(await reloadCommunity(db, community.id, user)), 200);
  },
);

communitiesRoutes.openapi(
  createRoute({
    method: "post",
    path: "/communities/{id}/remove",
    tags,
    summary:
      "Take rooms and members out at once, all or none (rooms: as DELETE /communities/{id}/rooms/{roomId}; members: the community's admins, or the caller themselves); ones not in it are skipped",
    security: bearer,
    request: { params: CommunityKeyParam, ...jsonBody(ChangeBody) },
    responses: { 200: json(CommunitySchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const community = await loadCommunity(c, c.req.valid("param").id, user);
    const { roomUuids, userUuids } = await checkChange(c, community, user, c.req.valid("json"), false);
    const { db } = c.var.deps;
    await db.transaction(async (tx) => {
      if (roomUuids.length)
        await tx
          .delete(schema.communityRooms)
          .where(
            and(
              eq(schema.communityRooms.communityId, community.id),
              inArray(schema.communityRooms.roomUuid, roomUuids),
            ),
          );
      if (userUuids.length)
        await tx
          .delete(schema.communityMembers)
          .where(
            and(
              eq(schema.communityMembers.communityId, community.id),
              inArray(schema.communityMembers.userUuid, userUuids),
            ),
          );
    });
    return c.json(communityView(await reloadCommunity(db, community.id, user)), 200);
  },
);

communitiesRoutes.openapi(
  createRoute({
    method: "put",
    path: "/communities/{id}/users/{userId}",
    tags,
    summary: "Add a member (the community's admins: its creator, staff); adding a member again changes nothing",
    security: bearer,
    request: { params: CommunityUserParams },
    responses: { 200: json(MembershipSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { id, userId } = c.req.valid("param");
    const community = await loadCommunity(c, id, user);
    if (!isCommunityAdmin(community, user)) throw forbidden(COMMUNITY_MESSAGES.notAdmin);
    const { db, clock } = c.var.deps;
    await requireActiveUsers(db, [userId]);
    await db
      .insert(schema.communityMembers)
      .values({ communityId: community.id, userUuid: userId, joinedAt: clock.now() })
      .onConflictDoNothing();
    const [member] = await db
      .select()
      .from(schema.communityMembers)
      .where(and(eq(schema.communityMembers.communityId, community.id), eq(schema.communityMembers.userUuid, userId)));
    if (!member) throw notFound(COMMUNITY_MESSAGES.userNotMember);
    return c.json({ ...member, joinedAt: iso(member.joinedAt) }, 200);
  },
);

communitiesRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/communities/{id}/users/{userId}",
    tags,
    summary: "Remove a member (the community's admins; members may remove themselves)",
    security: bearer,
    request: { params: CommunityUserParams },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const { id, userId } = c.req.valid("param");
    const community = await loadCommunity(c, id, user);
    if (userId !== user.uuid && !isCommunityAdmin(community, user)) throw forbidden(COMMUNITY_MESSAGES.notAdmin);
    const deleted = await c.var.deps.db
      .delete(schema.communityMembers)
      .where(and(eq(schema.communityMembers.communityId, community.id), eq(schema.communityMembers.userUuid, userId)))
      .returning({ userUuid: schema.communityMembers.userUuid });
    if (!deleted.length) throw notFound(COMMUNITY_MESSAGES.userNotMember);
    return c.body(null, 204);
  },
);

communitiesRoutes.openapi(
  createRoute({
    method: "get",
    path: "/communities/{id}/rooms",
    tags,
    summary:
      "A community's rooms, the busiest first: public listed ones, plus the private or unlisted ones the caller helps run (staff and global moderators: all)",
    request: { params: CommunityKeyParam, query: PageQuery },
    responses: {
      200: json(z.object({ data: z.array(RoomSchema), total: z.number().int() }).openapi("CommunityRoomPage")),
      ...errors(400, 401, 403, 404),
    },
  }),
  async (c) => {
    const user = await callerIfAny(c);
    const community = await loadCommunity(c, c.req.valid("param").id, user);
    const { limit, offset } = c.req.valid("query");
    const { db, clock } = c.var.deps;
    const where = and(
      inArray(
        schema.rooms.uuid,
        db
          .select({ uuid: schema.communityRooms.roomUuid })
          .from(schema.communityRooms)
          .where(eq(schema.communityRooms.communityId, community.id)),
      ),
      roomsVisibleTo(user, clock.now()),
    );
    const [rows, [total]] = await Promise.all([
      selectRooms(db)
        .where(where)
        .orderBy(desc(roomUsersCount), desc(schema.rooms.createdAt), schema.rooms.uuid)
        .limit(limit)
        .offset(offset),
      db.select({ n: count() }).from(schema.rooms).where(where),
    ]);
    return c.json({ data: await roomViews(c, rows), total: total?.n ?? 0 }, 200);
  },
);

async function addRoom(c: Context<AppEnv>, key: { id: string; roomId: string }) {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db, clock } = c.var.deps;
  const community = await loadCommunity(c, key.id, user);
  const room = await loadRoomByKey(db, key.roomId);
  const now = clock.now();
  await checkRoomAddition(db, community, room, user, now);
  const [added] = await db
    .insert(schema.communityRooms)
    .values({ communityId: community.id, roomUuid: room.uuid, addedAt: now })
    .onConflictDoNothing()
    .returning();
  if (added) return c.json({ ...added, addedAt: iso(added.addedAt) }, 201);
  const [existing] = await db
    .select()
    .from(schema.communityRooms)
    .where(and(eq(schema.communityRooms.communityId, community.id), eq(schema.communityRooms.roomUuid, room.uuid)));
  if (!existing) throw notFound(COMMUNITY_MESSAGES.roomNotInCommunity);
  return c.json({ ...existing, addedAt: iso(existing.addedAt) }, 200);
}

async function removeRoom(c: Context<AppEnv>, key: { id: string; roomId: string }) {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db, clock } = c.var.deps;
  const community = await loadCommunity(c, key.id, user);
  const room = await loadRoomByKey(db, key.roomId);
  await checkRoomRemoval(db, community, room, user, clock.now());
  const deleted = await db
    .delete(schema.communityRooms)
    .where(and(eq(schema.communityRooms.communityId, community.id), eq(schema.communityRooms.roomUuid, room.uuid)))
    .returning({ roomUuid: schema.communityRooms.roomUuid });
  if (!deleted.length) throw notFound(COMMUNITY_MESSAGES.roomNotInCommunity);
  return c.body(null, 204);
}

const addRoomDoc = {
  tags,
  summary:
    "Put a room into a community (the room's owner or co-owners: into a public community, or one they run); putting it in again answers 200",
  security: bearer,
  request: { params: CommunityRoomParams },
  responses: {
    200: json(CommunityRoomSchema),
    201: json(CommunityRoomSchema, "Created"),
    ...errors(400, 401, 403, 404),
  },
};
const removeRoomDoc = {
  tags,
  summary: "Take a room out of a community (the community's admins, or the room's owner or co-owners)",
  security: bearer,
  request: { params: CommunityRoomParams },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
};

communitiesRoutes.openapi(
  createRoute({ method: "put", path: "/communities/{id}/rooms/{roomId}", ...addRoomDoc }),
  (c) => addRoom(c, c.req.valid("param")),
);
communitiesRoutes.openapi(
  createRoute({ method: "delete", path: "/communities/{id}/rooms/{roomId}", ...removeRoomDoc }),
  (c) => removeRoom(c, c.req.valid("param")),
);
// The spec's short forms of the two above; registered last so /join, /leave, /add and /remove win.
communitiesRoutes.openapi(createRoute({ method: "post", path: "/communities/{id}/{roomId}", ...addRoomDoc }), (c) =>
  addRoom(c, c.req.valid("param")),
);
communitiesRoutes.openapi(
  createRoute({ method: "delete", path: "/communities/{id}/{roomId}", ...removeRoomDoc }),
  (c) => removeRoom(c, c.req.valid("param")),
);
