/**
 * A resource route's JSON, asked with a plain `fetch` (not a fetcher: routes/song-picker/route.tsx says why); null
 * when it answers anything but a success. `signal` aborts it (a newer question replacing it).
 */
export async function askJson<T>(url: string, signal: AbortSignal): Promise<T | null> {
  const res = await fetch(url, { signal, headers: { accept: "application/json" } });
  return res.ok ? ((await res.json()) as T) : null;
}
