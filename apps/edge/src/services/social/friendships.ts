import { type Db, schema, type Tx } from "@booth/db";
import { and, desc, eq, or, type SQL } from "drizzle-orm";
import { uniqueOr } from "../../lib/db-errors.ts";
import { eitherWay } from "../../lib/either-way.ts";
import { conflict, forbidden, notFound, USER_NOT_FOUND } from "../../lib/errors.ts";
import { jsonRow } from "../../lib/json-rows.ts";
import { deleteFound, firstRow, returnedRow } from "../../lib/rows.ts";
import { linkedProfilesPage } from "../user/public.ts";
import { blockedBetween, socialTarget } from "./relations.ts";

export const CANNOT_INVITE = "You cannot invite this user.";
export const ALREADY_FRIENDS = "You are already friends.";
export const INVITATION_PENDING = "An invitation between you is already pending.";
export const INVITATION_HANDLED = "This invitation has already been handled.";
export const INVITATION_NOT_FOUND = "Invitation not found.";
export const NOT_FRIENDS = "You are not friends.";

export type Invitation = typeof schema.friendInvitations.$inferSelect;
export const invitationView = (i: Invitation) => jsonRow(i);
export type Friendship = typeof schema.friends.$inferSelect;
export const friendshipView = (row: Friendship) => ({
  userUuid: row.userUuid,
  friendUuid: row.friendUuid,
  since: row.createdAt.toISOString(),
});

/** User `a`'s friendship with `b`, or null. */
export async function friendshipOf(db: Db | Tx, a: string, b: string) {
  return firstRow(db, schema.friends, and(eq(schema.friends.userUuid, a), eq(schema.friends.friendUuid, b)));
}

// ---- invitations

/** An invitation from `fromUuid` to `toUuid`: not themselves, an active account, not across a block, not a friend. */
export async function invite(db: Db, fromUuid: string, toUuid: string, now: Date) {
  await socialTarget(db, fromUuid, toUuid, {
    self: "You cannot invite yourself.",
    missing: USER_NOT_FOUND,
    blocked: CANNOT_INVITE,
  });
  if (await friendshipOf(db, fromUuid, toUuid)) throw conflict(ALREADY_FRIENDS);
  return returnedRow(
    "invitation insert",
    uniqueOr(
      () => db.insert(schema.friendInvitations).values({ fromUuid, toUuid, createdAt: now }).returning(),
      () => conflict(INVITATION_PENDING),
    ),
  );
}

const pendingWhere = (db: Db | Tx, where: SQL | undefined) =>
  db
    .select()
    .from(schema.friendInvitations)
    .where(and(where, eq(schema.friendInvitations.status, "pending")))
    .orderBy(desc(schema.friendInvitations.createdAt));

/** Pending invitations to and from a user, newest first. */
export const pendingInvitationsOf = (db: Db | Tx, uuid: string) =>
  pendingWhere(db, or(eq(schema.friendInvitations.fromUuid, uuid), eq(schema.friendInvitations.toUuid, uuid)));

/** Pending invitations a user has received ("toUuid") or sent ("fromUuid"), newest first. */
export const pendingInvitations = (db: Db | Tx, side: "toUuid" | "fromUuid", uuid: string) =>
  pendingWhere(db, eq(schema.friendInvitations[side], uuid));

/** The sender withdraws, or the recipient dismisses, an invitation; a 404 when it is neither's. */
export async function deleteInvitation(db: Db | Tx, id: string, userUuid: string) {
  const i = schema.friendInvitations;
  const where = and(eq(i.id, id), or(eq(i.fromUuid, userUuid), eq(i.toUuid, userUuid)));
  await deleteFound(db, i, where, INVITATION_NOT_FOUND);
}

/** The recipient accepts (they become friends) or rejects a pending invitation, once. */
export async function handleInvitation(
  db: Db,
  invitationId: string,
  recipientUuid: string,
  status: "accepted" | "rejected",
  now: Date,
) {
  return db.transaction(async (tx) => {
    const invitation = await firstRow(tx, schema.friendInvitations, eq(schema.friendInvitations.id, invitationId));
    if (!invitation || invitation.toUuid !== recipientUuid) throw notFound(INVITATION_NOT_FOUND);
    // Conditional on still pending: accepting twice, or accept racing reject, changes it once.
    const [row] = await tx
      .update(schema.friendInvitations)
      .set({ status, handledAt: now })
      .where(and(eq(schema.friendInvitations.id, invitationId), eq(schema.friendInvitations.status, "pending")))
      .returning();
    if (!row) throw conflict(INVITATION_HANDLED);
    if (status === "accepted") {
      if (await blockedBetween(tx, row.fromUuid, row.toUuid)) throw forbidden(CANNOT_INVITE);
      await tx
        .insert(schema.friends)
        .values([
          { userUuid: row.fromUuid, friendUuid: row.toUuid, createdAt: now },
          { userUuid: row.toUuid, friendUuid: row.fromUuid, createdAt: now },
        ])
        .onConflictDoNothing();
    }
    return row;
  });
}

// ---- friends

/** A user's friends as public profiles, newest friendship first. */
export async function friendsPage(db: Db | Tx, uuid: string, skip: number, take: number) {
  const where = eq(schema.friends.userUuid, uuid);
  return linkedProfilesPage(db, schema.friends, schema.friends.friendUuid, where, { limit: take, offset: skip });
}

/** The uuids of a user's friends. */
export async function friendUuids(db: Db | Tx, uuid: string) {
  const rows = await db
    .select({ uuid: schema.friends.friendUuid })
    .from(schema.friends)
    .where(eq(schema.friends.userUuid, uuid));
  return rows.map((r) => r.uuid);
}

/** Ends a friendship, both directions; returns the rows removed. */
export async function removeFriendship(db: Db | Tx, a: string, b: string) {
  const deleted = await db
    .delete(schema.friends)
    .where(eitherWay(schema.friends.userUuid, schema.friends.friendUuid, a, b))
    .returning({ id: schema.friends.id });
  return deleted.length;
}
