import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { count, eq, sql } from "drizzle-orm";
import { requireUser, STAFF } from "../../lib/auth.ts";
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
import { notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, UuidParam } from "../../lib/openapi.ts";
import { userView } from "./accounts.ts";
import { OwnProfileSchema, UserSchema } from "./schemas.ts";

const tags = ["Admin"];
export const adminUserListRoutes = createRouter();

/** What staff may select, filter and sort users by; `join=profile` adds the profile. */
export const USER_CRUD: CrudOptions = {
  fields: {
    uuid: schema.users.uuid,
    email: schema.users.email,
    roles: schema.users.roles,
    badges: schema.users.badges,
    capabilities: schema.users.capabilities,
    createdAt: schema.users.createdAt,
    lastLoginAt: schema.users.lastLoginAt,
    deactivatedAt: schema.users.deactivatedAt,
    verifiedAt: schema.users.verifiedAt,
    nickname: schema.profiles.nickname,
    isBot: { column: sql`('bot' = any(${schema.users.roles}))`, type: "boolean" },
  },
  primaryKey: "uuid",
  joins: { profile: Object.keys(OwnProfileSchema.shape) },
  defaultSort: [{ field: "createdAt", order: "DESC" }],
};

const AdminUserSchema = UserSchema.omit({ profile: true })
  .extend({ nickname: z.string().nullable(), profile: OwnProfileSchema.partial().optional() })
  .partial()
  .openapi("AdminUser");

type Row = { users: typeof schema.users.$inferSelect; profiles: typeof schema.profiles.$inferSelect | null };
function adminView(row: Row, selection: { fields: string[] | null; joins: Record<string, string[] | null> }) {
  const { profile, ...user } = userView(row.users, row.profiles);
  const item: Record<string, unknown> = pickFields(
    { ...user, nickname: row.profiles?.nickname ?? null },
    selection.fields,
  );
  if ("profile" in selection.joins && profile)
    item.profile = pickFields(profile as Record<string, unknown>, selection.joins.profile ?? null);
  return item;
}

adminUserListRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/users",
    tags,
    summary: "Users, in the nestjsx/crud query syntax (staff and above)",
    security: bearer,
    request: { query: CrudQuerySchema },
    responses: { 200: json(crudPageSchema(AdminUserSchema).openapi("AdminUserPage")), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const query = parseCrudQuery(c.req.valid("query"), USER_CRUD);
    const { db } = c.var.deps;
    const page = await crudList(query, {
      total: async (where) => {
        const [row] = await db
          .select({ n: count() })
          .from(schema.users)
          .leftJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
          .where(where);
        return row?.n ?? 0;
      },
      rows: (q) =>
        applyCrud(
          db
            .select()
            .from(schema.users)
            .leftJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
            .$dynamic(),
          q,
        ),
    });
    return c.json({ ...page, data: page.data.map((row) => adminView(row, query)) }, 200);
  },
);

adminUserListRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/users/{id}",
    tags,
    summary: "One user, with the same fields and join options (staff and above)",
    security: bearer,
    request: { params: UuidParam, query: CrudSelectionSchema },
    responses: { 200: json(AdminUserSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const selection = parseSelection(c.req.valid("query"), USER_CRUD);
    const [row] = await c.var.deps.db
      .select()
      .from(schema.users)
      .leftJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
      .where(eq(schema.users.uuid, c.req.valid("param").id));
    if (!row) throw notFound("User not found.");
    return c.json(adminView(row, selection), 200);
  },
);
