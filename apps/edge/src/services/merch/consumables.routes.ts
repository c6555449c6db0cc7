import { ConsumableDisplayType, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import {
  bearer,
  DateTime,
  errors,
  Int,
  json,
  jsonBody,
  noContent,
  Offset,
  UuidCsv,
  UuidParam,
} from "../../lib/openapi.ts";
import { MERCH_PAGE } from "./consumables.ts";
import { TokenAccountSchema } from "./tokens.routes.ts";

const tags = ["Consumables"];

const ConsumableSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    tokenCost: z.number().int(),
    displayType: z.enum(values(ConsumableDisplayType)),
    fileId: z.uuid().nullable(),
    fileUrl: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Consumable");

const ConsumableBody = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(1000).nullable().optional(),
  tokenCost: z.number().int().min(1).max(1_000_000),
  displayType: z.enum(values(ConsumableDisplayType)).default("small"),
  fileId: z.uuid().nullable().optional(),
});

export const createConsumable = createRoute({
  method: "post",
  path: "/api/v1/consumables",
  tags,
  summary: "Create a consumable (admins)",
  security: bearer,
  request: jsonBody(ConsumableBody),
  responses: { 201: json(ConsumableSchema, "Created"), ...errors(400, 401, 403) },
});

const ListQuery = z.object({
  id: UuidCsv.optional(),
  createdBefore: DateTime.optional(),
  orderBy: z.enum(["createdAt", "-createdAt", "tokenCost", "-tokenCost", "name"]).default("-createdAt"),
  offset: Offset,
  limit: z.coerce.number().int().min(1).max(100).default(MERCH_PAGE),
});

export const listConsumables = createRoute({
  method: "get",
  path: "/api/v1/consumables",
  tags,
  summary: "Consumables (anyone)",
  request: { query: ListQuery },
  responses: { 200: json(z.array(ConsumableSchema)), ...errors(400) },
});

export const countConsumables = createRoute({
  method: "get",
  path: "/api/v1/consumables/count",
  tags,
  summary: "How many consumables match",
  request: { query: ListQuery.pick({ id: true, createdBefore: true }) },
  responses: { 200: json(z.object({ count: z.number().int() }).openapi("Count")), ...errors(400) },
});

export const getConsumable = createRoute({
  method: "get",
  path: "/api/v1/consumables/{id}",
  tags,
  summary: "One consumable",
  request: { params: UuidParam },
  responses: { 200: json(ConsumableSchema), ...errors(400, 404) },
});

export const updateConsumable = createRoute({
  method: "patch",
  path: "/api/v1/consumables/{id}",
  tags,
  summary: "Change a consumable (admins)",
  security: bearer,
  request: { params: UuidParam, ...jsonBody(ConsumableBody.partial()) },
  responses: { 200: json(ConsumableSchema), ...errors(400, 401, 403, 404) },
});

export const deleteConsumable = createRoute({
  method: "delete",
  path: "/api/v1/consumables/{id}",
  tags,
  summary: "Delete a consumable that nobody has bought (admins)",
  security: bearer,
  request: { params: UuidParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404, 409) },
});

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

export const purchaseConsumable = createRoute({
  method: "post",
  path: "/api/v1/consumable-purchases",
  tags,
  summary: "Buy a consumable for a room with tokens; refused when the price or the balance the client saw is stale",
  security: bearer,
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
  responses: { 201: json(PurchaseSchema, "Created"), ...errors(400, 401, 402, 403, 404, 409, 429) },
});
