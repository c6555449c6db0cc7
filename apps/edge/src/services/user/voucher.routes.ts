import { VoucherStatus, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, PageQuery, pageSchema, UuidParam } from "../../lib/openapi.ts";

const tags = ["Vouchers"];

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

export const createVoucher = createRoute({
  method: "post",
  path: "/vouchers",
  tags,
  summary: "Create vouchers (admins)",
  security: bearer,
  request: jsonBody(
    z.object({ count: z.number().int().min(1).max(500).default(1), note: z.string().trim().max(500).optional() }),
  ),
  responses: { 201: json(z.array(VoucherSchema), "Created"), ...errors(400, 401, 403) },
});

export const listVouchers = createRoute({
  method: "get",
  path: "/vouchers",
  tags,
  summary: "Vouchers, newest first (staff and above)",
  security: bearer,
  request: {
    query: PageQuery.extend({ status: z.enum(values(VoucherStatus)).optional() }),
  },
  responses: {
    200: json(pageSchema(VoucherSchema, "VoucherList")),
    ...errors(400, 401, 403),
  },
});

export const deleteVoucher = createRoute({
  method: "delete",
  path: "/vouchers/{id}",
  tags,
  summary: "Revoke a pending voucher (admins)",
  security: bearer,
  request: { params: UuidParam },
  responses: { 200: json(VoucherSchema), ...errors(400, 401, 403, 404, 409) },
});

export const redeemVoucher = createRoute({
  method: "patch",
  path: "/vouchers/redeem",
  tags,
  summary: "Redeem a voucher for the caller (once)",
  security: bearer,
  request: jsonBody(z.object({ code: z.string().trim().min(1).max(64) })),
  responses: { 200: json(VoucherSchema), ...errors(400, 401, 403, 429) },
});
