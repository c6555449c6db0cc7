import { createBoothClient } from "@booth/sdk";
import { webConfig } from "../config.server.ts";
import { patientFetch } from "./edge-fetch.server.ts";
import { visitorFetch } from "./visitor.server.ts";

let edgeFetch: typeof fetch | undefined;

/**
 * The SDK as the web server uses it: the edge's internal address, the caller's token when there is one, and the
 * visitor's address (X-Forwarded-For), so the edge's limits count each visitor apart.
 */
export function sdkFor(token?: string | null) {
  const baseUrl = webConfig().edgeUrl;
  edgeFetch ??= patientFetch(visitorFetch, baseUrl);
  return createBoothClient({ baseUrl, token: token ?? null, fetch: edgeFetch });
}
export type Booth = ReturnType<typeof sdkFor>;
