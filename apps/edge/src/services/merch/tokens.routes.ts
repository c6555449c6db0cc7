import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { ADMINS, hasAnyRole, requireService, requireUser } from "../../lib/auth.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { conflict, forbidden, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody } from "../../lib/openapi.ts";
import {
  ACCOUNT_NOT_FOUND,
  credit,
  inLedger,
  resolveHold,
  type TokenAccount,
  type TokenTransaction,
} from "./ledger.ts";

export const tokenRoutes = createRouter();
const tags = ["Tokens"];

export const TokenAccountSchema = z
  .object({
    id: z.uuid(),
    userUuid: z.uuid(),
    balance: z.number().int(),
    held: z.number().int(),
    status: z.enum(["active", "disabled"]),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("TokenAccount");
export const accountView = (a: TokenAccount) => ({
  ...a,
  createdAt: a.createdAt.toISOString(),
  updatedAt: a.updatedAt.toISOString(),
});
export const TokenTransactionSchema = z
  .object({
    id: z.uuid(),
    accountId: z.uuid(),
    type: z.enum(["credit", "hold", "commit", "voided"]),
    amount: z.number().int(),
    holdId: z.uuid().nullable(),
    reason: z.string().nullable(),
    balanceAfter: z.number().int(),
    createdAt: z.string(),
  })
  .openapi("TokenTransaction");
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

tokenRoutes.openapi(
  createRoute({
    method: "post",
    path: "/api/v1/token-accounts",
    tags,
    summary: "Open the caller's token account (one per user)",
    security: bearer,
    responses: { 201: json(TokenAccountSchema, "Created"), ...errors(401, 403, 409) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db, clock } = c.var.deps;
    try {
      const [row] = await db
        .insert(schema.tokenAccounts)
        .values({ userUuid: user.uuid, createdAt: clock.now(), updatedAt: clock.now() })
        .returning();
      if (!row) throw new Error("account insert returned nothing");
      return c.json(accountView(row), 201);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("You already have a token account.");
      throw err;
    }
  },
);

tokenRoutes.openapi(
  createRoute({
    method: "get",
    path: "/api/v1/token-accounts/self",
    tags,
    summary: "The caller's token account and balance",
    security: bearer,
    responses: { 200: json(TokenAccountSchema), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const [row] = await c.var.deps.db
      .select()
      .from(schema.tokenAccounts)
      .where(eq(schema.tokenAccounts.userUuid, user.uuid));
    if (!row) throw notFound(ACCOUNT_NOT_FOUND);
    return c.json(accountView(row), 200);
  },
);

tokenRoutes.openapi(
  createRoute({
    method: "get",
    path: "/api/v1/token-accounts/{accountId}",
    tags,
    summary: "A token account (its owner, admins or services)",
    security: bearer,
    request: { params: z.object({ accountId: z.uuid().openapi({ param: { name: "accountId", in: "path" } }) }) },
    responses: { 200: json(TokenAccountSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { accountId } = c.req.valid("param");
    const [row] = await c.var.deps.db.select().from(schema.tokenAccounts).where(eq(schema.tokenAccounts.id, accountId));
    if (c.var.auth?.type !== "service") {
      const { user } = await requireUser(c, { types: ["user", "bot"] });
      if (row && row.userUuid !== user.uuid && !hasAnyRole(user.roles, ADMINS)) throw forbidden();
    }
    if (!row) throw notFound(ACCOUNT_NOT_FOUND);
    return c.json(accountView(row), 200);
  },
);

const ResolveBody = z.object({ holdId: z.uuid(), idempotencyKey: z.string().min(1).max(200).optional() });
for (const [path, outcome, summary] of [
  ["/api/v1/token-transactions/commit", "commit", "Complete a hold: its tokens are spent (services)"],
  ["/api/v1/token-transactions/void", "voided", "Cancel a hold: its tokens go back to the balance (services)"],
] as const)
  tokenRoutes.openapi(
    createRoute({
      method: "post",
      path,
      tags,
      summary,
      security: bearer,
      request: {
        ...jsonBody(ResolveBody),
        headers: z.object({ "idempotency-key": z.string().min(1).max(200).optional() }),
      },
      responses: {
        200: json(
          z.object({ transaction: TokenTransactionSchema, account: TokenAccountSchema }).openapi(`Hold${outcome}`),
        ),
        ...errors(400, 401, 403, 404, 409),
      },
    }),
    async (c) => {
      await requireService(c);
      const body = c.req.valid("json");
      const key = body.idempotencyKey ?? c.req.valid("header")["idempotency-key"];
      const { db, clock } = c.var.deps;
      const result = await inLedger(db, (tx) => resolveHold(tx, body.holdId, outcome, clock.now(), key));
      return c.json({ transaction: transactionView(result.transaction), account: accountView(result.account) }, 200);
    },
  );

tokenRoutes.openapi(
  createRoute({
    method: "post",
    path: "/api/v1/token-accounts/{accountId}/credit",
    tags,
    summary:
      "Credit tokens to an account (admins and services: grants, and purchases confirmed by the payment service)",
    security: bearer,
    request: {
      params: z.object({ accountId: z.uuid().openapi({ param: { name: "accountId", in: "path" } }) }),
      ...jsonBody(
        z.object({
          amount: z.number().int().min(1).max(10_000_000),
          reason: z.string().trim().min(1).max(200),
          idempotencyKey: z.string().min(1).max(200).optional(),
        }),
      ),
      headers: z.object({ "idempotency-key": z.string().min(1).max(200).optional() }),
    },
    responses: {
      200: json(
        z.object({ transaction: TokenTransactionSchema, account: TokenAccountSchema }).openapi("TokensCredited"),
      ),
      ...errors(400, 401, 403, 404),
    },
  }),
  async (c) => {
    await requireService(c);
    const body = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const result = await inLedger(db, (tx) =>
      credit(
        tx,
        {
          accountId: c.req.valid("param").accountId,
          amount: body.amount,
          reason: body.reason,
          idempotencyKey: body.idempotencyKey ?? c.req.valid("header")["idempotency-key"],
        },
        clock.now(),
      ),
    );
    const [fresh] = await db.select().from(schema.tokenAccounts).where(eq(schema.tokenAccounts.id, result.account.id));
    return c.json(
      { transaction: transactionView(result.transaction), account: accountView(fresh ?? result.account) },
      200,
    );
  },
);
