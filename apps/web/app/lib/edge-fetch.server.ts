import { webLog } from "./log.server.ts";

/**
 * fetch for the calls to the edge, patient while the edge starts: under `npm start` the web often answers before
 * the edge has opened its database. A refused connection (nothing listens yet) is retried for a while, and said once
 * in the log rather than as a stack trace per call. Refused all along, the call answers 503 as the edge would, so
 * pages show their usual error. Only refused connections are retried: the edge never saw those requests.
 */
export function patientFetch(
  inner: typeof fetch,
  edgeUrl: string,
  options: { waitMs?: number; log?: (line: string) => void } = {},
): typeof fetch {
  const waitMs = options.waitMs ?? 20_000;
  const log = options.log ?? ((line: string) => webLog()({ level: "warn", msg: line }));
  let waiting = false;
  return async (input, init) => {
    const deadline = Date.now() + waitMs;
    // A Request's body can be read once: one with a body is read here, once, and each try sends a new Request with
    // it (those without are sent as they are): a clone per try failed on Node 22.12's fetch at the second ("unusable").
    const body = input instanceof Request && input.body ? await input.arrayBuffer() : undefined;
    for (let delay = 200; ; delay = Math.min(delay * 2, 2000)) {
      try {
        const response = await inner(
          body !== undefined && input instanceof Request ? new Request(input, { body }) : input,
          init,
        );
        if (waiting) {
          waiting = false;
          log(`web: the edge at ${edgeUrl} answers`);
        }
        return response;
      } catch (err) {
        if (!refused(err)) throw err;
        if (!waiting) {
          waiting = true;
          log(`web: the edge at ${edgeUrl} is not answering yet (connection refused); waiting for it`);
        }
        if (Date.now() + delay > deadline)
          return Response.json(
            { statusCode: 503, message: `The edge at ${edgeUrl} is not answering: it may still be starting.` },
            { status: 503 },
          );
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  };
}

const refused = (err: unknown) =>
  err instanceof TypeError && (err.cause as { code?: unknown } | undefined)?.code === "ECONNREFUSED";
