/**
 * A user's public profile: its schema (the OpenAPI `Profile`), its view from the user and profile rows, and the
 * profiles of a list of users. Every service that shows people uses these (user, room, social, merch).
 */
import { type Db, schema, type Tx } from "@booth/db";
import { Badge, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { and, asc, eq, ilike, inArray, isNull, not, sql } from "drizzle-orm";
import { activeBanCondition, type User } from "./auth.ts";
import { escapeLike } from "./crud/index.ts";

export type Profile = typeof schema.profiles.$inferSelect;

export const BadgeSchema = z.enum(values(Badge));

/** A profile as anyone sees it. */
export const PublicProfileSchema = z
  .object({
    uuid: z.uuid(),
    nickname: z.string(),
    color: z.string(),
    avatarId: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    pronoun: z.string().nullable(),
    displayPronouns: z.boolean(),
    songOfTheWeek: z.string().nullable(),
    zodiac: z.string().nullable(),
    bio: z.string().nullable(),
    profilePicture: z.string().nullable(),
    coverPicture: z.string().nullable(),
    facebook: z.string().nullable(),
    instagram: z.string().nullable(),
    twitter: z.string().nullable(),
    snapchat: z.string().nullable(),
    tiktok: z.string().nullable(),
    priceForGig: z.number().int().nullable(),
    badges: z.array(BadgeSchema),
    isBot: z.boolean(),
    verifiedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("Profile");

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function publicProfile(user: User, profile: Profile) {
  return {
    uuid: user.uuid,
    nickname: profile.nickname,
    color: profile.color,
    avatarId: profile.avatarId,
    firstName: profile.firstName,
    lastName: profile.lastName,
    pronoun: profile.pronoun,
    displayPronouns: profile.displayPronouns,
    songOfTheWeek: profile.songOfTheWeek,
    zodiac: profile.zodiac,
    bio: profile.bio,
    profilePicture: profile.profilePicture,
    coverPicture: profile.coverPicture,
    facebook: profile.facebook,
    instagram: profile.instagram,
    twitter: profile.twitter,
    snapchat: profile.snapchat,
    tiktok: profile.tiktok,
    priceForGig: profile.priceForGig,
    badges: user.badges,
    isBot: user.roles.includes("bot"),
    verifiedAt: iso(user.verifiedAt),
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
