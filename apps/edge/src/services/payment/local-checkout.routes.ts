import { z } from "@hono/zod-openapi";
import { contracts, errors, uuidParams } from "../../lib/openapi.ts";

const { route } = contracts(["Local test checkout"]);

const html = { content: { "text/html": { schema: z.string() } }, description: "An HTML page" };
const TokenParam = uuidParams("token");

export const portalPage = route("get", "/local-portal/{token}", {
  summary: "The local test customer portal: the user's subscriptions, to cancel (only without STRIPE_SECRET_KEY)",
  request: { params: TokenParam },
  responses: { 200: html, ...errors(400, 404, 503) },
});

export const cancelSubscription = route("post", "/local-portal/{token}/cancel/{id}", {
  summary: "Cancel local subscription {id} from the local test portal (only without STRIPE_SECRET_KEY)",
  request: { params: uuidParams("token", "id") },
  responses: { 200: html, ...errors(400, 404, 503) },
});
