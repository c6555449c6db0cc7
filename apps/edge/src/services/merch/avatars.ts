import { type Db, schema, type Tx } from "@booth/db";
import type { AvatarAssignmentType, AvatarStatus } from "@booth/db/schema";
import { and, asc, eq, gte, inArray, isNotNull, isNull, ne, notExists, or, sql } from "drizzle-orm";
import { adminItems } from "../../lib/admin-items.ts";
import { isUniqueViolation, postgresCode } from "../../lib/db-errors.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { badRequest, conflict, found, HttpError, USER_NOT_FOUND } from "../../lib/errors.ts";
import { firstRow } from "../../lib/rows.ts";
import { hasDiscordLink } from "../user/public.ts";
import { fileUrl } from "./files.ts";
import { SEASON_NOT_FOUND } from "./seasons.ts";

export const AVATAR_NOT_FOUND = errorMessage("AVATAR_NOT_FOUND");
export const ASSIGNMENT_NOT_FOUND = "Assignment not found.";
export const AVATAR_TAKEN = "An avatar with this slug exists.";
export const AVATAR_LOCKED = "You have not unlocked this avatar.";
export const DISCORD_ONLY = "This avatar is worn by Discord accounts only: link Discord to your account first.";
export const ALREADY_ASSIGNED = "This user already has this avatar.";
export const SEASON_NOT_ENDED = "This season has not ended yet.";
export const SEASON_HANDLED = "This season's points have already been handled.";
const MISSING_REFERENCE = "The season or file does not exist.";

export type Avatar = typeof schema.avatars.$inferSelect;
export type Assignment = typeof schema.avatarAssignments.$inferSelect;

export const avatarView = (a: Avatar) => ({
  slug: a.slug,
  name: a.name,
  avatarStatus: a.status,
  seasonId: a.seasonId,
  minPoints: a.minPoints,
  discordOnly: a.discordOnly,
  imageUrl: fileUrl(a.fileId),
  createdAt: a.createdAt.toISOString(),
});
export const assignmentView = (a: Assignment) => ({ ...a, createdAt: a.createdAt.toISOString() });

export const avatars = adminItems(schema.avatars, schema.avatars.slug, AVATAR_NOT_FOUND);
export const assignments = adminItems(schema.avatarAssignments, schema.avatarAssignments.id, ASSIGNMENT_NOT_FOUND);

const ordered = asc(schema.avatars.name);

/** A missing season or file (a foreign key, PostgreSQL 23503) is the caller's mistake: a 400. */
const missingReference = (err: unknown): never => {
  if (postgresCode(err) === "23503") throw badRequest(MISSING_REFERENCE);
  throw err;
};

export interface AvatarFields {
  slug: string;
  name: string;
  avatarStatus: AvatarStatus;
  seasonId?: string | null | undefined;
  minPoints?: number | null | undefined;
  discordOnly: boolean;
  fileId?: string | null | undefined;
}

export async function createAvatar(db: Db, { avatarStatus, ...body }: AvatarFields, now: Date) {
  if (avatarStatus === "SEASON_AWARD" && !body.seasonId)
    throw badRequest(["seasonId: a season award needs its season"]);
  return avatars.insert(db, { ...body, status: avatarStatus, createdAt: now, updatedAt: now }).catch((err) => {
    if (isUniqueViolation(err)) throw conflict(AVATAR_TAKEN);
    return missingReference(err);
  });
}

export async function updateAvatar(
  db: Db,
  slug: string,
  { avatarStatus, ...patch }: Partial<Omit<AvatarFields, "slug">>,
  now: Date,
) {
  await avatars.find(db, slug);
  return avatars
    .update(db, slug, { ...patch, ...(avatarStatus ? { status: avatarStatus } : {}), updatedAt: now })
    .catch(missingReference);
}

/** The avatars a user may wear: public ones and those assigned to them (`discordOnly` ones with Discord linked). */
export async function wearableAvatars(db: Db, userUuid: string) {
  const discord = await hasDiscordLink(db, userUuid);
  const rows = await db
    .selectDistinct({ avatar: schema.avatars })
    .from(schema.avatars)
    .leftJoin(
      schema.avatarAssignments,
      and(
        eq(schema.avatarAssignments.avatarSlug, schema.avatars.slug),
        eq(schema.avatarAssignments.userUuid, userUuid),
      ),
    )
    .where(
      and(
        or(eq(schema.avatars.status, "PUBLIC"), eq(schema.avatarAssignments.userUuid, userUuid)),
        discord ? undefined : eq(schema.avatars.discordOnly, false),
      ),
    )
    .orderBy(ordered);
  return rows.map((r) => r.avatar);
}

/** Avatars by name: every one (`all`), those that are not private (null), or those of one status. */
export const listAvatars = (db: Db, status: AvatarStatus | null | "all") =>
  db
    .select()
    .from(schema.avatars)
    .where(
      status === "all" ? undefined : status ? eq(schema.avatars.status, status) : ne(schema.avatars.status, "PRIVATE"),
    )
    .orderBy(ordered);

/**
 * The picture of every avatar that has one, by slug, private ones included: whoever wears an avatar shows its
 * picture to everyone who sees them, so the web draws any person from this one list.
 */
export async function avatarImages(db: Db) {
  const rows = await db
    .select({ slug: schema.avatars.slug, fileId: schema.avatars.fileId })
    .from(schema.avatars)
    .where(isNotNull(schema.avatars.fileId));
  return Object.fromEntries(rows.map((r) => [r.slug, fileUrl(r.fileId) as string]));
}

/** The avatar every profile starts with: it needs no avatar row and anyone may wear it. */
export const DEFAULT_AVATAR = "default";

