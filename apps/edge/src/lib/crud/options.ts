/** The allow-list a crud route declares: its fields (columns or specs), primary key, joins, default sort and limits. */
import { type AnyColumn, Column, type SQL } from "drizzle-orm";

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 1000;
/** Values one $in / $notin may carry. */
export const MAX_LIST_VALUES = 500;

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

export function columnSpec(column: AnyColumn): FieldSpec {
  const c = column as AnyColumn & { enumValues?: string[]; baseColumn?: AnyColumn & { enumValues?: string[] } };
  const type = COLUMN_TYPES[c.columnType];
  if (type === "array") {
    const base = c.baseColumn?.enumValues;
    return { column, type, ...(base?.length ? { values: base } : {}) };
  }
  if (type) return { column, type };
  const values = c.enumValues;
  return { column, type: "string", ...(values?.length ? { values } : {}) };
}

/** The field type of each drizzle column type that is not text (text, and any type not named, is a string). */
const COLUMN_TYPES: Partial<Record<string, Exclude<FieldType, "string">>> = {
  PgUUID: "uuid",
  PgInteger: "integer",
  PgSmallInt: "integer",
  PgSerial: "integer",
  PgSmallSerial: "integer",
  PgBigInt53: "integer",
  PgBigSerial53: "integer",
  PgReal: "number",
  PgDoublePrecision: "number",
  PgNumeric: "number",
  PgNumericNumber: "number",
  PgBoolean: "boolean",
  PgTimestamp: "date",
  PgTimestampString: "date",
  PgDate: "date",
  PgDateString: "date",
  PgArray: "array",
  PgJson: "json",
  PgJsonb: "json",
};

export const specOf = (entry: AnyColumn | FieldSpec): FieldSpec =>
  entry instanceof Column ? columnSpec(entry) : (entry as FieldSpec);
