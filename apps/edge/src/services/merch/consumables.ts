import { type Db, schema, type Tx } from "@booth/db";
import { and, asc, desc, eq, inArray, lt } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { adminItems } from "../../lib/admin-items.ts";
import { forbidden, found, HttpError } from "../../lib/errors.ts";
import { uuidList } from "../../lib/openapi.ts";
import { returnedRow } from "../../lib/rows.ts";
import { ROOM_NOT_FOUND } from "../room/public.ts";
import { checkFile, fileUrl } from "./files.ts";
import { accountView, hold, lockAccount, resolveHold, type TokenAccount } from "./ledger.ts";

export const PRICE_CHANGED = "The price of this item has changed; please review it and try again.";
export const BALANCE_CHANGED = "Your token balance has changed; please review it and try again.";
export const CONSUMABLE_NOT_FOUND = "Consumable not found.";
export const CONSUMABLE_BOUGHT = "This consumable has been bought; it cannot be deleted.";
/** The web lists consumables and bundles 32 at a time. */
export const MERCH_PAGE = 32;

export type Consumable = typeof schema.consumables.$inferSelect;
export type ConsumablePurchase = typeof schema.consumablePurchases.$inferSelect;
type NewConsumable = Omit<typeof schema.consumables.$inferInsert, "id" | "createdAt" | "updatedAt">;

export const consumableView = (c: Consumable) => ({
  ...c,
  fileUrl: fileUrl(c.fileId),
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});
export const purchaseView = (p: ConsumablePurchase, account: TokenAccount) => ({
  id: p.id,
  consumableId: p.consumableId,
  roomUuid: p.roomUuid,
  tokenCost: p.tokenCost,
  account: accountView(account),
  createdAt: p.createdAt.toISOString(),
});

export const consumables = adminItems(schema.consumables, schema.consumables.id, CONSUMABLE_NOT_FOUND);

export interface ConsumableFilter {
  id?: string | undefined;
  createdBefore?: string | undefined;
}
const ORDER = {
  createdAt: asc(schema.consumables.createdAt),
  "-createdAt": desc(schema.consumables.createdAt),
  tokenCost: asc(schema.consumables.tokenCost),
  "-tokenCost": desc(schema.consumables.tokenCost),
  name: asc(schema.consumables.name),
} as const;
export type ConsumableOrder = keyof typeof ORDER;

const consumableWhere = (q: ConsumableFilter) => {
  const ids = uuidList(q.id, "id");
  return and(
    ids.length ? inArray(schema.consumables.id, ids) : undefined,
    q.createdBefore ? lt(schema.consumables.createdAt, new Date(q.createdBefore)) : undefined,
  );
};

export const listConsumables = (
  db: Db,
  q: ConsumableFilter & { orderBy: ConsumableOrder; offset: number; limit: number },
) =>
  db
    .select()
    .from(schema.consumables)
    .where(consumableWhere(q))
    .orderBy(ORDER[q.orderBy], asc(schema.consumables.id))
    .limit(q.limit)
    .offset(q.offset);

export const countConsumables = (db: Db, q: ConsumableFilter) => db.$count(schema.consumables, consumableWhere(q));

export async function createConsumable(db: Db, body: NewConsumable, now: Date) {
  await checkFile(db, body.fileId);
  return consumables.insert(db, { ...body, createdAt: now, updatedAt: now });
}

export async function updateConsumable(db: Db, id: string, patch: Partial<NewConsumable>, now: Date) {
  await checkFile(db, patch.fileId);
  return consumables.update(db, id, { ...patch, updatedAt: now });
}

/** Deletes a consumable nobody has bought (a bought one stays: its purchases refer to it). */
export async function deleteConsumable(db: Db, id: string) {
  if (await db.$count(schema.consumablePurchases, eq(schema.consumablePurchases.consumableId, id)))
    throw new HttpError(409, CONSUMABLE_BOUGHT);
  await consumables.remove(db, id);
}

/** A 404 unless the room exists. */
export async function requireRoom(db: Db, roomUuid: string) {
  const [room] = await db.select({ uuid: schema.rooms.uuid }).from(schema.rooms).where(eq(schema.rooms.uuid, roomUuid));
  found(room, ROOM_NOT_FOUND);
}

export interface PurchaseRequest {
  userUuid: string;
  accountId: string;
  roomUuid: string;
  /** The price and balance the buyer saw: a purchase is refused when either has changed since. */
  tokenCost: number;
  lastTokenBalance?: number | undefined;
  balanceUnmodifiedSince?: string | undefined;
  idempotencyKey?: string | undefined;
}

/**
 * Buys `consumable` with the buyer's tokens, in the ledger's transaction: the tokens are held and committed at once
 * and the purchase recorded. A retried request with the same idempotency key answers the first purchase (replayed).
 */
export async function purchaseConsumable(tx: Tx, consumable: Consumable, req: PurchaseRequest, now: Date) {
  const key = req.idempotencyKey;
  const account = await lockAccount(tx, req.accountId);
  if (account.userUuid !== req.userUuid) throw forbidden();
  if (key) {
    const [earlier] = await tx
      .select({ purchase: schema.consumablePurchases })
      .from(schema.tokenTransactions)
      .innerJoin(schema.consumablePurchases, eq(schema.consumablePurchases.holdId, schema.tokenTransactions.id))
      .where(and(eq(schema.tokenTransactions.accountId, account.id), eq(schema.tokenTransactions.idempotencyKey, key)));
    if (earlier) return { row: earlier.purchase, account, replayed: true };
  }
  if (consumable.tokenCost !== req.tokenCost) throw new HttpError(409, PRICE_CHANGED);
  if (req.lastTokenBalance !== undefined && account.balance !== req.lastTokenBalance)
    throw new HttpError(409, BALANCE_CHANGED);
  if (req.balanceUnmodifiedSince && account.updatedAt > new Date(req.balanceUnmodifiedSince))
    throw new HttpError(409, BALANCE_CHANGED);
  const held = await hold(
    tx,
    {
      accountId: account.id,
      amount: consumable.tokenCost,
      reason: `consumable ${consumable.name}`,
      referenceType: "consumable",
      referenceId: consumable.id,
      idempotencyKey: key,
    },
    now,
  );
  const committed = await resolveHold(tx, held.transaction.id, "commit", now);
  const row = await returnedRow(
    "purchase insert",
    tx
      .insert(schema.consumablePurchases)
      .values({
        accountId: account.id,
        userUuid: req.userUuid,
        consumableId: consumable.id,
        roomUuid: req.roomUuid,
        tokenCost: consumable.tokenCost,
        holdId: held.transaction.id,
        createdAt: now,
      })
      .returning(),
  );
  return { row, account: committed.account, replayed: false };
}

/** Everyone in the room sees a purchase in the chat. */
export async function announcePurchase(
  deps: Pick<AppDeps, "db" | "liveRooms">,
  buyerUuid: string,
  consumable: Consumable,
  purchase: ConsumablePurchase,
) {
  const [profile] = await deps.db
    .select({ nickname: schema.profiles.nickname })
    .from(schema.profiles)
    .where(eq(schema.profiles.userUuid, buyerUuid));
  await deps.liveRooms.notify(purchase.roomUuid, {
    type: "showConsumable",
    buyer: { uuid: buyerUuid, nickname: profile?.nickname ?? "Someone" },
    consumable: {
      id: consumable.id,
      name: consumable.name,
      displayType: consumable.displayType,
      imageUrl: fileUrl(consumable.fileId),
      tokenCost: purchase.tokenCost,
      purchaseId: purchase.id,
    },
  });
}
