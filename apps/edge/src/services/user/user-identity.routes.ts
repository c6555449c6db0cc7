import { IdentityChannel, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { removal } from "../../lib/contract-families.ts";
import { contracts, created, jsonBody, ok } from "../../lib/openapi.ts";
import { CodeChannel, MessageSchema, SixDigitCode } from "./schemas.ts";

const { authed } = contracts(["Identities"]);

const IdentitySchema = z
  .object({
    id: z.uuid(),
    userUuid: z.uuid(),
    channel: z.enum(values(IdentityChannel)),
    value: z.string(),
    verified: z.boolean(),
    verifiedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("UserIdentity");

const Phone = z.string().trim().min(1).max(32);

export const requestVerification = authed("post", "/api/v1/identity-verifications/request", {
  summary: "Send the caller a code proving they hold a mobile number",
  request: jsonBody(z.object({ phone: Phone, channel: CodeChannel })),
  responses: ok(MessageSchema, 400, 401, 403, 409, 429, 502),
});

export const verifyIdentity = authed("post", "/api/v1/identity-verifications/verify", {
  summary: "Check the code: the number becomes the caller's verified identity and they get IDENTITY_VERIFIED",
  request: jsonBody(z.object({ phone: Phone, code: SixDigitCode })),
  responses: ok(IdentitySchema, 400, 401, 403, 409, 429),
});

export const createIdentity = authed("post", "/api/v1/user-identities", {
  summary: "Add an identity: users for themselves (unverified); services and admins for anyone, verified or not",
  request: jsonBody(
    z.object({
      channel: z.enum(values(IdentityChannel)).default("sms"),
      value: Phone,
      userUuid: z.uuid().optional(),
      verified: z.boolean().optional(),
    }),
  ),
  responses: created(IdentitySchema, 400, 401, 403, 404, 409),
});

export const listIdentities = authed("get", "/api/v1/user-identities", {
  summary: "Find identities (a user sees their own; services and admins anyone's)",
  request: {
    query: z.object({
      id: z.uuid().optional(),
      value: z.string().trim().max(32).optional(),
      userUuid: z.uuid().optional(),
      channel: z.enum(values(IdentityChannel)).optional(),
      verified: z.enum(["true", "false"]).optional(),
      limit: z.coerce.number().int().min(1).max(500).default(50),
    }),
  },
  responses: ok(z.array(IdentitySchema), 400, 401, 403),
});

export const deleteIdentity = removal(
  authed,
  "/api/v1/user-identities/{id}",
  "Remove an identity (its owner, a service or an admin)",
);
