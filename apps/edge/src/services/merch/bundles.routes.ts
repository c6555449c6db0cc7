import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, noContent, Offset, UuidCsv, UuidParam } from "../../lib/openapi.ts";
import { MERCH_PAGE } from "./consumables.ts";

const tags = ["Token bundles"];

const BundleSchema = z
  .object({
    id: z.uuid(),
    productId: z.string(),
    name: z.string(),
    tokens: z.number().int(),
    thumbnail: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("TokenBundle");
const BundleBody = z.object({
  productId: z.string().trim().min(1).max(100).openapi({ description: "The payment service's product that sells it" }),
  name: z.string().trim().min(1).max(100),
  tokens: z.number().int().min(1).max(10_000_000),
});
const ListQuery = z.object({
  id: UuidCsv.optional(),
  productId: z.string().max(100).optional(),
  offset: Offset,
  limit: z.coerce.number().int().min(1).max(100).default(MERCH_PAGE),
});

export const createBundle = createRoute({
  method: "post",
  path: "/api/v1/token-bundles",
  tags,
  summary: "Create a token bundle (admins)",
  security: bearer,
  request: jsonBody(BundleBody),
  responses: { 201: json(BundleSchema, "Created"), ...errors(400, 401, 403, 409) },
});

export const listBundles = createRoute({
  method: "get",
  path: "/api/v1/token-bundles",
  tags,
  summary: "Token bundles, fewest tokens first (anyone)",
  request: { query: ListQuery },
  responses: { 200: json(z.array(BundleSchema)), ...errors(400) },
});

export const countBundles = createRoute({
  method: "get",
  path: "/api/v1/token-bundles/count",
  tags,
  summary: "How many bundles match",
  request: { query: ListQuery.pick({ id: true, productId: true }) },
  responses: { 200: json(z.object({ count: z.number().int() }).openapi("BundleCount")), ...errors(400) },
});

export const getBundle = createRoute({
  method: "get",
  path: "/api/v1/token-bundles/{id}",
  tags,
  summary: "One token bundle",
  request: { params: UuidParam },
  responses: { 200: json(BundleSchema), ...errors(400, 404) },
});

export const updateBundle = createRoute({
  method: "patch",
  path: "/api/v1/token-bundles/{id}",
  tags,
  summary: "Change a token bundle (admins)",
  security: bearer,
  request: { params: UuidParam, ...jsonBody(BundleBody.partial()) },
  responses: { 200: json(BundleSchema), ...errors(400, 401, 403, 404, 409) },
});

export const deleteBundle = createRoute({
  method: "post",
  path: "/api/v1/token-bundles/{id}",
  tags,
  summary: "Delete a token bundle (admins; the spec's clients delete with POST)",
  security: bearer,
  request: { params: UuidParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});

export const setThumbnail = createRoute({
  method: "patch",
  path: "/api/v1/token-bundles/{id}/thumbnail",
  tags,
  summary: "Set a bundle's thumbnail image (admins; multipart `file`)",
  security: bearer,
  request: {
    params: UuidParam,
    body: {
      required: true,
      content: {
        "multipart/form-data": { schema: z.object({ file: z.any().openapi({ type: "string", format: "binary" }) }) },
      },
    },
  },
  responses: { 200: json(BundleSchema), ...errors(400, 401, 403, 404, 413, 415) },
});
