import { type Db, schema } from "@booth/db";
import type { PaymentType } from "@booth/db/schema";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { adminItems } from "../../lib/admin-items.ts";
import { postgresCode, uniqueOr } from "../../lib/db-errors.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { badRequest, conflict, found } from "../../lib/errors.ts";
import { uuidList } from "../../lib/openapi.ts";
import type { Product } from "./checkout.ts";

export const PRODUCT_NOT_FOUND = errorMessage("PRODUCT_NOT_FOUND");
export const PRODUCT_IN_USE = "This product has been bought; set active to false to stop selling it.";
export const NOT_ONE_TIME = "This product is a subscription: start it with POST /subscription/checkout/{id}.";
const appleIdTaken = () => conflict("Another product already has this appleProductId.");

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
export const productRowView = (r: { product: Product; tokens: number | null }) => productView(r.product, r.tokens);

export const products = adminItems(schema.paymentProducts, schema.paymentProducts.id, PRODUCT_NOT_FOUND);

/** Products with the tokens of the merch bundle that each sells (the bundle's productId is the product's id). */
export function selectProducts(db: Db) {
  return db
    .select({ product: schema.paymentProducts, tokens: schema.tokenBundles.tokens })
    .from(schema.paymentProducts)
    .leftJoin(schema.tokenBundles, eq(schema.tokenBundles.productId, sql`${schema.paymentProducts.id}::text`));
}

export async function loadProduct(db: Db, id: string) {
  const [row] = await selectProducts(db).where(eq(schema.paymentProducts.id, id));
  return found(row, PRODUCT_NOT_FOUND);
}

/** A one-time product to buy, or a 404 or 409. */
export async function oneTimeProduct(db: Db, id: string) {
  const { product } = await loadProduct(db, id);
  if (product.paymentType !== "one_time") throw conflict(NOT_ONE_TIME);
  return product;
}

export interface ProductFilter {
  id?: string | undefined;
  paymentType?: PaymentType | undefined;
  offset: number;
  limit: number;
}

/** Products, cheapest first; those no longer for sale only when `retired` is asked for (admins). */
export function listProducts(db: Db, q: ProductFilter, retired: boolean) {
  const ids = uuidList(q.id, "id");
  return selectProducts(db)
    .where(
      and(
        ids.length ? inArray(schema.paymentProducts.id, ids) : undefined,
        q.paymentType ? eq(schema.paymentProducts.paymentType, q.paymentType) : undefined,
        retired ? undefined : eq(schema.paymentProducts.active, true),
      ),
    )
    .orderBy(asc(schema.paymentProducts.priceCents), asc(schema.paymentProducts.id))
    .limit(q.limit)
    .offset(q.offset);
}

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

type NewProduct = Omit<typeof schema.paymentProducts.$inferInsert, "id" | "createdAt" | "updatedAt">;

export async function createProduct(db: Db, body: NewProduct & { paymentType: PaymentType }, now: Date) {
  checkShape(body);
  return uniqueOr(() => products.insert(db, { ...body, createdAt: now, updatedAt: now }), appleIdTaken);
}

/** Changes a product (its paymentType stays); answers it with its bundle's tokens. */
export async function updateProduct(db: Db, id: string, patch: Partial<Omit<NewProduct, "paymentType">>, now: Date) {
  const current = await loadProduct(db, id);
  checkShape({ ...current.product, ...patch });
  const row = await uniqueOr(() => products.update(db, id, { ...patch, updatedAt: now }), appleIdTaken);
  return { product: row, tokens: current.tokens };
}

/** Deletes a product nobody has bought; a bought one is refused (it is retired with active: false). */
export async function deleteProduct(db: Db, id: string) {
  await products.remove(db, id).catch((err) => {
    // ON DELETE RESTRICT answers 23001; a foreign key checked at the end of the statement, 23503.
    const code = postgresCode(err);
    if (code === "23001" || code === "23503") throw conflict(PRODUCT_IN_USE);
    throw err;
  });
}
