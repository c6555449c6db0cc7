/**
 * The nestjsx/crud request query syntax (https://github.com/nestjsx/crud/wiki/Requests), parsed against an
 * allow-list of fields into Drizzle conditions. Only listed fields can be selected, filtered or sorted; every value
 * is bound as a parameter (never spliced into SQL) and LIKE patterns escape `%`, `_` and `\`.
 *
 *   fields=a,b                  the fields to answer (the primary key is always included)
 *   s={"name":"x"}              a JSON search condition; when present, filter and or are ignored
 *   filter=field||$op||value    repeatable, AND-ed
 *   or=field||$op||value        repeatable; see `combineFilters` for how it mixes with filter
 *   sort=field,ASC|DESC         repeatable, in order of precedence
 *   join=relation[||f1,f2]      repeatable, against the allow-list of relations
 *   limit, offset, page         page is 1-based and wins over offset
 *   cache                       accepted and ignored
 */
import { z } from "@hono/zod-openapi";
import {
  type AnyColumn,
  and,
  arrayContains,
  arrayOverlaps,
  asc,
  between,
  Column,
  desc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  like,
  lt,
  lte,
  ne,
  not,
  notIlike,
  notInArray,
  notLike,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import { badRequest } from "./errors.ts";

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 1000;
/** Values one $in / $notin may carry. */
export const MAX_LIST_VALUES = 500;
const MAX_CONDITIONS = 100;
const MAX_DEPTH = 6;

// ---------------------------------------------------------------------------------------------------------------
// Allow-list

export type FieldType = "string" | "uuid" | "integer" | "number" | "boolean" | "date" | "array" | "json";

export interface FieldSpec {
  /** A column, or an SQL expression (e.g. a derived flag). */
  column: AnyColumn | SQL;
  type: FieldType;
  /** Allowed values (text enums, or the elements of an enum array); checked for exact-match operators. */
  values?: readonly string[];
}

export interface CrudOptions {
  /** Public field name -> column (its type read from the column) or an explicit spec. */
  fields: Record<string, AnyColumn | FieldSpec>;
  /** The field that identifies a row: always answered, and the last sort key so pages are stable. */
  primaryKey: string;
  /** Relations a caller may `join`, each with the fields that may be named in `join=relation||a,b`. */
  joins?: Record<string, readonly string[]>;
  /** Sort used when the request names none (before the primary key). */
  defaultSort?: readonly SortSpec[];
  defaultLimit?: number;
  maxLimit?: number;
}

export type SortOrder = "ASC" | "DESC";
export interface SortSpec {
  field: string;
  order: SortOrder;
}

function columnSpec(column: AnyColumn): FieldSpec {
  const c = column as AnyColumn & { enumValues?: string[]; baseColumn?: AnyColumn & { enumValues?: string[] } };
  const values = c.enumValues?.length ? c.enumValues : undefined;
  switch (c.columnType) {
    case "PgUUID":
      return { column, type: "uuid" };
    case "PgInteger":
    case "PgSmallInt":
    case "PgSerial":
    case "PgSmallSerial":
    case "PgBigInt53":
    case "PgBigSerial53":
      return { column, type: "integer" };
    case "PgReal":
    case "PgDoublePrecision":
    case "PgNumeric":
    case "PgNumericNumber":
      return { column, type: "number" };
    case "PgBoolean":
      return { column, type: "boolean" };
    case "PgTimestamp":
    case "PgTimestampString":
    case "PgDate":
    case "PgDateString":
      return { column, type: "date" };
    case "PgArray": {
      const base = c.baseColumn?.enumValues;
      return { column, type: "array", ...(base?.length ? { values: base } : {}) };
    }
    case "PgJson":
    case "PgJsonb":
      return { column, type: "json" };
    default:
      return { column, type: "string", ...(values ? { values } : {}) };
  }
}

const specOf = (entry: AnyColumn | FieldSpec): FieldSpec =>
  entry instanceof Column ? columnSpec(entry) : (entry as FieldSpec);

// ---------------------------------------------------------------------------------------------------------------
// Operators

export const OPERATORS = [
  "$eq",
  "$ne",
  "$gt",
  "$lt",
  "$gte",
  "$lte",
  "$starts",
  "$ends",
  "$cont",
  "$excl",
  "$in",
  "$notin",
  "$isnull",
  "$notnull",
  "$between",
  "$eqL",
  "$neL",
  "$startsL",
  "$endsL",
  "$contL",
  "$exclL",
  "$inL",
  "$notinL",
] as const;
export type Operator = (typeof OPERATORS)[number];

const isOperator = (op: string): op is Operator => (OPERATORS as readonly string[]).includes(op);

/** The deprecated spellings without `$` (eq, ne, cont, ...) are accepted as aliases. */
const normalizeOperator = (op: string) => (op.startsWith("$") ? op : `$${op}`);

const NULL_OPS: Operator[] = ["$isnull", "$notnull"];
const ORDER_OPS: Operator[] = ["$eq", "$ne", "$gt", "$lt", "$gte", "$lte", "$in", "$notin", "$between"];
const TEXT_OPS: Operator[] = [
  "$starts",
  "$ends",
  "$cont",
  "$excl",
  "$eqL",
  "$neL",
  "$startsL",
  "$endsL",
  "$contL",
  "$exclL",
  "$inL",
  "$notinL",
];
const ALLOWED_OPS: Record<FieldType, Operator[]> = {
  string: [...NULL_OPS, ...ORDER_OPS, ...TEXT_OPS],
  uuid: [...NULL_OPS, "$eq", "$ne", "$in", "$notin"],
  integer: [...NULL_OPS, ...ORDER_OPS],
  number: [...NULL_OPS, ...ORDER_OPS],
  date: [...NULL_OPS, ...ORDER_OPS],
  boolean: [...NULL_OPS, "$eq", "$ne"],
  // On an array: $cont has the element, $excl lacks it, $in has any of, $notin has none of.
  array: [...NULL_OPS, "$cont", "$excl", "$in", "$notin"],
  json: [...NULL_OPS],
};
const LIST_OPS: Operator[] = ["$in", "$notin", "$inL", "$notinL"];
/** Operators whose values must be one of the field's enum values, when it has some. */
const EXACT_OPS: Operator[] = ["$eq", "$ne", "$in", "$notin"];

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INT32 = 2 ** 31;

/** Escapes LIKE's wildcards so the value matches literally. */
export const escapeLike = (value: string) => value.replace(/[\\%_]/g, (ch) => `\\${ch}`);

const show = (value: unknown) => (typeof value === "string" ? `"${value}"` : JSON.stringify(value));

interface Ctx {
  /** Where the condition came from, for messages: "filter", "or" or "s". */
  where: string;
  count: number;
}

/** One value, checked against the field's type; answers what the driver gets. */
function coerceValue(name: string, spec: FieldSpec, op: Operator, raw: unknown, ctx: Ctx): unknown {
  const fail = (expected: string): never => {
    throw badRequest(`Invalid value ${show(raw)} for field "${name}" in ${ctx.where}: expected ${expected}.`);
  };
  const type = spec.type;
  let value: unknown;
  if (type === "string" || type === "array") {
    if (typeof raw === "string") value = raw;
    else if (typeof raw === "number" && Number.isFinite(raw)) value = String(raw);
    else fail("a string");
    if ((value as string).length > 1000) fail("at most 1000 characters");
    if (spec.values && (type === "array" || EXACT_OPS.includes(op)) && !spec.values.includes(value as string))
      fail(`one of ${spec.values.join(", ")}`);
  } else if (type === "uuid") {
    if (typeof raw !== "string" || !UUID_RE.test(raw)) fail("a uuid");
    value = raw;
  } else if (type === "integer" || type === "number") {
    const n = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : Number.NaN;
    if (!Number.isFinite(n)) fail(type === "integer" ? "an integer" : "a number");
    if (type === "integer" && (!Number.isInteger(n) || Math.abs(n) >= INT32)) fail("an integer");
    value = n;
  } else if (type === "boolean") {
    if (raw === true || raw === "true" || raw === "1") value = true;
    else if (raw === false || raw === "false" || raw === "0") value = false;
    else fail("true or false");
  } else if (type === "date") {
    const ms = typeof raw === "string" && /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : Number.NaN;
    if (!Number.isFinite(ms)) fail("an ISO 8601 date");
    value = new Date(ms);
  } else {
    fail("no value");
  }
  return value;
}

const lower = (column: AnyColumn | SQL) => sql`lower(${column})`;

/** The condition for one field, operator and raw value (a string from filter/or, any JSON value from s). */
function condition(
  options: CrudOptions,
  name: string,
  opRaw: string,
  raw: unknown,
  ctx: Ctx,
  /** filter/or give lists as "a,b"; s gives JSON arrays. */
  fromString: boolean,
): SQL {
  if (++ctx.count > MAX_CONDITIONS) throw badRequest(`Too many conditions: at most ${MAX_CONDITIONS}.`);
  const entry = Object.hasOwn(options.fields, name) ? options.fields[name] : undefined;
  if (!entry)
    throw badRequest(
      `Unknown field "${name}" in ${ctx.where}. Known fields: ${Object.keys(options.fields).join(", ")}.`,
    );
  const op = normalizeOperator(opRaw);
  if (!isOperator(op)) throw badRequest(`Unknown operator "${opRaw}" in ${ctx.where} for field "${name}".`);
  const spec = specOf(entry);
  if (!ALLOWED_OPS[spec.type].includes(op))
    throw badRequest(`Operator ${op} is not supported for field "${name}" in ${ctx.where}.`);
  const col = spec.column as AnyColumn;

  if (op === "$isnull" || op === "$notnull") {
    // In s, {"$isnull": false} asks for the opposite.
    const negate = !fromString && raw === false;
    return (op === "$isnull") !== negate ? isNull(col) : isNotNull(col);
  }
  // s may compare with null: {"$eq": null} is IS NULL, {"$ne": null} IS NOT NULL.
  if (raw === null && (op === "$eq" || op === "$ne")) return op === "$eq" ? isNull(col) : isNotNull(col);

  if (LIST_OPS.includes(op) || op === "$between") {
    let items: unknown[];
    if (fromString) {
      if (typeof raw !== "string" || raw === "")
        throw badRequest(`Operator ${op} for field "${name}" in ${ctx.where} needs a value.`);
      items = raw.split(",");
    } else if (Array.isArray(raw)) items = raw;
    else throw badRequest(`Operator ${op} for field "${name}" in ${ctx.where} needs an array of values.`);
    if (op === "$between" && items.length !== 2)
      throw badRequest(`Operator $between for field "${name}" in ${ctx.where} needs exactly two values.`);
    if (items.length === 0 || items.length > MAX_LIST_VALUES)
      throw badRequest(`Operator ${op} for field "${name}" in ${ctx.where} needs 1 to ${MAX_LIST_VALUES} values.`);
    const values = items.map((item) => coerceValue(name, spec, op, item, ctx));
    const text = values as string[];
    switch (op) {
      case "$between":
        return between(col, values[0], values[1]);
      case "$in":
        return spec.type === "array" ? arrayOverlaps(col, values) : inArray(col, values);
      case "$notin":
        return spec.type === "array" ? not(arrayOverlaps(col, values)) : notInArray(col, values);
      case "$inL":
        return inArray(
          lower(col),
          text.map((v) => v.toLowerCase()),
        );
      default:
        return notInArray(
          lower(col),
          text.map((v) => v.toLowerCase()),
        );
    }
  }

  if (raw === undefined || (fromString && raw === ""))
    throw badRequest(`Operator ${op} for field "${name}" in ${ctx.where} needs a value.`);
  const value = coerceValue(name, spec, op, raw, ctx);
  const s = value as string;
  switch (op) {
    case "$eq":
      return eq(col, value);
    case "$ne":
      return ne(col, value);
    case "$gt":
      return gt(col, value);
    case "$lt":
      return lt(col, value);
    case "$gte":
      return gte(col, value);
    case "$lte":
      return lte(col, value);
    case "$starts":
      return like(col, `${escapeLike(s)}%`);
    case "$ends":
      return like(col, `%${escapeLike(s)}`);
    case "$cont":
      return spec.type === "array" ? arrayContains(col, [s]) : like(col, `%${escapeLike(s)}%`);
    case "$excl":
      return spec.type === "array" ? not(arrayContains(col, [s])) : notLike(col, `%${escapeLike(s)}%`);
    case "$eqL":
      return eq(lower(col), s.toLowerCase());
    case "$neL":
      return ne(lower(col), s.toLowerCase());
    case "$startsL":
      return ilike(col, `${escapeLike(s)}%`);
    case "$endsL":
      return ilike(col, `%${escapeLike(s)}`);
    case "$contL":
      return ilike(col, `%${escapeLike(s)}%`);
    default:
      return notIlike(col, `%${escapeLike(s)}%`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// filter / or

/** `field||$op||value`; the value may itself contain `||`. */
function parseFilter(options: CrudOptions, text: string, ctx: Ctx): SQL {
  const parts = text.split("||");
  const [field, op] = parts;
  if (parts.length < 2 || !field || !op)
    throw badRequest(`Invalid ${ctx.where} "${text}": expected field||$operator||value.`);
  return condition(options, field, op, parts.length > 2 ? parts.slice(2).join("||") : "", ctx, true);
}

/**
 * As nestjsx/crud combines them: filters are AND-ed; a lone `or` is a plain filter; several `or` alone are OR-ed;
 * with both, (all filters AND-ed) OR (all ors AND-ed).
 */
function combineFilters(filters: SQL[], ors: SQL[]): SQL | undefined {
  if (ors.length === 0) return filters.length ? and(...filters) : undefined;
  if (filters.length === 0) return ors.length === 1 ? ors[0] : or(...ors);
  if (filters.length === 1 && ors.length === 1) return or(filters[0], ors[0]);
  return or(and(...filters), and(...ors));
}

// ---------------------------------------------------------------------------------------------------------------
// s (JSON search)

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function searchCondition(options: CrudOptions, node: unknown, ctx: Ctx, depth: number): SQL | undefined {
  if (depth > MAX_DEPTH) throw badRequest(`Invalid search condition (s): nested deeper than ${MAX_DEPTH} levels.`);
  if (!isPlainObject(node)) throw badRequest("Invalid search condition (s): expected an object.");
  const parts: SQL[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "$and" || key === "$or") {
      if (!Array.isArray(value)) throw badRequest(`Invalid search condition (s): ${key} expects an array.`);
      const children = value
        .map((child) => searchCondition(options, child, ctx, depth + 1))
        .filter((c): c is SQL => !!c);
      if (children.length) parts.push((key === "$and" ? and(...children) : or(...children)) as SQL);
    } else if (key.startsWith("$")) {
      throw badRequest(`Invalid search condition (s): unexpected "${key}" where a field or $and/$or was expected.`);
    } else {
      parts.push(fieldCondition(options, key, value, ctx, depth));
    }
  }
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : and(...parts);
}

/** `"field": value` (equality), `"field": null`, or `"field": {"$op": value, ..., "$or": {"$op": value}}`. */
function fieldCondition(options: CrudOptions, name: string, value: unknown, ctx: Ctx, depth: number): SQL {
  if (depth > MAX_DEPTH) throw badRequest(`Invalid search condition (s): nested deeper than ${MAX_DEPTH} levels.`);
  if (value === null) return condition(options, name, "$isnull", true, ctx, false);
  if (Array.isArray(value))
    throw badRequest(`Invalid search condition (s) for field "${name}": use {"$in": [...]} for a list of values.`);
  if (!isPlainObject(value)) return condition(options, name, "$eq", value, ctx, false);
  const parts: SQL[] = [];
  for (const [op, operand] of Object.entries(value)) {
    if (op === "$or" || op === "$and") {
      if (!isPlainObject(operand))
        throw badRequest(`Invalid search condition (s) for field "${name}": ${op} expects an object of operators.`);
      const inner = Object.entries(operand).map(([innerOp, innerValue]) =>
        fieldCondition(options, name, { [innerOp]: innerValue }, ctx, depth + 1),
      );
      if (inner.length) parts.push((op === "$or" ? or(...inner) : and(...inner)) as SQL);
    } else {
      parts.push(condition(options, name, op, operand, ctx, false));
    }
  }
  if (parts.length === 0) throw badRequest(`Invalid search condition (s) for field "${name}": no operator given.`);
  return (parts.length === 1 ? parts[0] : and(...parts)) as SQL;
}

function parseSearch(options: CrudOptions, text: string): SQL | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest("Invalid search condition (s): not valid JSON.");
  }
  return searchCondition(options, parsed, { where: "s", count: 0 }, 0);
}

// ---------------------------------------------------------------------------------------------------------------
// The request

/** The raw query parameters, as the zod schema below hands them over (repeated ones as arrays). */
export interface CrudQueryParams {
  fields?: string | string[] | undefined;
  s?: string | undefined;
  filter?: string | string[] | undefined;
  or?: string | string[] | undefined;
  sort?: string | string[] | undefined;
  join?: string | string[] | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
  page?: number | undefined;
  cache?: string | undefined;
}

export interface CrudQuery {
  where: SQL | undefined;
  orderBy: SQL[];
  sort: SortSpec[];
  limit: number;
  offset: number;
  /** 1-based page of `offset`. */
  page: number;
  /** The fields asked for (primary key included), or null for all. */
  fields: string[] | null;
  /** Joined relations, each with the fields asked for in it (null for all). */
  joins: Record<string, string[] | null>;
}

const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const splitNames = (values: string[]) =>
  values
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);

