import { EmailType, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { callersOwn, removal } from "../../lib/contract-families.ts";
import { bearer, contracts, created, errors, json, jsonBody, noContentOr } from "../../lib/openapi.ts";
import { Email, SixDigitCode } from "./schemas.ts";

const tags = ["Emails"];
const { authed } = contracts(tags);

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

export const listEmails = callersOwn(authed, "/users/emails", "The caller's email addresses", z.array(EmailRowSchema));

export const addEmail = authed("post", "/users/emails", {
  summary: "Add an email address; a verification code is sent to it",
  request: jsonBody(z.object({ email: Email, type: z.enum(values(EmailType)).default("personal") })),
  responses: created(EmailRowSchema, 400, 401, 403, 429),
});

export const deleteEmail = removal(authed, "/users/emails/{id}", "Remove one of the caller's email addresses");

const VerifyBody = z
  .object({
    email: Email.optional(),
    emailId: z.uuid().optional(),
    code: SixDigitCode,
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

export const sendVerificationCode = authed("post", "/users/emails/verification-email", {
  summary: "Send a new verification code to one of the caller's addresses",
  request: jsonBody(z.object({ email: Email })),
  responses: noContentOr(400, 401, 403, 404),
});
