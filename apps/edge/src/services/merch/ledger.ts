import { type Db, schema, type Tx } from "@booth/db";
import { and, eq, sql } from "drizzle-orm";
import { postgresCode, uniqueOr } from "../../lib/db-errors.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { forbidden, HttpError, notFound } from "../../lib/errors.ts";
import { orNull } from "../../lib/or-null.ts";
import { firstRow, returnedRow } from "../../lib/rows.ts";

export const ACCOUNT_NOT_FOUND = "We were unable to find your token account. Please try again.";
export const ACCOUNT_DISABLED = "This token account is disabled.";
export const INSUFFICIENT_TOKENS = errorMessage("INSUFFICIENT_TOKENS");
export const HOLD_RESOLVED = "This hold has already been committed or voided.";
export const HOLD_NOT_FOUND = "Hold not found.";

export type TokenAccount = typeof schema.tokenAccounts.$inferSelect;
export type TokenTransaction = typeof schema.tokenTransactions.$inferSelect;

export const accountView = (a: TokenAccount) => ({
  ...a,
  createdAt: a.createdAt.toISOString(),
  updatedAt: a.updatedAt.toISOString(),
});
export const transactionView = (t: TokenTransaction) => ({
  id: t.id,
  accountId: t.accountId,
  type: t.type,
  amount: t.amount,
  holdId: t.holdId,
  reason: t.reason,
  balanceAfter: t.balanceAfter,
  createdAt: t.createdAt.toISOString(),
});

/**
 * Opens the user's token account, empty (one account per user): the one way an account is opened. When they have one
 * already, `refusal` is thrown if given (the "open my account" route); without it, their account is the answer (a
 * purchase must land somewhere).
 */
export async function openTokenAccount(db: Db | Tx, userUuid: string, now: Date, refusal?: () => HttpError) {
  const values = { userUuid, createdAt: now, updatedAt: now };
  if (refusal)
    return returnedRow(
      "account insert",
      uniqueOr(() => db.insert(schema.tokenAccounts).values(values).returning(), refusal),
    );
  await db.insert(schema.tokenAccounts).values(values).onConflictDoNothing({ target: schema.tokenAccounts.userUuid });
  const account = await findAccount(db, { userUuid });
  if (!account) throw new Error("token account missing after insert");
  return account;
}

/** Names what a transaction was for once that exists (a hold taken before the upload it pays for was made). */
export const referTransaction = (tx: Tx, transactionId: string, referenceId: string) =>
  tx.update(schema.tokenTransactions).set({ referenceId }).where(eq(schema.tokenTransactions.id, transactionId));

/** The token account with this id or of this user, unlocked (reads only; balance changes go through lockAccount). */
export async function findAccount(db: Db | Tx, by: { id: string } | { userUuid: string }) {
  const where = "id" in by ? eq(schema.tokenAccounts.id, by.id) : eq(schema.tokenAccounts.userUuid, by.userUuid);
  return firstRow(db, schema.tokenAccounts, where);
}

export interface Movement {
  accountId: string;
  amount: number;
  reason?: string | null;
  referenceType?: string | null;
  referenceId?: string | null;
  /** A retried request with the same key on the same account moves tokens once and answers the first result. */
  idempotencyKey?: string | null;
}

/** The account row, locked until the transaction ends: every balance change goes through here. */
export async function lockAccount(tx: Tx, accountId: string) {
  const [account] = await tx
    .select()
    .from(schema.tokenAccounts)
    .where(eq(schema.tokenAccounts.id, accountId))
    .for("update");
  if (!account) throw notFound(ACCOUNT_NOT_FOUND);
  return account;
}

async function replay(tx: Tx, accountId: string, key: string | null | undefined) {
  if (!key) return null;
  return firstRow(
    tx,
    schema.tokenTransactions,
    and(eq(schema.tokenTransactions.accountId, accountId), eq(schema.tokenTransactions.idempotencyKey, key)),
  );
}

async function record(
  tx: Tx,
  account: TokenAccount,
  move: Movement & { type: TokenTransaction["type"]; holdId?: string | null },
  change: { balance: number; held: number },
  now: Date,
) {
  const [updated] = await tx
    .update(schema.tokenAccounts)
    .set({
      balance: sql`${schema.tokenAccounts.balance} + ${change.balance}`,
      held: sql`${schema.tokenAccounts.held} + ${change.held}`,
      updatedAt: now,
    })
    .where(eq(schema.tokenAccounts.id, account.id))
    .returning();
  if (!updated) throw notFound(ACCOUNT_NOT_FOUND);
  const row = await returnedRow(
    "ledger insert",
    tx
      .insert(schema.tokenTransactions)
      .values({
        accountId: account.id,
        type: move.type,
        amount: move.amount,
        ...orNull(move, "holdId", "reason", "referenceType", "referenceId", "idempotencyKey"),
        balanceAfter: updated.balance,
        createdAt: now,
      })
      .returning(),
  );
  return { transaction: row, account: updated };
}

/** Adds tokens (a purchase, a grant). */
export async function credit(tx: Tx, move: Movement, now: Date) {
  const account = await lockAccount(tx, move.accountId);
  const done = await replay(tx, account.id, move.idempotencyKey);
  if (done) return { transaction: done, account };
  return record(tx, account, { ...move, type: "credit" }, { balance: move.amount, held: 0 }, now);
}

/** Sets tokens aside for a spend that a commit completes or a void cancels; refused when the balance is short. */
export async function hold(tx: Tx, move: Movement, now: Date) {
  const account = await lockAccount(tx, move.accountId);
  const done = await replay(tx, account.id, move.idempotencyKey);
  if (done) return { transaction: done, account };
  if (account.status !== "active") throw forbidden(ACCOUNT_DISABLED);
  if (account.balance < move.amount) throw new HttpError(402, INSUFFICIENT_TOKENS);
  return record(tx, account, { ...move, type: "hold" }, { balance: -move.amount, held: move.amount }, now);
}

/** Completes (commit: the tokens are spent) or cancels (void: they go back) a hold, at most once. */
export async function resolveHold(
  tx: Tx,
  holdId: string,
  outcome: "commit" | "voided",
  now: Date,
  idempotencyKey?: string | null,
) {
  const held = await firstRow(tx, schema.tokenTransactions, eq(schema.tokenTransactions.id, holdId));
  if (held?.type !== "hold") throw notFound(HOLD_NOT_FOUND);
  const account = await lockAccount(tx, held.accountId);
  const done = await replay(tx, account.id, idempotencyKey);
  if (done) return { transaction: done, account };
  const resolved = await firstRow(tx, schema.tokenTransactions, eq(schema.tokenTransactions.holdId, holdId));
  if (resolved) throw new HttpError(409, HOLD_RESOLVED);
  return record(
    tx,
    account,
    {
      accountId: account.id,
      amount: held.amount,
      holdId,
      type: outcome,
      idempotencyKey,
      referenceType: held.referenceType,
      referenceId: held.referenceId,
    },
    outcome === "commit" ? { balance: 0, held: -held.amount } : { balance: held.amount, held: -held.amount },
    now,
  );
}

/** Runs ledger work in a transaction; a unique-key race (a concurrent duplicate) becomes the catalogue's conflict. */
export async function inLedger<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(work);
  } catch (err) {
    const code = postgresCode(err);
    if (code === "23505") throw new HttpError(409, HOLD_RESOLVED);
    if (code === "23514") throw new HttpError(402, INSUFFICIENT_TOKENS);
    throw err;
  }
}
