import { scrubEvent } from "@booth/sdk/privacy";
import { BOOTH_VERSION } from "@booth/sdk/version";
import type { EdgeSettings } from "./config.ts";
import type { SentrySdk } from "./ports/error-reporter.ts";

/** What the Sentry SDK is initialised from (config.ts). */
export type SentrySettings = Pick<
  EdgeSettings,
  "SENTRY_DSN" | "SENTRY_ENVIRONMENT" | "SENTRY_RELEASE" | "BOOTH_ENV" | "NODE_ENV"
>;

/**
 * Sentry's Node SDK, when SENTRY_DSN is set (the Node entry and the job worker): unhandled errors of the process
 * (uncaught exceptions, unhandled rejections) go to Sentry by the SDK's own handlers, and the edge's error reporter
 * sends what the app catches (a 500, a failed job) through it. SENTRY_ENVIRONMENT and SENTRY_RELEASE (Booth's version
 * unless set) name the deployment. Unset: the SDK is not even loaded (half a CPU-second of every start) and errors go
 * to the error_reports table.
 */
export async function sentryFrom(settings: SentrySettings, serverName: string): Promise<SentrySdk | undefined> {
  if (!settings.SENTRY_DSN) return undefined;
  const Sentry = await import("@sentry/node");
  Sentry.init({
    dsn: settings.SENTRY_DSN,
    environment: settings.SENTRY_ENVIRONMENT ?? settings.BOOTH_ENV ?? settings.NODE_ENV ?? "development",
    release: settings.SENTRY_RELEASE || BOOTH_VERSION,
    serverName,
    // Nothing personal: no IP addresses or cookies from the SDK, and each event scrubbed of users, cookies, tokens,
    // codes and emails (@booth/sdk/privacy).
    sendDefaultPii: false,
    beforeSend: (event) => scrubEvent(event),
    // Errors only: tracing goes to OpenTelemetry (OTEL_EXPORTER_OTLP_ENDPOINT), not to Sentry.
    tracesSampleRate: 0,
  });
  return Sentry;
}
