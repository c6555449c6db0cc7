import { z } from "@hono/zod-openapi";
import { contracts, created, jsonBody, ok } from "../../lib/openapi.ts";
import { EVENT_NAMES } from "./event-names.ts";
import { AnalyticsEventSchema, FreeData } from "./views.ts";

const { authed } = contracts(["Analytics events"]);

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

export const recordEvent = authed("post", "/kinesis", {
  summary: "Record an analytics event (user events: any signed-in user, guest or bot; socket events: services)",
  request: jsonBody(EventBody),
  responses: created(AnalyticsEventSchema, 400, 401, 403, 429),
});

const NameList = z.array(z.string()).openapi("EventNames");

export const socketEventNames = authed("get", "/info-admin/socket-events-names", {
  summary: "The live room event names POST /kinesis accepts from services (staff and services)",
  responses: ok(NameList, 401, 403),
});

export const userEventNames = authed("get", "/info-admin/user-events-names", {
  summary: "The user event names (analytics topics) POST /kinesis accepts (staff and services)",
  responses: ok(NameList, 401, 403),
});

export const lastEvent = authed("get", "/info-admin/event-last/{name}", {
  summary: "The last recorded event of a name: is the pipeline flowing? (staff and services)",
  request: {
    params: z.object({
      name: z
        .string()
        .max(100)
        .openapi({ param: { name: "name", in: "path" } }),
    }),
  },
  responses: ok(AnalyticsEventSchema, 400, 401, 403, 404),
});
