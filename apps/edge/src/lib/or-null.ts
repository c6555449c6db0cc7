/**
 * The optional fields `keys` of `value`, each as given or null: the columns an insert would otherwise leave out (and so
 * to their defaults) when a caller leaves them out.
 */
export function orNull<T extends object, K extends keyof T>(value: T, ...keys: K[]) {
  return Object.fromEntries(keys.map((key) => [key, value[key] ?? null])) as {
    [P in K]: Exclude<T[P], undefined> | null;
  };
}
