import { describe, expect, it } from "vitest";
import { patientFetch } from "../app/lib/edge-fetch.server.ts";

const refused = () =>
  new TypeError("fetch failed", { cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }) });

describe("the web's calls to an edge that is still starting", () => {
  it("waits for the edge, saying so once, and sends the whole request when it answers", async () => {
    const bodies: string[] = [];
    let calls = 0;
    const inner = (async (input: RequestInfo | URL) => {
      calls++;
      bodies.push(await (input as Request).text());
      if (calls < 3) throw refused();
      return new Response("ok");
    }) as typeof fetch;
    const lines: string[] = [];
    const call = patientFetch(inner, "http://127.0.0.1:8787", { log: (line) => lines.push(line) });
    const response = await call(new Request("http://127.0.0.1:8787/api/x", { method: "POST", body: "hello" }));
    expect(await response.text()).toBe("ok");
    expect(bodies).toEqual(["hello", "hello", "hello"]);
    expect(lines).toEqual([
      "web: the edge at http://127.0.0.1:8787 is not answering yet (connection refused); waiting for it",
      "web: the edge at http://127.0.0.1:8787 answers",
    ]);
  });

  it("sends a request without a body as it is, copying only those with one", async () => {
    const seen: unknown[] = [];
    const inner = (async (input: RequestInfo | URL) => {
      seen.push(input);
      return new Response("ok");
    }) as typeof fetch;
    const call = patientFetch(inner, "http://127.0.0.1:8787", { log: () => undefined });
    const get = new Request("http://127.0.0.1:8787/api/x");
    const post = new Request("http://127.0.0.1:8787/api/x", { method: "POST", body: "hello" });
    await call(get);
    await call(post);
    expect(seen[0]).toBe(get);
    expect(seen[1]).not.toBe(post);
    expect(await (seen[1] as Request).text()).toBe("hello");
  });

  it("answers 503 naming the edge when it never answers", async () => {
    const inner = (async () => {
      throw refused();
    }) as typeof fetch;
    const call = patientFetch(inner, "http://127.0.0.1:8787", { waitMs: 300, log: () => undefined });
    const response = await call("http://127.0.0.1:8787/api/x");
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      statusCode: 503,
      message: "The edge at http://127.0.0.1:8787 is not answering: it may still be starting.",
    });
  });

  it("does not retry a call the edge may have received", async () => {
    let calls = 0;
    const inner = (async () => {
      calls++;
      throw new TypeError("fetch failed", { cause: Object.assign(new Error("reset"), { code: "ECONNRESET" }) });
    }) as typeof fetch;
    const call = patientFetch(inner, "http://127.0.0.1:8787", { log: () => undefined });
    await expect(call("http://127.0.0.1:8787/api/x", { method: "POST" })).rejects.toThrow("fetch failed");
    expect(calls).toBe(1);
  });
});
