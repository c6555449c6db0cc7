/** A column's value as an answer gives it: a timestamp as its ISO 8601 string, anything else as it is. */
export type JsonValue<V> = V extends Date ? string : V;

const jsonValue = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/** Every column of a row as an answer gives it, in the row's order. */
export const jsonRow = <T extends object>(row: T) =>
  Object.fromEntries(Object.entries(row).map(([key, value]) => [key, jsonValue(value)])) as {
    [K in keyof T]: JsonValue<T[K]>;
  };

/** The columns `keys` of a row as an answer gives them, in that order. */
export const jsonPick = <T extends object, K extends keyof T>(row: T, ...keys: K[]) =>
  Object.fromEntries(keys.map((key) => [key, jsonValue(row[key])])) as { [P in K]: JsonValue<T[P]> };

/** A timestamp as an answer gives it (ISO 8601), or null when there is none. */
export const isoOrNull = (date: Date | null | undefined) => (date ? date.toISOString() : null);
