/** One page of a list: the SQL a parsed query applies to a select, the count, and the nestjsx/crud envelope. */
import type { SQL } from "drizzle-orm";
import type { CrudQuery } from "./parse.ts";

/** Keeps only the asked-for keys of an item (all of them when `fields` is null) and the `keep` ones. */
export function pickFields<T extends Record<string, unknown>>(
  item: T,
  fields: readonly string[] | null,
  keep: readonly string[] = [],
): Partial<T> {
  if (!fields) return item;
  const out: Partial<T> = {};
  for (const key of [...fields, ...keep]) if (Object.hasOwn(item, key)) out[key as keyof T] = item[key as keyof T];
  return out;
}

export interface CrudPage<T> {
  data: T[];
  count: number;
  total: number;
  page: number;
  pageCount: number;
}

/**
 * Runs the count and the page of a list (in parallel) and answers the nestjsx/crud envelope. `total` counts the
 * rows matching `where`; `rows` reads one page (apply `where`, `orderBy`, `limit` and `offset`, e.g. with
 * `applyCrud`).
 */
export async function crudList<T>(
  query: CrudQuery,
  load: { total: (where: SQL | undefined) => Promise<number>; rows: (query: CrudQuery) => Promise<T[]> },
): Promise<CrudPage<T>> {
  const [total, data] = await Promise.all([load.total(query.where), load.rows(query)]);
  return {
    data,
    count: data.length,
    total,
    page: query.page,
    pageCount: total ? Math.ceil(total / query.limit) : 1,
  };
}

/** A dynamic Drizzle select (`.$dynamic()`), as far as a nestjsx/crud query changes it. */
interface CrudSelect<Q> {
  where(w: SQL | undefined): Q;
  orderBy(...o: SQL[]): Q;
  limit(n: number): Q;
  offset(n: number): Q;
}

/**
 * One page of a nestjsx/crud list read with two Drizzle selects (`.$dynamic()`): `total` selects `{ n: count() }`
 * over the same tables as `rows`. The query's where applies to both; its order, limit and offset to `rows`.
 */
export function crudSelectPage<
  Q extends CrudSelect<Q> & PromiseLike<unknown[]>,
  C extends { where(w: SQL | undefined): C } & PromiseLike<{ n: number }[]>,
>(query: CrudQuery, select: { total: C; rows: Q }): Promise<CrudPage<Awaited<Q>[number]>> {
  return crudList(query, {
    total: async (where) => (await select.total.where(where))[0]?.n ?? 0,
    rows: async (q) => (await applyCrud(select.rows, q)) as Awaited<Q>[number][],
  });
}

/** Applies a parsed query's where, order, limit and offset to a dynamic Drizzle select (`.$dynamic()`). */
export function applyCrud<Q extends CrudSelect<Q>>(qb: Q, query: CrudQuery): Q {
  return qb
    .where(query.where)
    .orderBy(...query.orderBy)
    .limit(query.limit)
    .offset(query.offset);
}