/** Parses `fields` and `join` alone (for single-item routes). */
export function parseSelection(params: Pick<CrudQueryParams, "fields" | "join">, options: CrudOptions) {
  let fields: string[] | null = null;
  const asked = splitNames(list(params.fields));
  if (asked.length) {
    for (const name of asked)
      if (!Object.hasOwn(options.fields, name))
        throw badRequest(`Unknown field "${name}" in fields. Known fields: ${Object.keys(options.fields).join(", ")}.`);
    fields = [...new Set([options.primaryKey, ...asked])];
  }
  const joins: Record<string, string[] | null> = {};
  const relations = options.joins ?? {};
  for (const text of list(params.join)) {
    const [relation, rest, ...extra] = text.split("||").map((p) => p.trim());
    if (!relation || extra.length) throw badRequest(`Invalid join "${text}": expected relation or relation||a,b.`);
    const allowed = Object.hasOwn(relations, relation) ? relations[relation] : undefined;
    if (!allowed)
      throw badRequest(
        `Unknown relation "${relation}" in join. Known relations: ${Object.keys(relations).join(", ") || "none"}.`,
      );
    const names = rest ? splitNames([rest]) : [];
    for (const name of names)
      if (!allowed.includes(name))
        throw badRequest(`Unknown field "${name}" in join ${relation}. Known fields: ${allowed.join(", ")}.`);
    joins[relation] = names.length ? [...new Set(names)] : null;
  }
  return { fields, joins };
}

