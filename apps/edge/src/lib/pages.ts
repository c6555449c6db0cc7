import type { Db, Tx } from "@booth/db";
import { count, desc, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";

/** A page of a plain list: its `rows`, and how many there are in all (`total`, a `{ n: count() }` select), read at once. */
export async function pageOf<T>(rows: PromiseLike<T[]>, total: PromiseLike<{ n: number }[]>) {
  const [data, [counted]] = await Promise.all([rows, total]);
  return { rows: data, total: counted?.n ?? 0 };
}

/** A select that can be paged. */
interface Pageable<T> {
  limit(limit: number): { offset(offset: number): PromiseLike<T[]> };
}

/** A page of `rows` (a select of `table` filtered by `where` and ordered), and how many rows match `where` in all. */
export function pageWhere<T>(
  db: Db | Tx,
  table: PgTable,
  where: SQL | undefined,
  rows: Pageable<T>,
  page: { limit: number; offset: number },
) {
  return pageOf(rows.limit(page.limit).offset(page.offset), db.select({ n: count() }).from(table).where(where));
}

/** A page of a table's rows matching `where`, the newest first (by `createdAt`, then `id`), and how many match. */
export function newestFirst<T extends PgTable & { createdAt: PgColumn; id: PgColumn }>(
  db: Db | Tx,
  table: T,
  where: SQL | undefined,
  page: { limit: number; offset: number },
) {
  const rows = db
    .select()
    .from(table as PgTable)
    .where(where)
    .orderBy(desc(table.createdAt), desc(table.id));
  return pageWhere(db, table, where, rows as Pageable<T["$inferSelect"]>, page);
}
