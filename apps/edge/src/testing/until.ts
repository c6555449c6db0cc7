/**
 * Waits until `check` answers something truthy (it may throw meanwhile), asking every `intervalMs`; answers that, or
 * throws naming `what` (and the last error) after `timeoutMs`. The edge's, the rooms' and the web's tests share it.
 */
/** What a truthy answer of `check` can be. */
type Truthy<T> = Exclude<T, null | undefined | false | 0 | "">;

export async function until<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 20_000,
  intervalMs = 100,
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as Truthy<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ""}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
