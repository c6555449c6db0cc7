import { z } from "@hono/zod-openapi";
import { contracts, json, ok, pageSchema } from "../../lib/openapi.ts";
import { Delivery } from "../../ports/messaging.ts";

const { authed, route } = contracts(["Auth"]);

const DeliverySchema = z.enum([Delivery.provider, Delivery.log, Delivery.outbox]).openapi({
  description:
    "provider: sent to the person; log: no provider, the message is printed in the edge's log and kept in the outbox; outbox: no provider, kept in the outbox only (an admin reads it)",
});

export const delivery = route("get", "/auth/delivery", {
  summary: "Where codes and links sent by email and by SMS or WhatsApp go on this instance",
  responses: {
    200: json(z.object({ email: DeliverySchema, sms: DeliverySchema }).openapi("MessageDelivery")),
  },
});

const OutboxMessageSchema = z
  .object({
    id: z.uuid(),
    channel: z.enum(["email", "sms", "whatsapp"]),
    to: z.string(),
    subject: z.string().nullable(),
    body: z.string(),
    createdAt: z.string(),
  })
  .openapi("OutboxMessage");

export const listOutbox = authed("get", "/outbox", {
  summary: "The latest emails and SMS or WhatsApp messages kept in the outbox, newest first (admins)",
  tags: ["Admin"],
  description:
    "Messages land in the outbox when no email provider (RESEND_API_KEY) or SMS provider (TWILIO_*) is configured.",
  request: {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(100).default(20),
      to: z.string().trim().min(1).max(320).optional().openapi({ description: "only messages to this address" }),
    }),
  },
  responses: ok(pageSchema(OutboxMessageSchema, "OutboxPage"), 400, 401, 403),
});
