/**
 * A lingering close for Booth's Node servers (the edge's Node entry and the web server), as nginx's `lingering_close`:
 * an answer given before its request's body had all arrived (a 413 for a body declared too large, an early 401 or
 * 404) must reach a client that is still sending that body.
 *
 * Without it, Node closes such a connection as soon as the answer is written (the answer says Connection: close, or
 * @hono/node-server gives up on the body after 500 ms), with the rest of the body unread in the kernel's buffers, and
 * a socket closed with unread data is reset (RST). The client, still sending, gets a broken pipe or a reset instead
 * of the answer; a browser, which reads nothing before it has sent its body, shows a network error.
 *
 * With it, such a connection is not reused: the server ends its side once the answer is written (the client sees the
 * answer end), reads and drops what the client still sends, and closes when the body has all come, when the client
 * ends its side, or at a bound (`LingerBounds`), the last of which only a client that sends far more, or very slowly,
 * reaches. Serve with @hono/node-server's `autoCleanupIncoming: false`: its own cleanup would cut the linger short.
 *
 *   const server = serve({ fetch, port, autoCleanupIncoming: false });
 *   closeLingering(server as Server);
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** How long, and how much, a connection lingers after answering a request whose body had not all arrived. */
export interface LingerBounds {
  /** At most this many bytes of the rest of the body are read (and dropped). */
  maxBytes: number;
  /** At most this long in all, in milliseconds. */
  maxMs: number;
  /** At most this long without a byte from the client, in milliseconds. */
  idleMs: number;
}

/**
 * 64 MiB, more than the largest body any route takes (an upload's 50 MB), so a client sending a refused file of about
 * that size is read to its end and reads its answer; 30 s in all and 5 s without a byte, nginx's defaults
 * (`lingering_time`, `lingering_timeout`).
 */
export const LINGER: LingerBounds = { maxBytes: 64 * 1024 * 1024, maxMs: 30_000, idleMs: 5_000 };

/** Whether a request announced a body (a request without one has nothing left unread once answered). */
const announcesBody = (req: IncomingMessage) => {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
};

/** Makes `server` close lingeringly each connection whose answer was written before its request's body had all come. */
export function closeLingering(server: Server, bounds: LingerBounds = LINGER): void {
  // First among the request's listeners: the answer's "finish" below runs before any the app adds.
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    if (!announcesBody(req)) return;
    // Node's own "finish" listener runs first: it has ended the socket when the answer closes the connection.
    res.once("finish", () => {
      if (req.complete) return;
      const socket = req.socket;
      // That end was socket.destroySoon(): an end, then a destroy once the end is written, which with the body
      // unread makes the kernel reset the connection. The end stays (the client sees its answer end); the destroy
      // waits for the linger.
      socket.removeListener("finish", socket.destroy);
      linger(req, socket, bounds);
    });
  });
}

/** How often a lingering connection is looked at (bytes read, time): at most this much past a bound. */
const TICK_MS = 100;

function linger(req: IncomingMessage, socket: Socket, { maxBytes, maxMs, idleMs }: LingerBounds) {
  if (socket.destroyed) return;
  // Counted on the socket: a body nobody read is dropped inside Node's HTTP parser, which tells no one of it.
  const started = socket.bytesRead;
  const since = Date.now();
  let read = started;
  let heard = since;
  const close = () => socket.destroy();
  const tick = setInterval(
    () => {
      const now = Date.now();
      if (socket.bytesRead !== read) {
        read = socket.bytesRead;
        heard = now;
      }
      if (read - started > maxBytes || now - since >= maxMs || now - heard >= idleMs) close();
    },
    Math.min(TICK_MS, idleMs),
  ).unref();
  socket.once("close", () => clearInterval(tick));
  // Whatever read the body so far (a stream the app let go of) stops listening: it would pause the flow again.
  req.removeAllListeners("data");
  // The whole body has come: nothing is left unread, so closing sends no reset. (A client that ends its side first
  // ends the request short: Node's server then closes the socket itself, with nothing unread either.)
  req.once("end", close);
  req.resume();
  // A connection kept alive by its answer's headers is not reused either: its request's body is not read through.
  if (!socket.writableEnded) socket.end();
}
