import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { count, desc, eq } from "drizzle-orm";
import { ADMINS, requireUser } from "../../lib/auth.ts";
import { bearer, createRouter, errors, json, pageSchema } from "../../lib/openapi.ts";
import { Delivery, deliveryOf } from "../../ports/messaging.ts";
import { normalizeEmail } from "./accounts.ts";

export const outboxRoutes = createRouter();

const DeliverySchema = z.enum([Delivery.provider, Delivery.log, Delivery.outbox]).openapi({
  description:
    "provider: sent to the person; log: no provider, the message is printed in the edge's log and kept in the outbox; outbox: no provider, kept in the outbox only (an admin reads it)",
});

outboxRoutes.openapi(
  createRoute({
    method: "get",
    path: "/auth/delivery",
    tags: ["Auth"],
    summary: "Where codes and links sent by email and by SMS or WhatsApp go on this instance",
    responses: {
      200: json(z.object({ email: DeliverySchema, sms: DeliverySchema }).openapi("MessageDelivery")),
    },
  }),
  (c) => {
    const { mailer, sms } = c.var.deps;
    return c.json({ email: deliveryOf(mailer), sms: deliveryOf(sms) }, 200);
  },
);

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

/** Addresses are kept as they were sent to: emails normalised, phone numbers in E.164 (no spaces or dashes). */
const recipient = (to: string) => (to.includes("@") ? normalizeEmail(to) : to.replace(/[\s().-]/g, ""));

outboxRoutes.openapi(
  createRoute({
    method: "get",
    path: "/outbox",
    tags: ["Admin"],
    summary: "The latest emails and SMS or WhatsApp messages kept in the outbox, newest first (admins)",
    description:
      "Messages land in the outbox when no email provider (RESEND_API_KEY) or SMS provider (TWILIO_*) is configured.",
    security: bearer,
    request: {
      query: z.object({
        limit: z.coerce.number().int().min(1).max(100).default(20),
        to: z.string().trim().min(1).max(320).optional().openapi({ description: "only messages to this address" }),
      }),
    },
    responses: { 200: json(pageSchema(OutboxMessageSchema, "OutboxPage")), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const { limit, to } = c.req.valid("query");
    const { db } = c.var.deps;
    const where = to ? eq(schema.outbox.to, recipient(to)) : undefined;
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(schema.outbox)
        .where(where)
        .orderBy(desc(schema.outbox.createdAt), desc(schema.outbox.id))
        .limit(limit),
      db.select({ n: count() }).from(schema.outbox).where(where),
    ]);
    return c.json(
      {
        data: rows.map((row) => ({
          id: row.id,
          channel: row.channel,
          to: row.to,
          subject: row.subject,
          body: row.body,
          createdAt: row.createdAt.toISOString(),
        })),
        total: total?.n ?? 0,
      },
      200,
    );
  },
);
