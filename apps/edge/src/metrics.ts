import { schema } from "@booth/db";
import { countDistinct, sql, count as sqlCount } from "drizzle-orm";
import type { Context } from "hono";
import { routePath } from "hono/route";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { AppDeps } from "./deps.ts";

/**
 * The edge's metrics in Prometheus's format (GET /metrics, app.ts), per instance as Prometheus expects (it scrapes
 * each one): requests and their latency by route, the job queue's depth, the people and rooms live (from the rooms'
 * presence reports, in the shared database), and the process's own (memory, CPU, event loop).
 */
export function createMetrics(deps: Pick<AppDeps, "db" | "jobs">) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "booth_edge_" });
  const requests = new Counter({
    name: "booth_http_requests_total",
    help: "HTTP requests answered, by method, route and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "booth_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method and route",
    labelNames: ["method", "route"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: "booth_jobs",
    help: "Jobs in the durable queue, by kind and state (created and retry: waiting; active: running)",
    labelNames: ["kind", "state"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await deps.jobs.depth()) this.set({ kind: row.kind, state: row.state }, row.count);
    },
  });
  const live = async () => {
    const [row] = await deps.db
      .select({ listeners: sqlCount(), rooms: countDistinct(schema.roomPresence.roomUuid) })
      .from(schema.roomPresence);
    return { listeners: Number(row?.listeners ?? 0), rooms: Number(row?.rooms ?? 0) };
  };
  new Gauge({
    name: "booth_live_room_connections",
    help: "People connected to live rooms (each once per room, as the rooms report them)",
    registers: [registry],
    async collect() {
      this.set((await live()).listeners);
    },
  });
  new Gauge({
    name: "booth_live_rooms",
    help: "Live rooms with someone in them",
    registers: [registry],
    async collect() {
      this.set((await live()).rooms);
    },
  });
  new Gauge({
    name: "booth_live_room_messages_received",
    help: "Messages the live rooms have received from their clients, in all (a running total: rate() it)",
    registers: [registry],
    async collect() {
      const [row] = await deps.db
        .select({ total: sql<string>`coalesce(sum(${schema.rooms.messagesReceived}), 0)` })
        .from(schema.rooms);
      this.set(Number(row?.total ?? 0));
    },
  });
  // A route's children of the two metrics, looked up by their labels once (prom-client hashes the labels on each call).
  const children = new Map<
    string,
    { requests: ReturnType<typeof requests.labels>; latency: ReturnType<typeof latency.labels> }
  >();
  return {
    registry,
    /** Counts an answered request under its route's pattern (`/api/room-service/rooms/:slug`), never its raw path. */
    observe(c: Context, seconds: number) {
      const status = c.res.status;
      const route = status === 404 && routePath(c) === "/*" ? "(unmatched)" : routePath(c);
      const method = c.req.method;
      const key = `${method} ${status} ${route}`;
      let child = children.get(key);
      if (!child) {
        child = {
          requests: requests.labels({ method, route, status: String(status) }),
          latency: latency.labels({ method, route }),
        };
        children.set(key, child);
      }
      child.requests.inc();
      child.latency.observe(seconds);
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
