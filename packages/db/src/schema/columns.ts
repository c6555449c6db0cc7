/**
 * The column groups every table writes the same way, so a key, a timestamp or a reference reads (and changes) alike
 * across the schema. Not exported from the schema's index: these make columns, they are not tables.
 */
import { type AnyPgColumn, integer, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** A row's own key: a random uuid. */
export const id = () => uuid().primaryKey().defaultRandom();

export const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

/** When a row was made and last changed. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });

/** A row that belongs to another: it points at that row's key and is deleted with it. */
export const cascadeRef = (target: () => AnyPgColumn) => uuid().notNull().references(target, { onDelete: "cascade" });

/** A file kept in the edge's storage (`deps.storage`): its key there, its media type and its size in bytes. */
export const storedFile = () => ({
  storageKey: text().notNull(),
  contentType: text().notNull(),
  size: integer().notNull(),
});
