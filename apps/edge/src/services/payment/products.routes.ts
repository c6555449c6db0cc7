import { type Db, schema } from "@booth/db";
import { BillingInterval, PaymentType, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Context } from "hono";
import { ADMINS, hasAnyRole, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { badRequest, conflict, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, UuidParam, uuidList } from "../../lib/openapi.ts";
import { CheckoutSchema, type Product, startCheckout } from "./checkout.ts";

export const productRoutes = createRouter();
const tags = ["Products"];

export const PRODUCT_NOT_FOUND = "Product not found.";
export const PRODUCT_IN_USE = "This product has been bought; set active to false to stop selling it.";
export const NOT_ONE_TIME = "This product is a subscription: start it with POST /subscription/checkout/{id}.";

export const ProductSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    paymentType: z.enum(values(PaymentType)),
    priceCents: z.number().int(),
    currency: z.string(),
    interval: z.enum(values(BillingInterval)).nullable(),
    level: z.string().nullable(),
    tokens: z.number().int().nullable().openapi({ description: "one_time: the tokens its token bundle credits" }),
    stripePriceId: z.string().nullable(),
    appleProductId: z.string().nullable(),
    active: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Product");

export const productView = (p: Product, tokens: number | null) => ({
  id: p.id,
  name: p.name,
  description: p.description,
  paymentType: p.paymentType,
  priceCents: p.priceCents,
  currency: p.currency,
  interval: p.interval,
  level: p.level,
  tokens,
  stripePriceId: p.stripePriceId,
  appleProductId: p.appleProductId,
  active: p.active,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
});

/** Products with the tokens of the merch bundle that each sells (the bundle's productId is the product's id). */
export function selectProducts(db: Db) {
  return db
    .select({ product: schema.paymentProducts, tokens: schema.tokenBundles.tokens })
    .from(schema.paymentProducts)
    .leftJoin(schema.tokenBundles, eq(schema.tokenBundles.productId, sql`${schema.paymentProducts.id}::text`));
}

export async function loadProduct(db: Db, id: string) {
  const [row] = await selectProducts(db).where(eq(schema.paymentProducts.id, id));
  if (!row) throw notFound(PRODUCT_NOT_FOUND);
  return row;
}

const Fields = {
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(1000).nullable().optional(),
  priceCents: z.number().int().min(1).max(100_000_000).openapi({ description: "In the currency's smallest unit" }),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, "an ISO 4217 code such as usd")
    .transform((s) => s.toLowerCase()),
  interval: z.enum(values(BillingInterval)).nullable().optional(),
  level: z.string().trim().min(1).max(50).nullable().optional(),
  stripePriceId: z
    .string()
    .regex(/^price_[A-Za-z0-9_]{1,200}$/, "a Stripe price id (price_...)")
    .nullable()
    .optional(),
  appleProductId: z.string().trim().min(1).max(200).nullable().optional(),
  active: z.boolean().optional(),
};
const CreateBody = z.object({
  ...Fields,
  currency: Fields.currency.default("usd"),
  paymentType: z.enum(values(PaymentType)).default("one_time"),
});
const UpdateBody = z.object(Fields).partial();

/** A subscription plan renews at an interval and gives a level; a one-time product has neither. */
function checkShape(p: { paymentType: PaymentType; interval?: string | null; level?: string | null }) {
  const problems: string[] = [];
  if (p.paymentType === "recurring") {
    if (!p.interval) problems.push("interval: a recurring product needs its interval (month or year)");
    if (!p.level) problems.push("level: a recurring product needs the subscription level it gives");
  } else {
    if (p.interval) problems.push("interval: only recurring products renew");
    if (p.level) problems.push("level: only recurring products give a subscription level");
  }
  if (problems.length) throw badRequest(problems);
}

const uniqueApple = (err: unknown): never => {
  if (isUniqueViolation(err)) throw conflict("Another product already has this appleProductId.");
  throw err;
};

async function isAdmin(c: Context<AppEnv>) {
  if (!c.var.auth || c.var.auth.type === "service") return false;
  return requireUser(c).then(
    ({ user }) => hasAnyRole(user.roles, ADMINS),
    () => false,
  );
}

