/**
 * What only a room needs, loaded when one is entered rather than on every first visit: the SDK (the live room client
 * with its JSON patches and reconnecting socket, and the HTTP client the player reports listening through) and
 * hls.js. The room page starts both as soon as its module runs in the browser, so they download while the page
 * hydrates; each is one shared promise, however many ask.
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

/** In the browser only: starts loading what a room plays with (a failure is met again where it is used). */
export function preloadRoom() {
  if (typeof document === "undefined") return;
  loadSdk().catch(() => undefined);
  loadHls().catch(() => undefined);
}
