/** The web server's readiness follows the edge it renders from: ready with it, 503 naming it otherwise. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort } from "../../edge/src/testing/child-server.ts";
import { webConfig } from "../app/config.server.ts";
import { loader as healthz } from "../app/routes/healthz/route.ts";
import { loader as readyz } from "../app/routes/readyz/route.ts";

let edgeReady = true;
const edge = createServer((req, res) => {
  res.writeHead(req.url === "/readyz" && edgeReady ? 200 : 503, { "content-type": "application/json" });
  res.end("{}");
});
const web = webConfig();
const edgeUrl = web.edgeUrl;
beforeAll(() => new Promise<void>((r) => edge.listen(0, "127.0.0.1", r)));
afterAll(() => {
  web.edgeUrl = edgeUrl;
  edge.close();
});

it("is ready when the edge is, and answers 503 saying whether the edge is degraded or unreachable", async () => {
  web.edgeUrl = `http://127.0.0.1:${(edge.address() as AddressInfo).port}`;
  const ready = await readyz();
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ status: "ok", edge: "ok" });
  edgeReady = false;
  const degraded = await readyz();
  expect(degraded.status).toBe(503);
  expect(await degraded.json()).toEqual({ status: "degraded", edge: "degraded" });
  web.edgeUrl = `http://127.0.0.1:${await freePort()}`;
  const away = await readyz();
  expect(away.status).toBe(503);
  expect(await away.json()).toEqual({ status: "degraded", edge: "unreachable" });
  // Alive all the same.
  expect(healthz().status).toBe(200);
});
