import { type Db, schema } from "@booth/db";
import { eq, sql } from "drizzle-orm";
import { type CrudOptions, type CrudQuery, crudSelectPage, pickFields } from "../../lib/crud/index.ts";
import { userView } from "./accounts.ts";
import { usersTotal } from "./public-profiles.ts";
import { OwnProfileSchema } from "./schemas.ts";

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

type Row = { users: typeof schema.users.$inferSelect; profiles: typeof schema.profiles.$inferSelect | null };
type Selection = { fields: string[] | null; joins: Record<string, string[] | null> };

/** A user as staff list them: the account, its nickname, and (with `join=profile`) the profile's asked fields. */
function adminView(row: Row, selection: Selection) {
  const { profile, ...user } = userView(row.users, row.profiles);
  const item: Record<string, unknown> = pickFields(
    { ...user, nickname: row.profiles?.nickname ?? null },
    selection.fields,
  );
  if ("profile" in selection.joins && profile)
    item.profile = pickFields(profile as Record<string, unknown>, selection.joins.profile ?? null);
  return item;
}

/** A nestjsx/crud page of users. */
export async function userPage(db: Db, query: CrudQuery) {
  const page = await crudSelectPage(query, {
    total: usersTotal(db),
    rows: db
      .select()
      .from(schema.users)
      .leftJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
      .$dynamic(),
  });
  return { ...page, data: page.data.map((row) => adminView(row, query)) };
}

/** One user as staff see it, or null. */
export async function adminUser(db: Db, uuid: string, selection: Selection) {
  const [row] = await db
    .select()
    .from(schema.users)
    .leftJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
    .where(eq(schema.users.uuid, uuid));
  return row ? adminView(row, selection) : null;
}
