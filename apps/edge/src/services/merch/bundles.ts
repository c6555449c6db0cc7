import { type Db, schema } from "@booth/db";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { adminItems } from "../../lib/admin-items.ts";
import { uniqueOr } from "../../lib/db-errors.ts";
import { conflict } from "../../lib/errors.ts";
import { uuidList } from "../../lib/openapi.ts";
import { fileUrl, storeImage } from "./files.ts";

export const BUNDLE_NOT_FOUND = "Token bundle not found.";
const duplicate = () => conflict("A bundle for this product already exists.");

export type Bundle = typeof schema.tokenBundles.$inferSelect;
type NewBundle = Pick<typeof schema.tokenBundles.$inferInsert, "productId" | "name" | "tokens">;

export const bundleView = (b: Bundle) => ({
  id: b.id,
  productId: b.productId,
  name: b.name,
  tokens: b.tokens,
  thumbnail: fileUrl(b.thumbnailFileId),
  createdAt: b.createdAt.toISOString(),
  updatedAt: b.updatedAt.toISOString(),
});

export const bundles = adminItems(schema.tokenBundles, schema.tokenBundles.id, BUNDLE_NOT_FOUND);

export interface BundleFilter {
  id?: string | undefined;
  productId?: string | undefined;
}
const bundleWhere = (q: BundleFilter) => {
  const ids = uuidList(q.id, "id");
  return and(
    ids.length ? inArray(schema.tokenBundles.id, ids) : undefined,
    q.productId ? eq(schema.tokenBundles.productId, q.productId) : undefined,
  );
};

/** Bundles, fewest tokens first. */
export const listBundles = (db: Db, q: BundleFilter & { offset: number; limit: number }) =>
  db
    .select()
    .from(schema.tokenBundles)
    .where(bundleWhere(q))
    .orderBy(asc(schema.tokenBundles.tokens), asc(schema.tokenBundles.id))
    .limit(q.limit)
    .offset(q.offset);

export const countBundles = (db: Db, q: BundleFilter) => db.$count(schema.tokenBundles, bundleWhere(q));

export async function createBundle(db: Db, body: NewBundle, now: Date) {
  return uniqueOr(() => bundles.insert(db, { ...body, createdAt: now, updatedAt: now }), duplicate);
}

export const updateBundle = (db: Db, id: string, patch: Partial<NewBundle>, now: Date) =>
  uniqueOr(() => bundles.update(db, id, { ...patch, updatedAt: now }), duplicate);

/** Stores the image and makes it the bundle's thumbnail. */
export async function setThumbnail(deps: AppDeps, id: string, file: File) {
  const stored = await storeImage(deps, file);
  return bundles.update(deps.db, id, { thumbnailFileId: stored.id, updatedAt: deps.clock.now() });
}
