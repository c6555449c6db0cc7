import type { Capability } from "@booth/db/schema";
import type { Context } from "hono";
import { ADMINS, MODERATORS, requireUser, STAFF } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest, forbidden, HttpError } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { forgetAccount } from "./account-cache.ts";
import { changedUser } from "./accounts.ts";
import { kickFromLiveRooms, LIVE_KICK_REASONS } from "./live-rooms.ts";
import * as moderation from "./moderation.ts";
import { BOT_ROLE_NOT_GRANTED, commentView, type Sanction, sanctionView } from "./moderation.ts";
import type * as routes from "./user-moderation.routes.ts";

async function sanction(
  c: Context<AppEnv>,
  input: { userUuid: string; reason?: string | undefined; type: Sanction["type"]; expiresAt?: Date },
) {
  const caller = await requireUser(c, { roles: MODERATORS });
  const row = await moderation.recordSanction(c.var.deps.db, caller, input, c.var.deps.clock.now());
  await forgetAccount(c.var.deps.cache, row.userUuid);
  // Their sessions ended with the sanction; their live rooms hear of it now, not when the token runs out.
  await kickFromLiveRooms(c.var.deps, row.userUuid, LIVE_KICK_REASONS[input.type]);
  return sanctionView(row);
}

export const kick: AppRouteHandler<typeof routes.kick> = async (c) =>
  c.json(await sanction(c, { ...c.req.valid("json"), type: "kick" }), 201);

export const ban: AppRouteHandler<typeof routes.ban> = async (c) =>
  c.json(await sanction(c, { ...c.req.valid("json"), type: "ban" }), 201);

export const temporaryBan: AppRouteHandler<typeof routes.temporaryBan> = async (c) => {
  const body = c.req.valid("json");
  const now = c.var.deps.clock.now();
  const expiresAt = body.expiresAt
    ? new Date(body.expiresAt)
    : new Date(now.getTime() + (body.durationMinutes ?? 0) * 60_000);
  if (expiresAt <= now) throw new HttpError(400, ["expiresAt: must be in the future"]);
  return c.json(
    await sanction(c, { userUuid: body.userUuid, reason: body.reason, type: "temporaryBan", expiresAt }),
    201,
  );
};

export const unban: AppRouteHandler<typeof routes.unban> = async (c) => {
  const caller = await requireUser(c, { roles: MODERATORS });
  const { db, clock } = c.var.deps;
  const { userUuid } = c.req.valid("json");
  const lifted = await moderation.liftBans(db, caller, userUuid, clock.now());
  await forgetAccount(c.var.deps.cache, userUuid);
  return c.json({ lifted }, 200);
};

export const addRole: AppRouteHandler<typeof routes.addRole> = async (c) => {
  const caller = await requireUser(c, { roles: ADMINS });
  const { userUuid, role } = c.req.valid("json");
  // A bot is an account made by bot sign-up (its owner, its tokens), not a role a person can be given.
  if (role === "bot") throw badRequest([BOT_ROLE_NOT_GRANTED]);
  if ((role === "admin" || role === "superUser") && !caller.user.roles.includes("superUser")) throw forbidden();
  const updated = await moderation.grantRole(c.var.deps.db, caller, userUuid, role, c.var.deps.clock.now());
  return c.json(await changedUser(c, userUuid, updated), 200);
};

export const addGlobalModeratorRole: AppRouteHandler<typeof routes.addGlobalModeratorRole> = async (c) => {
  const caller = await requireUser(c, { roles: STAFF });
  const { db, clock } = c.var.deps;
  const { userUuid } = c.req.valid("json");
  const updated = await moderation.grantRole(db, caller, userUuid, "globalModerator", clock.now());
  return c.json(await changedUser(c, userUuid, updated), 200);
};

/** Gives user `id` the `capability` (`granted`) or takes it away, and answers the changed user. */
async function changeCapability(
  c: Context<AppEnv>,
  { id, capability }: { id: string; capability: Capability },
  granted: boolean,
) {
  const caller = await requireUser(c, { roles: MODERATORS });
  const { db, clock } = c.var.deps;
  const updated = await moderation.changeCapability(db, caller, id, capability, granted, () => clock.now());
  return changedUser(c, id, updated);
}

export const addCapability: AppRouteHandler<typeof routes.addCapability> = async (c) =>
  c.json(await changeCapability(c, c.req.valid("param"), true), 200);

export const removeCapability: AppRouteHandler<typeof routes.removeCapability> = async (c) =>
  c.json(await changeCapability(c, c.req.valid("param"), false), 200);

export const addComment: AppRouteHandler<typeof routes.addComment> = async (c) => {
  const { user } = await requireUser(c, { roles: MODERATORS });
  const { userUuid, comment } = c.req.valid("json");
  const { db, clock } = c.var.deps;
  const row = await moderation.addComment(db, { userUuid, authorUuid: user.uuid, comment, now: clock.now() });
  return c.json(commentView(row), 201);
};

export const listComments: AppRouteHandler<typeof routes.listComments> = async (c) => {
  await requireUser(c, { roles: MODERATORS });
  const rows = await moderation.commentsAbout(c.var.deps.db, c.req.valid("param").id);
  return c.json(rows.map(commentView), 200);
};
