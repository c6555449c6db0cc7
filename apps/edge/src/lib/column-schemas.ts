import { z } from "@hono/zod-openapi";
import { getTableColumns } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";

/** The zod type an answer shows a column's value with: text, uuid, boolean, integer; nullable where the column is. */
type ColumnSchema<C> = C extends { _: { columnType: infer T; notNull: infer NotNull } }
  ? NotNull extends true
    ? BaseSchema<T>
    : z.ZodNullable<BaseSchema<T>>
  : never;
type BaseSchema<T> = T extends "PgText"
  ? z.ZodString
  : T extends "PgUUID"
    ? z.ZodUUID
    : T extends "PgBoolean"
      ? z.ZodBoolean
      : z.ZodNumber;

const BASE = {
  PgText: () => z.string(),
  PgUUID: () => z.uuid(),
  PgBoolean: () => z.boolean(),
  PgInteger: () => z.number().int(),
};

/**
 * The schemas of the columns `names` of `table`, for an answer that copies them from a row: each column's type, in
 * the order named, so the answer's fields follow the table. Text, uuid, boolean and integer columns only.
 */
export function columnSchemas<T extends PgTable, const K extends keyof T["_"]["columns"] & string>(
  table: T,
  ...names: K[]
): { [N in K]: ColumnSchema<T["_"]["columns"][N]> } {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  return Object.fromEntries(
    names.map((name) => {
      const column = columns[name];
      const base = column && BASE[column.columnType as keyof typeof BASE];
      if (!column || !base) throw new Error(`columnSchemas: ${name} is not a text, uuid, boolean or integer column`);
      return [name, column.notNull ? base() : base().nullable()];
    }),
  ) as { [N in K]: ColumnSchema<T["_"]["columns"][N]> };
}
