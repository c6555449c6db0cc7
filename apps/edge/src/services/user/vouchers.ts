import { type Db, schema, type Tx } from "@booth/db";
import type { VoucherStatus } from "@booth/db/schema";
import { and, eq } from "drizzle-orm";
import { errorMessage } from "../../lib/error-codes.ts";
import { conflict, notFound } from "../../lib/errors.ts";
import { jsonRow } from "../../lib/json-rows.ts";
import { newestFirst } from "../../lib/pages.ts";

export const INVALID_VOUCHER = errorMessage("INVALID_VOUCHER");
export const VOUCHER_NOT_PENDING = "This voucher has already been redeemed or revoked.";

// No 0/O, 1/I/L: codes are read aloud and typed by hand.
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/** ABCD-EFGH-JKMN: 12 characters from a 31-letter alphabet, about 59 bits. */
export function voucherCode() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  // 256 is not a multiple of 31; drawing by rejection keeps every letter equally likely.
  const chars: string[] = [];
  while (chars.length < 12) {
    for (const b of bytes) if (b < 248 && chars.length < 12) chars.push(ALPHABET[b % 31] ?? "A");
    crypto.getRandomValues(bytes);
  }
  return [chars.slice(0, 4), chars.slice(4, 8), chars.slice(8)].map((g) => g.join("")).join("-");
}

type Voucher = typeof schema.vouchers.$inferSelect;

export const voucherView = (v: Voucher) => jsonRow(v);

export function createVouchers(db: Db, input: { count: number; note: string | null; createdBy: string; now: Date }) {
  return db
    .insert(schema.vouchers)
    .values(
      Array.from({ length: input.count }, () => ({
        code: voucherCode(),
        note: input.note,
        createdBy: input.createdBy,
        createdAt: input.now,
      })),
    )
    .returning();
}

export async function listVouchers(
  db: Db,
  query: { status?: VoucherStatus | undefined; limit: number; offset: number },
) {
  const where = query.status ? eq(schema.vouchers.status, query.status) : undefined;
  return newestFirst(db, schema.vouchers, where, query);
}

/** Revokes a pending voucher: 404 when there is none, 409 when it was redeemed or revoked already. */
export async function revokeVoucher(db: Db, id: string, now: Date) {
  // Conditional update: a revoke racing a redeem leaves exactly one of them done.
  const [revoked] = await db
    .update(schema.vouchers)
    .set({ status: "REVOKED", revokedAt: now })
    .where(and(eq(schema.vouchers.id, id), eq(schema.vouchers.status, "PENDING")))
    .returning();
  if (revoked) return revoked;
  const [existing] = await db
    .select({ id: schema.vouchers.id })
    .from(schema.vouchers)
    .where(eq(schema.vouchers.id, id));
  if (!existing) throw notFound("Voucher not found.");
  throw conflict(VOUCHER_NOT_PENDING);
}

/**
 * Redeems the pending voucher with this code (any case) for a user; null when there is none. A conditional update:
 * of two redeems racing for one voucher, exactly one sees it PENDING.
 */
export async function redeemVoucher(db: Db | Tx, code: string, userUuid: string, now: Date) {
  const [redeemed] = await db
    .update(schema.vouchers)
    .set({ status: "REDEEMED", redeemedBy: userUuid, redeemedAt: now })
    .where(and(eq(schema.vouchers.code, code.toUpperCase()), eq(schema.vouchers.status, "PENDING")))
    .returning();
  return redeemed ?? null;
}
