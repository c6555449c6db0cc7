/**
 * SIGTERM to the web server while a page is being answered: it serves nothing new, finishes that answer, and exits 0
 * saying every request was answered (#19, graceful shutdown). The edge here is a stand-in that answers slowly.
 */
import { beforeAll, expect, it } from "vitest";
import { freePort } from "../../edge/src/testing/child-server.ts";
import { buildOnce, edgeStandIn, startWeb, until } from "./harness.ts";

// The edge's readiness, answered after 1.5 s: the web's /readyz waits for it.
const edge = edgeStandIn((req, res) => {
  setTimeout(() => {
    res.writeHead(req.url === "/readyz" ? 200 : 404, { "content-type": "application/json" });
    res.end("{}");
  }, 1500);
});
beforeAll(() => buildOnce(), 240_000);

it("finishes the request in flight, refuses new ones and exits 0 on SIGTERM", async () => {
  const web = await startWeb(await freePort(), {
    BOOTH_API_URL: edge.url,
  });
  const inFlight = fetch(`${web.url}/readyz`);
  await new Promise((r) => setTimeout(r, 400));
  web.run.kill("SIGTERM");
  await until(
    () =>
      fetch(`${web.url}/healthz`).then(
        () => false,
        () => true,
      ),
    "the web server refusing new connections",
    5000,
  );
  const answer = await inFlight;
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual({ status: "ok", edge: "ok" });
  expect(await web.run.exited).toBe(0);
  expect(web.output()).toContain("web: stopped (every request answered)");
}, 60_000);
