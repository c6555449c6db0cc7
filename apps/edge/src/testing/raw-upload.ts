import { connect } from "node:net";

/** What a client that declared a body too large saw of the server (`declareTooLarge`). */
export interface DeclaredTooLarge {
  /** The answer's status (0 when none came whole). */
  status: number;
  headers: Record<string, string>;
  /** The answer's body, as text. */
  body: string;
  /** The bytes of its body the client had handed to its socket when it stopped sending. */
  sent: number;
  /** What went wrong on the socket (ECONNRESET, EPIPE...), and whether the answer had been read whole by then. */
  errors: { code: string; afterAnswer: boolean }[];
}

export interface DeclareTooLargeOptions {
  port: number;
  method: string;
  path: string;
  /** Besides host, content-length and connection. */
  headers: Record<string, string>;
  /** The Content-Length sent. */
  declared: number;
  /**
   * `eager`: reads the answer as it comes, and stops sending once it has it (curl, fetch in Node). `browser`: sends
   * every byte it declared, then reads the answer (a browser's upload: it reads nothing before its body is sent).
   */
  reads: "eager" | "browser";
  timeoutMs?: number;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/**
 * A client over a raw socket (node:net) that sends a request head declaring `declared` bytes of body and sends its
 * body as the socket takes it, reading the answer as `reads` says. Once it has the answer (or the server ended the
 * connection) it ends its side and waits for the socket to close; answers what it saw. It never throws for what the
 * server did: a reset shows in `errors`.
 */
export function declareTooLarge(options: DeclareTooLargeOptions): Promise<DeclaredTooLarge> {
  const { port, method, path, headers, declared, reads, timeoutMs = 60_000 } = options;
  return new Promise((resolve, reject) => {
    // Half-open allowed: the server's end of the connection does not end the client's sending (a browser's upload
    // goes on until it has sent its body).
    const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    const seen: DeclaredTooLarge = { status: 0, headers: {}, body: "", sent: 0, errors: [] };
    let received = Buffer.alloc(0);
    let whole = false;
    let stopped = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${method} ${path}: no close within ${timeoutMs} ms; saw ${JSON.stringify(seen)}`));
    }, timeoutMs);

    /** Whether `received` holds a whole answer; fills `seen` when it does. */
    const parse = () => {
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return false;
      const [statusLine = "", ...lines] = received.subarray(0, end).toString("latin1").split("\r\n");
      const headersOf = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(":")).trim().toLowerCase(),
          line.slice(line.indexOf(":") + 1).trim(),
        ]),
      );
      const length = Number(headersOf["content-length"] ?? Number.NaN);
      const body = received.subarray(end + 4);
      if (!Number.isFinite(length) || body.length < length) return false;
      seen.status = Number(statusLine.split(" ")[1]);
      seen.headers = headersOf;
      seen.body = body.subarray(0, length).toString("utf8");
      return true;
    };
    const stopSending = () => {
      if (stopped) return;
      stopped = true;
      if (!socket.destroyed) socket.end();
    };
    const read = () =>
      socket.on("data", (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        if (!whole && parse()) {
          whole = true;
          stopSending();
        }
      });

    /** Writes body bytes while the socket takes them, up to `declared`. */
    const pump = () => {
      while (!stopped && !socket.destroyed && seen.sent < declared) {
        const size = Math.min(CHUNK.length, declared - seen.sent);
        seen.sent += size;
        const last = seen.sent === declared;
        const more = socket.write(size === CHUNK.length ? CHUNK : CHUNK.subarray(0, size), (err) => {
          // Every byte declared is with the socket: a browser now reads the answer.
          if (last && !err && reads === "browser") read();
        });
        if (!more) {
          socket.once("drain", pump);
          return;
        }
      }
    };

    socket.on("error", (err: NodeJS.ErrnoException) => {
      seen.errors.push({ code: err.code ?? err.message, afterAnswer: whole });
    });
    // The server ended its side: nothing more comes, so the client ends its own too.
    socket.on("end", stopSending);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(seen);
    });
    socket.on("connect", () => {
      const head = [
        `${method} ${path} HTTP/1.1`,
        "host: 127.0.0.1",
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
        `content-length: ${declared}`,
        "",
        "",
      ].join("\r\n");
      socket.write(head);
      if (reads === "eager") read();
      pump();
    });
  });
}
