import { ADMINS, MODERATORS, requireUser } from "../../lib/auth.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { forgetAccount } from "./account-cache.ts";
import type * as routes from "./account-deactivation.routes.ts";
import * as deactivation from "./deactivation.ts";
import { requestView } from "./deactivation.ts";
import { kickFromLiveRooms, LIVE_KICK_REASONS } from "./live-rooms.ts";

export const requestDeactivation: AppRouteHandler<typeof routes.requestDeactivation> = async (c) => {
  const { user } = await requireUser(c);
  const { db, clock } = c.var.deps;
  const reason = c.req.valid("json").reason ?? null;
  const { request, nickname } = await deactivation.requestDeactivation(db, user.uuid, reason, clock.now());
  return c.json(requestView(request, user.email, nickname), 201);
};

export const listDeactivationRequests: AppRouteHandler<typeof routes.listDeactivationRequests> = async (c) => {
  await requireUser(c, { roles: MODERATORS });
  const rows = await deactivation.pendingRequests(c.var.deps.db, c.req.valid("query"));
  return c.json(
    rows.map((r) => requestView(r.request, r.email, r.nickname)),
    200,
  );
};

export const cancelDeactivation: AppRouteHandler<typeof routes.cancelDeactivation> = async (c) => {
  const caller = await requireUser(c, { roles: MODERATORS });
  const { db, clock } = c.var.deps;
  await deactivation.cancelRequest(db, caller, c.req.valid("json").userUuid, clock.now());
  return c.body(null, 204);
};

export const deactivate: AppRouteHandler<typeof routes.deactivate> = async (c) => {
  const caller = await requireUser(c, { roles: ADMINS });
  const { db, clock } = c.var.deps;
  const userUuid = await deactivation.deactivateAccount(db, caller, c.req.valid("param").id, clock.now());
  await forgetAccount(c.var.deps.cache, userUuid);
  await kickFromLiveRooms(c.var.deps, userUuid, LIVE_KICK_REASONS.deactivation);
  return c.body(null, 204);
};

export const reactivate: AppRouteHandler<typeof routes.reactivate> = async (c) => {
  const caller = await requireUser(c, { roles: ADMINS });
  const { db, clock } = c.var.deps;
  const { id } = c.req.valid("param");
  await deactivation.reactivateAccount(db, caller, id, clock.now());
  await forgetAccount(c.var.deps.cache, id);
  return c.body(null, 204);
};
