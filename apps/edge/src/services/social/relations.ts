import { type Db, schema, type Tx } from "@booth/db";
import { and, eq, isNull } from "drizzle-orm";
import { eitherWay } from "../../lib/either-way.ts";
import { badRequest, forbidden, notFound } from "../../lib/errors.ts";

/** Whether either of two users has blocked the other: then they cannot invite, follow or message each other. */
export async function blockedBetween(db: Db | Tx, a: string, b: string) {
  const [row] = await db
    .select({ id: schema.blockedUsers.id })
    .from(schema.blockedUsers)
    .where(eitherWay(schema.blockedUsers.blockerUuid, schema.blockedUsers.blockedUuid, a, b))
    .limit(1);
  return !!row;
}

export async function activeUser(db: Db | Tx, uuid: string) {
  const [row] = await db
    .select({ uuid: schema.users.uuid })
    .from(schema.users)
    .where(and(eq(schema.users.uuid, uuid), isNull(schema.users.deactivatedAt)));
  return row ?? null;
}

/**
 * The other person of a social action (follow, invite, block): not the caller, an active account, and, unless
 * `blocked` is null, not blocked either way (answered with that message).
 */
export async function socialTarget(
  db: Db | Tx,
  callerUuid: string,
  targetUuid: string,
  messages: { self: string; missing: string; blocked: string | null },
) {
  if (targetUuid === callerUuid) throw badRequest(messages.self);
  if (!(await activeUser(db, targetUuid))) throw notFound(messages.missing);
  if (messages.blocked && (await blockedBetween(db, callerUuid, targetUuid))) throw forbidden(messages.blocked);
}
