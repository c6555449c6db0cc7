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

export const specOf = (entry: AnyColumn | FieldSpec): FieldSpec =>
  entry instanceof Column ? columnSpec(entry) : (entry as FieldSpec);
