import { schema, type Tx } from "@booth/db";
import { Capability, type ModerationActionType, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { and, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Context } from "hono";
import { ADMINS, type Caller, MODERATORS, outranks, type Role, requireUser, STAFF, type User } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest, forbidden, HttpError, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, UuidParam } from "../../lib/openapi.ts";
import { kickFromLiveRooms, LIVE_KICK_REASONS } from "../room/presence.ts";
import { loadUser, userView } from "./accounts.ts";
import { RoleSchema, UserSchema } from "./schemas.ts";

export const BOT_ROLE_NOT_GRANTED = "role: the bot role belongs to bot accounts (bot sign-up) and cannot be granted";

export const ALREADY_HAS_ROLE = "This user has already this role.";
export const NOTHING_TO_LIFT = "This user has no ban in force.";

const tags = ["Moderation"];
export const userModerationRoutes = createRouter();

const SanctionSchema = z
  .object({
    id: z.uuid(),
    userUuid: z.uuid(),
    type: z.enum(["kick", "ban", "temporaryBan"]),
    reason: z.string().nullable(),
    expiresAt: z.string().nullable(),
    createdBy: z.uuid().nullable(),
    createdAt: z.string(),
  })
  .openapi("Sanction");
type Sanction = typeof schema.sanctions.$inferSelect;
const sanctionView = (s: Sanction) => ({
  id: s.id,
  userUuid: s.userUuid,
  type: s.type,
  reason: s.reason,
  expiresAt: s.expiresAt?.toISOString() ?? null,
  createdBy: s.createdBy,
  createdAt: s.createdAt.toISOString(),
});

/**
 * Runs a moderation change in one transaction with the target's row locked. The caller must outrank the target
 * (a superUser may act on anyone but themselves).
 */
export async function moderate<T>(
  c: Context<AppEnv>,
  caller: Caller,
  targetUuid: string,
  change: (tx: Tx, target: User) => Promise<T>,
): Promise<T> {
  return c.var.deps.db.transaction(async (tx) => {
    const [target] = await tx.select().from(schema.users).where(eq(schema.users.uuid, targetUuid)).for("update");
    if (!target) throw notFound("User not found.");
    if (target.uuid === caller.user.uuid) throw forbidden("You cannot moderate your own account.");
    if (!outranks(caller.user.roles, target.roles)) throw forbidden();
    return change(tx, target);
  });
}

/** Every global moderation step is also written to the audit service's moderation log, in the same transaction. */
export const logModeration = (
  tx: Tx,
  entry: { actionType: ModerationActionType; moderatorUuid: string; targetUuid: string; now: Date } & Partial<{
    role: string;
    reason: string | null;
    expiresAt: Date | null;
    roomUuid: string;
  }>,
) =>
  tx.insert(schema.moderationActions).values({
    actionType: entry.actionType,
    moderatorUuid: entry.moderatorUuid,
    targetUuid: entry.targetUuid,
    roomUuid: entry.roomUuid ?? null,
    role: entry.role ?? null,
    reason: entry.reason ?? null,
    expiresAt: entry.expiresAt ?? null,
    createdAt: entry.now,
    updatedAt: entry.now,
  });

const SANCTION_ACTION = { kick: "globalKick", ban: "globalBan", temporaryBan: "temporaryBan" } as const;

const revokeSessions = (tx: Tx, userUuid: string, now: Date) =>
  tx
    .update(schema.users)
    .set({ tokenVersion: sql`${schema.users.tokenVersion} + 1`, updatedAt: now })
    .where(eq(schema.users.uuid, userUuid));

const Reason = z.string().trim().max(1000).optional();

function sanctionRoute<B extends z.ZodType>(path: string, type: Sanction["type"], summary: string, body: B) {
  return createRoute({
    method: "post",
    path,
    tags,
    summary,
    security: bearer,
    request: jsonBody(body),
    responses: { 201: json(SanctionSchema, "Created"), ...errors(400, 401, 403, 404) },
    description: `Records a \`${type}\` sanction and ends every session of the user, live rooms included: each room they are in sends them \`kickedFromRoom\` and closes their sockets.`,
  });
}

