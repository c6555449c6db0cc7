import { type Db, schema } from "@booth/db";
import { count, eq } from "drizzle-orm";
import { ADMINS, type User } from "../../lib/auth.ts";
import { uniqueOr } from "../../lib/db-errors.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { forbidden, HttpError, notFound } from "../../lib/errors.ts";
import { firstRow } from "../../lib/rows.ts";
import { ALREADY_REGISTERED, createAccount, type NewAccount } from "./accounts.ts";
import { INVALID_VOUCHER, redeemVoucher } from "./vouchers.ts";

export const MISSING_EMAIL_OR_PASSWORD = errorMessage("MISSING_EMAIL_OR_PASSWORD");
export const MISSING_VOUCHER_FIELDS = errorMessage("MISSING_VOUCHER_FIELDS");
export const MAX_BOTS_PER_OWNER = 10;

/** A concurrent sign-up with the same email ends as the catalogue's 403. */
const alreadyRegistered = () => new HttpError(403, ALREADY_REGISTERED);

/** Creates an account in its own transaction. */
export const signUpAccount = (db: Db, input: NewAccount) =>
  uniqueOr(() => db.transaction((tx) => createAccount(tx, input)), alreadyRegistered);

/** Creates an account and redeems a voucher for it in the same transaction; a voucher not pending undoes both. */
export const signUpWithVoucher = (db: Db, input: NewAccount, voucherCode: string) =>
  uniqueOr(
    () =>
      db.transaction(async (tx) => {
        const created = await createAccount(tx, input);
        if (!(await redeemVoucher(tx, voucherCode, created.user.uuid, input.now)))
          throw new HttpError(403, INVALID_VOUCHER);
        return created;
      }),
    alreadyRegistered,
  );

/** The email row made with a new account, to send its verification code to. */
export async function firstEmailOf(db: Db, userUuid: string) {
  return firstRow(db, schema.emails, eq(schema.emails.userUuid, userUuid));
}

/** A bot owned by `owner` (at most MAX_BOTS_PER_OWNER each). */
export function createBot(db: Db, owner: User, nickname: string, now: Date) {
  return db.transaction(async (tx) => {
    const [owned] = await tx.select({ n: count() }).from(schema.users).where(eq(schema.users.botOwnerUuid, owner.uuid));
    if ((owned?.n ?? 0) >= MAX_BOTS_PER_OWNER) throw forbidden(`A user may own at most ${MAX_BOTS_PER_OWNER} bots.`);
    // A verified owner vouches for their bot: it may chat in public rooms as they may.
    return createAccount(tx, {
      nickname,
      roles: ["bot"],
      botOwnerUuid: owner.uuid,
      now,
      ...(owner.verifiedAt ? { emailStatus: "VERIFIED" as const } : {}),
    });
  });
}

/** Ends every token of a bot (its owner's or an admin's call): answers the bot with its new token version. */
export async function rotateBotTokens(db: Db, caller: User, botUuid: string) {
  const bot = await firstRow(db, schema.users, eq(schema.users.uuid, botUuid));
  if (!bot?.roles.includes("bot")) throw notFound("Bot not found.");
  if (bot.botOwnerUuid !== caller.uuid && !caller.roles.some((r) => ADMINS.includes(r))) throw forbidden();
  const [rotated] = await db
    .update(schema.users)
    .set({ tokenVersion: bot.tokenVersion + 1 })
    .where(eq(schema.users.uuid, bot.uuid))
    .returning();
  return rotated ?? bot;
}
