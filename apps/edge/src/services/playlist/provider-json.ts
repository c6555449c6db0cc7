/** Readers of the loosely typed JSON providers answer: a field that is missing or of another type reads as empty. */

/** A non-empty string, or null. */
export const str = (v: unknown) => (typeof v === "string" && v ? v : null);
/** An object's fields, or none. */
export const record = (v: unknown) => (v && typeof v === "object" ? (v as Record<string, unknown>) : {});
/** An array's objects (anything else in it reads as an empty object), or none. */
export const list = (v: unknown) => (Array.isArray(v) ? (v as unknown[]).map(record) : []);
