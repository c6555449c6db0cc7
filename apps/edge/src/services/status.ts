import { createRoute, z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { createRouter, json } from "../lib/openapi.ts";

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

/** The `info-admin/<name>-status` route every service has: is it up, and can it reach its database and cache. */
export function statusRouter(service: string, version: string, path: string) {
  const router = createRouter();
  router.openapi(
    createRoute({
      method: "get",
      path,
      tags: ["Status"],
      summary: `Health of the ${service} service`,
      responses: { 200: json(StatusSchema) },
    }),
    async (c) => {
      const { db, cache, clock } = c.var.deps;
      const database = await db.execute(sql`select 1`).then(
        () => "ok" as const,
        () => "unreachable" as const,
      );
      const cacheState = await cache.get("status:probe").then(
        () => "ok" as const,
        () => "unreachable" as const,
      );
      return c.json(
        {
          service,
          version,
          status: database === "ok" && cacheState === "ok" ? ("ok" as const) : ("degraded" as const),
          database,
          cache: cacheState,
          time: clock.now().toISOString(),
        },
        200,
      );
    },
  );
  return router;
}
