import { createBoothClient } from "@booth/sdk";
import { patientFetch } from "./edge-fetch.server.ts";
import { env } from "./env.server.ts";
import { visitorFetch } from "./visitor.server.ts";

const edgeFetch = patientFetch(visitorFetch, env.apiUrl);

/**
 * The SDK as the web server uses it: the edge's internal address, the caller's token when there is one, and the
 * visitor's address (X-Forwarded-For), so the edge's limits count each visitor apart.
 */
export function sdkFor(token?: string | null) {
  return createBoothClient({ baseUrl: env.apiUrl, token: token ?? null, fetch: edgeFetch });
}
export type Booth = ReturnType<typeof sdkFor>;
