import { z } from "@hono/zod-openapi";
import { callersOwn } from "../../lib/contract-families.ts";
import { contracts, jsonBody, noContentOr, ok, UuidParam } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../user/public.ts";
import { MAX_CONTACTS_PER_UPLOAD } from "./contact-book.ts";

const { authed } = contracts(["Contact book"]);

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

export const upload = authed("post", "/user-book-contact", {
  summary: "Upload contacts; numbers are normalised and only their hash is kept",
  request: jsonBody(
    z.object({ contacts: z.array(ContactInput).min(1).max(MAX_CONTACTS_PER_UPLOAD), country: Country }),
  ),
  responses: ok(UploadResult, 400, 401, 403, 429),
});

export const addOne = authed("post", "/user-book-contact/single", {
  summary: "Add one contact",
  request: jsonBody(ContactInput.extend({ country: Country })),
  responses: ok(UploadResult, 400, 401, 403, 429),
});

export const ownContacts = callersOwn(authed, "/user-book-contact", "The caller's contacts", z.array(ContactSchema));

export const clearContacts = authed("delete", "/user-book-contact", {
  summary: "Delete the caller's whole contact book",
  responses: noContentOr(401, 403),
});

export const adminContacts = authed("get", "/user-book-contact/admin/{id}", {
  summary: "A user's contacts (admins)",
  tags: ["Admin"],
  request: { params: UuidParam },
  responses: ok(z.array(ContactSchema), 400, 401, 403),
});

export const matchingContacts = callersOwn(
  authed,
  "/user-book-contact/matching-contacts",
  "People in the caller's contacts who are on Booth (by their verified phone number)",
  z.array(PublicProfileSchema),
);

export const matchingFriends = authed("post", "/user-book-contact/matching-contacts-friends", {
  summary: "Of the caller's contacts on Booth, those who are already friends",
  responses: ok(z.array(PublicProfileSchema), 401, 403),
});
