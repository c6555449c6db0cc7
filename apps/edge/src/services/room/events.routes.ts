import { createRoute, z } from "@hono/zod-openapi";
import { CrudQuerySchema, CrudSelectionSchema, crudPageSchema } from "../../lib/crud/index.ts";
import { bearer, DateTime, errors, json, jsonBody, noContent, PageQuery, UuidParam } from "../../lib/openapi.ts";
import { plainText, SlugInput } from "./slugs.ts";

const tags = ["Events"];
const adminTags = ["Admin"];

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
  createdAt: z.string(),
  updatedAt: z.string(),
};
export const EventSchema = z
  .object({
    ...EventFields,
    room: RoomSummarySchema.nullable(),
    isLive: z.boolean().openapi({ description: "Whether it is on now" }),
  })
  .openapi("Event");
const EventPage = z.object({ data: z.array(EventSchema), total: z.number().int() }).openapi("EventPage");
const AdminEventSchema = z
  .object({ ...EventFields, room: RoomSummarySchema.partial().nullable() })
  .partial()
  .openapi("AdminEvent");

const imageUrl = z
  .url({ protocol: /^https?$/, error: "imageUrl: an http(s) URL" })
  .max(2000)
  .nullable();
export const EventInput = z
  .object({
    name: plainText(2, 100),
    slug: SlugInput.optional().openapi({ description: "Made from the name (with a suffix when taken) if not given" }),
    description: plainText(0, 4000).optional(),
    imageUrl: imageUrl.optional(),
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

export const adminList = createRoute({
  method: "get",
  path: "/admin/events",
  tags: adminTags,
  summary: "Events, in the nestjsx/crud query syntax; join=room adds the room (staff and above)",
  security: bearer,
  request: { query: CrudQuerySchema },
  responses: { 200: json(crudPageSchema(AdminEventSchema).openapi("AdminEventPage")), ...errors(400, 401, 403) },
});

export const adminGet = createRoute({
  method: "get",
  path: "/admin/events/{id}",
  tags: adminTags,
  summary: "One event, with the same fields and join options (staff and above)",
  security: bearer,
  request: { params: UuidParam, query: CrudSelectionSchema },
  responses: { 200: json(AdminEventSchema), ...errors(400, 401, 403, 404) },
});

// Public -----------------------------------------------------------------------------------------------------------

export const listEvents = createRoute({
  method: "get",
  path: "/events",
  tags,
  summary: "Events, the latest start first; roomUuid and hostUuid narrow the list (anyone)",
  request: { query: PageQuery.extend(roomQuery.shape) },
  responses: { 200: json(EventPage), ...errors(400) },
});

export const createEvent = createRoute({
  method: "post",
  path: "/events",
  tags,
  summary:
    "Schedule an event hosted by the caller (signed in, bots too); in a room, the caller must be one of its moderators or above",
  security: bearer,
  request: jsonBody(EventInput),
  responses: { 201: json(EventSchema, "Created"), ...errors(400, 401, 403, 404) },
});

export const upcomingEvents = createRoute({
  method: "get",
  path: "/events/upcoming",
  tags,
  summary: "Events on now or still to come, the soonest first; roomUuid and hostUuid narrow the list (anyone)",
  request: { query: PageQuery.extend(roomQuery.shape) },
  responses: { 200: json(EventPage), ...errors(400) },
});

export const eventBySlug = createRoute({
  method: "get",
  path: "/events/slug/{slug}",
  tags,
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
  responses: { 200: json(EventSchema), ...errors(400, 404) },
});

export const getEvent = createRoute({
  method: "get",
  path: "/events/{id}",
  tags,
  summary: "An event (anyone)",
  request: { params: UuidParam },
  responses: { 200: json(EventSchema), ...errors(400, 404) },
});

export const updateEvent = createRoute({
  method: "patch",
  path: "/events/{id}",
  tags,
  summary:
    "Change an event (its host, the owners and co-owners of its room, staff); moving it to a room needs moderator or above there",
  security: bearer,
  request: { params: UuidParam, ...jsonBody(EventPatch) },
  responses: { 200: json(EventSchema), ...errors(400, 401, 403, 404) },
});

export const deleteEvent = createRoute({
  method: "delete",
  path: "/events/{id}",
  tags,
  summary: "Cancel an event (its host, the owners and co-owners of its room, staff)",
  security: bearer,
  request: { params: UuidParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});
