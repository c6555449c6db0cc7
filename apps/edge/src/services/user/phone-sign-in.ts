import { type Db, schema } from "@booth/db";
import { and, eq, lt } from "drizzle-orm";
import { uniqueOr } from "../../lib/db-errors.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { badRequest, conflict } from "../../lib/errors.ts";
import { jsonRow } from "../../lib/json-rows.ts";
import { newestFirst } from "../../lib/pages.ts";
import { deleteFound, firstRow, returnedRow } from "../../lib/rows.ts";
import { createAccount } from "./accounts.ts";
import { toE164 } from "./phone-checks.ts";

export const CODE_INCORRECT = errorMessage("CODE_INCORRECT");
export const CODE_SENT = "A code has been sent.";
export const NOT_WHITELISTED = "This phone number is not whitelisted.";

/**
 * Anyone may type a number, so a number's limits are split: per (number, address) at the published constants, and
 * from all addresses together at these, higher ones, so a stranger can neither flood the owner's codes out nor burn
 * them (wrong guesses are refused per address, not by burning the code).
 */
export const CODES_PER_PHONE_PER_HOUR_FROM_ANYWHERE = 20;
export const CODE_GUESSES_PER_PHONE_PER_HOUR = 30;

/** A number in E.164 form, or a 400 naming the field. */
export const e164 = (raw: string) => {
  const phone = toE164(raw);
  if (!phone) throw badRequest(["phone: is not a phone number"]);
  return phone;
};

/** The account that signs in with this (verified) phone number, if any. */
export async function verifiedPhoneIdentity(db: Db, phone: string) {
  return firstRow(
    db,
    schema.userIdentities,
    and(
      eq(schema.userIdentities.channel, "sms"),
      eq(schema.userIdentities.value, phone),
      eq(schema.userIdentities.verified, true),
    ),
  );
}

/** A new account whose sign-in is this phone number (verified by the code just checked). */
export function createPhoneAccount(db: Db, phone: string, now: Date) {
  return db.transaction(async (tx) => {
    const account = await createAccount(tx, { now });
    await tx.insert(schema.userIdentities).values({
      userUuid: account.user.uuid,
      channel: "sms",
      value: phone,
      verified: true,
      verifiedAt: now,
      createdAt: now,
    });
    return account;
  });
}

// ---- recent validations

export async function recentValidations(db: Db, page: { limit: number; offset: number }) {
  const { rows, total } = await newestFirst(db, schema.phoneValidations, undefined, page);
  return { data: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })), total };
}

/** Deletes the validations older than a time (all without one); answers how many. */
export async function clearValidations(db: Db, olderThan: Date | undefined) {
  const deleted = await db
    .delete(schema.phoneValidations)
    .where(olderThan ? lt(schema.phoneValidations.createdAt, olderThan) : undefined)
    .returning({ id: schema.phoneValidations.id });
  return deleted.length;
}

// ---- whitelist (numbers that pass whatever their line type: test and staff numbers)

type WhitelistRow = typeof schema.phoneWhitelist.$inferSelect;

export const whitelistView = (r: WhitelistRow) => jsonRow(r);

export async function addToWhitelist(
  db: Db,
  input: { phone: string; note: string | undefined; createdBy: string; now: Date },
) {
  return returnedRow(
    "whitelist insert",
    uniqueOr(
      () =>
        db
          .insert(schema.phoneWhitelist)
          .values({ phone: input.phone, note: input.note ?? null, createdBy: input.createdBy, createdAt: input.now })
          .returning(),
      () => conflict("This phone number is already whitelisted."),
    ),
  );
}

export async function whitelistPage(db: Db, page: { limit: number; offset: number }) {
  const { rows, total } = await newestFirst(db, schema.phoneWhitelist, undefined, page);
  return { data: rows.map(whitelistView), total };
}

export async function whitelistEntry(db: Db, id: string) {
  return firstRow(db, schema.phoneWhitelist, eq(schema.phoneWhitelist.id, id));
}

/** Takes a number off the whitelist, by number or by entry id; 404 when it was not on it. */
export async function removeFromWhitelist(db: Db, by: { phone: string } | { id: string }) {
  const where = "phone" in by ? eq(schema.phoneWhitelist.phone, by.phone) : eq(schema.phoneWhitelist.id, by.id);
  await deleteFound(db, schema.phoneWhitelist, where, NOT_WHITELISTED);
}
