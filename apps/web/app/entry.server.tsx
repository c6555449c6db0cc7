/**
 * Remix's default Node entry with one addition: every page carries a Content-Security-Policy whose nonce is fresh per
 * response, given to the inline scripts Remix writes (`<Scripts>`, `<ScrollRestoration>`, streamed data), and the
 * hardening headers.
 */
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, type EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceContext } from "./lib/nonce.ts";
import { contentSecurityPolicy, newNonce, SECURITY_HEADERS } from "./lib/security.server.ts";

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const nonce = newNonce();
  responseHeaders.set("content-security-policy", contentSecurityPolicy(nonce));
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) responseHeaders.set(name, value);
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
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
