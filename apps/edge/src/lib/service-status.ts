import { createRoute, z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import type { RequestDeps } from "./context.ts";
import { type AppRouteHandler, createRouter, json } from "./openapi.ts";

export const StatusSchema = z
  .object({
    service: z.string(),
    version: z.string(),
    status: z.enum(["ok", "degraded"]),
    database: z.enum(["ok", "unreachable"]),
    cache: z.enum(["ok", "unreachable"]),
    time: z.string(),
  })
  .openapi("ServiceStatus");

/** The contract of the `info-admin/<name>-status` route every service has. */
export const statusRoute = (service: string, path: string) =>
  createRoute({
    method: "get",
    path,
    tags: ["Status"],
    summary: `Health of the ${service} service`,
    responses: {
      200: json(StatusSchema),
      503: json(StatusSchema, "Degraded: the database or the cache does not answer"),
    },
  });

/** How long a probe of the database or the cache may take before it counts as unreachable. */
const PROBE_MS = 2000;

/** Whether `probe` answers within PROBE_MS. */
function reachable(probe: () => Promise<unknown>) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"unreachable">((done) => {
    timer = setTimeout(() => done("unreachable"), PROBE_MS);
  });
  const answered = probe().then(
    () => "ok" as const,
    () => "unreachable" as const,
  );
  return Promise.race([answered, late]).finally(() => clearTimeout(timer));
}

/** Is the service up, and can it reach its database and cache. */
export async function serviceStatus(
  deps: Pick<RequestDeps, "db" | "cache" | "clock">,
  service: string,
  version: string,
) {
  const { db, cache, clock } = deps;
  const [database, cacheState] = await Promise.all([
    reachable(() => db.execute(sql`select 1`)),
    reachable(() => cache.get("status:probe")),
  ]);
  return {
    service,
    version,
    status: database === "ok" && cacheState === "ok" ? ("ok" as const) : ("degraded" as const),
    database,
    cache: cacheState,
    time: clock.now().toISOString(),
  };
}

/** The status, 200 when everything answers and 503 when degraded (a load balancer reads the status code). */
export const statusHandler =
  (service: string, version: string): AppRouteHandler<ReturnType<typeof statusRoute>> =>
  async (c) => {
    const status = await serviceStatus(c.var.deps, service, version);
    c.header("cache-control", "no-store");
    return status.status === "ok" ? c.json(status, 200) : c.json(status, 503);
  };

/** The status route alone in a router, for services that mount it (`router.route("/", statusRouter(...))`). */
export function statusRouter(service: string, version: string, path: string) {
  return createRouter().openapi(statusRoute(service, path), statusHandler(service, version));
}
