/** Liveness: the process answers (readiness, whether it can serve, is /readyz). Also the benchmark's baseline. */
export const loader = () =>
  new Response("ok", { headers: { "content-type": "text/plain", "cache-control": "no-store" } });
