/**
 * Enumerations whose every value is its own name, as the schema, the edge, the SDK and the live room spell them.
 * Writing each name once keeps a key and its value from ever drifting apart. This file imports nothing, so any
 * module may load it.
 */

/** `enumOf("a", "b")` is `{ a: "a", b: "b" }`, typed as exactly that. */
export function enumOf<const Name extends string>(...names: Name[]): { readonly [N in Name]: N } {
  return Object.fromEntries(names.map((name) => [name, name])) as { readonly [N in Name]: N };
}

/** The union of an enumeration's values: `type Kind = EnumValue<typeof Kind>`. */
export type EnumValue<E> = E[keyof E];

/** An enumeration's values as the non-empty tuple `z.enum` takes: `z.enum(values(DjType))`. */
export const values = <T extends Record<string, string>>(o: T) => Object.values(o) as [T[keyof T], ...T[keyof T][]];
