import { useCallback, useEffect, useRef } from "react";

/** Ask for a new token this long before the one in hand expires. */
const RENEW_BEFORE_MS = 3 * 60_000;

/**
 * The live room's short-lived token (null: no room open): `current()` answers the one in hand at once (HLS key requests, listening events),
 * `fresh()` renews it from `/live-token` first when it is about to expire (each live-socket connection). A timer keeps
 * it renewed while the page is open, so `current()` stays valid too. Both functions keep their identity.
 */
export function useLiveToken(initial: { token: string; expiresAt: string | undefined } | null) {
  const held = useRef({ token: initial?.token ?? "", expiresAt: Date.parse(initial?.expiresAt ?? "") || 0 });
  const pending = useRef<Promise<string> | null>(null);
  const active = initial !== null;
  const seen = useRef(initial?.token ?? "");

  // A token handed in later (a room entered, the room page's data loaded again) is the session's own: it replaces the
  // one in hand (`fresh()` still renews it when it is about to expire).
  const given = initial?.token;
  const givenExpiry = Date.parse(initial?.expiresAt ?? "") || 0;
  if (given && given !== held.current.token && given !== seen.current) {
    seen.current = given;
    held.current = { token: given, expiresAt: givenExpiry };
  }

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

  // Renewed only while a room is open: a visitor browsing without one asks for nothing.
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void fresh().catch(() => undefined), 60_000);
    return () => clearInterval(timer);
  }, [fresh, active]);

  return { current, fresh };
}
