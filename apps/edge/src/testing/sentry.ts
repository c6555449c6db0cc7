import { createServer } from "node:http";
import { gunzipSync } from "node:zlib";
import { until } from "./until.ts";

/** An event as Sentry's SDKs send it (the parts the tests read). */
export interface SentryEvent {
  exception: { values: { type: string; value: string; stacktrace?: { frames: { filename?: string }[] } }[] };
  release?: string;
  environment?: string;
  user?: unknown;
  request?: { url?: string; headers?: Record<string, string>; cookies?: unknown };
  tags?: Record<string, string>;
  extra?: Record<string, unknown>;
  server_name?: string;
}

/**
 * A local stand-in for Sentry's ingest endpoint: it keeps the envelopes the SDKs post to it. `dsn` points an SDK at it.
 *
 *   const ingest = await sentryIngest();
 *   ... SENTRY_DSN: ingest.dsn ...
 *   const event = await ingest.event((e) => e.exception.values[0]?.value === "boom");
 */
export async function sentryIngest() {
  const envelopes: string[] = [];
  const server = createServer((req, res) => {
    // Browsers post from the page's origin: answered as Sentry's ingest answers them, open to any origin.
    res.setHeader("access-control-allow-origin", "*");
    if (req.method === "OPTIONS") {
      res.setHeader("access-control-allow-headers", "*");
      res.end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (d) => chunks.push(d));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      envelopes.push((req.headers["content-encoding"] === "gzip" ? gunzipSync(body) : body).toString());
      res.end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const events = (): SentryEvent[] =>
    envelopes.flatMap((envelope) =>
      envelope
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line))
        .filter((item) => item.exception),
    );
  return {
    dsn: `http://publickey@127.0.0.1:${(server.address() as { port: number }).port}/42`,
    events,
    /** Every envelope received, as its text. */
    envelopes: () => [...envelopes],
    /** The first event `match` accepts, once it has arrived. */
    async event(match: (event: SentryEvent) => boolean, timeoutMs = 10_000): Promise<SentryEvent> {
      return (await until(() => events().find(match), "the event at the Sentry stand-in", timeoutMs)) as SentryEvent;
    },
    close: () => server.close(),
  };
}

/** Whether an event carries stack frames of the given file. */
export const hasFrameIn = (event: SentryEvent, file: string) =>
  (event.exception.values[0]?.stacktrace?.frames ?? []).some((f) => f.filename?.includes(file));
