import { createRoute, z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import type { AppDeps } from "../deps.ts";
import { type AppRouteHandler, createRouter, json } from "../lib/openapi.ts";

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
    responses: { 200: json(StatusSchema) },
  });

/** Is the service up, and can it reach its database and cache. */
export async function serviceStatus(deps: Pick<AppDeps, "db" | "cache" | "clock">, service: string, version: string) {
  const { db, cache, clock } = deps;
  const database = await db.execute(sql`select 1`).then(
    () => "ok" as const,
    () => "unreachable" as const,
  );
  const cacheState = await cache.get("status:probe").then(
    () => "ok" as const,
    () => "unreachable" as const,
  );
  return {
    service,
    version,
    status: database === "ok" && cacheState === "ok" ? ("ok" as const) : ("degraded" as const),
    database,
    cache: cacheState,
    time: clock.now().toISOString(),
  };
}

export const statusHandler =
  (service: string, version: string): AppRouteHandler<ReturnType<typeof statusRoute>> =>
  async (c) =>
    c.json(await serviceStatus(c.var.deps, service, version), 200);

/** The status route alone in a router, for services that mount it (`router.route("/", statusRouter(...))`). */
export function statusRouter(service: string, version: string, path: string) {
  return createRouter().openapi(statusRoute(service, path), statusHandler(service, version));
}
