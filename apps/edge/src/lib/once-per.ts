/**
 * One value per key object, made the first time it is asked for and kept as long as the key lives: a query prepared
 * per database, a memo per signing key set.
 */
export function oncePer<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) {
      value = make(key);
      made.set(key, value);
    }
    return value;
  };
}
