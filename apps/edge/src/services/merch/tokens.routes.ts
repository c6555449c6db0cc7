import { z } from "@hono/zod-openapi";
import { contracts, created, jsonBody, ok, Timestamps, uuidParams } from "../../lib/openapi.ts";

const { authed } = contracts(["Tokens"]);

export const TokenAccountSchema = z
  .object({
    id: z.uuid(),
    userUuid: z.uuid(),
    balance: z.number().int(),
    held: z.number().int(),
    status: z.enum(["active", "disabled"]),
    ...Timestamps,
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

const AccountIdParam = uuidParams("accountId");
const IdempotencyHeader = z.object({ "idempotency-key": z.string().min(1).max(200).optional() });

export const openAccount = authed("post", "/api/v1/token-accounts", {
  summary: "Open the caller's token account (one per user)",
  responses: created(TokenAccountSchema, 401, 403, 409),
});

export const ownAccount = authed("get", "/api/v1/token-accounts/self", {
  summary: "The caller's token account and balance",
  responses: ok(TokenAccountSchema, 401, 403, 404),
});

export const getAccount = authed("get", "/api/v1/token-accounts/{accountId}", {
  summary: "A token account (its owner, admins or services)",
  request: { params: AccountIdParam },
  responses: ok(TokenAccountSchema, 400, 401, 403, 404),
});

const resolveHold = (path: string, outcome: "commit" | "voided", summary: string) =>
  authed("post", path, {
    summary,
    request: {
      ...jsonBody(z.object({ holdId: z.uuid(), idempotencyKey: z.string().min(1).max(200).optional() })),
      headers: IdempotencyHeader,
    },
    responses: ok(
      z.object({ transaction: TokenTransactionSchema, account: TokenAccountSchema }).openapi(`Hold${outcome}`),
      400,
      401,
      403,
      404,
      409,
    ),
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

export const creditAccount = authed("post", "/api/v1/token-accounts/{accountId}/credit", {
  summary: "Credit tokens to an account (admins and services: grants, and purchases confirmed by the payment service)",
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
  responses: ok(
    z.object({ transaction: TokenTransactionSchema, account: TokenAccountSchema }).openapi("TokensCredited"),
    400,
    401,
    403,
    404,
  ),
});
