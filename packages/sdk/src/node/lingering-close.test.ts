/**
 * The lingering close on a bare Node server that answers before reading its request's body: the rest of the body is
 * read and dropped, the connection closes without a reset once the body has come or the client ends, and never
 * lingers past its bounds. The clients are raw sockets, half-open as a browser's upload is.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { closeLingering, type LingerBounds } from "./lingering-close.ts";

const LONG: LingerBounds = { maxBytes: 1024 ** 3, maxMs: 60_000, idleMs: 60_000 };
const ANSWER = JSON.stringify({ statusCode: 413, message: "Too large." });

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** A server that refuses every request at once, without reading its body (closing the connection unless `keepAlive`). */
async function refusing(bounds: LingerBounds, keepAlive = false) {
  server = createServer((_req, res: ServerResponse) => {
    res.writeHead(413, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(ANSWER),
      ...(keepAlive ? {} : { connection: "close" }),
    });
    res.end(ANSWER);
  });
  closeLingering(server, bounds);
  // Longer than any test: a connection kept alive is closed by the linger, never by Node's idle timeout.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
  return (server.address() as { port: number }).port;
}

const connections = () =>
  new Promise<number>((resolve, reject) =>
    server?.getConnections((err, count) => (err ? reject(err) : resolve(count))),
  );

/** Waits until `check` holds, looking every 20 ms. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A raw client: a request head declaring `declared` bytes, what it read, the errors it met, and its close. */
function client(port: number, declared: number) {
  const socket: Socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
  const seen = { text: "", errors: [] as string[], ended: false };
  const closed = new Promise<void>((r) => socket.once("close", () => r()));
  socket.on("data", (d: Buffer) => {
    seen.text += d.toString("latin1");
  });
  socket.on("end", () => {
    seen.ended = true;
  });
  socket.on("error", (err: NodeJS.ErrnoException) => seen.errors.push(err.code ?? err.message));
  socket.write(
    `POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/octet-stream\r\ncontent-length: ${declared}\r\n\r\n`,
  );
  /** Sends `bytes` of body as the socket takes them; resolves once they are all with the socket, or it failed. */
  const send = (bytes: number) =>
    new Promise<void>((resolve) => {
      const chunk = Buffer.alloc(64 * 1024, 0x62);
      let left = bytes;
      const pump = () => {
        while (left > 0 && !socket.destroyed) {
          const size = Math.min(chunk.length, left);
          left -= size;
          if (!socket.write(chunk.subarray(0, size), left === 0 ? () => resolve() : undefined)) {
            socket.once("drain", pump);
            return;
          }
        }
        if (socket.destroyed) resolve();
      };
      pump();
      socket.once("close", () => resolve());
    });
  return { socket, seen, closed, send };
}

/**
 * The client ends its side once the answer and the server's end have come: the answer came whole, nothing was reset,
 * and the server let the connection go.
 */
async function endsCleanly(c: ReturnType<typeof client>) {
  await until(async () => c.seen.ended, "the answer and the server's end");
  c.socket.end();
  await c.closed;
  expect(c.seen.errors).toEqual([]);
  expect(c.seen.text.endsWith(ANSWER)).toBe(true);
  await until(async () => (await connections()) === 0, "the connection to close on the server");
}

describe("the lingering close", { timeout: 30_000 }, () => {
  it("reads and drops the body after an early answer, so a client that reads only once it has sent it all gets the answer, and no reset", async () => {
    const port = await refusing(LONG);
    const declared = 8 * 1024 * 1024;
    const c = client(port, declared);
    await c.send(declared);
    await endsCleanly(c);
    expect(c.seen.text).toMatch(/^HTTP\/1\.1 413 /);
  });

  it("closes once the client ends its side, with the rest of the body never sent", async () => {
    const port = await refusing(LONG);
    const c = client(port, 64 * 1024 * 1024);
    await c.send(256 * 1024);
    await endsCleanly(c);
  });

  it("also closes a connection its answer kept alive, once the body has come (it is not read through for reuse)", async () => {
    const port = await refusing(LONG, true);
    const declared = 4 * 1024 * 1024;
    const c = client(port, declared);
    await c.send(declared);
    await endsCleanly(c);
  });

  it("stops at its byte bound: a client sending on past it is cut", async () => {
    const port = await refusing({ ...LONG, maxBytes: 1024 * 1024 });
    const c = client(port, 1024 ** 3);
    await c.send(1024 ** 3);
    await c.closed;
    // The answer came first; the bytes past the bound were never read, so the cut is a reset.
    expect(c.seen.text.endsWith(ANSWER)).toBe(true);
    expect(c.seen.errors.length).toBe(1);
    await until(async () => (await connections()) === 0, "the connection to close on the server");
  });

  it("stops when the client sends nothing for its idle time", async () => {
    const port = await refusing({ ...LONG, idleMs: 200 });
    const c = client(port, 64 * 1024 * 1024);
    await c.send(64 * 1024);
    await until(async () => c.seen.ended, "the answer and the server's end");
    await until(async () => (await connections()) === 0, "the idle connection to close on the server");
    c.socket.destroy();
    expect(c.seen.text.endsWith(ANSWER)).toBe(true);
  });

  it("keeps a connection whose request's body was read before the answer, for the next request", async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => res.end("ok"));
    });
    closeLingering(server, LONG);
    await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    const c = client(port, 5);
    c.socket.write("hello");
    await until(async () => c.seen.text.endsWith("ok"), "the first answer");
    c.socket.write("POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\nhi");
    await until(async () => c.seen.text.split("HTTP/1.1 200").length === 3, "the second answer on the same connection");
    expect(c.seen.ended).toBe(false);
    c.socket.end();
    await c.closed;
    expect(c.seen.errors).toEqual([]);
  });
});
