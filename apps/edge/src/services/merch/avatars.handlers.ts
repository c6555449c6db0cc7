import { adminHandlers } from "../../lib/admin-resource.ts";
import { ADMINS, requireService, requireUser, STAFF } from "../../lib/auth.ts";
import { notFound } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import * as routes from "./avatars.routes.ts";
import {
  AVATAR_NOT_FOUND,
  assignments,
  assignmentView,
  avatars,
  avatarView,
  backfillSeasonAvatars as backfill,
  createAvatar as createRow,
  giveAvatar,
  handleSeasonPoints as handlePoints,
  avatarImages as images,
  listAvatars,
  updateAvatar as updateRow,
  wearableAvatars as wearable,
  mayWear as wearing,
} from "./avatars.ts";

const catalogue = adminHandlers({ view: avatarView, find: avatars.find });

export const createAvatar = catalogue.create(routes.createAvatar, createRow);
export const updateAvatar = catalogue.update(routes.updateAvatar, updateRow);
export const deleteAvatar = catalogue.remove(routes.deleteAvatar, avatars.remove);
export const adminDeleteAvatar = catalogue.remove(routes.adminDeleteAvatar, avatars.remove);
export const adminListAvatars = catalogue.staffList(routes.adminListAvatars, (db) => listAvatars(db, "all"));
export const adminGetAvatar = catalogue.staffGet(routes.adminGetAvatar);

export const wearableAvatars: AppRouteHandler<typeof routes.wearableAvatars> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  return c.json((await wearable(c.var.deps.db, user.uuid)).map(avatarView), 200);
};

export const visibleAvatars: AppRouteHandler<typeof routes.visibleAvatars> = async (c) =>
  c.json((await listAvatars(c.var.deps.db, null)).map(avatarView), 200);

export const subscriberAvatars: AppRouteHandler<typeof routes.subscriberAvatars> = async (c) =>
  c.json((await listAvatars(c.var.deps.db, "SUBSCRIBER_ONLY")).map(avatarView), 200);

export const avatarImages: AppRouteHandler<typeof routes.avatarImages> = async (c) => {
  // The same for everyone and changed only by admins: browsers and the web may keep it a minute.
  c.header("Cache-Control", "public, max-age=60");
  return c.json({ images: await images(c.var.deps.db) }, 200);
};

export const getAvatar: AppRouteHandler<typeof routes.getAvatar> = async (c) => {
  const avatar = await avatars.find(c.var.deps.db, c.req.valid("param").slug);
  if (avatar.status === "PRIVATE")
    await requireUser(c, { roles: STAFF }).catch(() => {
      throw notFound(AVATAR_NOT_FOUND);
    });
  return c.json(avatarView(avatar), 200);
};

export const mayWear: AppRouteHandler<typeof routes.mayWear> = async (c) => {
  const { slug, uuid } = c.req.valid("param");
  const { discordOnly: _, ...answer } = await wearing(c.var.deps.db, slug, uuid);
  return c.json(answer, 200);
};

export const serviceGetAvatar: AppRouteHandler<typeof routes.serviceGetAvatar> = async (c) => {
  await requireService(c);
  return c.json(avatarView(await avatars.find(c.var.deps.db, c.req.valid("param").avatarSlug)), 200);
};

export const assignAvatar: AppRouteHandler<typeof routes.assignAvatar> = async (c) => {
  await requireService(c);
  const { slug } = c.req.valid("param");
  const { userUuid, assignmentType } = c.req.valid("json");
  const { db, clock } = c.var.deps;
  return c.json(assignmentView(await giveAvatar(db, slug, userUuid, assignmentType, clock.now())), 201);
};

export const removeAssignment: AppRouteHandler<typeof routes.removeAssignment> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  await assignments.remove(c.var.deps.db, c.req.valid("param").avatarAssignmentId);
  return c.body(null, 204);
};

export const handleSeasonPoints: AppRouteHandler<typeof routes.handleSeasonPoints> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const { seasonId } = c.req.valid("json");
  const { db, clock } = c.var.deps;
  return c.json({ seasonId, awarded: await handlePoints(db, seasonId, clock.now()) }, 200);
};

export const backfillSeasonAvatars: AppRouteHandler<typeof routes.backfillSeasonAvatars> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const { seasonId } = c.req.valid("param");
  const { db, clock } = c.var.deps;
  return c.json({ seasonId, awarded: await backfill(db, seasonId, clock.now(), c.req.valid("query").limit) }, 200);
};
