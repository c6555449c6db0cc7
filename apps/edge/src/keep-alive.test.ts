/**
 * A keep-alive client that sent a large body the edge refused without reading (a 413, an early 401) must get its next
 * request answered (an unknown path, a 413): the refusal closes the connection rather than leaving the unread body where the next request
 * would be parsed from.
 */
import { Agent, request } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "./app.ts";
import { createTestApp, serveTestApp, type TestApp } from "./testing.ts";

let t: TestApp;
let server: Awaited<ReturnType<typeof serveTestApp>>;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  server = await serveTestApp(t);
  port = server.port;
});
afterAll(async () => {
  server.close();
  await t.close();
});

/** One request on `agent`; resolves with the status and the Connection header, or rejects after 5 s. */
function send(agent: Agent, method: string, path: string, body?: Buffer) {
  return new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent,
        headers: body ? { "content-type": "application/json", "content-length": body.length } : {},
        timeout: 5000,
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${method} ${path}: no answer within 5 s`)));
    req.on("error", reject);
    req.end(body);
  });
}

it("answers the next request on a keep-alive connection after refusing a large body it did not read", async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const large = Buffer.alloc(400 * 1024, "a");
    // Refused before the body is read: nothing answers at that path.
    const early = await send(agent, "POST", "/api/playlist-service/no-such-route", large);
    expect(early.status).toBe(404);
    expect(early.connection).toBe("close");
    expect((await send(agent, "GET", "/healthz")).status).toBe(200);
    // Larger than any body the edge takes: 413 without reading it.
    const huge = Buffer.alloc(MAX_BODY_BYTES + 1024, "a");
    const tooLarge = await send(agent, "POST", "/api/user-service/auth/login", huge);
    expect(tooLarge.status).toBe(413);
    expect((await send(agent, "GET", "/healthz")).status).toBe(200);
    // A body the edge read leaves the connection open for the next request.
    const read = await send(agent, "POST", "/api/user-service/auth/login", Buffer.from(JSON.stringify({})));
    expect(read.status).toBe(400);
    expect(read.connection).not.toBe("close");
  } finally {
    agent.destroy();
  }
}, 30_000);
