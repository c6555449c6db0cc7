import { z } from "@hono/zod-openapi";
import { adminCrudItem, adminCrudList, publicItem, removal } from "../../lib/contract-families.ts";
import {
  contracts,
  created,
  DateTime,
  jsonBody,
  ok,
  PageQuery,
  pageSchema,
  Timestamps,
  UuidParam,
} from "../../lib/openapi.ts";
import { ImageUrlInput, plainText, SlugInput } from "./slugs.ts";

const { authed, route } = contracts(["Events"]);

const RoomSummarySchema = z.object({ uuid: z.uuid(), slug: z.string(), name: z.string() }).openapi("EventRoom");
const EventFields = {
  id: z.uuid(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  imageUrl: z.string().nullable(),
  roomUuid: z.uuid().nullable(),
  hostUuid: z.uuid(),
  startsAt: z.string(),
  endsAt: z.string(),
  ...Timestamps,
};
export const EventSchema = z
  .object({
    ...EventFields,
    room: RoomSummarySchema.nullable(),
    isLive: z.boolean().openapi({ description: "Whether it is on now" }),
  })
  .openapi("Event");
const EventPage = pageSchema(EventSchema, "EventPage");
const AdminEventSchema = z
  .object({ ...EventFields, room: RoomSummarySchema.partial().nullable() })
  .partial()
  .openapi("AdminEvent");

export const EventInput = z
  .object({
    name: plainText(2, 100),
    slug: SlugInput.optional().openapi({ description: "Made from the name (with a suffix when taken) if not given" }),
    description: plainText(0, 4000).optional(),
    imageUrl: ImageUrlInput.optional(),
    roomUuid: z.uuid().nullable().optional().openapi({ description: "The room it happens in (its moderators and up)" }),
    startsAt: DateTime,
    endsAt: DateTime,
  })
  .strict()
  .openapi("EventInput");
export const EventPatch = EventInput.partial().openapi("EventPatch");

const roomQuery = z.object({
  roomUuid: z.uuid().optional().openapi({ description: "Only the events of this room" }),
  hostUuid: z.uuid().optional().openapi({ description: "Only the events of this host" }),
});
// Admin ------------------------------------------------------------------------------------------------------------

export const adminList = adminCrudList(
  authed,
  "/admin/events",
  "Events, in the nestjsx/crud query syntax; join=room adds the room (staff and above)",
  AdminEventSchema,
  "AdminEventPage",
);

export const adminGet = adminCrudItem(
  authed,
  "/admin/events/{id}",
  "One event, with the same fields and join options (staff and above)",
  AdminEventSchema,
);

// Public -----------------------------------------------------------------------------------------------------------

export const listEvents = route("get", "/events", {
  summary: "Events, the latest start first; roomUuid and hostUuid narrow the list (anyone)",
  request: { query: PageQuery.extend(roomQuery.shape) },
  responses: ok(EventPage, 400),
});

export const createEvent = authed("post", "/events", {
  summary:
    "Schedule an event hosted by the caller (signed in, bots too); in a room, the caller must be one of its moderators or above",
  request: jsonBody(EventInput),
  responses: created(EventSchema, 400, 401, 403, 404),
});

export const upcomingEvents = route("get", "/events/upcoming", {
  summary: "Events on now or still to come, the soonest first; roomUuid and hostUuid narrow the list (anyone)",
  request: { query: PageQuery.extend(roomQuery.shape) },
  responses: ok(EventPage, 400),
});

export const eventBySlug = route("get", "/events/slug/{slug}", {
  summary: "An event by slug (anyone)",
  request: {
    params: z.object({
      slug: z
        .string()
        .min(1)
        .max(100)
        .openapi({ param: { name: "slug", in: "path" } }),
    }),
  },
  responses: ok(EventSchema, 400, 404),
});

export const getEvent = publicItem(route, "/events/{id}", "An event (anyone)", EventSchema);

export const updateEvent = authed("patch", "/events/{id}", {
  summary:
    "Change an event (its host, the owners and co-owners of its room, staff); moving it to a room needs moderator or above there",
  request: { params: UuidParam, ...jsonBody(EventPatch) },
  responses: ok(EventSchema, 400, 401, 403, 404),
});

export const deleteEvent = removal(
  authed,
  "/events/{id}",
  "Cancel an event (its host, the owners and co-owners of its room, staff)",
);
