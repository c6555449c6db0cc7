import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenLocally, requestText } from "../testing/local-server.ts";
import { until } from "../testing/until.ts";
import { createTestApp, type TestApp } from "../testing.ts";
import { type Tracing, tracingFrom } from "./tracing.ts";

// A local stand-in for an OpenTelemetry collector: it keeps the OTLP/HTTP JSON exports it receives.
const exports: { path?: string; headers: Record<string, unknown>; body: unknown }[] = [];
const collector = createServer(async (req, res) => {
  const body = await requestText(req);
  exports.push({ path: req.url, headers: req.headers, body: JSON.parse(body || "{}") });
  res.writeHead(200, { "content-type": "application/json" });
  res.end("{}");
});

interface OtlpSpan {
  name: string;
  traceId: string;
  parentSpanId?: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
}
const spans = () =>
  exports.flatMap((e) =>
    ((e.body as { resourceSpans?: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans ?? []).flatMap((r) =>
      r.scopeSpans.flatMap((s) => s.spans),
    ),
  );
const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

let tracing: Tracing;
let t: TestApp;
beforeAll(async () => {
  const endpoint = await listenLocally(collector);
  tracing = tracingFrom(
    { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=team-key" },
    "booth-edge",
  ) as Tracing;
  t = await createTestApp({ tracing });
});
afterAll(async () => {
  await t?.close();
  await tracing?.shutdown();
  collector.close();
});

describe("tracing over OTLP", () => {
  it("is off without OTEL_EXPORTER_OTLP_ENDPOINT", () => {
    expect(tracingFrom({}, "booth-edge")).toBeUndefined();
  });

  it("exports a span per request with its route and status, under the caller's trace", async () => {
    const owner = await t.createUser();
    const room = await t.request("POST", "/api/room-service/rooms/infrastructure", {
      token: owner.token,
      body: { name: "Traced", type: "PUBLIC" },
    });
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    await t.request("GET", `/api/room-service/rooms/${room.body.slug}`, {
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    await tracing.flush();
    const span = await until(
      () => spans().find((s) => attribute(s, "http.route") === "/api/room-service/rooms/:slug"),
      "the request's span at the collector",
    );
    expect(span?.name).toBe("GET /api/room-service/rooms/:slug");
    expect(attribute(span as OtlpSpan, "http.response.status_code")).toBe(200);
    expect(span?.traceId).toBe(traceId);
    expect(exports[0]?.path).toBe("/v1/traces");
    expect(exports[0]?.headers["x-api-key"]).toBe("team-key");
    const body = exports[0]?.body as {
      resourceSpans: { resource: { attributes: { key: string; value: { stringValue: string } }[] } }[];
    };
    const service = body.resourceSpans[0]?.resource.attributes.find((a) => a.key === "service.name");
    expect(service?.value.stringValue).toBe("booth-edge");
  });
});
