import { type Db, schema } from "@booth/db";

/** Where errors worth a person's attention go: Sentry when SENTRY_DSN is set, else the error_reports table. */
export interface ErrorReporter {
  readonly kind: string;
  /** Reports an error; answers the report's id. */
  report(error: Error, context?: { service?: string } & Record<string, unknown>): Promise<string>;
}

export const outboxReporter = (db: Db): ErrorReporter => ({
  kind: "outbox",
  async report(error, context = {}) {
    const [row] = await db
      .insert(schema.errorReports)
      .values({ service: context.service ?? "edge", message: error.message, stack: error.stack ?? null, context })
      .returning({ id: schema.errorReports.id });
    return row?.id ?? "";
  },
});

/**
 * What the reporter needs of a Sentry SDK: @sentry/node (the Node entry, the job worker) and @sentry/deno (the Deno
 * entry) both have it, initialised by the entry from SENTRY_DSN (sentry.node.ts, sentry.deno.ts). The SDK sends the
 * error with its stack frames, the release and the environment, and its own global handlers report what escapes.
 */
export interface SentrySdk {
  captureException(
    error: unknown,
    context?: { tags?: Record<string, string>; extra?: Record<string, unknown> },
  ): string;
  flush(timeoutMs?: number): PromiseLike<boolean>;
}

export function sentryReporter(sdk: SentrySdk): ErrorReporter {
  return {
    kind: "sentry",
    async report(error, context = {}) {
      const { service, requestId, ...extra } = context;
      const tags: Record<string, string> = { service: service ?? "edge" };
      if (typeof requestId === "string") tags.request_id = requestId;
      const id = sdk.captureException(error, { tags, extra });
      // Sent before the answer: a report that matters is not left in a buffer a crash would lose.
      if (!(await sdk.flush(5000))) throw new Error("Sentry did not take the report within 5 s");
      return id;
    },
  };
}
