import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

/** Loads the page's data again every `ms` while the tab is visible (the room lists' refetch interval). */
export function useRevalidateEvery(ms: number) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    const id = setInterval(() => {
      if (document.visibilityState === "visible" && state === "idle") revalidate();
    }, ms);
    return () => clearInterval(id);
  }, [ms, revalidate, state]);
}
