import { requireService, requireUser, STAFF } from "../../lib/auth.ts";
import { parseCrudQuery, parseSelection } from "../../lib/crud/index.ts";
import { found } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./dj-fans.routes.ts";
import * as fans from "./fans.ts";

export const follow: AppRouteHandler<typeof routes.follow> = async (c) => {
  const { user } = await requireUser(c);
  const { djUuid } = c.req.valid("json");
  const { db, clock } = c.var.deps;
  return c.json(fans.linkView(await fans.follow(db, user.uuid, djUuid, clock.now())), 201);
};

export const followedDjs: AppRouteHandler<typeof routes.followedDjs> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { djUuid } = c.req.valid("query");
  const rows = await fans.followedBy(c.var.deps.db, user.uuid, djUuid);
  return c.json(rows.map(fans.linkView), 200);
};

export const fansOfDj: AppRouteHandler<typeof routes.fansOfDj> = async (c) => {
  const { skip, take } = c.req.valid("query");
  return c.json(await fans.fansPage(c.var.deps.db, "fans", c.req.valid("param").id, skip, take), 200);
};

export const fansOfDjLegacy: AppRouteHandler<typeof routes.fansOfDjLegacy> = async (c) => {
  const { skip, take } = c.req.valid("query");
  return c.json((await fans.fansPage(c.var.deps.db, "fans", c.req.valid("param").id, skip, take)).data, 200);
};

export const djsFollowed: AppRouteHandler<typeof routes.djsFollowed> = async (c) => {
  const { skip, take } = c.req.valid("query");
  return c.json(await fans.fansPage(c.var.deps.db, "followed", c.req.valid("param").id, skip, take), 200);
};

export const fanCounts: AppRouteHandler<typeof routes.fanCounts> = async (c) =>
  c.json(await fans.fanCounts(c.var.deps.db, c.req.valid("param").id), 200);

export const fanLink: AppRouteHandler<typeof routes.fanLink> = async (c) => {
  const link = found(await fans.findFanLink(c.var.deps.db, c.req.valid("param").id), fans.FAN_LINK_NOT_FOUND);
  return c.json(fans.linkView(link), 200);
};

export const adminFanLinks: AppRouteHandler<typeof routes.adminFanLinks> = async (c) => {
  await requireUser(c, { roles: STAFF });
  return c.json(await fans.fanLinksOf(c.var.deps.db, c.req.valid("param").id), 200);
};

export const unfollow: AppRouteHandler<typeof routes.unfollow> = async (c) => {
  const { user } = await requireUser(c);
  await fans.unfollow(c.var.deps.db, user.uuid, c.req.valid("param").id);
  return c.body(null, 204);
};

export const fanDevices: AppRouteHandler<typeof routes.fanDevices> = async (c) => {
  await requireService(c);
  return c.json(await fans.fanDevices(c.var.deps.db, c.req.valid("query").djUuid), 200);
};

export const adminDjs: AppRouteHandler<typeof routes.adminDjs> = async (c) => {
  await requireUser(c, { roles: STAFF });
  const query = parseCrudQuery(c.req.valid("query"), fans.DJ_CRUD);
  return c.json(await fans.djPage(c.var.deps.db, query), 200);
};

export const adminDj: AppRouteHandler<typeof routes.adminDj> = async (c) => {
  await requireUser(c, { roles: STAFF });
  const selection = parseSelection(c.req.valid("query"), fans.DJ_CRUD);
  const dj = await fans.findDj(c.var.deps.db, c.req.valid("param").id, selection.fields);
  return c.json(found(dj, fans.DJ_NOT_FOUND), 200);
};