async function sanction(
  c: Context<AppEnv>,
  input: { userUuid: string; reason?: string | undefined; type: Sanction["type"]; expiresAt?: Date },
) {
  const caller = await requireUser(c, { roles: MODERATORS });
  const now = c.var.deps.clock.now();
  const row = await moderate(c, caller, input.userUuid, async (tx, target) => {
    const [created] = await tx
      .insert(schema.sanctions)
      .values({
        userUuid: target.uuid,
        type: input.type,
        reason: input.reason ?? null,
        expiresAt: input.expiresAt ?? null,
        createdBy: caller.user.uuid,
        createdAt: now,
      })
      .returning();
    await revokeSessions(tx, target.uuid, now);
    await logModeration(tx, {
      actionType: SANCTION_ACTION[input.type],
      moderatorUuid: caller.user.uuid,
      targetUuid: target.uuid,
      reason: input.reason ?? null,
      expiresAt: input.expiresAt ?? null,
      now,
    });
    return created;
  });
  if (!row) throw new Error("sanction insert returned nothing");
  // Their sessions ended with the sanction; their live rooms hear of it now, not when the token runs out.
  await kickFromLiveRooms(c.var.deps, row.userUuid, LIVE_KICK_REASONS[input.type]);
  return sanctionView(row);
}

const TargetBody = z.object({ userUuid: z.uuid(), reason: Reason });

userModerationRoutes.openapi(
  sanctionRoute(
    "/users/kick",
    "kick",
    "Kick a user off the platform: every session ends; they may log in again",
    TargetBody,
  ),
  async (c) => c.json(await sanction(c, { ...c.req.valid("json"), type: "kick" }), 201),
);

userModerationRoutes.openapi(sanctionRoute("/users/ban", "ban", "Ban a user until unbanned", TargetBody), async (c) =>
  c.json(await sanction(c, { ...c.req.valid("json"), type: "ban" }), 201),
);

const TemporaryBanBody = TargetBody.extend({
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  durationMinutes: z.number().int().min(1).max(525_600).optional(),
}).refine((b) => (b.expiresAt === undefined) !== (b.durationMinutes === undefined), {
  message: "give either expiresAt or durationMinutes",
  path: ["expiresAt"],
});

userModerationRoutes.openapi(
  sanctionRoute("/users/temporary-ban", "temporaryBan", "Ban a user until a time", TemporaryBanBody),
  async (c) => {
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
  },
);

userModerationRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/unban",
    tags,
    summary: "Lift every ban in force on a user",
    security: bearer,
    request: jsonBody(z.object({ userUuid: z.uuid() })),
    responses: {
      200: json(z.object({ lifted: z.number().int() }).openapi("Unbanned")),
      ...errors(400, 401, 403, 404, 409),
    },
  }),
  async (c) => {
    const caller = await requireUser(c, { roles: MODERATORS });
    const now = c.var.deps.clock.now();
    const lifted = await moderate(c, caller, c.req.valid("json").userUuid, async (tx, target) => {
      const rows = await tx
        .update(schema.sanctions)
        .set({ liftedAt: now, liftedBy: caller.user.uuid })
        .where(
          and(
            eq(schema.sanctions.userUuid, target.uuid),
            isNull(schema.sanctions.liftedAt),
            or(
              eq(schema.sanctions.type, "ban"),
              and(eq(schema.sanctions.type, "temporaryBan"), gt(schema.sanctions.expiresAt, now)),
            ),
          ),
        )
        .returning();
      if (rows.length)
        await logModeration(tx, {
          actionType: "globalUnBan",
          moderatorUuid: caller.user.uuid,
          targetUuid: target.uuid,
          now,
        });
      return rows;
    });
    if (lifted.length === 0) throw new HttpError(409, NOTHING_TO_LIFT);
    return c.json({ lifted: lifted.length }, 200);
  },
);

/** Adds a global role, in the caller's moderation transaction. */
async function grantRole(c: Context<AppEnv>, caller: Caller, userUuid: string, role: Role) {
  const now = c.var.deps.clock.now();
  const updated = await moderate(c, caller, userUuid, async (tx, target) => {
    if (target.roles.includes(role)) throw forbidden(ALREADY_HAS_ROLE);
    const [row] = await tx
      .update(schema.users)
      .set({ roles: [...target.roles, role], updatedAt: now })
      .where(eq(schema.users.uuid, target.uuid))
      .returning();
    await logModeration(tx, {
      actionType: "grantRole",
      moderatorUuid: caller.user.uuid,
      targetUuid: target.uuid,
      role,
      now,
    });
    return row ?? target;
  });
  const loaded = await loadUser(c.var.deps.db, updated.uuid);
  return userView(updated, loaded?.profile);
}

userModerationRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/add-role",
    tags,
    summary: "Grant a global role (admins; only a superUser grants admin or superUser)",
    security: bearer,
    request: jsonBody(z.object({ userUuid: z.uuid(), role: RoleSchema })),
    responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const caller = await requireUser(c, { roles: ADMINS });
    const { userUuid, role } = c.req.valid("json");
    // A bot is an account made by bot sign-up (its owner, its tokens), not a role a person can be given.
    if (role === "bot") throw badRequest([BOT_ROLE_NOT_GRANTED]);
    if ((role === "admin" || role === "superUser") && !caller.user.roles.includes("superUser")) throw forbidden();
    return c.json(await grantRole(c, caller, userUuid, role), 200);
  },
);

