/**
 * The web server reports its bugs to Sentry through Sentry's Node SDK when SENTRY_DSN is set (#19). The edge here is a
 * stand-in whose answers are not JSON, so the shop's loader breaks as a bug would.
 */
import { beforeAll, expect, it } from "vitest";
import { freePort } from "../../edge/src/testing/child-server.ts";
import { hasFrameIn, sentryIngest } from "../../edge/src/testing/sentry.ts";
import { buildOnce, edgeStandIn, startWeb } from "./harness.ts";

const edge = edgeStandIn((_req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end("{ this is not JSON");
});
beforeAll(() => buildOnce(), 240_000);

it("sends a loader's error to Sentry with its stack and the page it broke", async () => {
  const ingest = await sentryIngest();
  const web = await startWeb(await freePort(), {
    BOOTH_EDGE_URL: edge.url,
    SENTRY_DSN: ingest.dsn,
  });
  try {
    const page = await fetch(`${web.url}/shop`);
    expect(page.status).toBe(500);
    const event = await ingest.event((e) => e.tags?.service === "web");
    expect(event.exception.values[0]?.type).toBe("SyntaxError");
    expect(event.extra).toMatchObject({ method: "GET", path: "/shop" });
    expect((event.exception.values[0]?.stacktrace?.frames ?? []).length).toBeGreaterThan(0);
    expect(hasFrameIn(event, "build/server")).toBe(true);
  } finally {
    await web.stop();
    ingest.close();
  }
}, 60_000);
