import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody } from "../../lib/openapi.ts";
import { EVENT_NAMES } from "./event-names.ts";
import { AnalyticsEventSchema, FreeData } from "./views.ts";

const tags = ["Analytics events"];

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

export const recordEvent = createRoute({
  method: "post",
  path: "/kinesis",
  tags,
  summary: "Record an analytics event (user events: any signed-in user, guest or bot; socket events: services)",
  security: bearer,
  request: jsonBody(EventBody),
  responses: { 201: json(AnalyticsEventSchema, "Created"), ...errors(400, 401, 403, 429) },
});

const NameList = z.array(z.string()).openapi("EventNames");

export const socketEventNames = createRoute({
  method: "get",
  path: "/info-admin/socket-events-names",
  tags,
  summary: "The live room event names POST /kinesis accepts from services (staff and services)",
  security: bearer,
  responses: { 200: json(NameList), ...errors(401, 403) },
});

export const userEventNames = createRoute({
  method: "get",
  path: "/info-admin/user-events-names",
  tags,
  summary: "The user event names (analytics topics) POST /kinesis accepts (staff and services)",
  security: bearer,
  responses: { 200: json(NameList), ...errors(401, 403) },
});

export const lastEvent = createRoute({
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
});
