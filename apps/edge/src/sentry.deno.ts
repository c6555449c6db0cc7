import { scrubEvent } from "@booth/sdk/privacy";
import { BOOTH_VERSION } from "@booth/sdk/version";
import * as Sentry from "@sentry/deno";
import type { SentrySdk } from "./ports/error-reporter.ts";

/** Sentry's Deno SDK, when SENTRY_DSN is set (the Deno entry): as sentry.node.ts does on Node. */
export function sentryFromEnv(env: Record<string, string | undefined>, serverName: string): SentrySdk | undefined {
  if (!env.SENTRY_DSN) return undefined;
  Sentry.init({
    dsn: env.SENTRY_DSN,
    environment: env.SENTRY_ENVIRONMENT ?? env.BOOTH_ENV ?? "development",
    release: env.SENTRY_RELEASE || BOOTH_VERSION,
    serverName,
    // Nothing personal: no IP addresses or cookies from the SDK, and each event scrubbed of users, cookies, tokens,
    // codes and emails (@booth/sdk/privacy).
    sendDefaultPii: false,
    beforeSend: (event) => scrubEvent(event),
    tracesSampleRate: 0,
  });
  return Sentry;
}
