/**
 * Remix's default browser entry, hydrating once the page's language is at hand and its streamed data is decoded:
 * English comes with the app, another language's texts are loaded first (i18n/index.ts), so the first render matches
 * the server's; see `streamedState()` for the data. In the Discord Activity, the SDK is loaded first and the page's
 * URLs mapped to Discord's proxy (lib/discord-activity.tsx).
 */
import { BOOTH_VERSION } from "@booth/sdk/version";
import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { isLanguage, loadLanguage } from "./i18n/index.ts";
import { startActivity } from "./lib/discord-activity.tsx";
import { startSentry } from "./lib/error-reports.ts";

/**
 * With single fetch, the page's loader data comes as a stream of inline scripts, and the entry script is `async`: it
 * may run before the stream has ended. RemixBrowser then suspends its first render until Remix has decoded that
 * stream, outside any Suspense boundary. A click, key or focus in that time makes React 18 hydrate synchronously, and a
 * synchronous render that suspends outside a boundary throws "Root did not complete" (React error #345; remix-run/remix
 * issue 10214), which leaves the page dead. So the decoding is started and awaited here, before hydrating: RemixBrowser
 * begins it on its first call and throws the promise (before any hook), and once it is settled the render inside React
 * goes straight on. Input meanwhile lands on the server's HTML, as it does before any hydration.
 */
async function streamedState(): Promise<void> {
  const context = (window as { __remixContext?: { stream?: unknown } }).__remixContext;
  if (!context?.stream) return; // not single fetch, or already decoding
  try {
    RemixBrowser({});
  } catch (thrown) {
    if (thrown instanceof Promise) return thrown.then(() => undefined);
    throw thrown;
  }
}

const lang = document.documentElement.lang;
// A language that fails to load leaves the English fallback: the page still works.
// Sentry, when the page names a DSN (lib/error-reports.ts), is ready before hydration, so hydration's errors reach it;
// a failure to load it leaves the page as it is without.
void Promise.all([
  isLanguage(lang) ? loadLanguage(lang).catch(() => undefined) : undefined,
  streamedState(),
  startSentry(BOOTH_VERSION).catch(() => undefined),
  // In the Discord Activity only (a meta tag says so): the page's URLs are mapped to Discord's proxy before any call.
  startActivity().catch((error: unknown) => console.error("The Discord Activity did not start:", error)),
])
  // A decoding that failed is thrown again by RemixBrowser's render, into Remix's error boundary, as without this wait.
  .catch(() => undefined)
  .then(() =>
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <RemixBrowser />
        </StrictMode>,
      );
    }),
  );
