import { VoucherStatus, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { contracts, created, jsonBody, ok, PageQuery, pageSchema, UuidParam } from "../../lib/openapi.ts";

const { authed } = contracts(["Vouchers"]);

const VoucherSchema = z
  .object({
    id: z.uuid(),
    code: z.string(),
    status: z.enum(values(VoucherStatus)),
    note: z.string().nullable(),
    createdBy: z.uuid().nullable(),
    redeemedBy: z.uuid().nullable(),
    redeemedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("Voucher");

export const createVoucher = authed("post", "/vouchers", {
  summary: "Create vouchers (admins)",
  request: jsonBody(
    z.object({ count: z.number().int().min(1).max(500).default(1), note: z.string().trim().max(500).optional() }),
  ),
  responses: created(z.array(VoucherSchema), 400, 401, 403),
});

export const listVouchers = authed("get", "/vouchers", {
  summary: "Vouchers, newest first (staff and above)",
  request: {
    query: PageQuery.extend({ status: z.enum(values(VoucherStatus)).optional() }),
  },
  responses: ok(pageSchema(VoucherSchema, "VoucherList"), 400, 401, 403),
});

export const deleteVoucher = authed("delete", "/vouchers/{id}", {
  summary: "Revoke a pending voucher (admins)",
  request: { params: UuidParam },
  responses: ok(VoucherSchema, 400, 401, 403, 404, 409),
});

export const redeemVoucher = authed("patch", "/vouchers/redeem", {
  summary: "Redeem a voucher for the caller (once)",
  request: jsonBody(z.object({ code: z.string().trim().min(1).max(64) })),
  responses: ok(VoucherSchema, 400, 401, 403, 429),
});
