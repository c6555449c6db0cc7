import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody } from "../../lib/openapi.ts";

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

const AccountIdParam = z.object({ accountId: z.uuid().openapi({ param: { name: "accountId", in: "path" } }) });
const IdempotencyHeader = z.object({ "idempotency-key": z.string().min(1).max(200).optional() });

export const openAccount = createRoute({
  method: "post",
  path: "/api/v1/token-accounts",
  tags,
  summary: "Open the caller's token account (one per user)",
  security: bearer,
  responses: { 201: json(TokenAccountSchema, "Created"), ...errors(401, 403, 409) },
});

export const ownAccount = createRoute({
  method: "get",
  path: "/api/v1/token-accounts/self",
  tags,
  summary: "The caller's token account and balance",
  security: bearer,
  responses: { 200: json(TokenAccountSchema), ...errors(401, 403, 404) },
});

export const getAccount = createRoute({
  method: "get",
  path: "/api/v1/token-accounts/{accountId}",
  tags,
  summary: "A token account (its owner, admins or services)",
  security: bearer,
  request: { params: AccountIdParam },
  responses: { 200: json(TokenAccountSchema), ...errors(400, 401, 403, 404) },
});

const resolveHold = (path: string, outcome: "commit" | "voided", summary: string) =>
  createRoute({
    method: "post",
    path,
    tags,
    summary,
    security: bearer,
    request: {
      ...jsonBody(z.object({ holdId: z.uuid(), idempotencyKey: z.string().min(1).max(200).optional() })),
      headers: IdempotencyHeader,
    },
    responses: {
      200: json(
        z.object({ transaction: TokenTransactionSchema, account: TokenAccountSchema }).openapi(`Hold${outcome}`),
      ),
      ...errors(400, 401, 403, 404, 409),
    },
  });
export const commitHold = resolveHold(
  "/api/v1/token-transactions/commit",
  "commit",
  "Complete a hold: its tokens are spent (services)",
);
export const voidHold = resolveHold(
  "/api/v1/token-transactions/void",
  "voided",
  "Cancel a hold: its tokens go back to the balance (services)",
);

export const creditAccount = createRoute({
  method: "post",
  path: "/api/v1/token-accounts/{accountId}/credit",
  tags,
  summary: "Credit tokens to an account (admins and services: grants, and purchases confirmed by the payment service)",
  security: bearer,
  request: {
    params: AccountIdParam,
    ...jsonBody(
      z.object({
        amount: z.number().int().min(1).max(10_000_000),
        reason: z.string().trim().min(1).max(200),
        idempotencyKey: z.string().min(1).max(200).optional(),
      }),
    ),
    headers: IdempotencyHeader,
  },
  responses: {
    200: json(z.object({ transaction: TokenTransactionSchema, account: TokenAccountSchema }).openapi("TokensCredited")),
    ...errors(400, 401, 403, 404),
  },
});
