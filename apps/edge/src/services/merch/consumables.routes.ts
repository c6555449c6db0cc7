import { ConsumableDisplayType, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { adminContracts } from "../../lib/admin-resource.ts";
import { contracts, created, DateTime, Int, jsonBody, limitOffset, Timestamps, UuidCsv } from "../../lib/openapi.ts";
import { MERCH_PAGE } from "./consumables.ts";
import { TokenAccountSchema } from "./tokens.routes.ts";

const { authed } = contracts(["Consumables"]);

const ConsumableSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    tokenCost: z.number().int(),
    displayType: z.enum(values(ConsumableDisplayType)),
    fileId: z.uuid().nullable(),
    fileUrl: z.string().nullable(),
    ...Timestamps,
  })
  .openapi("Consumable");

const ConsumableBody = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(1000).nullable().optional(),
  tokenCost: z.number().int().min(1).max(1_000_000),
  displayType: z.enum(values(ConsumableDisplayType)).default("small"),
  fileId: z.uuid().nullable().optional(),
});

/** The paging of the merch catalogues' lists (consumables, token bundles). */
export const MerchPaging = limitOffset(100, MERCH_PAGE);

const ListQuery = z.object({
  id: UuidCsv.optional(),
  createdBefore: DateTime.optional(),
  orderBy: z.enum(["createdAt", "-createdAt", "tokenCost", "-tokenCost", "name"]).default("-createdAt"),
  ...MerchPaging,
});

const admin = adminContracts({
  tags: ["Consumables"],
  path: "/api/v1/consumables",
  item: ConsumableSchema,
  body: ConsumableBody,
  patch: ConsumableBody.partial(),
});

export const createConsumable = admin.create("Create a consumable (admins)");
export const listConsumables = admin.list("Consumables (anyone)", ListQuery);
export const countConsumables = admin.count(
  "How many consumables match",
  ListQuery.pick({ id: true, createdBefore: true }),
  "Count",
);
export const getConsumable = admin.get("One consumable");
export const updateConsumable = admin.update("Change a consumable (admins)");
export const deleteConsumable = admin.remove("delete", "Delete a consumable that nobody has bought (admins)", 409);

// ---- purchases

const PurchaseSchema = z
  .object({
    id: z.uuid(),
    consumableId: z.uuid(),
    roomUuid: z.uuid(),
    tokenCost: z.number().int(),
    account: TokenAccountSchema,
    createdAt: z.string(),
  })
  .openapi("ConsumablePurchase");

export const purchaseConsumable = authed("post", "/api/v1/consumable-purchases", {
  summary: "Buy a consumable for a room with tokens; refused when the price or the balance the client saw is stale",
  request: {
    ...jsonBody(
      z.object({
        roomUuid: z.uuid(),
        consumableId: z.uuid(),
        accountId: z.uuid(),
        tokenCost: Int.min(1),
        lastTokenBalance: Int.min(0).optional(),
        balanceUnmodifiedSince: DateTime.optional(),
        idempotencyKey: z.string().min(1).max(200).optional(),
      }),
    ),
    headers: z.object({ "idempotency-key": z.string().min(1).max(200).optional() }),
  },
  responses: created(PurchaseSchema, 400, 401, 402, 403, 404, 409, 429),
});
