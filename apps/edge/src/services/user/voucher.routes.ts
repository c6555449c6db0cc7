import { schema } from "@booth/db";
import { VoucherStatus, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { and, count, desc, eq } from "drizzle-orm";
import { ADMINS, rateLimit, requireUser, STAFF } from "../../lib/auth.ts";
import { conflict, forbidden, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, PageQuery, pageSchema, UuidParam } from "../../lib/openapi.ts";
import { INVALID_VOUCHER } from "./sign-up.routes.ts";

export const VOUCHER_NOT_PENDING = "This voucher has already been redeemed or revoked.";
// No 0/O, 1/I/L: codes are read aloud and typed by hand.
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

const tags = ["Vouchers"];
export const voucherRoutes = createRouter();

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
type Voucher = typeof schema.vouchers.$inferSelect;
const voucherView = (v: Voucher) => ({
  ...v,
  redeemedAt: v.redeemedAt?.toISOString() ?? null,
  revokedAt: v.revokedAt?.toISOString() ?? null,
  createdAt: v.createdAt.toISOString(),
});

voucherRoutes.openapi(
  createRoute({
    method: "post",
    path: "/vouchers",
    tags,
    summary: "Create vouchers (admins)",
    security: bearer,
    request: jsonBody(
      z.object({ count: z.number().int().min(1).max(500).default(1), note: z.string().trim().max(500).optional() }),
    ),
    responses: { 201: json(z.array(VoucherSchema), "Created"), ...errors(400, 401, 403) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { roles: ADMINS });
    const body = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const now = clock.now();
    const rows = await db
      .insert(schema.vouchers)
      .values(
        Array.from({ length: body.count }, () => ({
          code: voucherCode(),
          note: body.note ?? null,
          createdBy: user.uuid,
          createdAt: now,
        })),
      )
      .returning();
    return c.json(rows.map(voucherView), 201);
  },
);

voucherRoutes.openapi(
  createRoute({
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
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const { status, limit, offset } = c.req.valid("query");
    const where = status ? eq(schema.vouchers.status, status) : undefined;
    const { db } = c.var.deps;
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(schema.vouchers)
        .where(where)
        .orderBy(desc(schema.vouchers.createdAt), desc(schema.vouchers.id))
        .limit(limit)
        .offset(offset),
      db.select({ n: count() }).from(schema.vouchers).where(where),
    ]);
    return c.json({ data: rows.map(voucherView), total: total?.n ?? 0 }, 200);
  },
);

voucherRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/vouchers/{id}",
    tags,
    summary: "Revoke a pending voucher (admins)",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(VoucherSchema), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const { id } = c.req.valid("param");
    const { db, clock } = c.var.deps;
    // Conditional update: a revoke racing a redeem leaves exactly one of them done.
    const [revoked] = await db
      .update(schema.vouchers)
      .set({ status: "REVOKED", revokedAt: clock.now() })
      .where(and(eq(schema.vouchers.id, id), eq(schema.vouchers.status, "PENDING")))
      .returning();
    if (revoked) return c.json(voucherView(revoked), 200);
    const [existing] = await db
      .select({ id: schema.vouchers.id })
      .from(schema.vouchers)
      .where(eq(schema.vouchers.id, id));
    if (!existing) throw notFound("Voucher not found.");
    throw conflict(VOUCHER_NOT_PENDING);
  },
);

voucherRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/vouchers/redeem",
    tags,
    summary: "Redeem a voucher for the caller (once)",
    security: bearer,
    request: jsonBody(z.object({ code: z.string().trim().min(1).max(64) })),
    responses: { 200: json(VoucherSchema), ...errors(400, 401, 403, 429) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    await rateLimit(c, `voucher:redeem:${user.uuid}`, 20, 3600);
    const { db, clock } = c.var.deps;
    const [redeemed] = await db
      .update(schema.vouchers)
      .set({ status: "REDEEMED", redeemedBy: user.uuid, redeemedAt: clock.now() })
      .where(
        and(eq(schema.vouchers.code, c.req.valid("json").code.toUpperCase()), eq(schema.vouchers.status, "PENDING")),
      )
      .returning();
    if (!redeemed) throw forbidden(INVALID_VOUCHER);
    return c.json(voucherView(redeemed), 200);
  },
);
