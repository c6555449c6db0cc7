import { requireUser } from "../../lib/auth.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./blocked-users.routes.ts";
import * as blocks from "./blocks.ts";

export const block: AppRouteHandler<typeof routes.block> = async (c) => {
  const { user } = await requireUser(c);
  const { userUuid } = c.req.valid("json");
  const { db, clock } = c.var.deps;
  return c.json(await blocks.block(db, user.uuid, userUuid, clock.now()), 201);
};

export const blockedUsers: AppRouteHandler<typeof routes.blockedUsers> = async (c) => {
  const { user } = await requireUser(c);
  return c.json(await blocks.blocksOf(c.var.deps.db, user.uuid), 200);
};

export const blockedUser: AppRouteHandler<typeof routes.blockedUser> = async (c) => {
  const { user } = await requireUser(c);
  return c.json(await blocks.blockOf(c.var.deps.db, user.uuid, c.req.valid("param").id), 200);
};

export const unblock: AppRouteHandler<typeof routes.unblock> = async (c) => {
  const { user } = await requireUser(c);
  await blocks.unblock(c.var.deps.db, user.uuid, c.req.valid("param").id);
  return c.body(null, 204);
};
