import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Context } from "hono";
import { ADMINS, hasAnyRole, MODERATORS, mayManage, type Role, requireService, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { badRequest, forbidden, HttpError, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, UuidParam } from "../../lib/openapi.ts";
import { loadUser, nicknameTaken, ownProfile, publicProfile, userView } from "./accounts.ts";
import {
  BadgeSchema,
  CapabilitySchema,
  Color,
  Nickname,
  OwnProfileSchema,
  PublicProfileSchema,
  RoleSchema,
  UserSchema,
} from "./schemas.ts";

export const PROFILE_NOT_FOUND = "User profile not found.";
export const NICKNAME_TAKEN = "This nickname is already taken.";
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

const tags = ["Profiles"];
export const userProfileRoutes = createRouter();

const text = (max: number) => z.string().trim().max(max).nullable().optional();
const Social = z
  .string()
  .trim()
  .max(200)
  .regex(/^(|@?[\w.-]{1,100}|https:\/\/\S+)$/, "must be a handle or an https URL")
  .optional();
const Socials = { facebook: Social, instagram: Social, twitter: Social, snapchat: Social, tiktok: Social };
const ProfileUpdate = z.object({
  nickname: Nickname.optional(),
  color: Color.optional(),
  avatarId: z.string().trim().min(1).max(64).optional(),
  firstName: text(64),
  lastName: text(64),
  pronoun: text(32),
  displayPronouns: z.boolean().optional(),
  songOfTheWeek: text(200),
  zodiac: text(32),
  bio: text(1000),
  priceForGig: z.number().int().min(0).max(1_000_000).nullable().optional(),
  allowExplicitAudio: z.boolean().optional(),
  musicProviders: z.array(z.enum(MUSIC_PROVIDERS)).max(MUSIC_PROVIDERS.length).optional(),
  ...Socials,
});
type ProfileUpdate = z.infer<typeof ProfileUpdate>;

/** Applies a partial profile update; an empty social string clears it. */
async function updateProfile(c: Context<AppEnv>, userUuid: string, patch: ProfileUpdate) {
  const { db, clock } = c.var.deps;
  if (patch.nickname && (await nicknameTaken(db, patch.nickname, userUuid))) throw new HttpError(409, NICKNAME_TAKEN);
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    values[key] = key in Socials && value === "" ? null : value;
  }
  if (values.musicProviders) values.musicProviders = [...new Set(values.musicProviders as string[])];
  try {
    await db
      .update(schema.profiles)
      .set({ ...values, updatedAt: clock.now() })
      .where(eq(schema.profiles.userUuid, userUuid));
  } catch (err) {
    if (isUniqueViolation(err)) throw new HttpError(409, NICKNAME_TAKEN);
    throw err;
  }
  const loaded = await loadUser(db, userUuid);
  if (!loaded?.profile) throw notFound(PROFILE_NOT_FOUND);
  return loaded as { user: typeof loaded.user; profile: NonNullable<typeof loaded.profile> };
}

/** The caller's own profile update (the profile form and the socials form). */
async function updateOwnProfile(c: Context<AppEnv>, patch: ProfileUpdate) {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const updated = await updateProfile(c, user.uuid, patch);
  return ownProfile(updated.user, updated.profile);
}

/** An active account's profile, or the catalogue's 404. */
async function visibleProfile(c: Context<AppEnv>, uuid: string) {
  const loaded = await loadUser(c.var.deps.db, uuid);
  if (!loaded?.profile || loaded.user.deactivatedAt) throw notFound(PROFILE_NOT_FOUND);
  return { user: loaded.user, profile: loaded.profile };
}

userProfileRoutes.openapi(
  createRoute({
    method: "get",
    path: "/users/user/{id}",
    tags: ["Users"],
    summary: "A user's account (the user themselves, or moderators and above)",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user: caller } = await requireUser(c, { types: ["user", "bot"] });
    const { id } = c.req.valid("param");
    if (id !== caller.uuid && !hasAnyRole(caller.roles, MODERATORS)) throw forbidden();
    const loaded = await loadUser(c.var.deps.db, id);
    if (!loaded) throw notFound("User not found.");
    return c.json(userView(loaded.user, loaded.profile), 200);
  },
);

