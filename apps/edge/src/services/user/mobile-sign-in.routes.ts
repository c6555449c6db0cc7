import { AuthChannel, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import {
  bearer,
  DateTime,
  errors,
  json,
  jsonBody,
  noContent,
  PageQuery,
  pageSchema,
  UuidParam,
} from "../../lib/openapi.ts";
import { AuthResultSchema, MessageSchema } from "./schemas.ts";

const Phone = z.string().trim().min(1).max(32).openapi({ example: "+447700900123" });

const PhoneParam = z.object({ phone: Phone.openapi({ param: { name: "phone", in: "path" } }) });

const PhoneCheckSchema = z
  .object({
    phone: z.string(),
    status: z.enum(["VALID", "INVALID", "VOIP", "VALIDATION_ERROR"]),
    country: z.string().nullable(),
    lineType: z.string().nullable(),
    whitelisted: z.boolean(),
  })
  .openapi("PhoneValidation");

const RecentSchema = z
  .object({
    id: z.uuid(),
    phone: z.string(),
    status: z.string(),
    country: z.string().nullable(),
    lineType: z.string().nullable(),
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
export const validatePhone = createRoute({
  method: "get",
  path: "/phone-validation/validate/{phone}",
  tags: ["Phone"],
  summary: "Whether a number is a real mobile (VALID), not valid (INVALID), a VoIP line (VOIP) or unreadable",
  request: { params: PhoneParam },
  responses: { 200: json(PhoneCheckSchema), ...errors(400, 429) },
});

export const recentValidations = createRoute({
  method: "get",
  path: "/phone-validation/recents",
  tags: ["Phone"],
  summary: "Recent phone validations, newest first (staff)",
  security: bearer,
  request: {
    query: PageQuery,
  },
  responses: {
    200: json(pageSchema(RecentSchema, "RecentPhoneValidations")),
    ...errors(400, 401, 403),
  },
});

export const clearRecentValidations = createRoute({
  method: "delete",
  path: "/phone-validation/recents",
  tags: ["Phone"],
  summary: "Forget recent phone validations, all or those older than a time (admins)",
  security: bearer,
  request: { query: z.object({ olderThan: DateTime.optional() }) },
  responses: { 200: json(z.object({ deleted: z.number().int() }).openapi("Deleted")), ...errors(400, 401, 403) },
});

export const fraudConstants = createRoute({
  method: "get",
  path: "/phone-validation/fraudConstants",
  tags: ["Phone"],
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
export const sendCode = createRoute({
  method: "post",
  path: "/mobile-auth/send-code",
  tags: ["Phone sign-in"],
  summary: "Send a sign-in code by SMS or WhatsApp to a real mobile number",
  request: jsonBody(z.object({ phone: Phone, channel: z.enum(values(AuthChannel)).default("sms") })),
  responses: {
    200: json(MessageSchema.extend({ expiresAt: z.string() }).openapi("CodeSent")),
    ...errors(400, 429, 502),
  },
});

export const verifyCode = createRoute({
  method: "post",
  path: "/mobile-auth/verify-code",
  tags: ["Phone sign-in"],
  summary: "Sign in with the code: the account holding this verified number, or a new account for it",
  request: jsonBody(
    z.object({
      phone: Phone,
      code: z
        .string()
        .trim()
        .regex(/^\d{6}$/, "must be the 6-digit code"),
    }),
  ),
  responses: { 200: json(AuthResultSchema), 201: json(AuthResultSchema, "Created"), ...errors(400, 401, 403, 429) },
});

const WhitelistBody = z.object({ phone: Phone, note: z.string().trim().max(500).optional() });

export const whitelistPhone = createRoute({
  method: "post",
  path: "/mobile-auth/whitelist",
  tags: ["Phone sign-in"],
  summary: "Whitelist a number (admins)",
  security: bearer,
  request: jsonBody(WhitelistBody),
  responses: { 201: json(WhitelistSchema, "Created"), ...errors(400, 401, 403, 409) },
});

export const unwhitelistPhone = createRoute({
  method: "delete",
  path: "/mobile-auth/whitelist/{phone}",
  tags: ["Phone sign-in"],
  summary: "Remove a number from the whitelist (admins)",
  security: bearer,
  request: { params: PhoneParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});

export const listPhoneNumbers = createRoute({
  method: "get",
  path: "/admin/phoneNumbers",
  tags: ["Admin"],
  summary: "Whitelisted numbers, newest first (staff)",
  security: bearer,
  request: {
    query: PageQuery,
  },
  responses: {
    200: json(pageSchema(WhitelistSchema, "WhitelistPage")),
    ...errors(400, 401, 403),
  },
});

export const addPhoneNumber = createRoute({
  method: "post",
  path: "/admin/phoneNumbers",
  tags: ["Admin"],
  summary: "Whitelist a number (admins)",
  security: bearer,
  request: jsonBody(WhitelistBody),
  responses: { 201: json(WhitelistSchema, "Created"), ...errors(400, 401, 403, 409) },
});

export const getPhoneNumber = createRoute({
  method: "get",
  path: "/admin/phoneNumbers/{id}",
  tags: ["Admin"],
  summary: "One whitelisted number (staff)",
  security: bearer,
  request: { params: UuidParam },
  responses: { 200: json(WhitelistSchema), ...errors(400, 401, 403, 404) },
});

export const deletePhoneNumber = createRoute({
  method: "delete",
  path: "/admin/phoneNumbers/{id}",
  tags: ["Admin"],
  summary: "Remove a whitelisted number (admins)",
  security: bearer,
  request: { params: UuidParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});
