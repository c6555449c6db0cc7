import { scrubEvent } from "@booth/sdk/privacy";
import { BOOTH_VERSION } from "@booth/sdk/version";
import type { SentrySdk } from "./ports/error-reporter.ts";

/**
 * Sentry's Node SDK, when SENTRY_DSN is set (the Node entry and the job worker): unhandled errors of the process
 * (uncaught exceptions, unhandled rejections) go to Sentry by the SDK's own handlers, and the edge's error reporter
 * sends what the app catches (a 500, a failed job) through it. SENTRY_ENVIRONMENT and SENTRY_RELEASE (Booth's version
 * unless set) name the deployment. Unset: the SDK is not even loaded (half a CPU-second of every start) and errors go
 * to the error_reports table.
 */
export async function sentryFromEnv(
  env: Record<string, string | undefined>,
  serverName: string,
): Promise<SentrySdk | undefined> {
  if (!env.SENTRY_DSN) return undefined;
  const Sentry = await import("@sentry/node");
  Sentry.init({
    dsn: env.SENTRY_DSN,
    environment: env.SENTRY_ENVIRONMENT ?? env.BOOTH_ENV ?? env.NODE_ENV ?? "development",
    release: env.SENTRY_RELEASE || BOOTH_VERSION,
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
