import { useEffect } from "react";

/**
 * Registers the service worker (/sw.js: app/service-worker) once the page is up. Browsers without service workers, or
 * a registration that fails, leave the app as it is: it works the same, only not offline or installable.
 */
export function useServiceWorker() {
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    // Not in the Discord Activity: its pages live on Discord's origin, and their calls go through its proxy.
    if (document.querySelector('meta[name="booth-discord-activity"]')) return;
    navigator.serviceWorker.register("/sw.js").catch((error) => console.warn("service worker not registered:", error));
  }, []);
}
