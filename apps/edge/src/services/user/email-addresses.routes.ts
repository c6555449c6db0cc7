import { EmailType, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, noContent, UuidParam } from "../../lib/openapi.ts";
import { Email } from "./schemas.ts";

const tags = ["Emails"];

const EmailRowSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    type: z.enum(values(EmailType)),
    status: z.enum(["PENDING_VERIFICATION", "VERIFIED", "DELETED", "CREATED_BY_ADMIN"]),
    isLoginEmail: z.boolean(),
    verifiedAt: z.string().nullable(),
    lastSentAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("EmailAddress");

export const listEmails = createRoute({
  method: "get",
  path: "/users/emails",
  tags,
  summary: "The caller's email addresses",
  security: bearer,
  responses: { 200: json(z.array(EmailRowSchema)), ...errors(401, 403) },
});

export const addEmail = createRoute({
  method: "post",
  path: "/users/emails",
  tags,
  summary: "Add an email address; a verification code is sent to it",
  security: bearer,
  request: jsonBody(z.object({ email: Email, type: z.enum(values(EmailType)).default("personal") })),
  responses: { 201: json(EmailRowSchema, "Created"), ...errors(400, 401, 403, 429) },
});

export const deleteEmail = createRoute({
  method: "delete",
  path: "/users/emails/{id}",
  tags,
  summary: "Remove one of the caller's email addresses",
  security: bearer,
  request: { params: UuidParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});

const VerifyBody = z
  .object({
    email: Email.optional(),
    emailId: z.uuid().optional(),
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, "must be the 6-digit code"),
  })
  .refine((b) => b.email || b.emailId, { message: "give the email or its emailId", path: ["email"] });

// The deprecated confirm-email route is the same check under its old path.
const verifyRoute = (path: string, deprecated: boolean) =>
  createRoute({
    method: "post",
    path,
    tags,
    deprecated,
    summary: deprecated
      ? "Deprecated: same as POST /users/emails/verify"
      : "Verify an email address with the code sent to it",
    security: bearer,
    request: jsonBody(VerifyBody),
    responses: { 200: json(EmailRowSchema), ...errors(400, 401, 403, 404, 429) },
  });

export const verifyEmail = verifyRoute("/users/emails/verify", false);

export const confirmEmail = verifyRoute("/users/confirm-email", true);

export const sendVerificationCode = createRoute({
  method: "post",
  path: "/users/emails/verification-email",
  tags,
  summary: "Send a new verification code to one of the caller's addresses",
  security: bearer,
  request: jsonBody(z.object({ email: Email })),
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});
