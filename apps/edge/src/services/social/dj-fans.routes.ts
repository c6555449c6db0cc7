import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, count, desc, eq, or, sql } from "drizzle-orm";
import { requireService, requireUser, STAFF } from "../../lib/auth.ts";
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
import { conflict, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, UuidParam } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../user/schemas.ts";
import { profilesOf, socialTarget } from "./relations.ts";

export const CANNOT_FOLLOW = "You cannot follow this DJ.";
export const ALREADY_FOLLOWING = "You already follow this DJ.";
export const NOT_FOLLOWING = "You do not follow this DJ.";
/** The web shows fans and following 12 to a page. */
export const FANS_PAGE = 12;

const tags = ["DJ fans"];
export const djFansRoutes = createRouter();

const FanLinkSchema = z
  .object({ id: z.uuid(), fanUuid: z.uuid(), djUuid: z.uuid(), createdAt: z.string() })
  .openapi("DjFan");
type FanLink = typeof schema.djFans.$inferSelect;
const linkView = (l: FanLink) => ({ ...l, createdAt: l.createdAt.toISOString() });

const SkipTake = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  take: z.coerce.number().int().min(1).max(100).default(FANS_PAGE),
});
const ProfilePage = z
  .object({ data: z.array(PublicProfileSchema), total: z.number().int() })
  .openapi("ProfilePageOfFans");

/** Fans of a DJ (side "fan") or DJs a fan follows (side "dj"), newest first, as public profiles. */
async function page(
  db: Parameters<typeof profilesOf>[0],
  side: "fans" | "followed",
  uuid: string,
  skip: number,
  take: number,
) {
  const [key, other] =
    side === "fans" ? [schema.djFans.djUuid, schema.djFans.fanUuid] : [schema.djFans.fanUuid, schema.djFans.djUuid];
  const [rows, [total]] = await Promise.all([
    db
      .select({ uuid: other })
      .from(schema.djFans)
      .where(eq(key, uuid))
      .orderBy(desc(schema.djFans.createdAt), desc(schema.djFans.id))
      .limit(take)
      .offset(skip),
    db.select({ n: count() }).from(schema.djFans).where(eq(key, uuid)),
  ]);
  return {
    data: await profilesOf(
      db,
      rows.map((r) => r.uuid),
    ),
    total: total?.n ?? 0,
  };
}

