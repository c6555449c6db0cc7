import * as Sentry from "@sentry/deno";
import type { SentrySdk } from "./ports/error-reporter.ts";

/** Sentry's Deno SDK, when SENTRY_DSN is set (the Deno entry): as sentry.node.ts does on Node. */
export function sentryFromEnv(env: Record<string, string | undefined>, serverName: string): SentrySdk | undefined {
  if (!env.SENTRY_DSN) return undefined;
  Sentry.init({
    dsn: env.SENTRY_DSN,
    environment: env.SENTRY_ENVIRONMENT ?? env.BOOTH_ENV ?? "development",
    ...(env.SENTRY_RELEASE ? { release: env.SENTRY_RELEASE } : {}),
    serverName,
    tracesSampleRate: 0,
  });
  return Sentry;
}
