import { requireUser, STAFF } from "../../lib/auth.ts";
import { parseCrudQuery, parseSelection } from "../../lib/crud/index.ts";
import { found, USER_NOT_FOUND } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./admin-user-list.routes.ts";
import { adminUser, USER_CRUD, userPage } from "./admin-users.ts";

export const listUsers: AppRouteHandler<typeof routes.listUsers> = async (c) => {
  await requireUser(c, { roles: STAFF });
  const query = parseCrudQuery(c.req.valid("query"), USER_CRUD);
  return c.json(await userPage(c.var.deps.db, query), 200);
};

export const getUser: AppRouteHandler<typeof routes.getUser> = async (c) => {
  await requireUser(c, { roles: STAFF });
  const selection = parseSelection(c.req.valid("query"), USER_CRUD);
  return c.json(found(await adminUser(c.var.deps.db, c.req.valid("param").id, selection), USER_NOT_FOUND), 200);
};
