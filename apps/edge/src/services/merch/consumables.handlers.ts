import { ADMINS, rateLimit, requireUser } from "../../lib/auth.ts";
import { found } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./consumables.routes.ts";
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

export const createConsumable: AppRouteHandler<typeof routes.createConsumable> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const { db, clock } = c.var.deps;
  return c.json(consumableView(await createRow(db, c.req.valid("json"), clock.now())), 201);
};

export const listConsumables: AppRouteHandler<typeof routes.listConsumables> = async (c) => {
  const rows = await listRows(c.var.deps.db, c.req.valid("query"));
  return c.json(rows.map(consumableView), 200);
};

export const countConsumables: AppRouteHandler<typeof routes.countConsumables> = async (c) =>
  c.json({ count: await countRows(c.var.deps.db, c.req.valid("query")) }, 200);

export const getConsumable: AppRouteHandler<typeof routes.getConsumable> = async (c) =>
  c.json(consumableView(await consumables.find(c.var.deps.db, c.req.valid("param").id)), 200);

export const updateConsumable: AppRouteHandler<typeof routes.updateConsumable> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const { db, clock } = c.var.deps;
  const row = await updateRow(db, c.req.valid("param").id, c.req.valid("json"), clock.now());
  return c.json(consumableView(row), 200);
};

export const deleteConsumable: AppRouteHandler<typeof routes.deleteConsumable> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  await deleteRow(c.var.deps.db, c.req.valid("param").id);
  return c.body(null, 204);
};

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
