import { createBoothClient } from "@booth/sdk";
import { env } from "./env.server.ts";

/** The SDK as the web server uses it: the edge's internal address, the caller's token when there is one. */
export function sdkFor(token?: string | null) {
  return createBoothClient({ baseUrl: env.apiUrl, token: token ?? null });
}
export type Booth = ReturnType<typeof sdkFor>;
