import type { Db, Tx } from "@booth/db";
import type { SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { notFound } from "./errors.ts";

/** The row of `table` that `where` names (the first, were there several), or null. */
export async function firstRow<T extends PgTable>(db: Db | Tx, table: T, where: SQL | undefined) {
  const [row] = await db
    .select()
    .from(table as PgTable)
    .where(where)
    .limit(1);
  return (row as T["$inferSelect"] | undefined) ?? null;
}

/** Deletes the rows of `table` that `where` names; a 404 with `missing` when there were none. */
export async function deleteFound(db: Db | Tx, table: PgTable, where: SQL | undefined, missing: string) {
  const deleted = await db.delete(table).where(where).returning();
  if (deleted.length === 0) throw notFound(missing);
}

/**
 * The row an insert or upsert gives back (`.returning()`). PostgreSQL always returns one for such a statement, so
 * none is a bug, not a refusal: an error (a 500) saying which statement it was (`what`: "crate insert").
 */
export async function returnedRow<R>(what: string, query: PromiseLike<R[]>): Promise<R> {
  const [row] = await query;
  if (!row) throw new Error(`${what} returned nothing`);
  return row;
}
