import { Hono } from "hono";
import { contextStorage } from "hono/context-storage";
import { requestId } from "hono/request-id";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Logger } from "./deps.ts";
import { edgeLogger } from "./deps.ts";
import { partyLiveRooms } from "./ports/live-rooms.ts";
import { testLogger } from "./testing/logger.ts";
import { createTestApp, type TestApp } from "./testing.ts";

/*
 * One request id from the web server to the edge to the live room (#19): the edge takes the caller's X-Request-Id
 * (the web server sends its own, app/lib/visitor.server.ts), answers with it, writes it on every log line of the
 * request, and passes it to the live room it calls (which logs it: rooms-party server.ts).
 */
const lines: Record<string, unknown>[] = [];
const roomCalls: Headers[] = [];
let t: TestApp;
beforeAll(async () => {
  const logger: Logger = (entry) => {
    lines.push(entry);
    testLogger(entry);
  };
  t = await createTestApp({
    logger,
    liveRooms: partyLiveRooms({
      baseUrl: "http://rooms.test",
      serviceToken: async () => "service-token",
      fetch: (async (_url: string, init: RequestInit) => {
        roomCalls.push(new Headers(init.headers));
        return new Response(null, { status: 204 });
      }) as typeof fetch,
    }),
  });
});
afterAll(() => t?.close());

describe("a request id", () => {
  it("comes back, goes on the request's log lines and on to the live room", async () => {
    const owner = await t.createUser();
    const room = await t.request("POST", "/api/room-service/rooms/infrastructure", {
      token: owner.token,
      body: { name: "Traced room", type: "PUBLIC" },
    });
    const res = await t.request("DELETE", `/api/room-service/rooms/conversation/${room.body.uuid}`, {
      token: owner.token,
      headers: { "x-request-id": "web-7f3a-trace" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("x-request-id")).toBe("web-7f3a-trace");
    expect(roomCalls.at(-1)?.get("x-request-id")).toBe("web-7f3a-trace");
    expect(lines.filter((l) => l.requestId === "web-7f3a-trace").map((l) => l.path)).toContain(
      `/api/room-service/rooms/conversation/${room.body.uuid}`,
    );
    // Without one, the edge makes its own, and answers with it.
    const own = await t.request("GET", "/healthz");
    expect(own.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("is written by the edge's JSON logger on any line logged while the request is handled, not outside", async () => {
    const printed: string[] = [];
    const logger = edgeLogger({}, { write: (line: string) => void printed.push(line) });
    const app = new Hono();
    app.use(requestId(), contextStorage());
    app.get("/", (c) => {
      logger({ level: "info", msg: "deep inside the handling" });
      return c.text("ok");
    });
    await app.request("/", { headers: { "x-request-id": "trace-42" } });
    logger({ level: "info", msg: "outside a request" });
    const [inside, outside] = printed.map((line) => JSON.parse(line));
    expect(inside).toMatchObject({ msg: "deep inside the handling", requestId: "trace-42", level: "info" });
    expect(outside.msg).toBe("outside a request");
    expect(outside.requestId).toBeUndefined();
  });
});
