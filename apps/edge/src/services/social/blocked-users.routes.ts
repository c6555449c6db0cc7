import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, noContent, UuidParam } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../../lib/profiles.ts";

const tags = ["Blocked users"];

const BlockSchema = z
  .object({ id: z.uuid(), blockedUuid: z.uuid(), createdAt: z.string(), profile: PublicProfileSchema.nullable() })
  .openapi("BlockedUser");

export const block = createRoute({
  method: "post",
  path: "/blocked-users",
  tags,
  summary: "Block a user: it ends any friendship, invitation and follow between you, and stops new ones",
  security: bearer,
  request: jsonBody(z.object({ userUuid: z.uuid() })),
  responses: { 201: json(BlockSchema, "Created"), ...errors(400, 401, 403, 404, 409) },
});

export const blockedUsers = createRoute({
  method: "get",
  path: "/blocked-users",
  tags,
  summary: "The users the caller has blocked",
  security: bearer,
  responses: { 200: json(z.array(BlockSchema)), ...errors(401, 403) },
});

export const blockedUser = createRoute({
  method: "get",
  path: "/blocked-users/{id}",
  tags,
  summary: "Whether the caller has blocked user {id}",
  security: bearer,
  request: { params: UuidParam },
  responses: { 200: json(BlockSchema), ...errors(400, 401, 403, 404) },
});

export const unblock = createRoute({
  method: "delete",
  path: "/blocked-users/{id}",
  tags,
  summary: "Unblock user {id}",
  security: bearer,
  request: { params: UuidParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});