function parseSort(options: CrudOptions, texts: string[]): SortSpec[] {
  const specs: SortSpec[] = [];
  for (const text of texts) {
    const [field, order, ...extra] = text.split(",").map((p) => p.trim());
    const upper = order?.toUpperCase();
    if (!field || (upper !== "ASC" && upper !== "DESC") || extra.length)
      throw badRequest(`Invalid sort "${text}": expected field,ASC or field,DESC.`);
    if (!Object.hasOwn(options.fields, field))
      throw badRequest(`Unknown field "${field}" in sort. Known fields: ${Object.keys(options.fields).join(", ")}.`);
    if (specOf(options.fields[field] as AnyColumn | FieldSpec).type === "json")
      throw badRequest(`Field "${field}" cannot be sorted.`);
    specs.push({ field, order: upper });
  }
  return specs;
}

/** Parses a nestjsx/crud request into Drizzle conditions; throws a 400 naming whatever is wrong. */
export function parseCrudQuery(params: CrudQueryParams, options: CrudOptions): CrudQuery {
  const { fields, joins } = parseSelection(params, options);

  let where: SQL | undefined;
  if (params.s !== undefined && params.s.trim() !== "") {
    // As nestjsx/crud: a search condition replaces filter and or.
    where = parseSearch(options, params.s);
  } else {
    const filterCtx: Ctx = { where: "filter", count: 0 };
    const filters = list(params.filter).map((f) => parseFilter(options, f, filterCtx));
    const orCtx: Ctx = { where: "or", count: 0 };
    const ors = list(params.or).map((f) => parseFilter(options, f, orCtx));
    where = combineFilters(filters, ors);
  }

  let sort = parseSort(options, list(params.sort));
  if (sort.length === 0) sort = [...(options.defaultSort ?? [])];
  if (!sort.some((s) => s.field === options.primaryKey)) sort.push({ field: options.primaryKey, order: "ASC" });
  const orderBy = sort.map(({ field, order }) => {
    const column = specOf(options.fields[field] as AnyColumn | FieldSpec).column as SQLWrapper;
    return order === "ASC" ? asc(column) : desc(column);
  });

  const maxLimit = options.maxLimit ?? MAX_LIMIT;
  const limit = params.limit ?? options.defaultLimit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit)
    throw badRequest(`Invalid limit ${limit}: expected 1 to ${maxLimit}.`);
  const offset = params.page !== undefined ? (params.page - 1) * limit : (params.offset ?? 0);
  if (!Number.isSafeInteger(offset) || offset < 0) throw badRequest(`Invalid page or offset.`);

  return { where, orderBy, sort, limit, offset, page: Math.floor(offset / limit) + 1, fields, joins };
}

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

