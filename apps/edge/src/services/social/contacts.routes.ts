import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, noContent, UuidParam } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../../lib/profiles.ts";
import { MAX_CONTACTS_PER_UPLOAD } from "./contact-book.ts";

const tags = ["Contact book"];

const ContactInput = z.object({ phone: z.string().trim().min(1).max(40), name: z.string().trim().max(120).optional() });
const Country = z
  .string()
  .regex(/^[A-Z]{2}$/, "must be an ISO country code like US")
  .optional()
  .openapi({ description: "The country of numbers written without +country code" });
const ContactSchema = z
  .object({ id: z.uuid(), name: z.string().nullable(), phoneHash: z.string(), createdAt: z.string() })
  .openapi("Contact");
const UploadResult = z
  .object({ added: z.number().int(), unchanged: z.number().int(), invalid: z.array(z.string()) })
  .openapi("ContactUpload");

export const upload = createRoute({
  method: "post",
  path: "/user-book-contact",
  tags,
  summary: "Upload contacts; numbers are normalised and only their hash is kept",
  security: bearer,
  request: jsonBody(
    z.object({ contacts: z.array(ContactInput).min(1).max(MAX_CONTACTS_PER_UPLOAD), country: Country }),
  ),
  responses: { 200: json(UploadResult), ...errors(400, 401, 403, 429) },
});

export const addOne = createRoute({
  method: "post",
  path: "/user-book-contact/single",
  tags,
  summary: "Add one contact",
  security: bearer,
  request: jsonBody(ContactInput.extend({ country: Country })),
  responses: { 200: json(UploadResult), ...errors(400, 401, 403, 429) },
});

export const ownContacts = createRoute({
  method: "get",
  path: "/user-book-contact",
  tags,
  summary: "The caller's contacts",
  security: bearer,
  responses: { 200: json(z.array(ContactSchema)), ...errors(401, 403) },
});

export const clearContacts = createRoute({
  method: "delete",
  path: "/user-book-contact",
  tags,
  summary: "Delete the caller's whole contact book",
  security: bearer,
  responses: { ...noContent, ...errors(401, 403) },
});

export const adminContacts = createRoute({
  method: "get",
  path: "/user-book-contact/admin/{id}",
  tags: ["Admin"],
  summary: "A user's contacts (admins)",
  security: bearer,
  request: { params: UuidParam },
  responses: { 200: json(z.array(ContactSchema)), ...errors(400, 401, 403) },
});

export const matchingContacts = createRoute({
  method: "get",
  path: "/user-book-contact/matching-contacts",
  tags,
  summary: "People in the caller's contacts who are on Booth (by their verified phone number)",
  security: bearer,
  responses: { 200: json(z.array(PublicProfileSchema)), ...errors(401, 403) },
});

export const matchingFriends = createRoute({
  method: "post",
  path: "/user-book-contact/matching-contacts-friends",
  tags,
  summary: "Of the caller's contacts on Booth, those who are already friends",
  security: bearer,
  responses: { 200: json(z.array(PublicProfileSchema)), ...errors(401, 403) },
});
