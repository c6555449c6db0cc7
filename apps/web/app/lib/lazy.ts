/**
 * What only a room needs, loaded when one is entered rather than on every first visit: the SDK (the live room client
 * with its JSON patches and reconnecting socket, and the HTTP client the player reports listening through) and
 * hls.js. The room page starts them early (preloadRoom, preloadPlayer), so they are there when the room's state
 * and its first song arrive; each is one shared promise, however many ask.
 */
let sdk: Promise<typeof import("@booth/sdk")> | null = null;
let hls: Promise<typeof import("hls.js/light")> | null = null;

export const loadSdk = () => {
  sdk ??= import("@booth/sdk").catch((error) => {
    sdk = null;
    throw error;
  });
  return sdk;
};

export const loadHls = () => {
  hls ??= import("hls.js/light").catch((error) => {
    hls = null;
    throw error;
  });
  return hls;
};

/**
 * In the browser only: starts loading the live client, which the room's join waits for (small: at once, while the
 * page hydrates). A failure is met again where it is used.
 */
export function preloadRoom() {
  if (typeof document === "undefined") return;
  loadSdk().catch(() => undefined);
}

/**
 * Starts loading hls.js, once the page has hydrated (from an effect): parsing it before would hold up the hydration
 * that the room's join waits for; the join takes longer than its download, so it is ready for the first song.
 */
export function preloadPlayer() {
  loadHls().catch(() => undefined);
}