/** Refuses an avatar the user may not wear (404 when there is no such avatar, 403 when it is locked for them). */
export async function checkWearable(db: Db, slug: string, userUuid: string) {
  if (slug === DEFAULT_AVATAR) return;
  const { allowed, discordOnly } = await mayWear(db, slug, userUuid);
  if (!allowed) throw new HttpError(403, discordOnly ? DISCORD_ONLY : AVATAR_LOCKED);
}

/** Whether a user may wear an avatar, and their assignment of it if any. */
export async function mayWear(db: Db, slug: string, userUuid: string) {
  const avatar = await avatars.find(db, slug);
  const assignment = await firstRow(
    db,
    schema.avatarAssignments,
    and(eq(schema.avatarAssignments.avatarSlug, slug), eq(schema.avatarAssignments.userUuid, userUuid)),
  );
  return {
    slug,
    userUuid,
    allowed:
      (avatar.status === "PUBLIC" || !!assignment) && (!avatar.discordOnly || (await hasDiscordLink(db, userUuid))),
    discordOnly: avatar.discordOnly,
    assignment: assignment ? assignmentView(assignment) : null,
  };
}

// ---- assignments

/** Gives an avatar to users; those who have it already are skipped. Answers the new assignments. */
export async function assignAvatar(
  tx: Tx | Db,
  slug: string,
  userUuids: string[],
  type: AvatarAssignmentType,
  now: Date,
) {
  if (userUuids.length === 0) return [];
  return tx
    .insert(schema.avatarAssignments)
    .values(userUuids.map((userUuid) => ({ avatarSlug: slug, userUuid, assignmentType: type, createdAt: now })))
    .onConflictDoNothing()
    .returning();
}

/**
 * Subscriber-only avatars are worn through assignments: a subscriber holds every SUBSCRIBER_ONLY avatar as a PURCHASED
 * assignment, and loses those when no longer subscribed. Assignments given by hand (MANUAL) are left alone.
 */
export async function setSubscriberAvatars(tx: Tx, userUuid: string, subscribed: boolean, now: Date) {
  const avatars = tx
    .select({ slug: schema.avatars.slug })
    .from(schema.avatars)
    .where(eq(schema.avatars.status, "SUBSCRIBER_ONLY"));
  if (subscribed) {
    for (const { slug } of await avatars) await assignAvatar(tx, slug, [userUuid], "PURCHASED", now);
    return;
  }
  await tx
    .delete(schema.avatarAssignments)
    .where(
      and(
        eq(schema.avatarAssignments.userUuid, userUuid),
        eq(schema.avatarAssignments.assignmentType, "PURCHASED"),
        inArray(schema.avatarAssignments.avatarSlug, avatars),
      ),
    );
}

/** Gives one user an avatar: 404 for an unknown avatar or user, 409 when they have it already. */
export async function giveAvatar(db: Db, slug: string, userUuid: string, type: AvatarAssignmentType, now: Date) {
  await avatars.find(db, slug);
  const [user] = await db.select({ uuid: schema.users.uuid }).from(schema.users).where(eq(schema.users.uuid, userUuid));
  found(user, USER_NOT_FOUND);
  const [row] = await assignAvatar(db, slug, [userUuid], type, now);
  if (!row) throw conflict(ALREADY_ASSIGNED);
  return row;
}

// ---- season awards

/** Gives a season's award avatars to everyone who reached their points in it, up to `limit` new assignments. */
async function awardSeason(tx: Tx, seasonId: string, now: Date, limit = 10_000) {
  const awards = await tx
    .select()
    .from(schema.avatars)
    .where(and(eq(schema.avatars.status, "SEASON_AWARD"), eq(schema.avatars.seasonId, seasonId)));
  let given = 0;
  for (const avatar of awards) {
    const winners = await tx
      .select({ userUuid: schema.rankingStatuses.userUuid })
      .from(schema.rankingStatuses)
      .where(
        and(
          eq(schema.rankingStatuses.seasonId, seasonId),
          gte(schema.rankingStatuses.balance, avatar.minPoints ?? 1),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(schema.avatarAssignments)
              .where(
                and(
                  eq(schema.avatarAssignments.avatarSlug, avatar.slug),
                  eq(schema.avatarAssignments.userUuid, schema.rankingStatuses.userUuid),
                ),
              ),
          ),
        ),
      )
      .limit(Math.max(limit - given, 0));
    given += (
      await assignAvatar(
        tx,
        avatar.slug,
        winners.map((w) => w.userUuid),
        "SEASON_AWARD",
        now,
      )
    ).length;
  }
  return given;
}

/** Closes an ended season once: its award avatars go to those who earned them. Answers how many were given. */
export async function handleSeasonPoints(db: Db, seasonId: string, now: Date) {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(schema.seasons).where(eq(schema.seasons.id, seasonId)).for("update");
    const season = found(row, SEASON_NOT_FOUND);
    if (season.end > now) throw new HttpError(409, SEASON_NOT_ENDED);
    if (season.handledAt) throw new HttpError(409, SEASON_HANDLED);
    const given = await awardSeason(tx, seasonId, now);
    await tx
      .update(schema.seasons)
      .set({ handledAt: now })
      .where(and(eq(schema.seasons.id, seasonId), isNull(schema.seasons.handledAt)));
    return given;
  });
}

/** Gives a season's award avatars to those who have reached them and lack them, up to `limit`. */
export async function backfillSeasonAvatars(db: Db, seasonId: string, now: Date, limit: number) {
  const [season] = await db
    .select({ id: schema.seasons.id })
    .from(schema.seasons)
    .where(eq(schema.seasons.id, seasonId));
  found(season, SEASON_NOT_FOUND);
  return db.transaction((tx) => awardSeason(tx, seasonId, now, limit));
}
