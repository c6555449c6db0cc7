import { type Db, schema, type Tx } from "@booth/db";
import { and, desc, eq, or, sql } from "drizzle-orm";
import { type CrudOptions, type CrudQuery, crudSelectPage, pickFields } from "../../lib/crud/index.ts";
import { uniqueOr } from "../../lib/db-errors.ts";
import { conflict } from "../../lib/errors.ts";
import { jsonRow } from "../../lib/json-rows.ts";
import { deleteFound, firstRow, returnedRow } from "../../lib/rows.ts";
import { linkedProfilesPage, usersTotal } from "../user/public.ts";
import { socialTarget } from "./relations.ts";

export const CANNOT_FOLLOW = "You cannot follow this DJ.";
export const ALREADY_FOLLOWING = "You already follow this DJ.";
export const NOT_FOLLOWING = "You do not follow this DJ.";
export const FAN_LINK_NOT_FOUND = "Fan link not found.";
export const DJ_NOT_FOUND = "DJ not found.";
/** The web shows fans and following 12 to a page. */
export const FANS_PAGE = 12;

export type FanLink = typeof schema.djFans.$inferSelect;
export const linkView = (l: FanLink) => jsonRow(l);

/** The caller becomes a fan of a DJ: not themselves, an active account, not across a block, once. */
export async function follow(db: Db, fanUuid: string, djUuid: string, now: Date) {
  await socialTarget(db, fanUuid, djUuid, {
    self: "You cannot follow yourself.",
    missing: DJ_NOT_FOUND,
    blocked: CANNOT_FOLLOW,
  });
  return returnedRow(
    "fan insert",
    uniqueOr(
      () => db.insert(schema.djFans).values({ fanUuid, djUuid, createdAt: now }).returning(),
      () => conflict(ALREADY_FOLLOWING),
    ),
  );
}

/** The DJs a fan follows (or their one link to `djUuid`), newest first. */
export const followedBy = (db: Db | Tx, fanUuid: string, djUuid?: string) =>
  db
    .select()
    .from(schema.djFans)
    .where(and(eq(schema.djFans.fanUuid, fanUuid), djUuid ? eq(schema.djFans.djUuid, djUuid) : undefined))
    .orderBy(desc(schema.djFans.createdAt));

/** Fans of a DJ (side "fans") or DJs a fan follows (side "followed"), newest first, as public profiles. */
export async function fansPage(db: Db | Tx, side: "fans" | "followed", uuid: string, skip: number, take: number) {
  const [key, other] =
    side === "fans" ? [schema.djFans.djUuid, schema.djFans.fanUuid] : [schema.djFans.fanUuid, schema.djFans.djUuid];
  return linkedProfilesPage(db, schema.djFans, other, eq(key, uuid), { limit: take, offset: skip });
}

/** How many fans a user has and how many DJs they follow. */
export async function fanCounts(db: Db | Tx, uuid: string) {
  const [fans, following] = await Promise.all([
    db.$count(schema.djFans, eq(schema.djFans.djUuid, uuid)),
    db.$count(schema.djFans, eq(schema.djFans.fanUuid, uuid)),
  ]);
  return { fans, following };
}

export async function findFanLink(db: Db | Tx, id: string) {
  return firstRow(db, schema.djFans, eq(schema.djFans.id, id));
}

/** Every fan link of a user, both ways, newest first. */
export async function fanLinksOf(db: Db | Tx, uuid: string) {
  const rows = await db
    .select()
    .from(schema.djFans)
    .where(or(eq(schema.djFans.djUuid, uuid), eq(schema.djFans.fanUuid, uuid)))
    .orderBy(desc(schema.djFans.createdAt));
  return {
    fans: rows.filter((r) => r.djUuid === uuid).map(linkView),
    following: rows.filter((r) => r.fanUuid === uuid).map(linkView),
  };
}

/** The fan stops following the DJ; a 404 when they did not. */
export async function unfollow(db: Db | Tx, fanUuid: string, djUuid: string) {
  const where = and(eq(schema.djFans.fanUuid, fanUuid), eq(schema.djFans.djUuid, djUuid));
  await deleteFound(db, schema.djFans, where, NOT_FOLLOWING);
}

/** The push devices of a DJ's fans. */
export const fanDevices = (db: Db | Tx, djUuid: string) =>
  db
    .select({ userUuid: schema.devices.userUuid, token: schema.devices.token, platform: schema.devices.platform })
    .from(schema.djFans)
    .innerJoin(schema.devices, eq(schema.devices.userUuid, schema.djFans.fanUuid))
    .where(eq(schema.djFans.djUuid, djUuid));

// ---- admin DJ lists

const fansCount = sql<number>`(select count(*)::int from ${schema.djFans} where ${schema.djFans.djUuid} = ${schema.users.uuid})`;
/** A DJ's columns in the admin list, the fan count besides. */
const DJ_COLUMNS = {
  uuid: schema.users.uuid,
  email: schema.users.email,
  nickname: schema.profiles.nickname,
  roles: schema.users.roles,
  badges: schema.users.badges,
  createdAt: schema.users.createdAt,
};
export const DJ_CRUD: CrudOptions = {
  fields: { ...DJ_COLUMNS, fans: { column: fansCount, type: "integer" } },
  primaryKey: "uuid",
  defaultSort: [{ field: "fans", order: "DESC" }],
};

const djSelect = (db: Db | Tx) =>
  db
    .select({ ...DJ_COLUMNS, fans: fansCount })
    .from(schema.users)
    .leftJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid));
type DjRow = Awaited<ReturnType<ReturnType<typeof djSelect>["execute"]>>[number];
const djView = (r: DjRow) => ({ ...r, createdAt: r.createdAt.toISOString(), fans: Number(r.fans) });

/** DJs with their fan counts, a nestjsx/crud page of the fields asked for. */
export async function djPage(db: Db | Tx, query: CrudQuery) {
  const page = await crudSelectPage(query, {
    total: usersTotal(db),
    rows: djSelect(db).$dynamic(),
  });
  return { ...page, data: page.data.map((r) => pickFields(djView(r), query.fields)) };
}

/** One DJ with their fan count, or null. */
export async function findDj(db: Db | Tx, uuid: string, fields: string[] | null) {
  const [row] = await djSelect(db).where(eq(schema.users.uuid, uuid));
  return row ? pickFields(djView(row), fields) : null;
}
