import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { CountryCode } from "libphonenumber-js/max";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { ADMINS, rateLimit, requireUser } from "../../lib/auth.ts";
import { badRequest } from "../../lib/errors.ts";
import { sha256 } from "../../lib/hash.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, UuidParam } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../user/schemas.ts";
import { profilesOf } from "./relations.ts";

/** Contacts one upload may carry. */
export const MAX_CONTACTS_PER_UPLOAD = 1000;
/** Contacts one user may keep. */
export const MAX_CONTACTS = 5000;

const tags = ["Contact book"];
export const contactsRoutes = createRouter();

const ContactInput = z.object({ phone: z.string().trim().min(1).max(40), name: z.string().trim().max(120).optional() });
const Country = z
  .string()
  .regex(/^[A-Z]{2}$/, "must be an ISO country code like US")
  .optional()
  .openapi({ description: "The country of numbers written without +country code" });
const ContactSchema = z
  .object({ id: z.uuid(), name: z.string().nullable(), phoneHash: z.string(), createdAt: z.string() })
  .openapi("Contact");
type Contact = typeof schema.contacts.$inferSelect;
const contactView = (r: Contact) => ({
  id: r.id,
  name: r.name,
  phoneHash: r.phoneHash,
  createdAt: r.createdAt.toISOString(),
});
const UploadResult = z
  .object({ added: z.number().int(), unchanged: z.number().int(), invalid: z.array(z.string()) })
  .openapi("ContactUpload");

/** The hash a contact's number is kept as: SHA-256 of its E.164 form, so matching needs no stored number. */
export const phoneHash = (e164: string) => sha256(e164);

async function store(
  c: Parameters<typeof requireUser>[0],
  ownerUuid: string,
  entries: z.infer<typeof ContactInput>[],
  country: string | undefined,
) {
  const invalid: string[] = [];
  const rows = new Map<string, string | null>();
  for (const entry of entries) {
    let parsed: ReturnType<typeof parsePhoneNumberFromString>;
    try {
      parsed = parsePhoneNumberFromString(entry.phone, country as CountryCode | undefined);
    } catch {
      parsed = undefined;
    }
    if (!parsed?.isValid()) invalid.push(entry.phone);
    else rows.set(await phoneHash(parsed.number), entry.name ?? null);
  }
  const { db, clock } = c.var.deps;
  const held = await db.$count(schema.contacts, eq(schema.contacts.ownerUuid, ownerUuid));
  if (held + rows.size > MAX_CONTACTS) throw badRequest(`A contact book holds at most ${MAX_CONTACTS} contacts.`);
  const inserted = rows.size
    ? await db
        .insert(schema.contacts)
        .values([...rows].map(([hash, name]) => ({ ownerUuid, phoneHash: hash, name, createdAt: clock.now() })))
        .onConflictDoNothing()
        .returning({ id: schema.contacts.id })
    : [];
  return { added: inserted.length, unchanged: rows.size - inserted.length, invalid };
}

contactsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/user-book-contact",
    tags,
    summary: "Upload contacts; numbers are normalised and only their hash is kept",
    security: bearer,
    request: jsonBody(
      z.object({ contacts: z.array(ContactInput).min(1).max(MAX_CONTACTS_PER_UPLOAD), country: Country }),
    ),
    responses: { 200: json(UploadResult), ...errors(400, 401, 403, 429) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    await rateLimit(c, `contacts:${user.uuid}`, 20, 3600);
    const body = c.req.valid("json");
    return c.json(await store(c, user.uuid, body.contacts, body.country), 200);
  },
);

contactsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/user-book-contact/single",
    tags,
    summary: "Add one contact",
    security: bearer,
    request: jsonBody(ContactInput.extend({ country: Country })),
    responses: { 200: json(UploadResult), ...errors(400, 401, 403, 429) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { country, ...entry } = c.req.valid("json");
    const result = await store(c, user.uuid, [entry], country);
    if (result.invalid.length) throw badRequest(["phone: is not a valid phone number"]);
    return c.json(result, 200);
  },
);

contactsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/user-book-contact",
    tags,
    summary: "The caller's contacts",
    security: bearer,
    responses: { 200: json(z.array(ContactSchema)), ...errors(401, 403) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const rows = await c.var.deps.db
      .select()
      .from(schema.contacts)
      .where(eq(schema.contacts.ownerUuid, user.uuid))
      .orderBy(asc(schema.contacts.name), asc(schema.contacts.id));
    return c.json(rows.map(contactView), 200);
  },
);

contactsRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/user-book-contact",
    tags,
    summary: "Delete the caller's whole contact book",
    security: bearer,
    responses: { ...noContent, ...errors(401, 403) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    await c.var.deps.db.delete(schema.contacts).where(eq(schema.contacts.ownerUuid, user.uuid));
    return c.body(null, 204);
  },
);

contactsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/user-book-contact/admin/{id}",
    tags: ["Admin"],
    summary: "A user's contacts (admins)",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(z.array(ContactSchema)), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const rows = await c.var.deps.db
      .select()
      .from(schema.contacts)
      .where(eq(schema.contacts.ownerUuid, c.req.valid("param").id))
      .orderBy(asc(schema.contacts.name), asc(schema.contacts.id));
    return c.json(rows.map(contactView), 200);
  },
);

/** Users whose verified phone identity is in the caller's contacts (not the caller, not anyone blocked either way). */
async function matches(db: Parameters<typeof profilesOf>[0], ownerUuid: string) {
  const identityHash = sql`encode(sha256(convert_to(${schema.userIdentities.value}, 'UTF8')), 'hex')`;
  const rows = await db
    .selectDistinct({ uuid: schema.userIdentities.userUuid })
    .from(schema.contacts)
    .innerJoin(schema.userIdentities, sql`${identityHash} = ${schema.contacts.phoneHash}`)
    .where(
      and(
        eq(schema.contacts.ownerUuid, ownerUuid),
        eq(schema.userIdentities.verified, true),
        eq(schema.userIdentities.channel, "sms"),
        ne(schema.userIdentities.userUuid, ownerUuid),
        sql`not exists (select 1 from ${schema.blockedUsers} where (${schema.blockedUsers.blockerUuid} = ${ownerUuid} and ${schema.blockedUsers.blockedUuid} = ${schema.userIdentities.userUuid}) or (${schema.blockedUsers.blockedUuid} = ${ownerUuid} and ${schema.blockedUsers.blockerUuid} = ${schema.userIdentities.userUuid}))`,
      ),
    );
  return rows.map((r) => r.uuid);
}

contactsRoutes.openapi(
  createRoute({
    method: "get",
    path: "/user-book-contact/matching-contacts",
    tags,
    summary: "People in the caller's contacts who are on Booth (by their verified phone number)",
    security: bearer,
    responses: { 200: json(z.array(PublicProfileSchema)), ...errors(401, 403) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db } = c.var.deps;
    return c.json(await profilesOf(db, await matches(db, user.uuid)), 200);
  },
);

contactsRoutes.openapi(
  createRoute({
    method: "post",
    path: "/user-book-contact/matching-contacts-friends",
    tags,
    summary: "Of the caller's contacts on Booth, those who are already friends",
    security: bearer,
    responses: { 200: json(z.array(PublicProfileSchema)), ...errors(401, 403) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const { db } = c.var.deps;
    const found = await matches(db, user.uuid);
    if (found.length === 0) return c.json([], 200);
    const friendRows = await db
      .select({ uuid: schema.friends.friendUuid })
      .from(schema.friends)
      .where(and(eq(schema.friends.userUuid, user.uuid), inArray(schema.friends.friendUuid, found)));
    return c.json(
      await profilesOf(
        db,
        friendRows.map((r) => r.uuid),
      ),
      200,
    );
  },
);
