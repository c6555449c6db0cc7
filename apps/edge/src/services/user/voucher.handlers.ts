import { ADMINS, rateLimit, requireUser, STAFF } from "../../lib/auth.ts";
import { forbidden } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./voucher.routes.ts";
import * as vouchers from "./vouchers.ts";
import { INVALID_VOUCHER, voucherView } from "./vouchers.ts";

export const createVoucher: AppRouteHandler<typeof routes.createVoucher> = async (c) => {
  const { user } = await requireUser(c, { roles: ADMINS });
  const body = c.req.valid("json");
  const { db, clock } = c.var.deps;
  const rows = await vouchers.createVouchers(db, {
    count: body.count,
    note: body.note ?? null,
    createdBy: user.uuid,
    now: clock.now(),
  });
  return c.json(rows.map(voucherView), 201);
};

export const listVouchers: AppRouteHandler<typeof routes.listVouchers> = async (c) => {
  await requireUser(c, { roles: STAFF });
  const { rows, total } = await vouchers.listVouchers(c.var.deps.db, c.req.valid("query"));
  return c.json({ data: rows.map(voucherView), total }, 200);
};

export const deleteVoucher: AppRouteHandler<typeof routes.deleteVoucher> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const { db, clock } = c.var.deps;
  return c.json(voucherView(await vouchers.revokeVoucher(db, c.req.valid("param").id, clock.now())), 200);
};

export const redeemVoucher: AppRouteHandler<typeof routes.redeemVoucher> = async (c) => {
  const { user } = await requireUser(c);
  await rateLimit(c, `voucher:redeem:${user.uuid}`, 20, 3600);
  const { db, clock } = c.var.deps;
  const redeemed = await vouchers.redeemVoucher(db, c.req.valid("json").code, user.uuid, clock.now());
  if (!redeemed) throw forbidden(INVALID_VOUCHER);
  return c.json(voucherView(redeemed), 200);
};