productRoutes.openapi(
  createRoute({
    method: "post",
    path: "/api/v1/products",
    tags,
    summary: "Create a product (admins). A one_time product sells the token bundle whose productId is its id.",
    security: bearer,
    request: jsonBody(CreateBody),
    responses: { 201: json(ProductSchema, "Created"), ...errors(400, 401, 403, 409) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const body = c.req.valid("json");
    checkShape(body);
    const { db, clock } = c.var.deps;
    const [row] = await db
      .insert(schema.paymentProducts)
      .values({ ...body, createdAt: clock.now(), updatedAt: clock.now() })
      .returning()
      .catch(uniqueApple);
    if (!row) throw new Error("product insert returned nothing");
    return c.json(productView(row, null), 201);
  },
);

productRoutes.openapi(
  createRoute({
    method: "get",
    path: "/api/v1/products",
    tags,
    summary: "Products, cheapest first (anyone; products no longer for sale only to admins)",
    request: {
      query: z.object({
        id: z.string().max(20_000).optional().openapi({ description: "Comma-separated product ids" }),
        paymentType: z.enum(values(PaymentType)).optional(),
        offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
        limit: z.coerce.number().int().min(1).max(100).default(32),
      }),
    },
    responses: { 200: json(z.array(ProductSchema)), ...errors(400) },
  }),
  async (c) => {
    const q = c.req.valid("query");
    const ids = uuidList(q.id, "id");
    const admin = await isAdmin(c);
    const rows = await selectProducts(c.var.deps.db)
      .where(
        and(
          ids.length ? inArray(schema.paymentProducts.id, ids) : undefined,
          q.paymentType ? eq(schema.paymentProducts.paymentType, q.paymentType) : undefined,
          admin ? undefined : eq(schema.paymentProducts.active, true),
        ),
      )
      .orderBy(asc(schema.paymentProducts.priceCents), asc(schema.paymentProducts.id))
      .limit(q.limit)
      .offset(q.offset);
    return c.json(
      rows.map((r) => productView(r.product, r.tokens)),
      200,
    );
  },
);

productRoutes.openapi(
  createRoute({
    method: "get",
    path: "/api/v1/products/{id}",
    tags,
    summary: "One product (anyone; `active` says whether it is for sale)",
    request: { params: UuidParam },
    responses: { 200: json(ProductSchema), ...errors(400, 404) },
  }),
  async (c) => {
    const row = await loadProduct(c.var.deps.db, c.req.valid("param").id);
    return c.json(productView(row.product, row.tokens), 200);
  },
);

productRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/api/v1/products/{id}",
    tags,
    summary: "Change a product (admins; its paymentType stays). Checkouts already started keep their price.",
    security: bearer,
    request: { params: UuidParam, ...jsonBody(UpdateBody) },
    responses: { 200: json(ProductSchema), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const { db, clock } = c.var.deps;
    const id = c.req.valid("param").id;
    const body = c.req.valid("json");
    const current = await loadProduct(db, id);
    checkShape({ ...current.product, ...body });
    const [row] = await db
      .update(schema.paymentProducts)
      .set({ ...body, updatedAt: clock.now() })
      .where(eq(schema.paymentProducts.id, id))
      .returning()
      .catch(uniqueApple);
    if (!row) throw notFound(PRODUCT_NOT_FOUND);
    return c.json(productView(row, current.tokens), 200);
  },
);

productRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/api/v1/products/{id}",
    tags,
    summary: "Delete a product nobody has bought (admins; a bought one is retired with active: false)",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const deleted = await c.var.deps.db
      .delete(schema.paymentProducts)
      .where(eq(schema.paymentProducts.id, c.req.valid("param").id))
      .returning()
      .catch((err) => {
        const e = err as { code?: string; cause?: { code?: string } };
        // ON DELETE RESTRICT answers 23001; a foreign key checked at the end of the statement, 23503.
        const code = e.code ?? e.cause?.code;
        if (code === "23001" || code === "23503") throw conflict(PRODUCT_IN_USE);
        throw err;
      });
    if (deleted.length === 0) throw notFound(PRODUCT_NOT_FOUND);
    return c.body(null, 204);
  },
);

productRoutes.openapi(
  createRoute({
    method: "post",
    path: "/api/v1/products/{id}/checkout",
    tags,
    summary:
      "Start buying a one_time product (signed-in users): answers the URL where the buyer pays. Its tokens are credited when the payment is confirmed (Stripe's webhook, or the local test checkout when Stripe is not configured).",
    security: bearer,
    request: { params: UuidParam },
    responses: { 201: json(CheckoutSchema, "Created"), ...errors(400, 401, 403, 404, 409, 429, 502, 503) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { product } = await loadProduct(c.var.deps.db, c.req.valid("param").id);
    if (product.paymentType !== "one_time") throw conflict(NOT_ONE_TIME);
    return c.json(await startCheckout(c, user, product, "payment"), 201);
  },
);
