import { PhoneValidationStatus, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { oneItem, removal } from "../../lib/contract-families.ts";
import { contracts, created, DateTime, errors, json, jsonBody, ok, PageQuery, pageSchema } from "../../lib/openapi.ts";
import { AuthResultSchema, CodeChannel, MessageSchema, SixDigitCode } from "./schemas.ts";

const { authed, route } = contracts(["Phone"]);
const phoneSignIn = contracts(["Phone sign-in"]);
const admin = contracts(["Admin"]).authed;

const Phone = z.string().trim().min(1).max(32).openapi({ example: "+447700900123" });

const PhoneParam = z.object({ phone: Phone.openapi({ param: { name: "phone", in: "path" } }) });

/** What the lookup told of a number's line: its country and its kind (mobile, landline, VoIP...). */
const LineFields = { country: z.string().nullable(), lineType: z.string().nullable() };

const PhoneCheckSchema = z
  .object({
    phone: z.string(),
    status: z.enum(values(PhoneValidationStatus)),
    ...LineFields,
    whitelisted: z.boolean(),
  })
  .openapi("PhoneValidation");

const RecentSchema = z
  .object({
    id: z.uuid(),
    phone: z.string(),
    status: z.string(),
    ...LineFields,
    userUuid: z.uuid().nullable(),
    createdAt: z.string(),
  })
  .openapi("RecentPhoneValidation");

const WhitelistSchema = z
  .object({
    id: z.uuid(),
    phone: z.string(),
    note: z.string().nullable(),
    createdBy: z.uuid().nullable(),
    createdAt: z.string(),
  })
  .openapi("WhitelistedPhone");

// ---- phone validation
export const validatePhone = route("get", "/phone-validation/validate/{phone}", {
  summary: "Whether a number is a real mobile (VALID), not valid (INVALID), a VoIP line (VOIP) or unreadable",
  request: { params: PhoneParam },
  responses: ok(PhoneCheckSchema, 400, 429),
});

export const recentValidations = authed("get", "/phone-validation/recents", {
  summary: "Recent phone validations, newest first (staff)",
  request: {
    query: PageQuery,
  },
  responses: ok(pageSchema(RecentSchema, "RecentPhoneValidations"), 400, 401, 403),
});

export const clearRecentValidations = authed("delete", "/phone-validation/recents", {
  summary: "Forget recent phone validations, all or those older than a time (admins)",
  request: { query: z.object({ olderThan: DateTime.optional() }) },
  responses: ok(z.object({ deleted: z.number().int() }).openapi("Deleted"), 400, 401, 403),
});

export const fraudConstants = route("get", "/phone-validation/fraudConstants", {
  summary: "The rules phone sign-in applies: refused line types, code lifetime and limits",
  responses: {
    200: json(
      z
        .object({
          refusedLineTypes: z.array(z.string()),
          notMobileLineTypes: z.array(z.string()),
          codeTtlSeconds: z.number(),
          maxCodeAttempts: z.number(),
          codesPerPhonePerHour: z.number(),
          codesPerAddressPerHour: z.number(),
          validationsPerAddressPerHour: z.number(),
        })
        .openapi("FraudConstants"),
    ),
  },
});

// ---- sign-in by phone
export const sendCode = phoneSignIn.route("post", "/mobile-auth/send-code", {
  summary: "Send a sign-in code by SMS or WhatsApp to a real mobile number",
  request: jsonBody(z.object({ phone: Phone, channel: CodeChannel })),
  responses: ok(MessageSchema.extend({ expiresAt: z.string() }).openapi("CodeSent"), 400, 429, 502),
});

export const verifyCode = phoneSignIn.route("post", "/mobile-auth/verify-code", {
  summary: "Sign in with the code: the account holding this verified number, or a new account for it",
  request: jsonBody(z.object({ phone: Phone, code: SixDigitCode })),
  responses: { 200: json(AuthResultSchema), 201: json(AuthResultSchema, "Created"), ...errors(400, 401, 403, 429) },
});

const WhitelistBody = z.object({ phone: Phone, note: z.string().trim().max(500).optional() });

/** Whitelists a number (admins): the phone sign-in's path and the admin list's. */
const whitelisting = <P extends string>(contract: typeof admin, path: P) =>
  contract("post", path, {
    summary: "Whitelist a number (admins)",
    request: jsonBody(WhitelistBody),
    responses: created(WhitelistSchema, 400, 401, 403, 409),
  });

export const whitelistPhone = whitelisting(phoneSignIn.authed, "/mobile-auth/whitelist");

export const unwhitelistPhone = removal(
  phoneSignIn.authed,
  "/mobile-auth/whitelist/{phone}",
  "Remove a number from the whitelist (admins)",
  PhoneParam,
);

export const listPhoneNumbers = admin("get", "/admin/phoneNumbers", {
  summary: "Whitelisted numbers, newest first (staff)",
  request: { query: PageQuery },
  responses: ok(pageSchema(WhitelistSchema, "WhitelistPage"), 400, 401, 403),
});

export const addPhoneNumber = whitelisting(admin, "/admin/phoneNumbers");

export const getPhoneNumber = oneItem(
  admin,
  "/admin/phoneNumbers/{id}",
  "One whitelisted number (staff)",
  WhitelistSchema,
);

export const deletePhoneNumber = removal(admin, "/admin/phoneNumbers/{id}", "Remove a whitelisted number (admins)");
