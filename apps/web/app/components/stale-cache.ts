import type { ClientActionFunctionArgs } from "@remix-run/react";

/**
 * The spec's stale times (crate 60 s, profile 5 min) in the browser: a route's clientLoader answers what it loaded
 * for the same address less than `staleMs` ago instead of asking the server again; an action forgets the entries it
 * may have changed. Memory only, per tab: a reload always asks the server.
 */
const entries = new Map<string, { at: number; data: unknown }>();
/** Goes up with every `forget`: a load that started before a change must not keep what it read. */
let generation = 0;

export async function freshOrLoad<T>(
  url: string | URL,
  staleMs: number,
  load: () => Promise<T>,
  cacheable: (data: T) => boolean = () => true,
): Promise<T> {
  const key = keyOf(url);
  const kept = entries.get(key);
  if (kept && Date.now() - kept.at < staleMs) return kept.data as T;
  const startedIn = generation;
  const data = await load();
  if (startedIn !== generation) return data;
  if (cacheable(data)) entries.set(key, { at: Date.now(), data });
  else entries.delete(key);
  return data;
}

/** Forgets every entry whose path starts with one of `prefixes` (e.g. "/crates"). */
export function forget(...prefixes: string[]) {
  generation++;
  for (const key of entries.keys()) if (prefixes.some((p) => key.startsWith(p))) entries.delete(key);
}

/** A route's clientAction: forgets the entries under `prefixes` its server action may change, then runs it. */
export const forgetting =
  (...prefixes: string[]) =>
  ({ serverAction }: ClientActionFunctionArgs) => {
    forget(...prefixes);
    return serverAction();
  };

function keyOf(url: string | URL) {
  const u = new URL(url, "http://web.local");
  u.searchParams.delete("lang");
  return `${u.pathname}${u.search}`;
}
