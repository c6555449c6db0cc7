import { connect, createServer, type Server, type Socket } from "node:net";
import { createDb, type Database } from "@booth/db";
import { createTestDatabase } from "@booth/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_UNAVAILABLE } from "./lib/errors.ts";
import { freePort } from "./testing/child-server.ts";
import { expectErrorLog } from "./testing/error-logs.ts";
import { until } from "./testing/until.ts";
import { createTestApp, expectRefusal, type TestApp } from "./testing.ts";

/*
 * The edge outlives its database going away (#19): PostgreSQL restarted, a network cut. The edge reaches the test's
 * database through a TCP proxy the test cuts (every connection dropped, the port closed) and restores: meanwhile
 * requests answer 503 at once, and after, the same edge serves again, without a restart. PostgreSQL only: the
 * embedded PGlite runs inside the process and cannot go away.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;

/** A TCP proxy to `target` on `port`, which can be cut (connections dropped, port closed) and restored. */
function tcpProxy(port: number, target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("close", () => sockets.delete(s));
          s.on("error", () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", resolve);
    });
  return {
    listen,
    async cut() {
      await new Promise<void>((resolve) => {
        server?.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}

describe.skipIf(!postgresUrl)("the edge when PostgreSQL goes away", () => {
  let base: Database & { url?: string };
  let proxied: Database;
  let proxy: ReturnType<typeof tcpProxy>;
  let t: TestApp;
  beforeAll(async () => {
    base = await createTestDatabase();
    const url = new URL(base.url as string);
    const port = await freePort();
    proxy = tcpProxy(port, { host: url.hostname, port: Number(url.port || 5432) });
    await proxy.listen();
    url.host = `127.0.0.1:${port}`;
    proxied = await createDb({ url: url.toString(), max: 3 });
    t = await createTestApp({ db: proxied.db });
  });
  afterAll(async () => {
    await t?.close();
    await proxied?.close().catch(() => undefined);
    await proxy?.cut();
    await base?.close();
  });

  it("answers 503 while it is away and serves again when it is back, without a restart", async () => {
    const rooms = () => t.request("GET", "/api/room-service/rooms/public");
    expect((await rooms()).status).toBe(200);
    expect((await t.request("GET", "/readyz")).status).toBe(200);

    expectErrorLog(); // the error handler's and the readiness check's reports of the outage
    await proxy.cut();
    const started = Date.now();
    const away = await rooms();
    expectRefusal(away, 503, DATABASE_UNAVAILABLE);
    expect(away.headers.get("retry-after")).toBe("5");
    expect(Date.now() - started).toBeLessThan(5000);
    const ready = await t.request("GET", "/readyz");
    expect(ready.status).toBe(503);
    expect(ready.body.database).not.toBe("ok");

    await proxy.listen();
    await until(async () => (await rooms()).status === 200, "the rooms list once the database is back", 20_000);
    expect((await t.request("GET", "/readyz")).status).toBe(200);
  });
});
