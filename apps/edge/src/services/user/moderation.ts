import { type Db, schema, type Tx } from "@booth/db";
import type { Capability } from "@booth/db/schema";
import { and, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { type Caller, outranks, type Role, type User } from "../../lib/auth.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { forbidden, found, HttpError, notFound, USER_NOT_FOUND } from "../../lib/errors.ts";
import { jsonPick, jsonRow } from "../../lib/json-rows.ts";
import { returnedRow } from "../../lib/rows.ts";
import { logModeration } from "../audit/public.ts";
import { findUser, loadUser } from "./accounts.ts";

export const BOT_ROLE_NOT_GRANTED = "role: the bot role belongs to bot accounts (bot sign-up) and cannot be granted";
export const ALREADY_HAS_ROLE = errorMessage("ALREADY_HAS_ROLE");
export const NOTHING_TO_LIFT = "This user has no ban in force.";

export type Sanction = typeof schema.sanctions.$inferSelect;

export const sanctionView = (s: Sanction) =>
  jsonPick(s, "id", "userUuid", "type", "reason", "expiresAt", "createdBy", "createdAt");

/**
 * Runs a moderation change in one transaction with the target's row locked. The caller must outrank the target
 * (a superUser may act on anyone but themselves).
 */
export async function moderate<T>(
  db: Db,
  caller: Caller,
  targetUuid: string,
  change: (tx: Tx, target: User) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const [target] = await tx.select().from(schema.users).where(eq(schema.users.uuid, targetUuid)).for("update");
    if (!target) throw notFound(USER_NOT_FOUND);
    if (target.uuid === caller.user.uuid) throw forbidden("You cannot moderate your own account.");
    if (!outranks(caller.user.roles, target.roles)) throw forbidden();
    return change(tx, target);
  });
}

const SANCTION_ACTION = { kick: "globalKick", ban: "globalBan", temporaryBan: "temporaryBan" } as const;

const revokeSessions = (tx: Tx, userUuid: string, now: Date) =>
  tx
    .update(schema.users)
    .set({ tokenVersion: sql`${schema.users.tokenVersion} + 1`, updatedAt: now })
    .where(eq(schema.users.uuid, userUuid));

/** Records a sanction, ends every session of the user and logs it, in one moderation transaction. */
export async function recordSanction(
  db: Db,
  caller: Caller,
  input: { userUuid: string; reason?: string | undefined; type: Sanction["type"]; expiresAt?: Date },
  now: Date,
) {
  const row = await moderate(db, caller, input.userUuid, async (tx, target) => {
    const created = await returnedRow(
      "sanction insert",
      tx
        .insert(schema.sanctions)
        .values({
          userUuid: target.uuid,
          type: input.type,
          reason: input.reason ?? null,
          expiresAt: input.expiresAt ?? null,
          createdBy: caller.user.uuid,
          createdAt: now,
        })
        .returning(),
    );
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
  return row;
}

/** Lifts every ban in force on a user (a 409 when there is none); answers how many. */
export async function liftBans(db: Db, caller: Caller, userUuid: string, now: Date) {
  const lifted = await moderate(db, caller, userUuid, async (tx, target) => {
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
  return lifted.length;
}

/** Adds a global role, in the caller's moderation transaction; answers the user and their profile. */
export async function grantRole(db: Db, caller: Caller, userUuid: string, role: Role, now: Date) {
  const updated = await moderate(db, caller, userUuid, async (tx, target) => {
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
  const loaded = await loadUser(db, updated.uuid);
  return { user: updated, profile: loaded?.profile };
}

/** Gives (`add`) or takes away a capability, logged as a role change; answers the user and their profile. */
export async function changeCapability(
  db: Db,
  caller: Caller,
  userUuid: string,
  capability: Capability,
  add: boolean,
  now: () => Date,
) {
  const updated = await moderate(db, caller, userUuid, async (tx, target) => {
    if (add && target.capabilities.includes(capability)) throw forbidden(ALREADY_HAS_ROLE);
    if (!add && !target.capabilities.includes(capability)) throw notFound("This user does not have this capability.");
    const [row] = await tx
      .update(schema.users)
      .set({
        capabilities: add ? [...target.capabilities, capability] : target.capabilities.filter((k) => k !== capability),
        updatedAt: now(),
      })
      .where(eq(schema.users.uuid, target.uuid))
      .returning();
    await logModeration(tx, {
      actionType: add ? "grantRole" : "removeRole",
      moderatorUuid: caller.user.uuid,
      targetUuid: target.uuid,
      role: `capability:${capability}`,
      now: now(),
    });
    return row ?? target;
  });
  return { user: updated, profile: (await loadUser(db, userUuid))?.profile };
}

type Comment = typeof schema.moderationComments.$inferSelect;

export const commentView = (r: Comment) => jsonRow(r);

/** A moderator's note about a user (404 when there is no such user). */
export async function addComment(db: Db, input: { userUuid: string; authorUuid: string; comment: string; now: Date }) {
  found(await findUser(db, input.userUuid), USER_NOT_FOUND);
  return returnedRow(
    "comment insert",
    db
      .insert(schema.moderationComments)
      .values({ userUuid: input.userUuid, authorUuid: input.authorUuid, comment: input.comment, createdAt: input.now })
      .returning(),
  );
}

/** The moderators' notes about a user, newest first. */
export const commentsAbout = (db: Db, userUuid: string) =>
  db
    .select()
    .from(schema.moderationComments)
    .where(eq(schema.moderationComments.userUuid, userUuid))
    .orderBy(desc(schema.moderationComments.createdAt), desc(schema.moderationComments.id));
