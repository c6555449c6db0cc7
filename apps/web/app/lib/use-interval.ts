import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

/**
 * Loads the page's data again every `ms` while the tab is visible (the room lists' refetch interval), and only while
 * `active` (an import still running elsewhere).
 */
export function useRevalidateEvery(ms: number, active = true) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const id = setInterval(() => {
      if (document.visibilityState === "visible" && state === "idle") revalidate();
    }, ms);
    return () => clearInterval(id);
  }, [ms, active, revalidate, state]);
}
