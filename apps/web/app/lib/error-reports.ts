/**
 * Sentry in the browser, only when the web server names a DSN for it (SENTRY_BROWSER_DSN, public by design: it can
 * only send events). The page carries it in a meta tag (root.tsx); without one, `startSentry` loads nothing and the
 * SDK's code never reaches the browser (it is a chunk of its own, imported on demand).
 *
 * What is sent: errors only (no tracing, no replay), with `release` = Booth's version, `sendDefaultPii: false`, and
 * each event stripped of whatever is personal (`scrubEvent`: no user, no cookies, URLs and messages with their codes,
 * tokens and emails censored). What the SDK sees on its own: uncaught errors and unhandled rejections; the error
 * boundaries report theirs with `reportBoundaryError`.
 */
import { isRouteErrorResponse } from "@remix-run/react";

/** The meta tags the root writes when the server has a browser DSN: the DSN, and the environment's name. */
export const SENTRY_META = "booth-sentry-dsn";
export const SENTRY_ENVIRONMENT_META = "booth-sentry-environment";

type SentryModule = typeof import("@sentry/react");
let sentry: SentryModule | null = null;

/** Starts the SDK when the page names a DSN; resolves once it is ready (at once without a DSN). */
export async function startSentry(release: string): Promise<void> {
  const dsn = document.querySelector<HTMLMetaElement>(`meta[name="${SENTRY_META}"]`)?.content;
  if (!dsn) return;
  const [Sentry, { scrubEvent, censorText }] = await Promise.all([
    import("@sentry/react"),
    import("@booth/sdk/privacy"),
  ]);
  Sentry.init({
    dsn,
    release,
    environment: document.querySelector<HTMLMetaElement>(`meta[name="${SENTRY_ENVIRONMENT_META}"]`)?.content,
    sendDefaultPii: false,
    // Errors only: no performance tracing, no session replay, no session pings.
    tracesSampleRate: 0,
    integrations: (defaults) => defaults.filter((i) => i.name !== "BrowserSession"),
    beforeSend: (event) => scrubEvent(event),
    beforeBreadcrumb: (crumb) => {
      if (crumb.message) crumb.message = censorText(crumb.message);
      if (crumb.data)
        for (const key of ["url", "from", "to"])
          if (typeof crumb.data[key] === "string") crumb.data[key] = censorText(crumb.data[key]);
      return crumb;
    },
  });
  sentry = Sentry;
  // A sign for whoever looks at the page (and for the tests) that its errors are reported.
  document.documentElement.dataset.errorReports = "sentry";
}

/** A loader's or action's bug as a production server hands it to the page: Remix's stand-in, without its stack. */
const fromServer = (error: unknown) => error instanceof Error && error.message === "Unexpected Server Error";

/**
 * An error boundary's error, to Sentry when it runs: a bug of the page's own code. The answers of the server (a 404,
 * a loader's 500 or a bug in it, already reported by the web server) are not sent again.
 */
export function reportBoundaryError(error: unknown) {
  if (!sentry || isRouteErrorResponse(error) || fromServer(error)) return;
  sentry.captureException(error, { tags: { boundary: "route" } });
}
