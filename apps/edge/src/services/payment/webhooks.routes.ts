import { z } from "@hono/zod-openapi";
import { contracts, jsonBody, ok } from "../../lib/openapi.ts";

const { route } = contracts(["Webhooks"]);

const WebhookResultSchema = z
  .object({
    received: z.literal(true),
    eventId: z.string(),
    duplicate: z.boolean().openapi({ description: "Delivered before: nothing was done again" }),
    handled: z
      .boolean()
      .openapi({ description: "Whether the event changed anything (other events are recorded only)" }),
  })
  .openapi("WebhookResult");

export const stripeWebhook = route("post", "/webhook/stripe", {
  summary:
    "Stripe's events, verified over the raw body with the Stripe-Signature header and STRIPE_WEBHOOK_SECRET, each applied once",
  request: {
    headers: z.object({ "stripe-signature": z.string().min(1).max(8192) }),
    // Not validated as JSON here: the signature covers the exact bytes, so the body is read raw.
    body: {
      content: { "application/json": { schema: { type: "object", description: "A Stripe event" } } },
      required: true,
    },
  },
  responses: ok(WebhookResultSchema, 400, 401, 409, 503),
});

export const appleWebhook = route("post", "/webhook/apple", {
  summary:
    "App Store Server Notifications V2: the signedPayload JWS is verified against its x5c chain up to the configured root (APPLE_ROOT_CA_PEM), each notification applied once",
  request: jsonBody(z.object({ signedPayload: z.string().min(1).max(200_000) })),
  responses: ok(WebhookResultSchema, 400, 401, 409, 503),
});
