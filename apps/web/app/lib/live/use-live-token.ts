import { useCallback, useEffect, useRef } from "react";

/** Ask for a new token this long before the one in hand expires. */
const RENEW_BEFORE_MS = 3 * 60_000;

/**
 * The room page's short-lived token: `current()` answers the one in hand at once (HLS key requests, listening events),
 * `fresh()` renews it from `/live-token` first when it is about to expire (each live-socket connection). A timer keeps
 * it renewed while the page is open, so `current()` stays valid too. Both functions keep their identity.
 */
export function useLiveToken(initial: { token: string; expiresAt: string | undefined }) {
  const held = useRef({ token: initial.token, expiresAt: Date.parse(initial.expiresAt ?? "") || 0 });
  const pending = useRef<Promise<string> | null>(null);

  const fresh = useCallback(async () => {
    if (held.current.expiresAt - Date.now() > RENEW_BEFORE_MS) return held.current.token;
    pending.current ??= fetch("/live-token", { headers: { accept: "application/json" } })
      .then(async (res) => {
        if (!res.ok) throw new Error(`live token: ${res.status}`);
        const body = (await res.json()) as { token: string; expiresAt?: string };
        held.current = { token: body.token, expiresAt: Date.parse(body.expiresAt ?? "") || 0 };
        return body.token;
      })
      .finally(() => {
        pending.current = null;
      });
    return pending.current;
  }, []);
  const current = useCallback(() => held.current.token, []);

  useEffect(() => {
    const timer = setInterval(() => void fresh().catch(() => undefined), 60_000);
    return () => clearInterval(timer);
  }, [fresh]);

  return { current, fresh };
}
