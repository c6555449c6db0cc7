/** How a port calls its provider: the `fetch` to use, and how long an answer may take. */
export interface ProviderHttp {
  fetch?: typeof globalThis.fetch | undefined;
  /** A provider that does not answer must not hold the request that sends the message forever (10 s by default). */
  timeoutMs?: number | undefined;
}

/**
 * One request to a provider, given up after `timeoutMs`. When the provider cannot be reached at all (refused, timed
 * out), `unreachable` makes the error thrown from fetch's own; without it, fetch's own is thrown.
 */
export async function fetchProvider(
  url: string,
  init: RequestInit,
  {
    fetch = globalThis.fetch,
    timeoutMs = 10_000,
    unreachable,
  }: ProviderHttp & { unreachable?: ((err: Error) => Error) | undefined } = {},
) {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw unreachable ? unreachable(err as Error) : err;
  }
}

/** What a provider said besides its status when it refused a request; each part is left out when empty. */
export interface Refusal {
  /** Its error code, after the status (`410 Unregistered`). */
  code?: string | null | undefined;
  /** Its explanation, after a colon. */
  detail?: string | null | undefined;
  /** Anything more, in parentheses at the end. */
  aside?: string | null | undefined;
}

/**
 * The one wording of a provider's refusal, thrown or returned by every port: `<provider> answered <status>`, then
 * what the provider said, as `<code>: <detail> (<aside>)`.
 */
export const answered = (provider: string, status: number | string, { code, detail, aside }: Refusal = {}) =>
  `${provider} answered ${status}${code ? ` ${code}` : ""}${detail ? `: ${detail}` : ""}${aside ? ` (${aside})` : ""}`;

/** Releases the connection of an answer whose body is not wanted. */
export const discardBody = (res: Response) => res.body?.cancel().catch(() => {});

/**
 * Hands a message to a provider's REST API (`POST url`), within `timeoutMs`. A refusal throws `<provider> answered
 * <status>` with the first 300 characters of the provider's explanation (never the request, which holds the key); the
 * status is the code, with the status text when `statusText` is set. An accepted answer's body is drained, so the
 * connection is released.
 */
export async function postToProvider(
  url: string,
  init: { headers: Record<string, string>; body: BodyInit },
  { provider, statusText = false, ...http }: ProviderHttp & { provider: string; statusText?: boolean },
) {
  const res = await fetchProvider(url, { method: "POST", ...init }, http);
  if (!res.ok) {
    const detail = (await res.text().catch(() => "")).slice(0, 300);
    const status = statusText ? [res.status, res.statusText].filter(Boolean).join(" ") : res.status;
    throw new Error(answered(provider, status, { detail }));
  }
  await discardBody(res);
}
