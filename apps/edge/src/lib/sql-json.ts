/**
 * Hot reads: queries built once per database and answers the database writes as JSON text
 * (docs/decisions/0010-hot-reads.md).
 */
import type { Db } from "@booth/db";
import { type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Context, TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";
import { oncePer } from "./once-per.ts";

/**
 * A query built and prepared once per database rather than on every request (Drizzle's `.prepare()` with
 * `sql.placeholder`s): building the SQL text and its parameter list is a good share of a small read's cost.
 */
export const preparedPerDb = <P>(build: (db: Db) => P): ((db: Db) => P) => oncePer(build);

/** JSON text the database wrote (`json_agg`, `json_build_object`), with the type of the value it holds. */
export type SqlJson<T> = string & { readonly __json?: T };

/**
 * Answers JSON text from the database as it is: no rows to map, no objects to build, nothing to stringify. Typed as
 * `c.json(value)` would be, so the route contract still checks the handler.
 */
export function sqlJson<T, S extends 200 | 201>(c: Context, text: SqlJson<T>, status: S) {
  return c.body(text, status, { "content-type": "application/json" }) as unknown as TypedResponse<
    JSONParsed<T>,
    S,
    "json"
  >;
}

/**
 * The `'name', column` pairs of `json_build_object` for the columns `names` of `table`, each under its own name: what
 * the database writes for the fields a view copies from a row.
 */
export const jsonColumns = <T extends PgTable>(table: T, names: readonly (keyof T["$inferSelect"] & string)[]) =>
  sql.join(
    names.map((name) => sql`${sql.raw(`'${name}'`)}, ${(table as unknown as Record<string, PgColumn>)[name]}`),
    sql`, `,
  );

/** An ISO 8601 timestamp in UTC with milliseconds, as `Date.prototype.toISOString()` writes it. */
export const isoSql = (column: PgColumn | SQL) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
