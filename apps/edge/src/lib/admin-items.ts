import type { Db, Tx } from "@booth/db";
import { eq, type InferSelectModel } from "drizzle-orm";
import type { PgColumn, PgInsertValue, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import { found } from "./errors.ts";
import { deleteFound, firstRow, returnedRow } from "./rows.ts";

/**
 * The admin family of one table's items, by their key (an id or a slug): load it or 404, patch it or 404, delete it
 * or 404. Rules before a change (a file that must exist, an item in use) stay with the domain that calls these.
 */
export function adminItems<T extends PgTable>(table: T, key: PgColumn, message: string) {
  type Row = InferSelectModel<T>;
  // Drizzle's builders do not follow a generic table through; the rows are the table's own.
  const anyTable = table as PgTable;
  return {
    message,
    /** The item, or a 404 with `message`. */
    async find(db: Db | Tx, value: string): Promise<Row> {
      return found((await firstRow(db, anyTable, eq(key, value))) as Row | null, message);
    },
    /** Inserts one item and answers it. */
    async insert(db: Db | Tx, values: PgInsertValue<T>): Promise<Row> {
      const row = await returnedRow(
        "admin item insert",
        db
          .insert(anyTable)
          .values(values as PgInsertValue<PgTable>)
          .returning(),
      );
      return row as Row;
    },
    /** Applies `patch` and answers the changed item, or a 404 when there is none. */
    async update(db: Db | Tx, value: string, patch: PgUpdateSetSource<T>): Promise<Row> {
      const [row] = await db
        .update(anyTable)
        .set(patch as PgUpdateSetSource<PgTable>)
        .where(eq(key, value))
        .returning();
      return found(row as Row | undefined, message);
    },
    /** Deletes the item, or a 404 when there is none. */
    remove: (db: Db | Tx, value: string): Promise<void> => deleteFound(db, anyTable, eq(key, value), message),
  };
}
