import { propagation, type TracerProvider } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { EdgeSettings } from "../config.ts";

/** OpenTelemetry tracing of the edge's requests (app.ts, @hono/otel), exported over OTLP. */
export interface Tracing {
  provider: TracerProvider;
  /** Sends what is buffered. */
  flush(): Promise<void>;
  /** Sends what is buffered and stops (at shutdown). */
  shutdown(): Promise<void>;
}

/**
 * Tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set (OTLP over HTTP, JSON: a collector, Jaeger, Tempo, Honeycomb...):
 * a span per request with its route, method and status, named by OTEL_SERVICE_NAME (default `service`), its parent
 * taken from an incoming W3C traceparent. OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, when set, is the full URL instead;
 * OTEL_EXPORTER_OTLP_HEADERS (`key=value,...`) goes with each export. Unset: no tracing, no cost.
 */
export function tracingFrom(
  settings: Pick<
    EdgeSettings,
    | "OTEL_EXPORTER_OTLP_ENDPOINT"
    | "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
    | "OTEL_EXPORTER_OTLP_HEADERS"
    | "OTEL_SERVICE_NAME"
  >,
  service: string,
): Tracing | undefined {
  const base = settings.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const url =
    settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || (base ? `${base.replace(/\/+$/, "")}/v1/traces` : "");
  if (!url) return undefined;
  const headers = Object.fromEntries(
    (settings.OTEL_EXPORTER_OTLP_HEADERS ?? "")
      .split(",")
      .map((pair) => pair.split("=").map((part) => decodeURIComponent(part.trim())))
      .filter((pair): pair is [string, string] => pair.length === 2 && !!pair[0]),
  );
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": settings.OTEL_SERVICE_NAME?.trim() || service }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url, headers }))],
  });
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return { provider, flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
}
