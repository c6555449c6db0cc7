/** How a port calls its provider: the `fetch` to use, and how long an answer may take. */
export interface ProviderHttp {
  fetch?: typeof globalThis.fetch;
  /** A provider that does not answer must not hold the request that sends the message forever (10 s by default). */
  timeoutMs?: number;
}

/**
 * Hands a message to a provider's REST API (`POST url`), within `timeoutMs`. A refusal throws `<provider> answered
 * <status>` with the first 300 characters of the provider's explanation (never the request, which holds the key); the
 * status is the code, with the status text when `statusText` is set. An accepted answer's body is drained, so the
 * connection is released.
 */
export async function postToProvider(
  url: string,
  init: { headers: Record<string, string>; body: BodyInit },
  {
    provider,
    statusText = false,
    fetch = globalThis.fetch,
    timeoutMs = 10_000,
  }: ProviderHttp & { provider: string; statusText?: boolean },
) {
  const res = await fetch(url, { method: "POST", ...init, signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) {
    const detail = (await res.text().catch(() => "")).slice(0, 300);
    const status = statusText ? [res.status, res.statusText].filter(Boolean).join(" ") : res.status;
    throw new Error(`${provider} answered ${status}${detail ? `: ${detail}` : ""}`);
  }
  await res.body?.cancel().catch(() => {});
}
