import { AuthChannel, IdentityChannel, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, noContent, UuidParam } from "../../lib/openapi.ts";
import { MessageSchema } from "./schemas.ts";

const tags = ["Identities"];

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

export const requestVerification = createRoute({
  method: "post",
  path: "/api/v1/identity-verifications/request",
  tags,
  summary: "Send the caller a code proving they hold a mobile number",
  security: bearer,
  request: jsonBody(z.object({ phone: Phone, channel: z.enum(values(AuthChannel)).default("sms") })),
  responses: { 200: json(MessageSchema), ...errors(400, 401, 403, 409, 429, 502) },
});

export const verifyIdentity = createRoute({
  method: "post",
  path: "/api/v1/identity-verifications/verify",
  tags,
  summary: "Check the code: the number becomes the caller's verified identity and they get IDENTITY_VERIFIED",
  security: bearer,
  request: jsonBody(
    z.object({
      phone: Phone,
      code: z
        .string()
        .trim()
        .regex(/^\d{6}$/, "must be the 6-digit code"),
    }),
  ),
  responses: { 200: json(IdentitySchema), ...errors(400, 401, 403, 409, 429) },
});

export const createIdentity = createRoute({
  method: "post",
  path: "/api/v1/user-identities",
  tags,
  summary: "Add an identity: users for themselves (unverified); services and admins for anyone, verified or not",
  security: bearer,
  request: jsonBody(
    z.object({
      channel: z.enum(values(IdentityChannel)).default("sms"),
      value: Phone,
      userUuid: z.uuid().optional(),
      verified: z.boolean().optional(),
    }),
  ),
  responses: { 201: json(IdentitySchema, "Created"), ...errors(400, 401, 403, 404, 409) },
});

export const listIdentities = createRoute({
  method: "get",
  path: "/api/v1/user-identities",
  tags,
  summary: "Find identities (a user sees their own; services and admins anyone's)",
  security: bearer,
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
  responses: { 200: json(z.array(IdentitySchema)), ...errors(400, 401, 403) },
});

export const deleteIdentity = createRoute({
  method: "delete",
  path: "/api/v1/user-identities/{id}",
  tags,
  summary: "Remove an identity (its owner, a service or an admin)",
  security: bearer,
  request: { params: UuidParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});
