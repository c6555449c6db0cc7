import { type Db, schema } from "@booth/db";
import { asc, eq, isNull } from "drizzle-orm";
import { mayManage, type Role } from "../../lib/auth.ts";
import { uniqueOr } from "../../lib/db-errors.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { forbidden, HttpError, notFound, USER_NOT_FOUND } from "../../lib/errors.ts";
import { loadUser, nicknameTaken } from "./accounts.ts";

export const PROFILE_NOT_FOUND = errorMessage("PROFILE_NOT_FOUND");
export const NICKNAME_TAKEN = errorMessage("NICKNAME_TAKEN");
export const MAX_PROFILE_BATCH = 150;
export const MUSIC_PROVIDERS = [
  "apple",
  "audius",
  "soundcloud",
  "soundCloudPublic",
  "spotify",
  "youtube",
  "sevenDigital",
  "uploadService",
] as const;
/** The social handles of a profile: an empty string clears one. */
export const SOCIAL_FIELDS = ["facebook", "instagram", "twitter", "snapchat", "tiktok"] as const;

/** A partial profile update, as the profile forms send it (undefined fields are left as they are). */
export type ProfilePatch = { nickname?: string | undefined; musicProviders?: string[] | undefined } & Record<
  string,
  unknown
>;

/** Applies a partial profile update; an empty social string clears it. Answers the user and their profile. */
export async function updateProfile(db: Db, userUuid: string, patch: ProfilePatch, now: Date) {
  if (patch.nickname && (await nicknameTaken(db, patch.nickname, userUuid))) throw new HttpError(409, NICKNAME_TAKEN);
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    values[key] = (SOCIAL_FIELDS as readonly string[]).includes(key) && value === "" ? null : value;
  }
  if (values.musicProviders) values.musicProviders = [...new Set(values.musicProviders as string[])];
  await uniqueOr(
    () =>
      db
        .update(schema.profiles)
        .set({ ...values, updatedAt: now })
        .where(eq(schema.profiles.userUuid, userUuid)),
    () => new HttpError(409, NICKNAME_TAKEN),
  );
  const loaded = await loadUser(db, userUuid);
  if (!loaded?.profile) throw notFound(PROFILE_NOT_FOUND);
  return loaded as { user: typeof loaded.user; profile: NonNullable<typeof loaded.profile> };
}

/** An active account's profile, or the catalogue's 404. */
export async function visibleProfile(db: Db, uuid: string) {
  const loaded = await loadUser(db, uuid);
  if (!loaded?.profile || loaded.user.deactivatedAt) throw notFound(PROFILE_NOT_FOUND);
  return { user: loaded.user, profile: loaded.profile };
}

/** Changes a user's badges; an admin (`by`) only those of accounts they outrank, or their own. */
export async function changeBadges(
  db: Db,
  userUuid: string,
  next: (current: string[]) => string[],
  now: Date,
  by?: { uuid: string; roles: Role[] },
) {
  const updated = await db.transaction(async (tx) => {
    const [user] = await tx.select().from(schema.users).where(eq(schema.users.uuid, userUuid)).for("update");
    if (!user) throw notFound(USER_NOT_FOUND);
    if (by && !mayManage(by, user)) throw forbidden();
    const badges = [...new Set(next(user.badges))] as typeof user.badges;
    const [row] = await tx
      .update(schema.users)
      .set({ badges, updatedAt: now })
      .where(eq(schema.users.uuid, userUuid))
      .returning();
    return row ?? user;
  });
  const loaded = await loadUser(db, updated.uuid);
  return { user: updated, profile: loaded?.profile };
}

/** A page of the active accounts with their profiles, oldest first, and how many there are. */
export async function activeProfiles(db: Db, take: number, skip: number) {
  const active = isNull(schema.users.deactivatedAt);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(schema.users)
      .innerJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
      .where(active)
      .orderBy(asc(schema.users.createdAt), asc(schema.users.uuid))
      .limit(take)
      .offset(skip),
    db.$count(schema.users, active),
  ]);
  return { rows, total };
}
