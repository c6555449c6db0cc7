/** The conditions of a request: `filter` and `or` (field||$op||value) and the JSON search `s`. */
import { and, or, type SQL } from "drizzle-orm";
import { badRequest } from "../errors.ts";
import { type Ctx, condition } from "./operators.ts";
import type { CrudOptions } from "./options.ts";

const MAX_DEPTH = 6;

/** `field||$op||value`; the value may itself contain `||`. */
export function parseFilter(options: CrudOptions, text: string, ctx: Ctx): SQL {
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
export function combineFilters(filters: SQL[], ors: SQL[]): SQL | undefined {
  if (ors.length === 0) return filters.length ? and(...filters) : undefined;
  if (filters.length === 0) return ors.length === 1 ? ors[0] : or(...ors);
  if (filters.length === 1 && ors.length === 1) return or(filters[0], ors[0]);
  return or(and(...filters), and(...ors));
}

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

export function parseSearch(options: CrudOptions, text: string): SQL | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest("Invalid search condition (s): not valid JSON.");
  }
  return searchCondition(options, parsed, { where: "s", count: 0 }, 0);
}
