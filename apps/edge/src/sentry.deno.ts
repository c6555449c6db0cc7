import { scrubEvent } from "@booth/sdk/privacy";
import { BOOTH_VERSION } from "@booth/sdk/version";
import * as Sentry from "@sentry/deno";
import type { SentrySdk } from "./ports/error-reporter.ts";
import type { SentrySettings } from "./sentry.node.ts";

/** Sentry's Deno SDK, when SENTRY_DSN is set (the Deno entry): as sentry.node.ts does on Node. */
export function sentryFrom(settings: SentrySettings, serverName: string): SentrySdk | undefined {
  if (!settings.SENTRY_DSN) return undefined;
  Sentry.init({
    dsn: settings.SENTRY_DSN,
    environment: settings.SENTRY_ENVIRONMENT ?? settings.BOOTH_ENV ?? "development",
    release: settings.SENTRY_RELEASE || BOOTH_VERSION,
    serverName,
    // Nothing personal: no IP addresses or cookies from the SDK, and each event scrubbed of users, cookies, tokens,
    // codes and emails (@booth/sdk/privacy).
    sendDefaultPii: false,
    beforeSend: (event) => scrubEvent(event),
    tracesSampleRate: 0,
    // Deno.serve stays Deno's own: wrapped by the SDK's DenoServe integration, Deno's server resets a connection
    // whose answer came before its request's body was read, so a body declared too large got a reset, not its 413
    // (issue #35). Errors still reach Sentry through the edge's reporter, with the request's id, method and path.
    integrations: (defaults) => defaults.filter((integration) => integration.name !== "DenoServe"),
  });
  return Sentry;
}
