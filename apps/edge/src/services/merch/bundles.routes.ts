import { z } from "@hono/zod-openapi";
import {
  contracts,
  created,
  fileBody,
  jsonBody,
  noContentOr,
  Offset,
  ok,
  UuidCsv,
  UuidParam,
} from "../../lib/openapi.ts";
import { MERCH_PAGE } from "./consumables.ts";

const { authed, route } = contracts(["Token bundles"]);

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

export const createBundle = authed("post", "/api/v1/token-bundles", "Create a token bundle (admins)", {
  request: jsonBody(BundleBody),
  responses: created(BundleSchema, 400, 401, 403, 409),
});

export const listBundles = route("get", "/api/v1/token-bundles", "Token bundles, fewest tokens first (anyone)", {
  request: { query: ListQuery },
  responses: ok(z.array(BundleSchema), 400),
});

export const countBundles = route("get", "/api/v1/token-bundles/count", "How many bundles match", {
  request: { query: ListQuery.pick({ id: true, productId: true }) },
  responses: ok(z.object({ count: z.number().int() }).openapi("BundleCount"), 400),
});

export const getBundle = route("get", "/api/v1/token-bundles/{id}", "One token bundle", {
  request: { params: UuidParam },
  responses: ok(BundleSchema, 400, 404),
});

export const updateBundle = authed("patch", "/api/v1/token-bundles/{id}", "Change a token bundle (admins)", {
  request: { params: UuidParam, ...jsonBody(BundleBody.partial()) },
  responses: ok(BundleSchema, 400, 401, 403, 404, 409),
});

export const deleteBundle = authed(
  "post",
  "/api/v1/token-bundles/{id}",
  "Delete a token bundle (admins; the spec's clients delete with POST)",
  { request: { params: UuidParam }, responses: noContentOr(400, 401, 403, 404) },
);

export const setThumbnail = authed(
  "patch",
  "/api/v1/token-bundles/{id}/thumbnail",
  "Set a bundle's thumbnail image (admins; multipart `file`)",
  {
    request: {
      params: UuidParam,
      ...fileBody(),
    },
    responses: ok(BundleSchema, 400, 401, 403, 404, 413, 415),
  },
);
