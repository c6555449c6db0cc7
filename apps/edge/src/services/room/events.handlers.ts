import { requireUser, STAFF } from "../../lib/auth.ts";
import { parseCrudQuery, parseSelection } from "../../lib/crud/index.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./events.routes.ts";
import * as events from "./events.ts";
import { adminEventView, EVENT_CRUD, eventView } from "./events.ts";
import { looksLikeSlug } from "./slugs.ts";

export const adminList: AppRouteHandler<typeof routes.adminList> = async (c) => {
  await requireUser(c, { roles: STAFF });
  const query = parseCrudQuery(c.req.valid("query"), EVENT_CRUD);
  const page = await events.adminEventPage(c.var.deps.db, query);
  return c.json({ ...page, data: page.data.map((e) => adminEventView(e, query)) }, 200);
};

export const adminGet: AppRouteHandler<typeof routes.adminGet> = async (c) => {
  await requireUser(c, { roles: STAFF });
  const selection = parseSelection(c.req.valid("query"), EVENT_CRUD);
  const event = await events.loadEventById(c.var.deps.db, c.req.valid("param").id);
  return c.json(adminEventView(event, selection), 200);
};

export const listEvents: AppRouteHandler<typeof routes.listEvents> = async (c) => {
  const { db, clock } = c.var.deps;
  const { rows, total } = await events.eventPage(db, c.req.valid("query"));
  const now = clock.now();
  return c.json({ data: rows.map((e) => eventView(e, now)), total }, 200);
};

export const createEvent: AppRouteHandler<typeof routes.createEvent> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db, clock } = c.var.deps;
  const now = clock.now();
  const id = await events.createEvent(db, user, c.req.valid("json"), now);
  return c.json(eventView(await events.loadEventById(db, id), now), 201);
};

export const upcomingEvents: AppRouteHandler<typeof routes.upcomingEvents> = async (c) => {
  const { db, clock } = c.var.deps;
  const { rows, total } = await events.upcomingEventPage(db, c.req.valid("query"), clock.now());
  const now = clock.now();
  return c.json({ data: rows.map((e) => eventView(e, now)), total }, 200);
};

export const eventBySlug: AppRouteHandler<typeof routes.eventBySlug> = async (c) => {
  const { db, clock } = c.var.deps;
  const slug = c.req.valid("param").slug.trim().toLowerCase();
  return c.json(eventView(await events.loadEventBySlug(db, slug, looksLikeSlug(slug)), clock.now()), 200);
};

export const getEvent: AppRouteHandler<typeof routes.getEvent> = async (c) => {
  const { db, clock } = c.var.deps;
  return c.json(eventView(await events.loadEventById(db, c.req.valid("param").id), clock.now()), 200);
};

export const updateEvent: AppRouteHandler<typeof routes.updateEvent> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db, clock } = c.var.deps;
  const id = c.req.valid("param").id;
  const body = c.req.valid("json");
  const event = await events.loadEventById(db, id);
  await events.requireManager(db, event, user, clock.now());
  const now = clock.now();
  await events.updateEvent(db, event, user, body, now);
  return c.json(eventView(await events.loadEventById(db, id), now), 200);
};

export const deleteEvent: AppRouteHandler<typeof routes.deleteEvent> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db, clock } = c.var.deps;
  const id = c.req.valid("param").id;
  await events.requireManager(db, await events.loadEventById(db, id), user, clock.now());
  await events.deleteEvent(db, id);
  return c.body(null, 204);
};
