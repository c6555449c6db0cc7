import { z } from "@hono/zod-openapi";
import { contracts, errors } from "../../lib/openapi.ts";

const { route } = contracts(["Local test checkout"]);

const html = { content: { "text/html": { schema: z.string() } }, description: "An HTML page" };
const IdParam = z.object({ id: z.uuid().openapi({ param: { name: "id", in: "path" } }) });
const TokenParam = z.object({ token: z.uuid().openapi({ param: { name: "token", in: "path" } }) });

export const portalPage = route(
  "get",
  "/local-portal/{token}",
  "The local test customer portal: the user's subscriptions, to cancel (only without STRIPE_SECRET_KEY)",
  { request: { params: TokenParam }, responses: { 200: html, ...errors(400, 404, 503) } },
);

export const cancelSubscription = route(
  "post",
  "/local-portal/{token}/cancel/{id}",
  "Cancel local subscription {id} from the local test portal (only without STRIPE_SECRET_KEY)",
  { request: { params: TokenParam.extend(IdParam.shape) }, responses: { 200: html, ...errors(400, 404, 503) } },
);
