/**
 * SIGTERM to the web server while a page is being answered: it serves nothing new, finishes that answer, and exits 0
 * saying every request was answered (#19, graceful shutdown). The edge here is a stand-in that answers when told.
 */
import { beforeAll, expect, it } from "vitest";
import { freePort } from "../../edge/src/testing/child-server.ts";
import { buildOnce, edgeStandIn, startWeb, until } from "./harness.ts";

/**
 * The edge's readiness, held until the test lets it go: the web's /readyz waits for it, so the request is in flight
 * (the web accepted it and is asking the edge) for as long as the test needs, however slow the machine.
 */
let asked: () => void = () => undefined;
let answer: () => void = () => undefined;
const edgeAsked = new Promise<void>((r) => {
  asked = r;
});
const answered = new Promise<void>((r) => {
  answer = r;
});
const edge = edgeStandIn((req, res) => {
  const reply = (status: number) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end("{}");
  };
  if (req.url !== "/readyz") return reply(404);
  asked();
  void answered.then(() => reply(200));
});
beforeAll(() => buildOnce(), 240_000);

it("finishes the request in flight, refuses new ones and exits 0 on SIGTERM", async () => {
  const web = await startWeb(await freePort(), {
    BOOTH_EDGE_URL: edge.url,
  });
  const inFlight = fetch(`${web.url}/readyz`);
  // The web has the request: it is asking the edge.
  await edgeAsked;
  web.run.kill("SIGTERM");
  await until(() => web.output().includes("web: SIGTERM, stopping"), "the web server hearing SIGTERM", 20_000);
  await until(
    () =>
      fetch(`${web.url}/healthz`).then(
        () => false,
        () => true,
      ),
    "the web server refusing new connections",
    20_000,
  );
  // Only now the edge answers: the web finishes the request it had, then exits.
  answer();
  const answerOf = await inFlight;
  expect(answerOf.status).toBe(200);
  expect(await answerOf.json()).toEqual({ status: "ok", edge: "ok" });
  expect(await web.run.exited).toBe(0);
  expect(web.output()).toContain("web: stopped (every request answered)");
}, 60_000);
