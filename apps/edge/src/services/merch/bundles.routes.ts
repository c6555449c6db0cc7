import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, asc, eq, inArray } from "drizzle-orm";
import { ADMINS, requireUser } from "../../lib/auth.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { badRequest, conflict, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, UuidParam, uuidList } from "../../lib/openapi.ts";
import { fileUrl, MERCH_PAGE, storeImage } from "./consumables.routes.ts";

export const bundleRoutes = createRouter();
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
type Bundle = typeof schema.tokenBundles.$inferSelect;
const view = (b: Bundle) => ({
  id: b.id,
  productId: b.productId,
  name: b.name,
  tokens: b.tokens,
  thumbnail: fileUrl(b.thumbnailFileId),
  createdAt: b.createdAt.toISOString(),
  updatedAt: b.updatedAt.toISOString(),
});
const BundleBody = z.object({
  productId: z.string().trim().min(1).max(100).openapi({ description: "The payment service's product that sells it" }),
  name: z.string().trim().min(1).max(100),
  tokens: z.number().int().min(1).max(10_000_000),
});
const ListQuery = z.object({
  id: z.string().max(20_000).optional(),
  productId: z.string().max(100).optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(MERCH_PAGE),
});
const where = (q: { id?: string | undefined; productId?: string | undefined }) => {
  const ids = uuidList(q.id, "id");
  return and(
    ids.length ? inArray(schema.tokenBundles.id, ids) : undefined,
    q.productId ? eq(schema.tokenBundles.productId, q.productId) : undefined,
  );
};
const duplicate = (err: unknown) => {
  if (isUniqueViolation(err)) throw conflict("A bundle for this product already exists.");
  throw err;
};

bundleRoutes.openapi(
  createRoute({
    method: "post",
    path: "/api/v1/token-bundles",
    tags,
    summary: "Create a token bundle (admins)",
    security: bearer,
    request: jsonBody(BundleBody),
    responses: { 201: json(BundleSchema, "Created"), ...errors(400, 401, 403, 409) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const { db, clock } = c.var.deps;
    const [row] = await db
      .insert(schema.tokenBundles)
      .values({ ...c.req.valid("json"), createdAt: clock.now(), updatedAt: clock.now() })
      .returning()
      .catch(duplicate);
    if (!row) throw new Error("bundle insert returned nothing");
    return c.json(view(row), 201);
  },
);

bundleRoutes.openapi(
  createRoute({
    method: "get",
    path: "/api/v1/token-bundles",
    tags,
    summary: "Token bundles, fewest tokens first (anyone)",
    request: { query: ListQuery },
    responses: { 200: json(z.array(BundleSchema)), ...errors(400) },
  }),
  async (c) => {
    const q = c.req.valid("query");
    const rows = await c.var.deps.db
      .select()
      .from(schema.tokenBundles)
      .where(where(q))
      .orderBy(asc(schema.tokenBundles.tokens), asc(schema.tokenBundles.id))
      .limit(q.limit)
      .offset(q.offset);
    return c.json(rows.map(view), 200);
  },
);

bundleRoutes.openapi(
  createRoute({
    method: "get",
    path: "/api/v1/token-bundles/count",
    tags,
    summary: "How many bundles match",
    request: { query: ListQuery.pick({ id: true, productId: true }) },
    responses: { 200: json(z.object({ count: z.number().int() }).openapi("BundleCount")), ...errors(400) },
  }),
  async (c) => c.json({ count: await c.var.deps.db.$count(schema.tokenBundles, where(c.req.valid("query"))) }, 200),
);

bundleRoutes.openapi(
  createRoute({
    method: "get",
    path: "/api/v1/token-bundles/{id}",
    tags,
    summary: "One token bundle",
    request: { params: UuidParam },
    responses: { 200: json(BundleSchema), ...errors(400, 404) },
  }),
  async (c) => {
    const [row] = await c.var.deps.db
      .select()
      .from(schema.tokenBundles)
      .where(eq(schema.tokenBundles.id, c.req.valid("param").id));
    if (!row) throw notFound("Token bundle not found.");
    return c.json(view(row), 200);
  },
);

bundleRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/api/v1/token-bundles/{id}",
    tags,
    summary: "Change a token bundle (admins)",
    security: bearer,
    request: { params: UuidParam, ...jsonBody(BundleBody.partial()) },
    responses: { 200: json(BundleSchema), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const { db, clock } = c.var.deps;
    const [row] = await db
      .update(schema.tokenBundles)
      .set({ ...c.req.valid("json"), updatedAt: clock.now() })
      .where(eq(schema.tokenBundles.id, c.req.valid("param").id))
      .returning()
      .catch(duplicate);
    if (!row) throw notFound("Token bundle not found.");
    return c.json(view(row), 200);
  },
);

bundleRoutes.openapi(
  createRoute({
    method: "post",
    path: "/api/v1/token-bundles/{id}",
    tags,
    summary: "Delete a token bundle (admins; the spec's clients delete with POST)",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const deleted = await c.var.deps.db
      .delete(schema.tokenBundles)
      .where(eq(schema.tokenBundles.id, c.req.valid("param").id))
      .returning();
    if (deleted.length === 0) throw notFound("Token bundle not found.");
    return c.body(null, 204);
  },
);

bundleRoutes.openapi(
  createRoute({
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
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const { db, clock } = c.var.deps;
    const id = c.req.valid("param").id;
    const [bundle] = await db
      .select({ id: schema.tokenBundles.id })
      .from(schema.tokenBundles)
      .where(eq(schema.tokenBundles.id, id));
    if (!bundle) throw notFound("Token bundle not found.");
    const file = (c.req.valid("form") as { file?: unknown }).file;
    if (!(file instanceof File)) throw badRequest(["file: an image file is required"]);
    const stored = await storeImage(c.var.deps, file);
    const [row] = await db
      .update(schema.tokenBundles)
      .set({ thumbnailFileId: stored.id, updatedAt: clock.now() })
      .where(eq(schema.tokenBundles.id, id))
      .returning();
    if (!row) throw notFound("Token bundle not found.");
    return c.json(view(row), 200);
  },
);
