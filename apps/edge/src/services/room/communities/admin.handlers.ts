import type { Context } from "hono";
import { ADMINS, requireUser, STAFF } from "../../../lib/auth.ts";
import type { AppEnv } from "../../../lib/context.ts";
import { parseCrudQuery, parseSelection } from "../../../lib/crud/index.ts";
import { found } from "../../../lib/errors.ts";
import type { AppRouteHandler } from "../../../lib/openapi.ts";
import type * as routes from "./admin.routes.ts";
import * as admin from "./admin.ts";
import { adminCommunityView, COMMUNITY_CRUD } from "./admin.ts";
import { COMMUNITY_NOT_FOUND, reloadCommunity } from "./community.ts";

export const adminList: AppRouteHandler<typeof routes.adminList> = async (c) => {
  await requireUser(c, { roles: STAFF });
  const query = parseCrudQuery(c.req.valid("query"), COMMUNITY_CRUD);
  const page = await admin.adminCommunityPage(c.var.deps.db, query);
  return c.json({ ...page, data: page.data.map((row) => adminCommunityView(row, query.fields)) }, 200);
};

export const adminCreate: AppRouteHandler<typeof routes.adminCreate> = async (c) => {
  const { user } = await requireUser(c, { roles: ADMINS });
  const { db, clock } = c.var.deps;
  const [created] = await admin.createCommunities(db, [c.req.valid("json")], user, clock.now());
  return c.json(adminCommunityView(found(created, COMMUNITY_NOT_FOUND), null), 201);
};

export const adminBulkCreate: AppRouteHandler<typeof routes.adminBulkCreate> = async (c) => {
  const { user } = await requireUser(c, { roles: ADMINS });
  const { db, clock } = c.var.deps;
  const created = await admin.createCommunities(db, c.req.valid("json").bulk, user, clock.now());
  return c.json(
    created.map((r) => adminCommunityView(r, null)),
    201,
  );
};

export const adminGet: AppRouteHandler<typeof routes.adminGet> = async (c) => {
  await requireUser(c, { roles: STAFF });
  const { fields } = parseSelection(c.req.valid("query"), COMMUNITY_CRUD);
  return c.json(adminCommunityView(await reloadCommunity(c.var.deps.db, c.req.valid("param").id, null), fields), 200);
};

/** Saves a change and answers the community as staff see it. */
async function change(c: Context<AppEnv>, id: string, input: Partial<admin.CommunityInput>) {
  const { db, clock } = c.var.deps;
  await admin.updateCommunity(db, id, input, clock.now());
  return c.json(adminCommunityView(await reloadCommunity(db, id, null), null), 200);
}

export const adminPatch: AppRouteHandler<typeof routes.adminPatch> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  return change(c, c.req.valid("param").id, c.req.valid("json"));
};

/** As nestjsx/crud does: the body is checked as on creation and laid over the stored community. */
export const adminReplace: AppRouteHandler<typeof routes.adminReplace> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  return change(c, c.req.valid("param").id, c.req.valid("json"));
};

export const adminDelete: AppRouteHandler<typeof routes.adminDelete> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  await admin.deleteCommunity(c.var.deps.db, c.req.valid("param").id);
  return c.body(null, 204);
};
