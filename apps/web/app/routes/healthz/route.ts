/** A resource route that only answers: load balancers' health check, and the benchmark's baseline. */
export const loader = () =>
  new Response("ok", { headers: { "content-type": "text/plain", "cache-control": "no-store" } });