/**
 * One page of a nestjsx/crud list read with two Drizzle selects (`.$dynamic()`): `total` selects `{ n: count() }`
 * over the same tables as `rows`. The query's where applies to both; its order, limit and offset to `rows`.
 */
export function crudSelectPage<
  Q extends {
    where(w: SQL | undefined): Q;
    orderBy(...o: SQL[]): Q;
    limit(n: number): Q;
    offset(n: number): Q;
  } & PromiseLike<unknown[]>,
  C extends { where(w: SQL | undefined): C } & PromiseLike<{ n: number }[]>,
>(query: CrudQuery, select: { total: C; rows: Q }): Promise<CrudPage<Awaited<Q>[number]>> {
  return crudList(query, {
    total: async (where) => (await select.total.where(where))[0]?.n ?? 0,
    rows: async (q) => (await applyCrud(select.rows, q)) as Awaited<Q>[number][],
  });
}

/** Applies a parsed query's where, order, limit and offset to a dynamic Drizzle select (`.$dynamic()`). */
export function applyCrud<
  Q extends {
    where(w: SQL | undefined): Q;
    orderBy(...o: SQL[]): Q;
    limit(n: number): Q;
    offset(n: number): Q;
  },
>(qb: Q, query: CrudQuery): Q {
  return qb
    .where(query.where)
    .orderBy(...query.orderBy)
    .limit(query.limit)
    .offset(query.offset);
}

