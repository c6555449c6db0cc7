/**
 * Remix's default Node entry with one addition: every page carries a Content-Security-Policy whose nonce is fresh per
 * response, given to the inline scripts Remix writes (`<Scripts>`, `<ScrollRestoration>`, streamed data), and the
 * hardening headers.
 */

import { PassThrough } from "node:stream";
import { BoothApiError } from "@booth/sdk";
import { createReadableStreamFromReadable, type EntryContext, type HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import * as Sentry from "@sentry/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { webConfig } from "./config.server.ts";
import * as ES from "./i18n/es/index.ts";
import { addLanguage } from "./i18n/index.ts";
import { webLog } from "./lib/log.server.ts";
import { NonceContext } from "./lib/nonce.ts";
import { activitySecurityPolicy, contentSecurityPolicy, newNonce, SECURITY_HEADERS } from "./lib/security.server.ts";
import { inActivity } from "./lib/visitor.server.ts";

const ABORT_DELAY = 5_000;

// The server renders every language; a browser loads only its own (i18n/index.ts).
addLanguage("es", { ...ES });

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const nonce = newNonce();
  // The Discord Activity's pages: framed by Discord, and every call through Discord's proxy (security.server.ts).
  const activity = inActivity();
  responseHeaders.set(
    "content-security-policy",
    activity
      ? activitySecurityPolicy(nonce, webConfig().settings.DISCORD_FRAME_ANCESTORS)
      : contentSecurityPolicy(nonce),
  );
  for (const [name, value] of Object.entries(SECURITY_HEADERS))
    if (!(activity && name === "x-frame-options")) responseHeaders.set(name, value);
  // Crawlers and SPA mode get the whole document at once; browsers get the shell as soon as it is ready.
  const whole = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const ready = () => {
      shellRendered = true;
      const body = new PassThrough();
      responseHeaders.set("content-type", "text/html");
      resolve(
        new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }),
      );
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        ...(whole ? { onAllReady: ready } : { onShellReady: ready }),
        onShellError: reject,
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors of the shell itself reject and are logged by Remix; later ones only here.
          if (shellRendered)
            webLog()({
              level: "error",
              msg: "web: rendering failed",
              err: error instanceof Error ? error.stack : String(error),
            });
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

/**
 * What the log says about a loader or action that failed. Expected conditions get one line, not a stack trace: an
 * address nobody serves (a 404) gets none, an answer of the edge (say, a 503 while it starts) one naming it. Bugs
 * keep their stack.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status === 404) return;
  const { pathname } = new URL(request.url);
  const log = webLog();
  if (error instanceof BoothApiError) {
    log({
      level: "error",
      msg: `web: ${request.method} ${pathname}: the edge answered ${error.status}: ${error.message}`,
      method: request.method,
      path: pathname,
      status: error.status,
    });
    return;
  }
  const cause = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  const bug = cause ?? error;
  log({
    level: "error",
    msg: `web: ${request.method} ${pathname} failed`,
    method: request.method,
    path: pathname,
    err: bug instanceof Error ? (bug.stack ?? String(bug)) : String(bug),
  });
  // To Sentry too when the server set it up (SENTRY_DSN; server.ts): a bug, with its stack and the page it broke.
  Sentry.captureException(cause ?? error, {
    tags: { service: "web" },
    extra: { method: request.method, path: pathname },
  });
};
