import { adminHandlers } from "../../lib/admin-resource.ts";
import { rateLimit, requireUser } from "../../lib/auth.ts";
import { found } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import * as routes from "./consumables.routes.ts";
import {
  announcePurchase,
  consumables,
  consumableView,
  countConsumables as countRows,
  createConsumable as createRow,
  deleteConsumable as deleteRow,
  listConsumables as listRows,
  purchaseConsumable as purchase,
  purchaseView,
  requireRoom,
  updateConsumable as updateRow,
} from "./consumables.ts";
import { ACCOUNT_NOT_FOUND, findAccount, inLedger } from "./ledger.ts";

const admin = adminHandlers({ view: consumableView, find: consumables.find });

export const createConsumable = admin.create(routes.createConsumable, createRow);
export const listConsumables = admin.list(routes.listConsumables, listRows);
export const countConsumables = admin.count(routes.countConsumables, countRows);
export const getConsumable = admin.get(routes.getConsumable);
export const updateConsumable = admin.update(routes.updateConsumable, updateRow);
export const deleteConsumable = admin.remove(routes.deleteConsumable, deleteRow);

export const purchaseConsumable: AppRouteHandler<typeof routes.purchaseConsumable> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { idempotencyKey, consumableId, ...body } = c.req.valid("json");
  const key = idempotencyKey ?? c.req.valid("header")["idempotency-key"];
  await rateLimit(c, `purchase:${user.uuid}`, 300, 60);
  const { db, clock } = c.var.deps;
  const now = clock.now();
  const consumable = await consumables.find(db, consumableId);
  await requireRoom(db, body.roomUuid);
  const bought = await inLedger(db, (tx) =>
    purchase(tx, consumable, { ...body, userUuid: user.uuid, idempotencyKey: key }, now),
  );
  // Once: a replayed request announces nothing.
  if (!bought.replayed) await announcePurchase(c.var.deps, user.uuid, consumable, bought.row);
  const fresh = found(await findAccount(db, { id: bought.account.id }), ACCOUNT_NOT_FOUND);
  return c.json(purchaseView(bought.row, fresh), 201);
};