// ---------------------------------------------------------------------------------------------------------------
// OpenAPI

const repeatable = (description: string, example?: string) =>
  z
    .union([z.string().max(2000), z.array(z.string().max(2000)).max(50)])
    .optional()
    .openapi({ description, ...(example ? { example } : {}) });

/** The query parameters of a nestjsx/crud list. */
export const CrudQuerySchema = z.object({
  fields: repeatable("Fields to answer, comma-separated (the id is always included)", "uuid,email"),
  s: z.string().max(4000).optional().openapi({
    description: 'JSON search condition, e.g. {"email":{"$cont":"abc"}}; when given, filter and or are ignored',
  }),
  filter: repeatable("field||$operator||value, repeatable, AND-ed", "email||$cont||example"),
  or: repeatable("field||$operator||value, repeatable, OR-ed (see the nestjsx/crud rules)"),
  sort: repeatable("field,ASC or field,DESC, repeatable", "createdAt,DESC"),
  join: repeatable("A relation to include: relation or relation||a,b, repeatable"),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_LIMIT)
    .optional()
    .openapi({ description: `Page size (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT})` }),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).optional().openapi({ description: "Rows to skip" }),
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .openapi({ description: "1-based page; wins over offset" }),
  cache: z.string().max(16).optional().openapi({ description: "Accepted for compatibility; ignored" }),
});

/** The query parameters of a single-item read: which fields and relations to answer. */
export const CrudSelectionSchema = CrudQuerySchema.pick({ fields: true, join: true, cache: true });

/** The nestjsx/crud list envelope around `item`. */
export const crudPageSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    count: z.number().int().openapi({ description: "Items in this page" }),
    total: z.number().int().openapi({ description: "Items matching the query" }),
    page: z.number().int().openapi({ description: "This page, 1-based" }),
    pageCount: z.number().int().openapi({ description: "Pages at this limit" }),
  });
