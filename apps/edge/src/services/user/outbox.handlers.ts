import { ADMINS, requireUser } from "../../lib/auth.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { deliveryOf } from "../../ports/messaging.ts";
import type * as routes from "./outbox.routes.ts";
import { outboxPage } from "./outbox.ts";

export const delivery: AppRouteHandler<typeof routes.delivery> = (c) => {
  const { mailer, sms } = c.var.deps;
  return c.json({ email: deliveryOf(mailer), sms: deliveryOf(sms) }, 200);
};

export const listOutbox: AppRouteHandler<typeof routes.listOutbox> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  return c.json(await outboxPage(c.var.deps.db, c.req.valid("query")), 200);
};
