/**
 * How far the demo catalogue has loaded, kept in the shared cache (several edge instances serve one Booth, and the
 * one loading the demo is not necessarily the one a visitor's page asks), for the home page's "Loading the demo
 * songs: 7 of 20".
 */
import type { Cache } from "../../ports/cache.ts";

export const DEMO_PROGRESS_KEY = "demo:catalogue-progress";
/** An entry outlives a loading process that died by this long at most (it is refreshed with every track). */
const PROGRESS_TTL_SECONDS = 15 * 60;

export interface DemoProgress {
  loading: boolean;
  done: number;
  total: number;
}

export async function writeDemoProgress(cache: Cache, done: number, total: number) {
  await cache.set(DEMO_PROGRESS_KEY, JSON.stringify({ done, total }), PROGRESS_TTL_SECONDS);
}

/** Forgets the progress (the loading failed): the home page stops announcing it. */
export async function clearDemoProgress(cache: Cache) {
  await cache.del(DEMO_PROGRESS_KEY);
}

/** The demo's progress: loading while tracks remain; nothing known answers not loading, 0 of 0. */
export async function readDemoProgress(cache: Cache): Promise<DemoProgress> {
  const raw = await cache.get(DEMO_PROGRESS_KEY);
  if (!raw) return { loading: false, done: 0, total: 0 };
  try {
    const { done, total } = JSON.parse(raw) as { done?: unknown; total?: unknown };
    if (typeof done === "number" && typeof total === "number" && done >= 0 && total >= 0)
      return { loading: done < total, done: Math.min(done, total), total };
  } catch {
    // An entry this module did not write: treated as nothing known.
  }
  return { loading: false, done: 0, total: 0 };
}