userModerationRoutes.openapi(
  createRoute({
    method: "post",
    path: "/users/add-global-moderator-role",
    tags,
    summary: "Grant the globalModerator role (staff and above)",
    security: bearer,
    request: jsonBody(z.object({ userUuid: z.uuid() })),
    responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const caller = await requireUser(c, { roles: STAFF });
    return c.json(await grantRole(c, caller, c.req.valid("json").userUuid, "globalModerator"), 200);
  },
);

const CapabilityParams = z.object({
  id: z.uuid().openapi({ param: { name: "id", in: "path" } }),
  capability: z.enum(values(Capability)).openapi({ param: { name: "capability", in: "path" } }),
});

userModerationRoutes.openapi(
  createRoute({
    method: "put",
    path: "/users/{id}/capabilities/{capability}",
    tags,
    summary: "Give a user a capability (uploadMusic, promoteRoom)",
    security: bearer,
    request: { params: CapabilityParams },
    responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const caller = await requireUser(c, { roles: MODERATORS });
    const { id, capability } = c.req.valid("param");
    const updated = await moderate(c, caller, id, async (tx, target) => {
      if (target.capabilities.includes(capability)) throw forbidden(ALREADY_HAS_ROLE);
      const [row] = await tx
        .update(schema.users)
        .set({ capabilities: [...target.capabilities, capability], updatedAt: c.var.deps.clock.now() })
        .where(eq(schema.users.uuid, target.uuid))
        .returning();
      await logModeration(tx, {
        actionType: "grantRole",
        moderatorUuid: caller.user.uuid,
        targetUuid: target.uuid,
        role: `capability:${capability}`,
        now: c.var.deps.clock.now(),
      });
      return row ?? target;
    });
    return c.json(userView(updated, (await loadUser(c.var.deps.db, id))?.profile), 200);
  },
);

userModerationRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/users/{id}/capabilities/{capability}",
    tags,
    summary: "Take a capability away from a user",
    security: bearer,
    request: { params: CapabilityParams },
    responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const caller = await requireUser(c, { roles: MODERATORS });
    const { id, capability } = c.req.valid("param");
    const updated = await moderate(c, caller, id, async (tx, target) => {
      if (!target.capabilities.includes(capability)) throw notFound("This user does not have this capability.");
      const [row] = await tx
        .update(schema.users)
        .set({ capabilities: target.capabilities.filter((k) => k !== capability), updatedAt: c.var.deps.clock.now() })
        .where(eq(schema.users.uuid, target.uuid))
        .returning();
      await logModeration(tx, {
        actionType: "removeRole",
        moderatorUuid: caller.user.uuid,
        targetUuid: target.uuid,
        role: `capability:${capability}`,
        now: c.var.deps.clock.now(),
      });
      return row ?? target;
    });
    return c.json(userView(updated, (await loadUser(c.var.deps.db, id))?.profile), 200);
  },
);

const CommentSchema = z
  .object({ id: z.uuid(), userUuid: z.uuid(), authorUuid: z.uuid(), comment: z.string(), createdAt: z.string() })
  .openapi("ModerationComment");

userModerationRoutes.openapi(
  createRoute({
    method: "post",
    path: "/moderation-comments",
    tags,
    summary: "A moderator's note about a user",
    security: bearer,
    request: jsonBody(z.object({ userUuid: z.uuid(), comment: z.string().trim().min(1).max(2000) })),
    responses: { 201: json(CommentSchema, "Created"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { roles: MODERATORS });
    const { userUuid, comment } = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const [target] = await db
      .select({ uuid: schema.users.uuid })
      .from(schema.users)
      .where(eq(schema.users.uuid, userUuid));
    if (!target) throw notFound("User not found.");
    const [row] = await db
      .insert(schema.moderationComments)
      .values({ userUuid, authorUuid: user.uuid, comment, createdAt: clock.now() })
      .returning();
    if (!row) throw new Error("comment insert returned nothing");
    return c.json({ ...row, createdAt: row.createdAt.toISOString() }, 201);
  },
);

userModerationRoutes.openapi(
  createRoute({
    method: "get",
    path: "/moderation-comments/{id}",
    tags,
    summary: "The moderators' notes about user {id}, newest first",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(z.array(CommentSchema)), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireUser(c, { roles: MODERATORS });
    const rows = await c.var.deps.db
      .select()
      .from(schema.moderationComments)
      .where(eq(schema.moderationComments.userUuid, c.req.valid("param").id))
      .orderBy(desc(schema.moderationComments.createdAt), desc(schema.moderationComments.id));
    return c.json(
      rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
      200,
    );
  },
);
