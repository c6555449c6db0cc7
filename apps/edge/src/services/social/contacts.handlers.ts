import { ADMINS, rateLimit, requireUser } from "../../lib/auth.ts";
import { badRequest } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import * as book from "./contact-book.ts";
import type * as routes from "./contacts.routes.ts";

export const upload: AppRouteHandler<typeof routes.upload> = async (c) => {
  const { user } = await requireUser(c);
  await rateLimit(c, `contacts:${user.uuid}`, 20, 3600);
  const body = c.req.valid("json");
  const { db, clock } = c.var.deps;
  return c.json(await book.storeContacts(db, user.uuid, body.contacts, body.country, clock.now()), 200);
};

export const addOne: AppRouteHandler<typeof routes.addOne> = async (c) => {
  const { user } = await requireUser(c);
  const { country, ...entry } = c.req.valid("json");
  const { db, clock } = c.var.deps;
  const result = await book.storeContacts(db, user.uuid, [entry], country, clock.now());
  if (result.invalid.length) throw badRequest(["phone: is not a valid phone number"]);
  return c.json(result, 200);
};

export const ownContacts: AppRouteHandler<typeof routes.ownContacts> = async (c) => {
  const { user } = await requireUser(c);
  return c.json((await book.contactsOf(c.var.deps.db, user.uuid)).map(book.contactView), 200);
};

export const clearContacts: AppRouteHandler<typeof routes.clearContacts> = async (c) => {
  const { user } = await requireUser(c);
  await book.clearContacts(c.var.deps.db, user.uuid);
  return c.body(null, 204);
};

export const adminContacts: AppRouteHandler<typeof routes.adminContacts> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  return c.json((await book.contactsOf(c.var.deps.db, c.req.valid("param").id)).map(book.contactView), 200);
};

export const matchingContacts: AppRouteHandler<typeof routes.matchingContacts> = async (c) => {
  const { user } = await requireUser(c);
  return c.json(await book.matchingProfiles(c.var.deps.db, user.uuid), 200);
};

export const matchingFriends: AppRouteHandler<typeof routes.matchingFriends> = async (c) => {
  const { user } = await requireUser(c);
  return c.json(await book.matchingFriendProfiles(c.var.deps.db, user.uuid), 200);
};
