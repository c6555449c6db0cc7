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
 * Sentry's envelope endpoint, from a DSN (`https://<key>@<host>/<project>`); plain fetch, so it runs on Node, Deno
 * and Workers. The DSN's scheme and host are used as given, so tests point it at a local fake.
 */
export function sentryReporter(dsn: string, fetcher: typeof globalThis.fetch = globalThis.fetch): ErrorReporter {
  const url = new URL(dsn);
  const project = url.pathname.replace(/^\/+|\/+$/g, "");
  const key = url.username;
  if (!key || !project) throw new Error("SENTRY_DSN must look like https://<key>@<host>/<project>");
  const endpoint = `${url.protocol}//${url.host}/api/${project}/envelope/`;
  return {
    kind: "sentry",
    async report(error, context = {}) {
      const eventId = crypto.randomUUID().replace(/-/g, "");
      const event = {
        event_id: eventId,
        timestamp: Date.now() / 1000,
        platform: "javascript",
        level: "error",
        server_name: context.service ?? "edge",
        exception: { values: [{ type: error.name, value: error.message, stacktrace: { frames: [] } }] },
        extra: context,
      };
      const body = [
        JSON.stringify({ event_id: eventId, dsn, sent_at: new Date().toISOString() }),
        JSON.stringify({ type: "event" }),
        JSON.stringify(event),
      ].join("\n");
      const res = await fetcher(endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/x-sentry-envelope",
          "x-sentry-auth": `Sentry sentry_version=7, sentry_key=${key}, sentry_client=booth-edge/0.1`,
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`Sentry answered ${res.status}`);
      return eventId;
    },
  };
}
