import { type Db, schema, type Tx } from "@booth/db";
import { and, asc, eq, isNull, ne } from "drizzle-orm";
import type { User } from "../../lib/auth.ts";
import { uniqueOr } from "../../lib/db-errors.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { HttpError, notFound } from "../../lib/errors.ts";
import { isoOrNull } from "../../lib/json-rows.ts";
import { firstRow, returnedRow } from "../../lib/rows.ts";
import { ALREADY_REGISTERED, normalizeEmail } from "./accounts.ts";

export const VERIFY_FAILED = errorMessage("EMAIL_VERIFICATION_FAILED");
export const ALREADY_VERIFIED = errorMessage("EMAIL_ALREADY_VERIFIED");
export const TOO_SOON = errorMessage("EMAIL_RESEND_TOO_SOON");
export const EMAIL_NOT_FOUND = errorMessage("EMAIL_NOT_FOUND");
export const LOGIN_EMAIL_UNDELETABLE = "The sign-in email of an account cannot be deleted.";

export type EmailRow = typeof schema.emails.$inferSelect;

export const emailView = (row: EmailRow, loginEmail: string | null) => ({
  id: row.id,
  email: row.email,
  type: row.type,
  status: row.status,
  isLoginEmail: row.email === loginEmail,
  verifiedAt: isoOrNull(row.verifiedAt),
  lastSentAt: isoOrNull(row.lastSentAt),
  createdAt: row.createdAt.toISOString(),
});

/** The user's addresses that are not deleted, oldest first. */
export const liveEmailsOf = (db: Db, userUuid: string) =>
  db
    .select()
    .from(schema.emails)
    .where(and(eq(schema.emails.userUuid, userUuid), ne(schema.emails.status, "DELETED")))
    .orderBy(asc(schema.emails.createdAt));

export const liveEmailOf = (db: Db | Tx, userUuid: string, address: string) =>
  firstRow(
    db,
    schema.emails,
    and(
      eq(schema.emails.userUuid, userUuid),
      eq(schema.emails.email, normalizeEmail(address)),
      ne(schema.emails.status, "DELETED"),
    ),
  );

export const liveEmailById = (db: Db | Tx, userUuid: string, id: string) =>
  firstRow(
    db,
    schema.emails,
    and(eq(schema.emails.id, id), eq(schema.emails.userUuid, userUuid), ne(schema.emails.status, "DELETED")),
  );

export async function emailById(db: Db, id: string) {
  return firstRow(db, schema.emails, eq(schema.emails.id, id));
}

/** Adds a pending address to the user; 403 when anyone has it already (a live email row or a login email). */
export async function addEmail(db: Db, input: { userUuid: string; email: string; type: EmailRow["type"]; now: Date }) {
  const email = normalizeEmail(input.email);
  const [taken] = await db
    .select({ id: schema.emails.id })
    .from(schema.emails)
    .where(and(eq(schema.emails.email, email), ne(schema.emails.status, "DELETED")))
    .limit(1);
  const [loginTaken] = await db
    .select({ uuid: schema.users.uuid })
    .from(schema.users)
    .where(eq(schema.users.email, email))
    .limit(1);
  if (taken || loginTaken) throw new HttpError(403, ALREADY_REGISTERED);
  return returnedRow(
    "email insert",
    uniqueOr(
      () =>
        db
          .insert(schema.emails)
          .values({
            userUuid: input.userUuid,
            email,
            type: input.type,
            status: "PENDING_VERIFICATION",
            createdAt: input.now,
          })
          .returning(),
      () => new HttpError(403, ALREADY_REGISTERED),
    ),
  );
}

export const deleteEmail = (db: Db, id: string) =>
  db.update(schema.emails).set({ status: "DELETED" }).where(eq(schema.emails.id, id));

/** Marks an address verified (and the account, for its login email); 404 if it was deleted meanwhile. */
export async function markVerified(db: Db, user: User, row: EmailRow, now: Date) {
  const [verified] = await db.transaction(async (tx) => {
    if (row.email === user.email)
      await tx.update(schema.users).set({ verifiedAt: now }).where(eq(schema.users.uuid, user.uuid));
    // Only while still live: an address deleted meanwhile stays deleted.
    return tx
      .update(schema.emails)
      .set({ status: "VERIFIED", verifiedAt: now })
      .where(and(eq(schema.emails.id, row.id), ne(schema.emails.status, "DELETED")))
      .returning();
  });
  if (!verified) throw notFound(EMAIL_NOT_FOUND);
  return verified;
}

/** Claims a re-send with a conditional update, so two concurrent re-sends send one email; false if another won. */
export async function claimResend(db: Db, row: EmailRow, now: Date) {
  const [claimed] = await db
    .update(schema.emails)
    .set({ lastSentAt: now })
    .where(
      and(
        eq(schema.emails.id, row.id),
        row.lastSentAt ? eq(schema.emails.lastSentAt, row.lastSentAt) : isNull(schema.emails.lastSentAt),
      ),
    )
    .returning();
  return !!claimed;
}
