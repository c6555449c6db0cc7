import type { Db } from "@booth/db";
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ADMINS, hasAnyRole, MODERATORS, mayManage, rateLimit, requireService, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest, forbidden, found, notFound, USER_NOT_FOUND } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { sqlJson } from "../../lib/sql-json.ts";
import { changedUser, loadUser, ownProfile, userView } from "./accounts.ts";
import * as profiles from "./profiles.ts";
import { MAX_PROFILE_BATCH, PROFILE_NOT_FOUND, type ProfilePatch, visibleProfile } from "./profiles.ts";
import { profilesJson, publicProfile, searchProfiles } from "./public-profiles.ts";
import type * as routes from "./user-profiles.routes.ts";

/** Refuses an avatar the user may not wear: the merch service's rule, handed in (`UserServiceNeeds.checkWearable`). */
export type CheckWearable = (db: Db, avatarId: string, userUuid: string) => Promise<void>;

/** The caller's own profile update (the profile form and the socials form). */
async function updateOwnProfile(c: Context<AppEnv>, patch: ProfilePatch, checkWearable: CheckWearable) {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  // A new avatar must be one the caller may wear; the one they wear already stays (even if it was taken back since).
  if (typeof patch.avatarId === "string") {
    const current = await loadUser(c.var.deps.db, user.uuid);
    if (current?.profile?.avatarId !== patch.avatarId) await checkWearable(c.var.deps.db, patch.avatarId, user.uuid);
  }
  const updated = await profiles.updateProfile(c.var.deps.db, user.uuid, patch, c.var.deps.clock.now());
  return ownProfile(updated.user, updated.profile);
}

export const getUser: AppRouteHandler<typeof routes.getUser> = async (c) => {
  const { user: caller } = await requireUser(c, { types: ["user", "bot"] });
  const { id } = c.req.valid("param");
  if (id !== caller.uuid && !hasAnyRole(caller.roles, MODERATORS)) throw forbidden();
  const loaded = found(await loadUser(c.var.deps.db, id), USER_NOT_FOUND);
  return c.json(userView(loaded.user, loaded.profile), 200);
};

export const ownCapabilities: AppRouteHandler<typeof routes.ownCapabilities> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  return c.json({ capabilities: user.capabilities, roles: user.roles }, 200);
};

export const getOwnProfile: AppRouteHandler<typeof routes.getOwnProfile> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { profile } = await visibleProfile(c.var.deps.db, user.uuid);
  return c.json(ownProfile(user, profile), 200);
};

export const updateProfile =
  (checkWearable: CheckWearable): AppRouteHandler<typeof routes.updateProfile> =>
  async (c) =>
    c.json(await updateOwnProfile(c, c.req.valid("json"), checkWearable), 200);

export const updateSocials =
  (checkWearable: CheckWearable): AppRouteHandler<typeof routes.updateSocials> =>
  async (c) =>
    c.json(await updateOwnProfile(c, c.req.valid("json"), checkWearable), 200);

export const updateProfileAdmin: AppRouteHandler<typeof routes.updateProfileAdmin> = async (c) => {
  const { user: admin } = await requireUser(c, { roles: ADMINS });
  const { userUuid, ...patch } = c.req.valid("json");
  const { db, clock } = c.var.deps;
  const { user: target } = await visibleProfile(db, userUuid);
  if (!mayManage(admin, target)) throw forbidden();
  const updated = await profiles.updateProfile(db, userUuid, patch, clock.now());
  return c.json(ownProfile(updated.user, updated.profile), 200);
};

export const getProfile: AppRouteHandler<typeof routes.getProfile> = async (c) => {
  const { user, profile } = await visibleProfile(c.var.deps.db, c.req.valid("param").id);
  return c.json(publicProfile(user, profile), 200);
};

export const getProfileForService: AppRouteHandler<typeof routes.getProfileForService> = async (c) => {
  await requireService(c);
  const { user, profile } = await visibleProfile(c.var.deps.db, c.req.valid("param").id);
  return c.json(ownProfile(user, profile), 200);
};

export const listProfiles: AppRouteHandler<typeof routes.listProfiles> = async (c) => {
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
  return sqlJson(c, await profilesJson(c.var.deps.db, ids), 200);
};

export const addBadges: AppRouteHandler<typeof routes.addBadges> = async (c) => {
  await requireService(c);
  const { userUuid, badges } = c.req.valid("json");
  const { db, clock } = c.var.deps;
  const updated = await profiles.changeBadges(db, userUuid, (current) => [...current, ...badges], clock.now());
  return c.json(await changedUser(c, userUuid, updated), 200);
};

export const removeBadges: AppRouteHandler<typeof routes.removeBadges> = async (c) => {
  await requireService(c);
  const { userUuid, badges } = c.req.valid("json");
  const { db, clock } = c.var.deps;
  const updated = await profiles.changeBadges(
    db,
    userUuid,
    (current) => current.filter((b) => !badges.includes(b as never)),
    clock.now(),
  );
  return c.json(await changedUser(c, userUuid, updated), 200);
};

export const changeBadges: AppRouteHandler<typeof routes.changeBadges> = async (c) => {
  const { user: admin } = await requireUser(c, { roles: ADMINS });
  const { userUuid, badges } = c.req.valid("json");
  const { db, clock } = c.var.deps;
  const updated = await profiles.changeBadges(db, userUuid, () => badges, clock.now(), admin);
  return c.json(await changedUser(c, userUuid, updated), 200);
};

export const allUserProfiles: AppRouteHandler<typeof routes.allUserProfiles> = async (c) => {
  await requireService(c);
  const { take, skip } = c.req.valid("query");
  const { rows, total } = await profiles.activeProfiles(c.var.deps.db, take, skip);
  return c.json({ data: rows.map((r) => ownProfile(r.users, r.profiles)), total }, 200);
};

export const userProfileForService: AppRouteHandler<typeof routes.userProfileForService> = async (c) => {
  await requireService(c);
  const loaded = await loadUser(c.var.deps.db, c.req.valid("param").id);
  if (!loaded?.profile) throw notFound(PROFILE_NOT_FOUND);
  return c.json(userView(loaded.user, loaded.profile), 200);
};

/** A person may search 60 times a minute: enough to type, too few to walk the whole directory. */
export const searchPeople: AppRouteHandler<typeof routes.searchPeople> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  await rateLimit(c, `people-search:${user.uuid}`, 60, 60);
  const { q, limit } = c.req.valid("query");
  const { db, clock } = c.var.deps;
  return c.json(await searchProfiles(db, q, limit, clock.now()), 200);
};