djFansRoutes.openapi(
  createRoute({
    method: "post",
    path: "/dj-fans",
    tags,
    summary: "Follow a DJ",
    security: bearer,
    request: jsonBody(z.object({ djUuid: z.uuid() })),
    responses: { 201: json(FanLinkSchema, "Created"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { djUuid } = c.req.valid("json");
    const { db, clock } = c.var.deps;
    await socialTarget(db, user.uuid, djUuid, {
      self: "You cannot follow yourself.",
      missing: "DJ not found.",
      blocked: CANNOT_FOLLOW,
    });
    try {
      const [link] = await db
        .insert(schema.djFans)
        .values({ fanUuid: user.uuid, djUuid, createdAt: clock.now() })
        .returning();
      if (!link) throw new Error("fan insert returned nothing");
      return c.json(linkView(link), 201);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(ALREADY_FOLLOWING);
      throw err;
    }
  },
);

djFansRoutes.openapi(
  createRoute({
    method: "get",
    path: "/dj-fans",
    tags,
    summary: "The DJs the caller follows (optionally just whether they follow one DJ)",
    security: bearer,
    request: { query: z.object({ djUuid: z.uuid().optional() }) },
    responses: { 200: json(z.array(FanLinkSchema)), ...errors(400, 401, 403) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const { djUuid } = c.req.valid("query");
    const rows = await c.var.deps.db
      .select()
      .from(schema.djFans)
      .where(and(eq(schema.djFans.fanUuid, user.uuid), djUuid ? eq(schema.djFans.djUuid, djUuid) : undefined))
      .orderBy(desc(schema.djFans.createdAt));
    return c.json(rows.map(linkView), 200);
  },
);

djFansRoutes.openapi(
  createRoute({
    method: "get",
    path: "/dj-fans/dj-fans-paginated/{id}",
    tags,
    summary: `Fans of DJ {id}, newest first (${FANS_PAGE} a page by default)`,
    request: { params: UuidParam, query: SkipTake },
    responses: { 200: json(ProfilePage), ...errors(400) },
  }),
  async (c) => {
    const { skip, take } = c.req.valid("query");
    return c.json(await page(c.var.deps.db, "fans", c.req.valid("param").id, skip, take), 200);
  },
);

djFansRoutes.openapi(
  createRoute({
    method: "get",
    path: "/dj-fans/dj-fans/{id}",
    tags,
    deprecated: true,
    summary: "Legacy: fans of DJ {id} as a plain list",
    request: { params: UuidParam, query: SkipTake },
    responses: { 200: json(z.array(PublicProfileSchema)), ...errors(400) },
  }),
  async (c) => {
    const { skip, take } = c.req.valid("query");
    return c.json((await page(c.var.deps.db, "fans", c.req.valid("param").id, skip, take)).data, 200);
  },
);

djFansRoutes.openapi(
  createRoute({
    method: "get",
    path: "/dj-fans/{id}/djs-followed",
    tags,
    summary: "DJs that user {id} follows, newest first",
    request: { params: UuidParam, query: SkipTake },
    responses: { 200: json(ProfilePage), ...errors(400) },
  }),
  async (c) => {
    const { skip, take } = c.req.valid("query");
    return c.json(await page(c.var.deps.db, "followed", c.req.valid("param").id, skip, take), 200);
  },
);

djFansRoutes.openapi(
  createRoute({
    method: "get",
    path: "/dj-fans/count/{id}",
    tags,
    summary: "How many fans user {id} has and how many DJs they follow",
    request: { params: UuidParam },
    responses: {
      200: json(z.object({ fans: z.number().int(), following: z.number().int() }).openapi("FanCounts")),
      ...errors(400),
    },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const { db } = c.var.deps;
    const [fans, following] = await Promise.all([
      db.$count(schema.djFans, eq(schema.djFans.djUuid, id)),
      db.$count(schema.djFans, eq(schema.djFans.fanUuid, id)),
    ]);
    return c.json({ fans, following }, 200);
  },
);

djFansRoutes.openapi(
  createRoute({
    method: "get",
    path: "/dj-fans/dj-fan/{id}",
    tags,
    summary: "One fan link by its id",
    request: { params: UuidParam },
    responses: { 200: json(FanLinkSchema), ...errors(400, 404) },
  }),
  async (c) => {
    const [link] = await c.var.deps.db
      .select()
      .from(schema.djFans)
      .where(eq(schema.djFans.id, c.req.valid("param").id));
    if (!link) throw notFound("Fan link not found.");
    return c.json(linkView(link), 200);
  },
);

djFansRoutes.openapi(
  createRoute({
    method: "get",
    path: "/dj-fans/admin/{id}",
    tags: ["Admin"],
    summary: "Every fan link of user {id}, both ways (staff)",
    security: bearer,
    request: { params: UuidParam },
    responses: {
      200: json(
        z.object({ fans: z.array(FanLinkSchema), following: z.array(FanLinkSchema) }).openapi("FanLinksOfUser"),
      ),
      ...errors(400, 401, 403),
    },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const { id } = c.req.valid("param");
    const rows = await c.var.deps.db
      .select()
      .from(schema.djFans)
      .where(or(eq(schema.djFans.djUuid, id), eq(schema.djFans.fanUuid, id)))
      .orderBy(desc(schema.djFans.createdAt));
    return c.json(
      {
        fans: rows.filter((r) => r.djUuid === id).map(linkView),
        following: rows.filter((r) => r.fanUuid === id).map(linkView),
      },
      200,
    );
  },
);

djFansRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/dj-fans/{id}",
    tags,
    summary: "Unfollow DJ {id}",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const deleted = await c.var.deps.db
      .delete(schema.djFans)
      .where(and(eq(schema.djFans.fanUuid, user.uuid), eq(schema.djFans.djUuid, c.req.valid("param").id)))
      .returning();
    if (deleted.length === 0) throw notFound(NOT_FOLLOWING);
    return c.body(null, 204);
  },
);

djFansRoutes.openapi(
  createRoute({
    method: "get",
    path: "/dj-fans/devices/list",
    tags: ["Service"],
    summary: "The push devices of a DJ's fans (services)",
    security: bearer,
    request: { query: z.object({ djUuid: z.uuid() }) },
    responses: {
      200: json(
        z.array(z.object({ userUuid: z.uuid(), token: z.string(), platform: z.string() })).openapi("FanDevices"),
      ),
      ...errors(400, 401, 403),
    },
  }),
  async (c) => {
    await requireService(c);
    const rows = await c.var.deps.db
      .select({ userUuid: schema.devices.userUuid, token: schema.devices.token, platform: schema.devices.platform })
      .from(schema.djFans)
      .innerJoin(schema.devices, eq(schema.devices.userUuid, schema.djFans.fanUuid))
      .where(eq(schema.djFans.djUuid, c.req.valid("query").djUuid));
    return c.json(rows, 200);
  },
);

// ---- admin DJ lists

const fansCount = sql<number>`(select count(*)::int from ${schema.djFans} where ${schema.djFans.djUuid} = ${schema.users.uuid})`;
export const DJ_CRUD: CrudOptions = {
  fields: {
    uuid: schema.users.uuid,
    email: schema.users.email,
    nickname: schema.profiles.nickname,
    roles: schema.users.roles,
    badges: schema.users.badges,
    createdAt: schema.users.createdAt,
    fans: { column: fansCount, type: "integer" },
  },
  primaryKey: "uuid",
  defaultSort: [{ field: "fans", order: "DESC" }],
};
const AdminDjSchema = z
  .object({
    uuid: z.uuid(),
    email: z.string().nullable(),
    nickname: z.string().nullable(),
    roles: z.array(z.string()),
    badges: z.array(z.string()),
    createdAt: z.string(),
    fans: z.number().int(),
  })
  .partial()
  .openapi("AdminDj");
const djSelect = (db: Parameters<typeof profilesOf>[0]) =>
  db
    .select({
      uuid: schema.users.uuid,
      email: schema.users.email,
      nickname: schema.profiles.nickname,
      roles: schema.users.roles,
      badges: schema.users.badges,
      createdAt: schema.users.createdAt,
      fans: fansCount,
    })
    .from(schema.users)
    .leftJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid));
type DjRow = Awaited<ReturnType<ReturnType<typeof djSelect>["execute"]>>[number];
const djView = (r: DjRow) => ({ ...r, createdAt: r.createdAt.toISOString(), fans: Number(r.fans) });

djFansRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/djs",
    tags: ["Admin"],
    summary: "DJs with their fan counts, in the nestjsx/crud query syntax (staff)",
    security: bearer,
    request: { query: CrudQuerySchema },
    responses: { 200: json(crudPageSchema(AdminDjSchema).openapi("AdminDjPage")), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const query = parseCrudQuery(c.req.valid("query"), DJ_CRUD);
    const { db } = c.var.deps;
    const result = await crudList(query, {
      total: async (where) => {
        const [row] = await db
          .select({ n: count() })
          .from(schema.users)
          .leftJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
          .where(where);
        return row?.n ?? 0;
      },
      rows: (q) => applyCrud(djSelect(db).$dynamic(), q),
    });
    return c.json({ ...result, data: result.data.map((r) => pickFields(djView(r), query.fields)) }, 200);
  },
);

djFansRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/djs/{id}",
    tags: ["Admin"],
    summary: "One DJ with their fan count (staff)",
    security: bearer,
    request: { params: UuidParam, query: CrudSelectionSchema },
    responses: { 200: json(AdminDjSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const selection = parseSelection(c.req.valid("query"), DJ_CRUD);
    const [row] = await djSelect(c.var.deps.db).where(eq(schema.users.uuid, c.req.valid("param").id));
    if (!row) throw notFound("DJ not found.");
    return c.json(pickFields(djView(row), selection.fields), 200);
  },
);
