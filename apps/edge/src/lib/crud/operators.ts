/** The operators of a condition (`$eq`, `$cont`, `$in`, ...): which apply to which field type, and the SQL each makes. */
import {
  type AnyColumn,
  arrayContains,
  arrayOverlaps,
  between,
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
  type SQL,
  sql,
} from "drizzle-orm";
import { badRequest } from "../errors.ts";
import { type CrudOptions, type FieldSpec, type FieldType, MAX_LIST_VALUES, specOf } from "./options.ts";

const MAX_CONDITIONS = 100;

/** The case-insensitive operators (on text). */
const INSENSITIVE_OPS = ["$eqL", "$neL", "$startsL", "$endsL", "$contL", "$exclL", "$inL", "$notinL"] as const;
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
  ...INSENSITIVE_OPS,
] as const;
export type Operator = (typeof OPERATORS)[number];

const isOperator = (op: string): op is Operator => (OPERATORS as readonly string[]).includes(op);

/** The deprecated spellings without `$` (eq, ne, cont, ...) are accepted as aliases. */
const normalizeOperator = (op: string) => (op.startsWith("$") ? op : `$${op}`);

const NULL_OPS: Operator[] = ["$isnull", "$notnull"];
const ORDER_OPS: Operator[] = ["$eq", "$ne", "$gt", "$lt", "$gte", "$lte", "$in", "$notin", "$between"];
const TEXT_OPS: Operator[] = ["$starts", "$ends", "$cont", "$excl", ...INSENSITIVE_OPS];
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
export interface Ctx {
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
export function condition(
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
  return ONE_VALUE_SQL[op as OneValueOperator](col, coerceValue(name, spec, op, raw, ctx), spec.type === "array");
}

const startingWith = (value: unknown) => `${escapeLike(value as string)}%`;
const endingWith = (value: unknown) => `%${escapeLike(value as string)}`;
const containing = (value: unknown) => `%${escapeLike(value as string)}%`;
const lowered = (value: unknown) => (value as string).toLowerCase();

type OneValueOperator = Exclude<Operator, "$isnull" | "$notnull" | "$between" | "$in" | "$notin" | "$inL" | "$notinL">;
/** The SQL of each operator that takes one value (checked already), on a column; `onArray` when it is an array. */
const ONE_VALUE_SQL: Record<OneValueOperator, (col: AnyColumn, value: unknown, onArray: boolean) => SQL> = {
  $eq: eq,
  $ne: ne,
  $gt: gt,
  $lt: lt,
  $gte: gte,
  $lte: lte,
  $starts: (col, value) => like(col, startingWith(value)),
  $ends: (col, value) => like(col, endingWith(value)),
  $cont: (col, value, onArray) => (onArray ? arrayContains(col, [value]) : like(col, containing(value))),
  $excl: (col, value, onArray) => (onArray ? not(arrayContains(col, [value])) : notLike(col, containing(value))),
  $eqL: (col, value) => eq(lower(col), lowered(value)),
  $neL: (col, value) => ne(lower(col), lowered(value)),
  $startsL: (col, value) => ilike(col, startingWith(value)),
  $endsL: (col, value) => ilike(col, endingWith(value)),
  $contL: (col, value) => ilike(col, containing(value)),
  $exclL: (col, value) => notIlike(col, containing(value)),
};
