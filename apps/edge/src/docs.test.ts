import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVICES } from "./services/index.ts";
import { createTestApp, type TestApp } from "./testing.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe("the API reference at /docs", () => {
  it("lists every service's document and loads only what the edge serves itself (it works offline)", async () => {
    const page = await t.request("GET", "/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = page.body as string;
    for (const service of SERVICES) expect(html).toContain(`${service.prefix}/openapi.json`);
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(refs.length).toBe(4);
    expect(html).not.toMatch(/<script>(?!<)/);
    for (const ref of refs) {
      expect(ref).toMatch(/^\/docs\//);
      const res = await t.request("GET", ref);
      expect(res.status, ref).toBe(200);
      expect(res.headers.get("content-type")).toMatch(ref.endsWith(".css") ? /text\/css/ : /text\/javascript/);
      expect(String(res.body).length).toBeGreaterThan(ref.endsWith("start.js") ? 100 : 10_000);
    }
    // The documents it names answer.
    const document = await t.request("GET", `${SERVICES[0]?.prefix}/openapi.json`);
    expect(document.body.openapi).toBe("3.0.3");
    expect((await t.request("GET", "/docs/package.json")).status).toBe(404);
  });
});
