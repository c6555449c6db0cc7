/**
 * A user's public profile: its schema (the OpenAPI `Profile`), its view from the user and profile rows, and the
 * profiles of a list of users. Every service that shows people uses these (user, room, social, merch).
 */
import { type Db, schema, type Tx } from "@booth/db";
import { Badge, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { and, asc, count, desc, eq, ilike, inArray, isNull, not, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { User } from "../../lib/auth.ts";
import { columnSchemas } from "../../lib/column-schemas.ts";
import { escapeLike } from "../../lib/crud/index.ts";
import { isoOrNull, jsonPick } from "../../lib/json-rows.ts";
import { pageWhere } from "../../lib/pages.ts";
import { isoSql, jsonColumns, preparedPerDb, type SqlJson } from "../../lib/sql-json.ts";
import { activeBanCondition } from "./sanctions.ts";

export type Profile = typeof schema.profiles.$inferSelect;

export const BadgeSchema = z.enum(values(Badge));

/** The profile's columns anyone may see, with their schemas: `Profile` shows them, and its view copies them. */
const SHOWN_COLUMNS = columnSchemas(
  schema.profiles,
  "nickname",
  "color",
  "avatarId",
  "firstName",
  "lastName",
  "pronoun",
  "displayPronouns",
  "songOfTheWeek",
  "zodiac",
  "bio",
  "profilePicture",
  "coverPicture",
  "facebook",
  "instagram",
  "twitter",
  "snapchat",
  "tiktok",
  "priceForGig",
);
type ShownColumn = keyof typeof SHOWN_COLUMNS;
const shownColumns = Object.keys(SHOWN_COLUMNS) as ShownColumn[];

/** A profile as anyone sees it. */
export const PublicProfileSchema = z
  .object({
    uuid: z.uuid(),
    ...SHOWN_COLUMNS,
    badges: z.array(BadgeSchema),
    isBot: z.boolean(),
    verifiedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("Profile");

export function publicProfile(user: User, profile: Profile) {
  return {
    uuid: user.uuid,
    ...jsonPick(profile, ...shownColumns),
    badges: user.badges,
    isBot: user.roles.includes("bot"),
    verifiedAt: isoOrNull(user.verifiedAt),
    createdAt: profile.createdAt.toISOString(),
  };
}

/** Public profiles of active users, in the order of `uuids`. */
export async function profilesOf(db: Db | Tx, uuids: string[]) {
  if (uuids.length === 0) return [];
  const rows = await db
    .select()
    .from(schema.users)
    .innerJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
    .where(and(inArray(schema.users.uuid, uuids), isNull(schema.users.deactivatedAt)));
  const byId = new Map(rows.map((r) => [r.users.uuid, publicProfile(r.users, r.profiles)]));
  return uuids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * A page of people linked by `table`'s rows matching `where` (fans, friends...), the newest link first: `person` is
 * the column naming them; answered as their public profiles, with how many rows match.
 */
export async function linkedProfilesPage(
  db: Db | Tx,
  table: PgTable & { createdAt: PgColumn; id: PgColumn },
  person: PgColumn,
  where: SQL,
  page: { limit: number; offset: number },
) {
  const people = db
    .select({ uuid: person })
    .from(table as PgTable)
    .where(where)
    .orderBy(desc(table.createdAt), desc(table.id));
  const { rows, total } = await pageWhere(db, table, where, people, page);
  return {
    data: await profilesOf(
      db,
      rows.map((r) => r.uuid as string),
    ),
    total,
  };
}

const profilesJsonQuery = preparedPerDb((db) => {
  const u = schema.users;
  const p = schema.profiles;
  // The asked ids with their place in the list, so the answer keeps the caller's order.
  const asked = sql`unnest(${sql.placeholder("uuids")}::uuid[]) with ordinality as asked(uuid, ord)`;
  return db
    .select({
      body: sql<string>`coalesce(json_agg(json_build_object(
        'uuid', ${u.uuid}, ${jsonColumns(p, shownColumns)}, 'badges', ${u.badges},
        'isBot', 'bot' = any(${u.roles}), 'verifiedAt', ${isoSql(u.verifiedAt)}, 'createdAt', ${isoSql(p.createdAt)}
      ) order by asked.ord), '[]')::text`,
    })
    .from(asked)
    .innerJoin(u, sql`${u.uuid} = asked.uuid`)
    .innerJoin(p, eq(p.userUuid, u.uuid))
    .where(isNull(u.deactivatedAt))
    .prepare("profiles_json");
});

/** `profilesOf` as the JSON text of its answer, written by the database in one prepared statement (`uuids` distinct). */
export async function profilesJson(db: Db, uuids: string[]): Promise<SqlJson<ReturnType<typeof publicProfile>[]>> {
  // As profilesOf: an id is found as the database writes it (lower case), others are skipped.
  const canonical = uuids.filter((id) => id === id.toLowerCase());
  if (canonical.length === 0) return "[]";
  const [row] = await profilesJsonQuery(db).execute({ uuids: canonical });
  return row?.body ?? "[]";
}

/** How many people one search answers at most. */
export const MAX_PEOPLE = 50;

/**
 * People whose nickname holds `q` (any case), for a people search: active accounts without a ban in force, those
 * whose nickname starts with it first, then by nickname.
 */
export async function searchProfiles(db: Db, q: string, limit: number, now: Date) {
  const pattern = escapeLike(q.toLowerCase());
  const rows = await db
    .select()
    .from(schema.users)
    .innerJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
    .where(
      and(
        ilike(schema.profiles.nickname, `%${pattern}%`),
        isNull(schema.users.deactivatedAt),
        not(
          sql`exists (${db.select({ one: sql`1` }).from(schema.sanctions).where(activeBanCondition(schema.users.uuid, now))})`,
        ),
      ),
    )
    .orderBy(
      sql`case when lower(${schema.profiles.nickname}) like ${`${pattern}%`} then 0 else 1 end`,
      asc(sql`lower(${schema.profiles.nickname})`),
    )
    .limit(Math.min(limit, MAX_PEOPLE));
  return rows.map((r) => publicProfile(r.users, r.profiles));
}

/** How many users there are, with their profiles joined for the filters on either: an admin list's total. */
export const usersTotal = (db: Db | Tx) =>
  db
    .select({ n: count() })
    .from(schema.users)
    .leftJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
    .$dynamic();