userProfileRoutes.openapi(
  createRoute({
    method: "get",
    path: "/users/capabilities",
    tags: ["Users"],
    summary: "What the caller may do: capabilities and roles",
    security: bearer,
    responses: {
      200: json(
        z.object({ capabilities: z.array(CapabilitySchema), roles: z.array(RoleSchema) }).openapi("Capabilities"),
      ),
      ...errors(401, 403),
    },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    return c.json({ capabilities: user.capabilities, roles: user.roles }, 200);
  },
);

userProfileRoutes.openapi(
  createRoute({
    method: "get",
    path: "/users/profile",
    tags,
    summary: "The caller's own profile",
    security: bearer,
    responses: { 200: json(OwnProfileSchema), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const { profile } = await visibleProfile(c, user.uuid);
    return c.json(ownProfile(user, profile), 200);
  },
);

userProfileRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/profile",
    tags,
    summary: "Update the caller's own profile (only the fields sent change)",
    security: bearer,
    request: jsonBody(ProfileUpdate),
    responses: { 200: json(OwnProfileSchema), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => c.json(await updateOwnProfile(c, c.req.valid("json")), 200),
);

userProfileRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/user-socials",
    tags,
    summary: "Set the caller's social links (an empty string clears one)",
    security: bearer,
    request: jsonBody(z.object(Socials)),
    responses: { 200: json(OwnProfileSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => c.json(await updateOwnProfile(c, c.req.valid("json")), 200),
);

userProfileRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/profile-admin",
    tags: ["Admin"],
    summary: "An admin edits anyone's profile",
    security: bearer,
    request: jsonBody(ProfileUpdate.extend({ userUuid: z.uuid() })),
    responses: { 200: json(OwnProfileSchema), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    const { user: admin } = await requireUser(c, { roles: ADMINS });
    const { userUuid, ...patch } = c.req.valid("json");
    const { user: target } = await visibleProfile(c, userUuid);
    if (!mayManage(admin, target)) throw forbidden();
    const updated = await updateProfile(c, userUuid, patch);
    return c.json(ownProfile(updated.user, updated.profile), 200);
  },
);

userProfileRoutes.openapi(
  createRoute({
    method: "get",
    path: "/profile/{id}",
    tags,
    summary: "A user's public profile (anyone)",
    request: { params: UuidParam },
    responses: { 200: json(PublicProfileSchema), ...errors(400, 404) },
  }),
  async (c) => {
    const { user, profile } = await visibleProfile(c, c.req.valid("param").id);
    return c.json(publicProfile(user, profile), 200);
  },
);

userProfileRoutes.openapi(
  createRoute({
    method: "get",
    path: "/profile/{id}/service",
    tags: ["Service"],
    summary: "A user's full profile, for services",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(OwnProfileSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const { user, profile } = await visibleProfile(c, c.req.valid("param").id);
    return c.json(ownProfile(user, profile), 200);
  },
);

userProfileRoutes.openapi(
  createRoute({
    method: "get",
    path: "/users/profiles",
    tags,
    summary: `Public profiles of many users at once (at most ${MAX_PROFILE_BATCH}); unknown ids are skipped`,
    request: {
      query: z.object({
        users: z
          .union([z.string(), z.array(z.string())])
          .openapi({ description: "user uuids: comma-separated or repeated" }),
      }),
    },
    responses: { 200: json(z.array(PublicProfileSchema)), ...errors(400) },
  }),
  async (c) => {
    const raw = c.req.queries("users") ?? [];
    const ids = [
      ...new Set(
        raw
          .flatMap((v) => v.split(","))
          .map((v) => v.trim())
          .filter(Boolean),
      ),
    ];
    const bad = ids.filter((id) => !z.uuid().safeParse(id).success);
    if (bad.length) throw badRequest(bad.map((id) => `users: ${id} is not a uuid`));
    if (ids.length > MAX_PROFILE_BATCH) throw badRequest([`users: at most ${MAX_PROFILE_BATCH} ids per call`]);
    if (ids.length === 0) return c.json([], 200);
    const rows = await c.var.deps.db
      .select()
      .from(schema.users)
      .innerJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
      .where(and(inArray(schema.users.uuid, ids), isNull(schema.users.deactivatedAt)));
    const byId = new Map(rows.map((r) => [r.users.uuid, publicProfile(r.users, r.profiles)]));
    return c.json(
      ids.flatMap((id) => byId.get(id) ?? []),
      200,
    );
  },
);

const BadgesBody = z.object({ userUuid: z.uuid(), badges: z.array(BadgeSchema).min(1).max(6) });

/** Changes a user's badges; an admin (`by`) only those of accounts they outrank, or their own. */
async function changeBadges(
  c: Context<AppEnv>,
  userUuid: string,
  next: (current: string[]) => string[],
  by?: { uuid: string; roles: Role[] },
) {
  const { db, clock } = c.var.deps;
  const updated = await db.transaction(async (tx) => {
    const [user] = await tx.select().from(schema.users).where(eq(schema.users.uuid, userUuid)).for("update");
    if (!user) throw notFound("User not found.");
    if (by && !mayManage(by, user)) throw forbidden();
    const badges = [...new Set(next(user.badges))] as typeof user.badges;
    const [row] = await tx
      .update(schema.users)
      .set({ badges, updatedAt: clock.now() })
      .where(eq(schema.users.uuid, userUuid))
      .returning();
    return row ?? user;
  });
  const loaded = await loadUser(db, updated.uuid);
  return userView(updated, loaded?.profile);
}

userProfileRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/add-badges-service",
    tags: ["Service"],
    summary: "Add badges to a user (services)",
    security: bearer,
    request: jsonBody(BadgesBody),
    responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const { userUuid, badges } = c.req.valid("json");
    return c.json(await changeBadges(c, userUuid, (current) => [...current, ...badges]), 200);
  },
);

userProfileRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/remove-badges-service",
    tags: ["Service"],
    summary: "Remove badges from a user (services)",
    security: bearer,
    request: jsonBody(BadgesBody),
    responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const { userUuid, badges } = c.req.valid("json");
    return c.json(
      await changeBadges(c, userUuid, (current) => current.filter((b) => !badges.includes(b as never))),
      200,
    );
  },
);

userProfileRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/change-badges-admin",
    tags: ["Admin"],
    summary: "An admin sets a user's badges exactly",
    security: bearer,
    request: jsonBody(z.object({ userUuid: z.uuid(), badges: z.array(BadgeSchema).max(6) })),
    responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user: admin } = await requireUser(c, { roles: ADMINS });
    const { userUuid, badges } = c.req.valid("json");
    return c.json(await changeBadges(c, userUuid, () => badges, admin), 200);
  },
);

userProfileRoutes.openapi(
  createRoute({
    method: "get",
    path: "/users/service/all-user-profiles",
    tags: ["Service"],
    summary: "Every active user's full profile, paged (services)",
    security: bearer,
    request: {
      query: z.object({
        take: z.coerce.number().int().min(1).max(1000).default(100),
        skip: z.coerce.number().int().min(0).default(0),
      }),
    },
    responses: {
      200: json(z.object({ data: z.array(OwnProfileSchema), total: z.number().int() }).openapi("ProfilePage")),
      ...errors(400, 401, 403),
    },
  }),
  async (c) => {
    await requireService(c);
    const { take, skip } = c.req.valid("query");
    const { db } = c.var.deps;
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
    return c.json({ data: rows.map((r) => ownProfile(r.users, r.profiles)), total }, 200);
  },
);

userProfileRoutes.openapi(
  createRoute({
    method: "get",
    path: "/users/service/{id}/user-profile",
    tags: ["Service"],
    summary: "One user's account and profile (services)",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const loaded = await loadUser(c.var.deps.db, c.req.valid("param").id);
    if (!loaded?.profile) throw notFound(PROFILE_NOT_FOUND);
    return c.json(userView(loaded.user, loaded.profile), 200);
  },
);
