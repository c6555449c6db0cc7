import { ADMINS, MODERATORS, type Role, requireServiceOrRole, requireUser, STAFF } from "../../lib/auth.ts";
import { parseCrudQuery, parseSelection } from "../../lib/crud/index.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./moderation-actions.routes.ts";
import * as log from "./moderation-actions.ts";
import { moderationActionView } from "./views.ts";

/** Who reads the log, who writes it, who may erase from it. */
const READERS: readonly Role[] = MODERATORS;
const WRITERS: readonly Role[] = STAFF;
const ERASERS: readonly Role[] = ADMINS;

export const listActions: AppRouteHandler<typeof routes.listActions> = async (c) => {
  await requireServiceOrRole(c, READERS);
  const params = c.req.valid("query");
  log.refuseNul(params);
  const query = parseCrudQuery(params, log.MODERATION_ACTION_CRUD);
  return c.json(await log.actionPage(c.var.deps.db, query), 200);
};

export const getAction: AppRouteHandler<typeof routes.getAction> = async (c) => {
  await requireServiceOrRole(c, READERS);
  const selection = parseSelection(c.req.valid("query"), log.MODERATION_ACTION_CRUD);
  return c.json(await log.actionItem(c.var.deps.db, c.req.valid("param").id, selection), 200);
};

export const recordAction: AppRouteHandler<typeof routes.recordAction> = async (c) => {
  const caller = await requireServiceOrRole(c, WRITERS);
  const input = c.req.valid("json");
  const moderatorUuid = log.moderatorOf(caller, input);
  const { db, clock } = c.var.deps;
  const row = await log.recordAction(db, input, moderatorUuid, clock.now());
  return c.json(moderationActionView(row), 201);
};

export const recordActions: AppRouteHandler<typeof routes.recordActions> = async (c) => {
  const caller = await requireServiceOrRole(c, WRITERS);
  const { bulk } = c.req.valid("json");
  const entries = bulk.map((input) => ({ input, moderatorUuid: log.moderatorOf(caller, input) }));
  const { db, clock } = c.var.deps;
  const rows = await log.recordActions(db, entries, clock.now());
  return c.json(rows.map(moderationActionView), 201);
};

export const patchAction: AppRouteHandler<typeof routes.patchAction> = async (c) => {
  await requireServiceOrRole(c, WRITERS);
  const { db, clock } = c.var.deps;
  const row = await log.updateAction(db, c.req.valid("param").id, c.req.valid("json"), false, clock.now());
  return c.json(moderationActionView(row), 200);
};

export const replaceAction: AppRouteHandler<typeof routes.replaceAction> = async (c) => {
  await requireServiceOrRole(c, WRITERS);
  const { db, clock } = c.var.deps;
  const row = await log.updateAction(db, c.req.valid("param").id, c.req.valid("json"), true, clock.now());
  return c.json(moderationActionView(row), 200);
};

export const eraseAction: AppRouteHandler<typeof routes.eraseAction> = async (c) => {
  await requireUser(c, { roles: ERASERS });
  await log.eraseAction(c.var.deps.db, c.req.valid("param").id);
  return c.body(null, 204);
};
