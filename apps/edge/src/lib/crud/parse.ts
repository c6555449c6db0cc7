/** A nestjsx/crud request (fields, s, filter, or, sort, join, limit, offset, page) parsed against the allow-list. */
import { type AnyColumn, asc, desc, type SQL, type SQLWrapper } from "drizzle-orm";
import { badRequest } from "../errors.ts";
import { combineFilters, parseFilter, parseSearch } from "./filters.ts";
import type { Ctx } from "./operators.ts";
import { type CrudOptions, DEFAULT_LIMIT, type FieldSpec, MAX_LIMIT, type SortSpec, specOf } from "./options.ts";

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
