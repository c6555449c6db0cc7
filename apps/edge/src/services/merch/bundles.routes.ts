import { z } from "@hono/zod-openapi";
import { adminContracts } from "../../lib/admin-resource.ts";
import { contracts, fileBody, ok, Timestamps, UuidCsv, UuidParam } from "../../lib/openapi.ts";
import { MerchPaging } from "./consumables.routes.ts";

const { authed } = contracts(["Token bundles"]);

const BundleSchema = z
  .object({
    id: z.uuid(),
    productId: z.string(),
    name: z.string(),
    tokens: z.number().int(),
    thumbnail: z.string().nullable(),
    ...Timestamps,
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
  ...MerchPaging,
});

const admin = adminContracts({
  tags: ["Token bundles"],
  path: "/api/v1/token-bundles",
  item: BundleSchema,
  body: BundleBody,
  patch: BundleBody.partial(),
});

export const createBundle = admin.create("Create a token bundle (admins)", 409);
export const listBundles = admin.list("Token bundles, fewest tokens first (anyone)", ListQuery);
export const countBundles = admin.count(
  "How many bundles match",
  ListQuery.pick({ id: true, productId: true }),
  "BundleCount",
);
export const getBundle = admin.get("One token bundle");
export const updateBundle = admin.update("Change a token bundle (admins)", 409);
export const deleteBundle = admin.remove("post", "Delete a token bundle (admins; the spec's clients delete with POST)");

export const setThumbnail = authed("patch", "/api/v1/token-bundles/{id}/thumbnail", {
  summary: "Set a bundle's thumbnail image (admins; multipart `file`)",
  request: {
    params: UuidParam,
    ...fileBody(),
  },
  responses: ok(BundleSchema, 400, 401, 403, 404, 413, 415),
});
