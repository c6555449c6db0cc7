import { webConfig } from "../../config.server.ts";

/**
 * Readiness, for load balancers: this server can serve pages only when the edge it renders them from is ready
 * (its own /readyz: database and cache answer). 503 says which part is missing; /healthz says the process is alive.
 */
export async function loader() {
  const edge = await fetch(`${webConfig().edgeUrl}/readyz`, { signal: AbortSignal.timeout(3000) }).then(
    (res) => (res.ok ? ("ok" as const) : ("degraded" as const)),
    () => "unreachable" as const,
  );
  return Response.json(
    { status: edge === "ok" ? "ok" : "degraded", edge },
    { status: edge === "ok" ? 200 : 503, headers: { "cache-control": "no-store" } },
  );
}
