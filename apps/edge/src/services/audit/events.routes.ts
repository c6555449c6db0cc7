import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { desc, eq } from "drizzle-orm";
import type { Context } from "hono";
import { rateLimit, requireToken, requireUser, STAFF } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest, forbidden, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody } from "../../lib/openapi.ts";
import {
  EVENT_NAMES,
  type EventName,
  EventStream,
  SOCKET_EVENT_NAMES,
  streamOf,
  USER_EVENT_NAMES,
} from "./event-names.ts";
import { AnalyticsEventSchema, eventView, FreeData } from "./views.ts";

export const eventRoutes = createRouter();
const tags = ["Analytics events"];

export const SOCKET_EVENTS_ONLY_FROM_SERVICES = "Socket events are recorded by the live rooms only.";
export const OWN_EVENTS_ONLY = "You can only record your own events.";
/** Events one account, guest or service may post per minute. */
const POST_LIMIT = 600;

/** Staff, or a service (the live rooms and monitors check the pipeline). */
async function requireStaffOrService(c: Context<AppEnv>) {
  if (c.var.auth?.type === "service") return;
  await requireUser(c, { roles: STAFF });
}

const EventBody = z
  .object({
    topic: z.enum(EVENT_NAMES).openapi({ description: "The event: one of user-events-names or socket-events-names" }),
    data: FreeData.optional().openapi({ description: "What happened, as the client sees it (at most 16 KB of JSON)" }),
    userUuid: z.uuid().optional().openapi({
      description: "Whose event it is: the caller by default; a service names the user it records for",
    }),
  })
  .strict()
  .openapi("AnalyticsEventInput");

eventRoutes.openapi(
  createRoute({
    method: "post",
    path: "/kinesis",
    tags,
    summary: "Record an analytics event (user events: any signed-in user, guest or bot; socket events: services)",
    security: bearer,
    request: jsonBody(EventBody),
    responses: { 201: json(AnalyticsEventSchema, "Created"), ...errors(400, 401, 403, 429) },
  }),
  async (c) => {
    // Browsers report listening with their live token.
    const claims = requireToken(c, { live: true });
    const input = c.req.valid("json");
    const stream = streamOf(input.topic);
    let userUuid: string | null;
    if (claims.type === "service") {
      userUuid = input.userUuid ?? null;
    } else {
      // Accounts are checked (a revoked or banned one is refused); a guest token stands for itself.
      if (claims.type !== "guest") await requireUser(c, { types: ["user", "bot"], live: true });
      if (stream === EventStream.socket) throw forbidden(SOCKET_EVENTS_ONLY_FROM_SERVICES);
      if (input.userUuid && input.userUuid !== claims.sub) throw forbidden(OWN_EVENTS_ONLY);
      userUuid = claims.sub;
    }
    await rateLimit(c, `kinesis:${claims.sub}`, POST_LIMIT, 60);
    const { db, clock } = c.var.deps;
    const [row] = await db
      .insert(schema.analyticsEvents)
      .values({ topic: stream, name: input.topic, userUuid, payload: input.data ?? null, createdAt: clock.now() })
      .returning();
    if (!row) throw new Error("analytics event insert returned nothing");
    return c.json(eventView(row), 201);
  },
);

const NameList = z.array(z.string()).openapi("EventNames");

eventRoutes.openapi(
  createRoute({
    method: "get",
    path: "/info-admin/socket-events-names",
    tags,
    summary: "The live room event names POST /kinesis accepts from services (staff and services)",
    security: bearer,
    responses: { 200: json(NameList), ...errors(401, 403) },
  }),
  async (c) => {
    await requireStaffOrService(c);
    return c.json([...SOCKET_EVENT_NAMES], 200);
  },
);

eventRoutes.openapi(
  createRoute({
    method: "get",
    path: "/info-admin/user-events-names",
    tags,
    summary: "The user event names (analytics topics) POST /kinesis accepts (staff and services)",
    security: bearer,
    responses: { 200: json(NameList), ...errors(401, 403) },
  }),
  async (c) => {
    await requireStaffOrService(c);
    return c.json([...USER_EVENT_NAMES], 200);
  },
);

const KNOWN = new Set<string>(EVENT_NAMES);

eventRoutes.openapi(
  createRoute({
    method: "get",
    path: "/info-admin/event-last/{name}",
    tags,
    summary: "The last recorded event of a name: is the pipeline flowing? (staff and services)",
    security: bearer,
    request: {
      params: z.object({
        name: z
          .string()
          .max(100)
          .openapi({ param: { name: "name", in: "path" } }),
      }),
    },
    responses: { 200: json(AnalyticsEventSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireStaffOrService(c);
    const { name } = c.req.valid("param");
    if (!KNOWN.has(name))
      throw badRequest(
        `name: "${name.slice(0, 60)}" is not a known event name (see /info-admin/user-events-names and /info-admin/socket-events-names).`,
      );
    const [row] = await c.var.deps.db
      .select()
      .from(schema.analyticsEvents)
      .where(eq(schema.analyticsEvents.name, name as EventName))
      .orderBy(desc(schema.analyticsEvents.createdAt), desc(schema.analyticsEvents.id))
      .limit(1);
    if (!row) throw notFound(`No ${name} event has been recorded.`);
    return c.json(eventView(row), 200);
  },
);
