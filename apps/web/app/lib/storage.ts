/**
 * The browser's localStorage or sessionStorage, or null where the page may not use them: a browser that blocks
 * third-party storage throws on the mere read of `window.localStorage` in a frame of another site, as in the Discord
 * Activity (lib/discord-activity.tsx). What is kept there is a convenience: without it the page works, forgetting.
 */
export function browserStorage(kind: "localStorage" | "sessionStorage"): Storage | null {
  try {
    return window[kind];
  } catch {
    return null;
  }
}
