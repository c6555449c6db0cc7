import type { AddressInfo, Server } from "node:net";
import { serveEdge } from "../serve-node.ts";
import type { TestApp } from "./app.ts";
import { openForTests } from "./open-for-tests.ts";

/**
 * Starts a test's stand-in of an outside service (an `http` or `http2` server) on a free port of 127.0.0.1, and
 * answers its base URL, `http://127.0.0.1:<port>`.
 */
export async function listenLocally(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** Stops a server `listenLocally` started, once it has closed. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((r) => server.close(() => r()));
}

/** The whole body of a request a stand-in server received (an `http` request or an `http2` stream), as text. */
export async function requestText(req: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString();
}

/**
 * Starts `server` on a free local port before the tests of the file or `describe` it is called in, hands its base URL
 * to `take`, and closes it after them: `listenForTests(server, (url) => (baseUrl = url))`.
 */
export function listenForTests(server: Server, take: (baseUrl: string) => void): void {
  openForTests(
    async () => ({ url: await listenLocally(server), close: () => closeServer(server) }),
    ({ url }) => take(url),
  );
}

/**
 * Serves the test app over real HTTP on a free port of 127.0.0.1, as the Node entry serves the edge (serve-node.ts),
 * for what must reach it over the network (a process a test starts, a keep-alive connection): answers its port, its base URL, `connections()` (how many connections it
 * holds open), and `close()`, which stops it taking new connections without waiting for the open ones.
 */
export async function serveTestApp(t: TestApp) {
  const server = serveEdge({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((r) => server.once("listening", r));
  const { port } = server.address() as AddressInfo;
  const connections = () =>
    new Promise<number>((resolve, reject) =>
      server.getConnections((err, count) => (err ? reject(err) : resolve(count))),
    );
  return { port, url: `http://127.0.0.1:${port}`, connections, close: () => void server.close() };
}
